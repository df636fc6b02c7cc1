package nodejs

// Error is a JavaScript exception as Node prints it: «TypeError: message».
type Error struct {
	Nombre  string // the constructor's name: TypeError, RangeError…
	Mensaje string
}

func (e *Error) Error() string { return e.Nombre + ": " + e.Mensaje }

// DeObjectPrototype tells what objeto[nombre] finds on an object literal without an own property
// nombre: the members every object inherits from Object.prototype. typeof is "function" for its
// methods and "object" for __proto__ (the prototype itself); ok is false for any other name, which
// reads undefined. Go maps have no such chain: this is for imitating a JavaScript program that
// forgot Object.hasOwn.
func DeObjectPrototype(nombre string) (typeof string, ok bool) {
	switch nombre {
	case "constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__",
		"__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "toLocaleString":
		return "function", true
	case "__proto__":
		return "object", true
	}
	return "", false
}

// NoIterable is the TypeError V8 throws when array destructuring (const [a, b] = v) meets a value
// of that typeof that cannot be iterated, named by its typeof as when v is not a plain variable.
func NoIterable(typeof string) *Error {
	return &Error{Nombre: "TypeError", Mensaje: typeof + " is not iterable (cannot read property Symbol(Symbol.iterator))"}
}
