package clase

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/altasegura"
	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/revisor"
)

// pocos are the scenarios of these tests: enough for every check to judge a correct client, few
// enough for a run of seconds.
func pocos(semilla uint64) []examen.Escenario {
	ids := []string{"sin-falla", "perdida", "rechazada", "503-retry-after", "422", "caida", "dos-intenciones", "mismo-cuerpo", "intermitente-1", "intermitente-2", "intermitente-3"}
	var l []examen.Escenario
	for _, e := range examen.Escenarios(semilla) {
		if slices.Contains(ids, e.ID) {
			l = append(l, e)
		}
	}
	return l
}

// clienteDe is one run of the course's client (pkg/altasegura) in-process: correct, or broken.
func clienteDe(tipo string) examen.Lanzador {
	c := &http.Client{Transport: &http.Transport{}}
	return func(ctx context.Context, pasarela string, e examen.Encargo) examen.Resultado {
		o := altasegura.Opciones{Nombre: e.Nombre, URL: e.URL, Pasarela: pasarela, Salida: io.Discard, Cliente: c}
		switch tipo {
		case "sin-llave":
			o.SinLlave = true
		case "sin-reintentos":
			o.Politica = reintento.PoliticaAlta()
			o.Politica.Intentos = 1
		}
		return examen.Resultado{Salida: altasegura.Correr(ctx, o)}
	}
}

// enMarcha is a class lab serving on loopback.
type enMarcha struct {
	*Clase
	mat               matricula.Almacen
	pizarra, pasarela string
	creds             map[string]string
}

func arrancar(t *testing.T, nombres ...string) *enMarcha {
	t.Helper()
	ctx := context.Background()
	mat, err := datosclase.Abrir(ctx, filepath.Join(t.TempDir(), "clase.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mat.Cerrar() })
	creds, err := mat.Agregar(ctx, nombres)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Nueva(Opciones{Matricula: mat, Token: "token-del-profesor", Log: zerolog.Nop(), Escenarios: pocos, Limite: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Cerrar)
	st := httptest.NewServer(c.Sitio(http.NotFoundHandler()))
	t.Cleanup(st.Close)
	e := &enMarcha{Clase: c, mat: mat, pizarra: st.URL, pasarela: c.Pasarela(), creds: map[string]string{}}
	for _, cr := range creds {
		e.creds[cr.Alumno] = cr.Secreto
	}
	return e
}

func (e *enMarcha) calificar(t *testing.T, alumno, tipo string, semilla uint64) (map[string]string, error) {
	t.Helper()
	v, err := examen.CorrerEnClase(context.Background(), examen.OpcionesClase{URL: e.pizarra, Credencial: e.creds[alumno],
		Orden: []string{tipo}, Semilla: &semilla, Lanzador: clienteDe(tipo), PuertosLibres: true})
	if err != nil {
		return nil, err
	}
	var inf struct {
		Comprobaciones []examen.Comprobacion `json:"comprobaciones"`
	}
	if err := json.Unmarshal(v.JSON, &inf); err != nil {
		t.Fatal(err)
	}
	return estadosDe(inf.Comprobaciones), nil
}

func estadosDe(cs []examen.Comprobacion) map[string]string {
	m := map[string]string{}
	for _, c := range cs {
		e := c.Estado
		if e == "" {
			e = map[bool]string{true: examen.EstadoPaso, false: examen.EstadoFallo}[c.Paso]
		}
		m[c.ID] = e
	}
	return m
}

func aSolas(t *testing.T, tipo string, semilla uint64) map[string]string {
	t.Helper()
	inf, err := examen.Correr(context.Background(), examen.Opciones{Orden: []string{tipo}, Semilla: semilla, PuertosLibres: true,
		Lanzador: clienteDe(tipo), Escenarios: pocos(semilla), Limite: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return estadosDe(inf.Comprobaciones)
}

func igual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Three students grade at once — one correct client, two broken — while a fourth floods the
// class's gateway with registrations of nobody's and of runs it made up, and knocks on a revisor
// directly: each verdict is the one the same client gets graded alone with the same seed, the
// store holds exactly the three gradings, under the right names, with the exit code marked as
// the student's, and nothing the hostile student sent was judged.
func TestClaseCalificaComoASolas(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("califica tres clientes en clase y a solas; se salta con -short")
	}
	e := arrancar(t, "Ana", "Luis", "Eva", "Hostil")
	alumnos := map[string]string{"Ana": "correcto", "Luis": "sin-llave", "Eva": "sin-reintentos"}
	const semilla = 5

	parar := make(chan struct{})
	var hostiles atomic.Int64
	var inundacion sync.WaitGroup
	for range 4 {
		inundacion.Add(1)
		go func() {
			defer inundacion.Done()
			c := &http.Client{Timeout: 5 * time.Second}
			cuerpos := []string{`{"nombre":"sin-falla-x","url":"http://127.0.0.1:18081/codigo/200?calificacion=inventada"}`, `{"nombre":"x","url":"http://x"}`, `no es json`}
			for i := 0; ; i++ {
				select {
				case <-parar:
					return
				default:
				}
				req, _ := http.NewRequest(http.MethodPost, e.pasarela+"/servicios", strings.NewReader(cuerpos[i%len(cuerpos)]))
				req.Header.Set("Authorization", "Bearer admin")
				req.Header.Set("Content-Type", "application/json")
				if resp, err := c.Do(req); err == nil {
					io.Copy(io.Discard, resp.Body) //nolint:errcheck // a flood
					resp.Body.Close()
					hostiles.Add(1)
				}
			}
		}()
	}
	// A revisor of the class answers only its gateway.
	resp, err := http.Post(e.mj.Revisor+"/servicios", "application/json", strings.NewReader(`{"nombre":"a","url":"http://a"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("el revisor de la clase respondió %d a quien no es su pasarela; se esperaba 403", resp.StatusCode)
	}

	var mu sync.Mutex
	enClase := map[string]map[string]string{}
	var todos sync.WaitGroup
	for a, tipo := range alumnos {
		todos.Add(1)
		go func() {
			defer todos.Done()
			v, err := e.calificar(t, a, tipo, semilla)
			if err != nil {
				t.Errorf("%s: %v", a, err)
				return
			}
			mu.Lock()
			enClase[a] = v
			mu.Unlock()
		}()
	}
	todos.Wait()
	close(parar)
	inundacion.Wait()
	t.Logf("en clase: %v; la inundación mandó %d peticiones", enClase, hostiles.Load())
	if hostiles.Load() == 0 {
		t.Fatal("la inundación no llegó a la pasarela")
	}
	// Sent without a grading's pase, all of it stopped at the gateway's door.
	if n := e.mj.Rechazadas(); n < hostiles.Load() {
		t.Errorf("la puerta rechazó %d de %d peticiones sin pase", n, hostiles.Load())
	}
	for a, tipo := range alumnos {
		if solo := aSolas(t, tipo, semilla); !igual(enClase[a], solo) {
			t.Errorf("%s (%s): en clase %v, a solas %v", a, tipo, enClase[a], solo)
		}
	}
	if v := enClase["Ana"]; v["una-escritura"] != examen.EstadoPaso || v["misma-llave"] != examen.EstadoPaso {
		t.Errorf("el cliente correcto no pasó en clase: %v", v)
	}

	ultimas, err := e.mat.Ultimas(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ultimas) != 3 {
		t.Fatalf("la clase anotó %d calificaciones; se esperaban 3: %v", len(ultimas), ultimas)
	}
	for a := range alumnos {
		cal, ok := ultimas[a]
		if !ok {
			t.Errorf("no hay calificación de %s", a)
			continue
		}
		for _, v := range cal.Comprobaciones {
			if v.Estado != enClase[a][v.ID] {
				t.Errorf("%s: la pizarra anotó %s=%s, el alumno vio %s", a, v.ID, v.Estado, enClase[a][v.ID])
			}
			if v.Autodeclarada != (v.ID == "codigo-de-salida") {
				t.Errorf("%s: %s autodeclarada=%v", a, v.ID, v.Autodeclarada)
			}
		}
	}
}

// A student's credential opens only that student's runs: an unknown one is 401, another's run
// reads as one that does not exist, a revoked credential stops working at once, and no route of
// the class takes a verdict.
func TestClaseCredenciales(t *testing.T) {
	t.Parallel()
	e := arrancar(t, "Ana", "Luis")
	pedir := func(metodo, ruta, cred, cuerpo string) (int, string) {
		req, _ := http.NewRequest(metodo, e.pizarra+ruta, strings.NewReader(cuerpo))
		if cred != "" {
			req.Header.Set("Authorization", "Bearer "+cred)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	codigo, cuerpo := pedir(http.MethodPost, examen.RutaCorridas, e.creds["Ana"], `{"orden":"x"}`)
	if codigo != http.StatusCreated {
		t.Fatalf("Ana no pudo empezar: %d %s", codigo, cuerpo)
	}
	var cr examen.CorridaDeClase
	if err := json.Unmarshal([]byte(cuerpo), &cr); err != nil {
		t.Fatal(err)
	}
	if len(cr.Grupos) == 0 || cr.Pasarela != e.pasarela {
		t.Errorf("la calificación no dice la pasarela (%q, se esperaba %q) o sus altas (%d grupos)", cr.Pasarela, e.pasarela, len(cr.Grupos))
	}
	veredicto := strings.Replace(examen.RutaVeredicto, "{id}", cr.ID, 1)
	for _, c := range []struct {
		que, metodo, ruta, cred, cuerpo string
		codigo                          int
	}{
		{"sin credencial", http.MethodPost, examen.RutaCorridas, "", `{}`, http.StatusUnauthorized},
		{"una inventada", http.MethodPost, examen.RutaCorridas, "cl-inventada", `{}`, http.StatusUnauthorized},
		{"el token de la clase no es de alumno", http.MethodPost, examen.RutaCorridas, "token-del-profesor", `{}`, http.StatusUnauthorized},
		{"Luis juzga la de Ana", http.MethodPost, veredicto, e.creds["Luis"], ``, http.StatusNotFound},
		{"Luis avisa en la de Ana", http.MethodPost, strings.Replace(examen.RutaTermina, "{id}", cr.ID, 1), e.creds["Luis"], `{"grupo":0,"vez":0,"resultado":{"salida":0}}`, http.StatusNotFound},
		{"un alta que no es suya", http.MethodPost, strings.Replace(examen.RutaEmpieza, "{id}", cr.ID, 1), e.creds["Ana"], `{"grupo":99,"vez":0}`, http.StatusBadRequest},
		{"un veredicto de fuera", http.MethodPost, "/clase/resultados", e.creds["Ana"], `{"alumno":"Ana","comprobaciones":[{"id":"una-escritura","paso":true}]}`, http.StatusNotFound},
		{"la lista, sin el token", http.MethodPost, pizarra.RutaLista, e.creds["Ana"], "Intrusa", http.StatusUnauthorized},
	} {
		if codigo, cuerpo := pedir(c.metodo, c.ruta, c.cred, c.cuerpo); codigo != c.codigo {
			t.Errorf("%s: %d %s; se esperaba %d", c.que, codigo, cuerpo, c.codigo)
		}
	}
	// Judged without running anything: nothing was seen, so nothing passes, and every intent
	// reads as not run by the student's machine.
	codigo, cuerpo = pedir(http.MethodPost, veredicto, e.creds["Ana"], ``)
	if codigo != http.StatusOK {
		t.Fatalf("el veredicto: %d %s", codigo, cuerpo)
	}
	var v examen.VeredictoDeClase
	json.Unmarshal([]byte(cuerpo), &v) //nolint:errcheck // checked below
	if v.Codigo == 0 || strings.Contains(v.Texto, "ok   ") || !strings.Contains(v.Texto, "no lo corrió") {
		t.Errorf("una calificación sin nada corrido:\n%s", v.Texto)
	}
	// Asked again (an answer lost on the way), the same verdict; Luis still cannot read it.
	if otra, otro := pedir(http.MethodPost, veredicto, e.creds["Ana"], ``); otra != http.StatusOK || otro != cuerpo {
		t.Errorf("pedir el veredicto dos veces: %d %s; se esperaba el mismo 200", otra, otro)
	}
	if codigo, _ := pedir(http.MethodPost, veredicto, e.creds["Luis"], ``); codigo != http.StatusNotFound {
		t.Errorf("Luis pide el veredicto de Ana: %d; se esperaba 404", codigo)
	}
	// Revoked: at once.
	if err := e.mat.Revocar(context.Background(), "Luis"); err != nil {
		t.Fatal(err)
	}
	if codigo, _ := pedir(http.MethodPost, examen.RutaCorridas, e.creds["Luis"], `{}`); codigo != http.StatusUnauthorized {
		t.Errorf("una credencial revocada: %d; se esperaba 401", codigo)
	}
	// The instructor adds a student with the lab's token.
	req, _ := http.NewRequest(http.MethodPost, e.pizarra+pizarra.RutaLista, bytes.NewReader([]byte("Óscar\n")))
	req.Header.Set("Authorization", "Bearer token-del-profesor")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var nuevas []matricula.Credencial
	json.NewDecoder(resp.Body).Decode(&nuevas) //nolint:errcheck // checked below
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || len(nuevas) != 1 || nuevas[0].Alumno != "Óscar" || nuevas[0].Secreto == "" {
		t.Errorf("agregar con el token: %d %v", resp.StatusCode, nuevas)
	}
}

// A student who gives --clase the wrong URL hears it at once, with the URL to use: a port where
// nobody listens, the class gateway's instead of the board's, something that is no class lab. The
// board's own URL (…/clase) is the lab's.
func TestClaseURLEquivocada(t *testing.T) {
	t.Parallel()
	e := arrancar(t, "Ana")
	libre := prueba.PuertosLibres(t, 1)[0]
	otro := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(otro.Close)
	for _, c := range []struct{ que, url, dice string }{
		{"un puerto sin nadie", "http://127.0.0.1:" + strconv.Itoa(libre), "no llego a la clase"},
		{"la pasarela de la clase", e.pasarela, "no responde el laboratorio de la clase"},
		{"otro programa", otro.URL, "no responde el laboratorio de la clase"},
	} {
		inicio := time.Now()
		_, err := examen.CorrerEnClase(context.Background(), examen.OpcionesClase{URL: c.url, Credencial: e.creds["Ana"],
			Orden: []string{"correcto"}, Lanzador: clienteDe("correcto"), PuertosLibres: true})
		if err == nil || !strings.Contains(err.Error(), c.dice) || !strings.Contains(err.Error(), "--clase lleva") ||
			!strings.Contains(err.Error(), ":18084") {
			t.Errorf("%s: %v; se esperaba «%s» y qué URL lleva --clase", c.que, err, c.dice)
		}
		if d := time.Since(inicio); d > 3*time.Second {
			t.Errorf("%s: lo dijo a los %v; se esperaba antes de 3 s", c.que, d)
		}
	}
	if testing.Short() {
		t.Skip("la calificación entera por la URL de la pizarra (unos 5 s) corre sin -short")
	}
	semilla := uint64(3)
	v, err := examen.CorrerEnClase(context.Background(), examen.OpcionesClase{URL: e.pizarra + "/clase", Credencial: e.creds["Ana"],
		Orden: []string{"correcto"}, Semilla: &semilla, Lanzador: clienteDe("correcto"), PuertosLibres: true})
	if err != nil || v.Codigo != 0 {
		t.Errorf("con la URL de la pizarra: %v %+v", err, v)
	}
}

// A new grading of a student starts with nothing of the team's earlier ones: no service and no
// key left in the revisors' store, so the same client with the same seed meets what it would meet
// alone.
func TestUnaCalificacionNuevaEmpiezaVacia(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("dos calificaciones enteras, con sus esperas de reloj (unos 10 s)")
	}
	e := arrancar(t, "Ana")
	if v, err := e.calificar(t, "Ana", "correcto", 5); err != nil || v["una-escritura"] != examen.EstadoPaso {
		t.Fatalf("primera calificación: %v %v", v, err)
	}
	ctx := context.Background()
	if n, err := e.o.Servicios.CuantasLlaves(ctx); err != nil || n == 0 {
		t.Fatalf("tras calificar, el almacén tiene %d llaves (%v); se esperaban las del alumno", n, err)
	}
	var primera sync.Once
	var llaves, servicios int
	correcto := clienteDe("correcto")
	semilla := uint64(5)
	_, err := examen.CorrerEnClase(ctx, examen.OpcionesClase{URL: e.pizarra, Credencial: e.creds["Ana"], Orden: []string{"correcto"},
		Semilla: &semilla, PuertosLibres: true,
		Lanzador: func(ctx context.Context, pasarela string, en examen.Encargo) examen.Resultado {
			primera.Do(func() {
				llaves, _ = e.o.Servicios.CuantasLlaves(ctx)
				for _, base := range []string{"a", "b"} {
					l, _ := e.o.Servicios.Listar(ctx, base+revisor.SeparadorClase+Equipo("Ana"))
					servicios += len(l)
				}
			})
			return correcto(ctx, pasarela, en)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if llaves != 0 || servicios != 0 {
		t.Errorf("la segunda calificación empezó con %d llaves y %d servicios del equipo; se esperaba nada", llaves, servicios)
	}
}
