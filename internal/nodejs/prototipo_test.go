package nodejs

import "testing"

// What `({})[nombre]` reads in Node (checked with Node 20 and 24): Object.prototype's twelve
// members, and nothing for anything else, own-looking names of other prototypes included.
func TestDeObjectPrototype(t *testing.T) {
	t.Parallel()
	casos := map[string]string{
		"constructor": "function", "__defineGetter__": "function", "__defineSetter__": "function",
		"hasOwnProperty": "function", "__lookupGetter__": "function", "__lookupSetter__": "function",
		"isPrototypeOf": "function", "propertyIsEnumerable": "function", "toString": "function",
		"valueOf": "function", "toLocaleString": "function", "__proto__": "object",
		"prototype": "", "length": "", "name": "", "Constructor": "", "constructor ": "", "": "", "call": "",
	}
	for nombre, want := range casos {
		got, ok := DeObjectPrototype(nombre)
		if got != want || ok != (want != "") {
			t.Errorf("DeObjectPrototype(%q) = %q, %v; se esperaba %q", nombre, got, ok, want)
		}
	}
	if got := NoIterable("function").Error(); got != "TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))" {
		t.Errorf("NoIterable: %q", got)
	}
}
