//go:build unix

package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cursohttp/internal/prueba"
	"cursohttp/internal/prueba/pgtest"
	"cursohttp/pkg/altasegura"
)

// pedir sends one request with a credential and returns the status, the Location and the body.
func pedir(t *testing.T, metodo, url, credencial, llave, cuerpo string) (int, string, string) {
	t.Helper()
	var b io.Reader
	if cuerpo != "" {
		b = strings.NewReader(cuerpo)
	}
	req, _ := http.NewRequest(metodo, url, b)
	req.Header.Set("Authorization", "Bearer "+credencial)
	if cuerpo != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if llave != "" {
		req.Header.Set("Idempotency-Key", llave)
	}
	res, err := sinReuso.Do(req)
	if err != nil {
		t.Errorf("%s %s: %v", metodo, url, err)
		return 0, "", ""
	}
	defer res.Body.Close()
	leido, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Location"), string(leido)
}

// TestDosRevisoresUnPostgres: two revisors on one PostgreSQL behind one gateway keep every guarantee
// one revisor gives. 120 simultaneous registrations with one key, spread over the gateway and both
// revisors, leave one service, and every answer names its Location or says the intent is in
// progress; a credential's rate limit is one across both; maintenance switched on one is seen by
// the other; and a check runs once, even when the revisor that accepted it is killed before
// running it (the other inherits it).
func TestDosRevisoresUnPostgres(t *testing.T) {
	largo(t)
	t.Parallel()
	// The service the checks probe, counting each probe.
	var sondeos atomic.Int64
	servicio := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sondeos.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer servicio.Close()
	permitido := "127.0.0.1:18081," + strings.TrimPrefix(servicio.URL, "http://")

	donde := pgtest.Base(t)
	uno := arrancar(t, "revisor", "--datos", donde, "--destinos", permitido)
	otro := arrancar(t, "revisor", "--datos", donde, "--destinos", permitido)
	pas := arrancar(t, "pasarela", "--destino", uno.url()+","+otro.url())

	// 120 at once, one key, one body.
	cuerpo := string(altasegura.Cuerpo("unica", URLServicio))
	destinos := []string{pas.url(), uno.url(), otro.url()}
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		creados   = map[string]int{}
		enCurso   int
		otros     []string
		salida    = make(chan struct{})
		locations = map[string]bool{}
	)
	for i := range 120 {
		wg.Go(func() {
			<-salida
			codigo, location, texto := pedir(t, "POST", destinos[i%3]+"/servicios", "escritura-a", "alta-unica-1", cuerpo)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case codigo == 201:
				creados[destinos[i%3]]++
				locations[location] = true
			case codigo == 409 && strings.Contains(texto, `"type":"https://revisor.example/problemas/llave-en-curso"`):
				enCurso++
			default:
				otros = append(otros, texto)
			}
		})
	}
	close(salida)
	wg.Wait()
	if len(otros) > 0 || len(locations) != 1 {
		t.Fatalf("120 altas con una llave: %d respuestas 201 con %d Location distintas %v, %d en curso, y otras: %q",
			len(creados), len(locations), locations, enCurso, otros)
	}
	var location string
	for l := range locations {
		location = l
	}
	// Once the original finished, every copy replays it.
	for _, d := range destinos {
		if codigo, l, _ := pedir(t, "POST", d+"/servicios", "escritura-a", "alta-unica-1", cuerpo); codigo != 201 || l != location {
			t.Errorf("repetir por %s: %d %s; se esperaba 201 %s", d, codigo, l, location)
		}
	}
	if n := nombresEnElRevisor(t, otro.url())["unica"]; n != 1 {
		t.Errorf("unica está %d veces", n)
	}
	t.Logf("120 altas simultáneas con una llave: 201 %v con %s, %d en curso", creados, location, enCurso)

	// One window per credential across both revisors: 3 checks, then 429 on either.
	alta := `{"nombre":"sondeado","url":"` + servicio.URL + `/"}`
	codigo, sondeado, texto := pedir(t, "POST", uno.url()+"/servicios", "escritura-a", "", alta)
	if codigo != 201 {
		t.Fatalf("alta de sondeado: %d %s", codigo, texto)
	}
	var aceptadas []string
	for i, r := range []*proceso{uno, otro, uno, otro} {
		codigo, revision, texto := pedir(t, "POST", r.url()+sondeado+"/revisiones", "escritura-a", "", "")
		if quiere := map[bool]int{true: 202, false: 429}[i < 3]; codigo != quiere {
			t.Errorf("revisión %d, alternando revisores: %d %s; se esperaba %d", i+1, codigo, texto, quiere)
		}
		if codigo == 202 {
			aceptadas = append(aceptadas, revision)
		}
	}
	// Each accepted check ran (terminada, as either revisor sees it); then each sounded the service once.
	for _, revision := range aceptadas {
		prueba.Esperar(t, "la revisión "+revision+" termina", func() bool {
			_, _, estado := pedir(t, "GET", otro.url()+revision, "admin", "", "")
			return strings.Contains(estado, `"estado":"terminada"`)
		})
	}
	if n := sondeos.Load(); n != 3 {
		t.Errorf("3 revisiones sondearon el servicio %d veces", n)
	}

	// A check accepted by a revisor killed before it ran (it waits a second in the queue): the
	// other inherits it and runs it, once. Admin has a window of its own.
	codigo, revision, texto := pedir(t, "POST", uno.url()+sondeado+"/revisiones", "admin", "", "")
	if codigo != 202 {
		t.Fatalf("revisión de admin: %d %s", codigo, texto)
	}
	uno.matar()
	antes := sondeos.Load()
	prueba.Esperar(t, "el otro revisor hace la revisión del muerto", func() bool {
		_, _, estado := pedir(t, "GET", otro.url()+revision, "admin", "", "")
		return strings.Contains(estado, `"estado":"terminada"`)
	})
	if n := sondeos.Load() - antes; n != 1 {
		t.Errorf("la revisión heredada sondeó %d veces", n)
	}

	// Maintenance switched through one revisor is seen by the other at once.
	uno = arrancar(t, "revisor", "--datos", donde, "--destinos", permitido)
	if codigo, _, texto := pedir(t, "PUT", uno.url()+"/mantenimiento", "admin", "", `{"activo":true}`); codigo != 204 {
		t.Fatalf("PUT /mantenimiento: %d %s", codigo, texto)
	}
	if codigo, _, _ := pedir(t, "GET", otro.url()+"/servicios", "lectura-a", "", ""); codigo != 503 {
		t.Errorf("el otro revisor, con el mantenimiento encendido: %d", codigo)
	}
	pedir(t, "PUT", otro.url()+"/mantenimiento", "admin", "", `{"activo":false}`)
	if codigo, _, _ := pedir(t, "GET", uno.url()+"/servicios", "lectura-a", "", ""); codigo != 200 {
		t.Errorf("apagado por el otro: %d", codigo)
	}
}
