package panel

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"cursohttp/pkg/matricula"
)

// almacenDePrueba is the class store the board's tests run on. It is the only place that says
// which: the tests reach the store through matricula.Almacen alone (plus the wrappers below, which
// wrap any store), so the real one (matricula.Abrir on a file in t.TempDir()) can take its place.
func almacenDePrueba(t testing.TB) matricula.Almacen {
	t.Helper()
	a := &almacenEnMemoria{historias: map[string][]matricula.Calificacion{}, secretos: map[string]string{}}
	t.Cleanup(func() { a.Cerrar() })
	return a
}

// almacenEnMemoria keeps a class in memory, with the bounds and errors matricula.Almacen promises.
type almacenEnMemoria struct {
	mu        sync.Mutex
	alumnos   []matricula.Alumno
	secretos  map[string]string                   // nombre → the live credential
	historias map[string][]matricula.Calificacion // nombre → its gradings, the oldest first
}

func (a *almacenEnMemoria) esta(nombre string) int {
	return slices.IndexFunc(a.alumnos, func(x matricula.Alumno) bool { return x.Nombre == nombre })
}

func secreto() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func (a *almacenEnMemoria) Agregar(_ context.Context, nombres []string) ([]matricula.Credencial, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	limpios := make([]string, len(nombres))
	for i, n := range nombres {
		n = strings.Join(strings.Fields(n), " ")
		switch {
		case n == "":
			return nil, &matricula.NombreInvalido{Nombre: n, Motivo: "está vacío"}
		case utf8.RuneCountInString(n) > matricula.TopeNombre:
			return nil, &matricula.NombreInvalido{Nombre: n, Motivo: "es demasiado largo"}
		case strings.ContainsFunc(n, unicode.IsControl):
			return nil, &matricula.NombreInvalido{Nombre: n, Motivo: "tiene caracteres de control"}
		}
		igual := func(y string) bool { return strings.EqualFold(y, n) }
		if slices.ContainsFunc(a.alumnos, func(x matricula.Alumno) bool { return igual(x.Nombre) }) || slices.ContainsFunc(limpios[:i], igual) {
			return nil, matricula.ErrYaEsta
		}
		limpios[i] = n
	}
	if len(a.alumnos)+len(limpios) > matricula.TopeAlumnos {
		return nil, matricula.ErrClaseLlena
	}
	var cs []matricula.Credencial
	for _, n := range limpios {
		s := secreto()
		a.alumnos = append(a.alumnos, matricula.Alumno{Nombre: n})
		a.secretos[n] = s
		cs = append(cs, matricula.Credencial{Alumno: n, Secreto: s})
	}
	return cs, nil
}

func (a *almacenEnMemoria) Quitar(_ context.Context, nombre string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.esta(nombre)
	if i < 0 {
		return matricula.ErrNoEsta
	}
	a.alumnos = slices.Delete(a.alumnos, i, i+1)
	delete(a.secretos, nombre)
	delete(a.historias, nombre)
	return nil
}

func (a *almacenEnMemoria) Revocar(_ context.Context, nombre string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.esta(nombre)
	if i < 0 {
		return matricula.ErrNoEsta
	}
	a.alumnos[i].Revocada = true
	delete(a.secretos, nombre)
	return nil
}

func (a *almacenEnMemoria) Renovar(_ context.Context, nombre string) (matricula.Credencial, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	i := a.esta(nombre)
	if i < 0 {
		return matricula.Credencial{}, matricula.ErrNoEsta
	}
	a.alumnos[i].Revocada = false
	a.secretos[nombre] = secreto()
	return matricula.Credencial{Alumno: nombre, Secreto: a.secretos[nombre]}, nil
}

func (a *almacenEnMemoria) Rotar(_ context.Context) ([]matricula.Credencial, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var cs []matricula.Credencial
	for i, x := range a.alumnos {
		a.alumnos[i].Revocada = false
		a.secretos[x.Nombre] = secreto()
		cs = append(cs, matricula.Credencial{Alumno: x.Nombre, Secreto: a.secretos[x.Nombre]})
	}
	return cs, nil
}

func (a *almacenEnMemoria) Alumnos(_ context.Context) ([]matricula.Alumno, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.alumnos), nil
}

func (a *almacenEnMemoria) Identificar(_ context.Context, s string) (string, bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for n, x := range a.secretos {
		if x == s {
			return n, true, nil
		}
	}
	return "", false, nil
}

func (a *almacenEnMemoria) Anotar(_ context.Context, c matricula.Calificacion) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.esta(c.Alumno) < 0 {
		return matricula.ErrNoEsta
	}
	if len(c.Comprobaciones) > matricula.TopeVeredictos || len(c.Informe) > matricula.TopeInforme ||
		slices.ContainsFunc(c.Comprobaciones, func(v matricula.Veredicto) bool { return len(v.ID) > matricula.TopeIDVeredicto }) {
		return matricula.ErrDemasiado
	}
	c.Comprobaciones = slices.Clone(c.Comprobaciones)
	h := append(a.historias[c.Alumno], c)
	if len(h) > matricula.TopeHistorial {
		h = slices.Clone(h[len(h)-matricula.TopeHistorial:])
	}
	a.historias[c.Alumno] = h
	return nil
}

func (a *almacenEnMemoria) Ultimas(_ context.Context) (map[string]matricula.Calificacion, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	res := map[string]matricula.Calificacion{}
	for n, h := range a.historias {
		if len(h) > 0 {
			res[n] = h[len(h)-1]
		}
	}
	return res, nil
}

func (a *almacenEnMemoria) Historial(_ context.Context, nombre string) ([]matricula.Calificacion, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.esta(nombre) < 0 {
		return nil, matricula.ErrNoEsta
	}
	h := slices.Clone(a.historias[nombre])
	slices.Reverse(h)
	return h, nil
}

func (a *almacenEnMemoria) Limpiar(_ context.Context, nombre string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if nombre == "" {
		clear(a.historias)
		return nil
	}
	if a.esta(nombre) < 0 {
		return matricula.ErrNoEsta
	}
	delete(a.historias, nombre)
	return nil
}

func (a *almacenEnMemoria) Cerrar() error { return nil }

// almacenContado counts the calls made to the store it wraps: the board asks it a fixed number of
// times per request, whatever the class's size.
type almacenContado struct {
	matricula.Almacen
	mu       sync.Mutex
	llamadas map[string]int
}

func contarLlamadas(a matricula.Almacen) *almacenContado {
	return &almacenContado{Almacen: a, llamadas: map[string]int{}}
}

func (a *almacenContado) contar(metodo string) {
	a.mu.Lock()
	a.llamadas[metodo]++
	a.mu.Unlock()
}

// tomar returns the counts so far and starts again from zero.
func (a *almacenContado) tomar() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	l := a.llamadas
	a.llamadas = map[string]int{}
	return l
}

func (a *almacenContado) Alumnos(ctx context.Context) ([]matricula.Alumno, error) {
	a.contar("Alumnos")
	return a.Almacen.Alumnos(ctx)
}

func (a *almacenContado) Ultimas(ctx context.Context) (map[string]matricula.Calificacion, error) {
	a.contar("Ultimas")
	return a.Almacen.Ultimas(ctx)
}

func (a *almacenContado) Historial(ctx context.Context, nombre string) ([]matricula.Calificacion, error) {
	a.contar("Historial")
	return a.Almacen.Historial(ctx, nombre)
}
