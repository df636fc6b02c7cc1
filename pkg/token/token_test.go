package token

import (
	"encoding/base64"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// A new token is 128 random bits in base64url: 22 characters, never the same twice.
func TestNuevo(t *testing.T) {
	t.Parallel()
	vistos := map[string]bool{}
	for range 1000 {
		v := Nuevo()
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil || len(b) != 16 || len(v) != 22 {
			t.Fatalf("%q: %v (%d bytes)", v, err, len(b))
		}
		if vistos[v] {
			t.Fatalf("%q dos veces", v)
		}
		vistos[v] = true
	}
}

// The flag wins, then the environment, then a new one, which the server must say.
func TestElegir(t *testing.T) {
	t.Parallel()
	entorno := func(v string) (string, bool) {
		if v == Variable {
			return " del-entorno ", true
		}
		return "", false
	}
	if v, gen := Elegir("de-la-bandera", entorno, Variable); v != "de-la-bandera" || gen {
		t.Errorf("bandera: %q %v", v, gen)
	}
	if v, gen := Elegir("", entorno, Variable); v != "del-entorno" || gen {
		t.Errorf("entorno: %q %v", v, gen)
	}
	if v, gen := Elegir("", entorno, "CURSOHTTP_OTRO"); len(v) != 22 || !gen {
		t.Errorf("sin nada: %q %v", v, gen)
	}
	if v, gen := Elegir("  ", nil, Variable); len(v) != 22 || !gen {
		t.Errorf("bandera en blanco: %q %v", v, gen)
	}
	if v, err := Buscar("", "", entorno); v != "del-entorno" || err != nil {
		t.Errorf("Buscar: %q %v", v, err)
	}
	if v, err := Buscar("", "", nil); v != "" || err != nil {
		t.Errorf("Buscar sin nada: %q %v", v, err)
	}
}

func TestIguales(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		ok   bool
	}{
		{"abc", "abc", true}, {"abc", "abd", false}, {"abc", "abcd", false}, {"", "", false}, {"", "x", false}, {"x", "", false},
	} {
		if Iguales(c.a, c.b) != c.ok {
			t.Errorf("Iguales(%q, %q) = %v", c.a, c.b, !c.ok)
		}
	}
}

// What a browser sends from the panel's own page passes; what it sends from any other page, or a
// request that names another origin, does not, whatever token it carries.
func TestComprobar(t *testing.T) {
	t.Parallel()
	p := Puerta{Instructor: "profe"}
	casos := []struct {
		nombre   string
		cabecera map[string]string
		nivel    Nivel
		codigo   int
		motivo   string
	}{
		{"curl con el token", map[string]string{"Authorization": "Bearer profe"}, Instructor, 0, ""},
		{"esquema en minúsculas", map[string]string{"Authorization": "bearer profe"}, Instructor, 0, ""},
		{"la propia página", map[string]string{"Authorization": "Bearer profe", "Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:18084"}, Instructor, 0, ""},
		{"sin token", nil, Instructor, 401, MotivoFalta},
		{"otro token", map[string]string{"Authorization": "Bearer otro"}, Instructor, 401, MotivoMalo},
		{"Basic", map[string]string{"Authorization": "Basic profe"}, Instructor, 401, MotivoFalta},
		{"otro sitio con el token", map[string]string{"Authorization": "Bearer profe", "Sec-Fetch-Site": "cross-site"}, Instructor, 403, MotivoSitio},
		{"otro puerto de 127.0.0.1", map[string]string{"Authorization": "Bearer profe", "Sec-Fetch-Site": "same-site"}, Instructor, 403, MotivoSitio},
		{"otro origen", map[string]string{"Authorization": "Bearer profe", "Origin": "http://127.0.0.1:9999"}, Instructor, 403, MotivoSitio},
		{"origen null", map[string]string{"Authorization": "Bearer profe", "Origin": "null"}, Instructor, 403, MotivoSitio},
		{"otro sitio sin token", map[string]string{"Sec-Fetch-Site": "cross-site"}, Instructor, 403, MotivoSitio},
	}
	for _, c := range casos {
		r := httptest.NewRequest("POST", "http://127.0.0.1:18084/simular", nil)
		for k, v := range c.cabecera {
			r.Header.Set(k, v)
		}
		codigo, motivo := p.Comprobar(r, c.nivel)
		if codigo != c.codigo || motivo != c.motivo {
			t.Errorf("%s: %d %q, se esperaba %d %q", c.nombre, codigo, motivo, c.codigo, c.motivo)
		}
	}
	// An empty token never matches, not even a server's empty one.
	r := httptest.NewRequest("POST", "/", nil)
	r.Header.Set("Authorization", "Bearer ")
	if c, _ := (Puerta{}).Comprobar(r, Instructor); c != 401 {
		t.Errorf("token vacío: %d", c)
	}
}

// Issue 34, item 2: the token from a file, by flag or by environment, in its order.
func TestBuscarConArchivo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	archivo := filepath.Join(dir, "token")
	os.WriteFile(archivo, []byte("  del-archivo \nresto\n"), 0o600)
	vacio := filepath.Join(dir, "vacio")
	os.WriteFile(vacio, []byte("\n"), 0o600)
	grande := filepath.Join(dir, "grande")
	os.WriteFile(grande, make([]byte, 5000), 0o600)
	entorno := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	for _, c := range []struct {
		nombre, bandera, archivo string
		entorno                  map[string]string
		quiere                   string
		falla                    bool
	}{
		{"la bandera", "de-bandera", "", map[string]string{Variable: "x"}, "de-bandera", false},
		{"el archivo", "", archivo, map[string]string{Variable: "x"}, "del-archivo", false},
		{"las dos", "de-bandera", archivo, nil, "", true},
		{"la variable", "", "", map[string]string{Variable: "de-entorno", VariableArchivo: archivo}, "de-entorno", false},
		{"el archivo del entorno", "", "", map[string]string{VariableArchivo: archivo}, "del-archivo", false},
		{"nada", "", "", nil, "", false},
		{"un archivo vacío", "", vacio, nil, "", true},
		{"uno grande", "", grande, nil, "", true},
		{"uno que no está", "", filepath.Join(dir, "no"), nil, "", true},
	} {
		got, err := Buscar(c.bandera, c.archivo, entorno(c.entorno))
		if got != c.quiere || (err != nil) != c.falla {
			t.Errorf("%s: %q, %v", c.nombre, got, err)
		}
	}
}
