package tabladecision

import (
	"fmt"
	"testing"

	"cursohttp/pkg/curso"
)

// Lesson 7 exercise 2 (S17): with the 413 row, only the 413's reason changes; 418 and 451 still
// inherit the 400's, and a known type still wins over the new row.
func TestTablaCon413(t *testing.T) {
	t.Parallel()
	casos := []struct {
		codigo        int
		tipo          *string
		curso, con413 string // «accion reintenta - motivo», as S17 prints them
	}{
		{413, nil,
			"corregir no reintenta - el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)",
			"corregir no reintenta - el cuerpo pasa del tope: manda menos"},
		{418, nil,
			"corregir no reintenta - el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)",
			"corregir no reintenta - el 418 no está en la tabla: se trata como un 400 (la petición no se puede leer)"},
		{451, nil,
			"corregir no reintenta - el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)",
			"corregir no reintenta - el 451 no está en la tabla: se trata como un 400 (la petición no se puede leer)"},
		{413, ptr(curso.Problemas + "llave-en-curso"),
			"esperar reintenta - la petición original sigue en curso: espera y repite con la misma llave",
			"esperar reintenta - la petición original sigue en curso: espera y repite con la misma llave"},
		{413, ptr("about:blank"),
			"corregir no reintenta - el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)",
			"corregir no reintenta - el cuerpo pasa del tope: manda menos"},
	}
	linea := func(d Decision) string {
		r := "no reintenta"
		if d.Reintenta {
			r = "reintenta"
		}
		return fmt.Sprintf("%s %s - %s", d.Accion, r, d.Motivo)
	}
	for _, c := range casos {
		for _, v := range []struct {
			tabla Tabla
			want  string
		}{{Tabla{}, c.curso}, {Tabla{Con413: true}, c.con413}} {
			d, err := v.tabla.Decidir(c.codigo, nil, c.tipo)
			if err != nil || linea(d) != v.want {
				t.Errorf("%+v, %d: %q, %v; se esperaba %q", v.tabla, c.codigo, linea(d), err, v.want)
			}
		}
	}
}

// Lesson 7's broken table (S16): a type that names a member of Object.prototype throws V8's
// TypeError, as the course's copy without Object.hasOwn does; the real types, unknown types and no
// type decide as the course's table.
func TestTablaSinHasOwn(t *testing.T) {
	t.Parallel()
	rota := Tabla{SinHasOwn: true}
	for _, c := range []struct{ tipo, err string }{
		{"constructor", "TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"toString", "TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"hasOwnProperty", "TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"__proto__", "TypeError: object is not iterable (cannot read property Symbol(Symbol.iterator))"},
		{"valueOf", "TypeError: function is not iterable (cannot read property Symbol(Symbol.iterator))"},
	} {
		_, err := rota.Decidir(409, nil, &c.tipo)
		if err == nil || err.Error() != c.err {
			t.Errorf("type %s: %v; se esperaba %q", c.tipo, err, c.err)
		}
	}
	for _, tipo := range []*string{nil, ptr(curso.Problemas + "llave-en-curso"), ptr(curso.Problemas + "nombre-repetido"),
		ptr("https://otro.example/problemas/nuevo"), ptr("Constructor"), ptr("prototype"), ptr("length"), ptr("")} {
		for _, codigo := range []int{200, 409, 418, 503, 799} {
			d, err := rota.Decidir(codigo, ptr[int64](3), tipo)
			if want := Decidir(codigo, ptr[int64](3), tipo); err != nil || d.Accion != want.Accion || d.Motivo != want.Motivo {
				t.Errorf("%d %v: %+v, %v; la tabla del curso da %+v", codigo, tipo, d, err, want)
			}
		}
	}
}
