package montaje

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/rs/zerolog"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
)

func TestMain(m *testing.M) { os.Exit(prueba.SinFugas(m, (*testing.M).Run)) }

// pedir sends one request and returns its status and body.
func pedir(t *testing.T, cliente *http.Client, metodo, url, credencial, cuerpo string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(metodo, url, strings.NewReader(cuerpo))
	if err != nil {
		t.Fatal(err)
	}
	if credencial != "" {
		req.Header.Set("Authorization", "Bearer "+credencial)
	}
	if cuerpo != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cliente == nil {
		cliente = &http.Client{}
	}
	resp, err := cliente.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", metodo, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// contador counts the requests each server handled.
type contador struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *contador) envolver(servicio string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.n[servicio]++
		c.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (c *contador) de(servicio string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[servicio]
}

func TestLosTresEnPie(t *testing.T) {
	t.Parallel()
	m, err := Nuevo(Opciones{Revisores: 1, Banco: true, Pasarela: &Pasarela{}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Cerrar()
	if c, _ := pedir(t, nil, "GET", m.Banco+"/codigo/418", "", ""); c != 418 {
		t.Errorf("el laboratorio respondió %d a /codigo/418", c)
	}
	c, cuerpo := pedir(t, nil, "POST", m.Pasarela+"/servicios", "escritura-a", `{"nombre":"uno","url":"http://127.0.0.1:18081/codigo/200"}`)
	if c != 201 {
		t.Fatalf("alta por la pasarela: %d %s", c, cuerpo)
	}
	// The revisor (unsealed here) holds it and answers directly too.
	if c, cuerpo := pedir(t, nil, "GET", m.Revisor+"/servicios", "lectura-a", ""); c != 200 || !strings.Contains(cuerpo, `"uno"`) {
		t.Errorf("el revisor listó %d %s", c, cuerpo)
	}
	m.Cerrar()
	for _, u := range []string{m.Banco, m.Revisor, m.Pasarela} {
		if _, err := http.Get(u + "/"); err == nil {
			t.Errorf("%s sigue respondiendo tras Cerrar", u)
		}
	}
}

func TestSellado(t *testing.T) {
	t.Parallel()
	var directos atomic.Int32
	for _, conDirecto := range []bool{false, true} {
		o := Opciones{Revisores: 2, Pasarela: &Pasarela{}, Sellar: true}
		if conDirecto {
			o.Directo = func(w http.ResponseWriter, r *http.Request, sig http.Handler) {
				if r.Header.Get(CabeceraSello) != "" {
					t.Errorf("Directo recibió el sello")
				}
				directos.Add(1)
				sig.ServeHTTP(w, r)
			}
		}
		m, err := Nuevo(o)
		if err != nil {
			t.Fatal(err)
		}
		// Through the gateway, to each revisor in turn: both answer.
		for range 2 {
			if c, cuerpo := pedir(t, nil, "GET", m.Pasarela+"/servicios", "lectura-a", ""); c != 200 {
				t.Errorf("por la pasarela: %d %s", c, cuerpo)
			}
		}
		for _, rv := range m.Revisores {
			c, cuerpo := pedir(t, nil, "GET", rv+"/servicios", "lectura-a", "")
			switch {
			case !conDirecto && (c != 403 || !strings.Contains(cuerpo, "solo responde a su pasarela")):
				t.Errorf("directo a un revisor sellado: %d %q", c, cuerpo)
			case conDirecto && c != 200:
				t.Errorf("directo con Directo: %d %q", c, cuerpo)
			}
			// A stamp a client makes up is no stamp.
			req, _ := http.NewRequest("GET", rv+"/servicios", nil)
			req.Header.Set(CabeceraSello, "adivinado")
			req.Header.Set("Authorization", "Bearer lectura-a")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if !conDirecto && resp.StatusCode != 403 {
				t.Errorf("un sello inventado pasó: %d", resp.StatusCode)
			}
		}
		m.Cerrar()
	}
	if n := directos.Load(); n != 4 {
		t.Errorf("Directo vio %d peticiones; se esperaban 4", n)
	}
}

// claseDePrueba is a class gateway with one live grading, whose pase is «pase-vivo», team «equipo1».
func claseDePrueba(t *testing.T, cuenta *contador, guion pasarela.Guion) *Montaje {
	t.Helper()
	log := &prueba.Buffer{}
	m, err := Nuevo(Opciones{
		Revisores: 1, Sellar: true, Envolver: cuenta.envolver,
		Revisor: func(Direcciones) revisor.Opciones {
			return revisor.Opciones{Log: zerolog.Nop(), Credenciales: revisor.EnClase}
		},
		Pasarela: &Pasarela{Guion: guion, Log: zerolog.New(log), Pase: func(p string) (string, bool) {
			return "equipo1", p == "pase-vivo"
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Cerrar)
	return m
}

// porRelevo is a client whose connections go through a door with pase.
func porRelevo(t *testing.T, hacia, pase string) (*Montaje, *http.Client) {
	t.Helper()
	r, err := Nuevo(Opciones{Relevo: &Relevo{Hacia: strings.TrimPrefix(hacia, "http://"), Pase: pase}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Cerrar)
	return r, &http.Client{Transport: &http.Transport{}}
}

func TestLaPuertaDeLaClase(t *testing.T) {
	t.Parallel()
	cuenta := &contador{n: map[string]int{}}
	m := claseDePrueba(t, cuenta, nil)
	alta := `{"nombre":"de-ana","url":"http://127.0.0.1:18081/codigo/200"}`

	// Without the line, with any credential and route: refused at the door, never at the revisor.
	for _, caso := range []struct{ metodo, ruta, credencial, cuerpo string }{
		{"GET", "/servicios", "admin", ""},
		{"POST", "/servicios", "escritura-a", alta},
		{"PUT", "/mantenimiento", "admin", `{"activo":true}`},
		{"GET", "/_pasarela/libro", "", ""},
		{"PUT", "/_pasarela/simular", "", "codigo:201"},
		{"DELETE", "/servicios/1", "escritura-a@equipo1", ""},
	} {
		c, cuerpo := pedir(t, nil, caso.metodo, m.Pasarela+caso.ruta, caso.credencial, caso.cuerpo)
		if c != 403 || !strings.Contains(cuerpo, "permiso-insuficiente") || !strings.Contains(cuerpo, "comprobar cliente --clase") {
			t.Errorf("%s %s sin pase: %d %s", caso.metodo, caso.ruta, c, cuerpo)
		}
	}
	// With a pase nobody gave: the same.
	rInv, cInv := porRelevo(t, m.Pasarela, "pase-inventado")
	if c, _ := pedir(t, cInv, "POST", rInv.Pasarela+"/servicios", "escritura-a", alta); c != 403 {
		t.Errorf("con un pase inventado: %d", c)
	}
	if n := cuenta.de("revisor"); n != 0 {
		t.Fatalf("%d peticiones rechazadas llegaron al revisor", n)
	}
	if n := m.Rechazadas(); n != 7 {
		t.Errorf("la puerta contó %d rechazos; se esperaban 7", n)
	}

	// Through the live grading's door: in the grading's team, whatever credential it carries.
	r, cliente := porRelevo(t, m.Pasarela, "pase-vivo")
	if c, cuerpo := pedir(t, cliente, "POST", r.Pasarela+"/servicios", "escritura-a", alta); c != 201 {
		t.Fatalf("alta de la calificación: %d %s", c, cuerpo)
	}
	if c, cuerpo := pedir(t, cliente, "GET", r.Pasarela+"/servicios", "lectura-a", ""); c != 200 || !strings.Contains(cuerpo, "de-ana") {
		t.Errorf("su listado: %d %s", c, cuerpo)
	}
	for _, caso := range []struct {
		metodo, ruta, credencial, cuerpo string
		codigo                           int
	}{
		{"GET", "/servicios", "admin", "", 401},                    // admin is no credential in class
		{"PUT", "/mantenimiento", "admin", `{"activo":true}`, 401}, // nor changes the lab for others
		{"GET", "/servicios", "lectura-a@otroequipo", "", 401},     // a guessed team names two
		{"GET", "/_pasarela/libro", "", "", 403},                   // the gateway's own routes are the lab's
		{"PUT", "/_pasarela/simular", "", "codigo:201", 403},
	} {
		if c, cuerpo := pedir(t, cliente, caso.metodo, r.Pasarela+caso.ruta, caso.credencial, caso.cuerpo); c != caso.codigo {
			t.Errorf("%s %s con %q por la calificación: %d %s; se esperaba %d", caso.metodo, caso.ruta, caso.credencial, c, cuerpo, caso.codigo)
		}
	}
	// What another team would see: nothing of equipo1's.
	if svc, err := m.Almacen.Listar(context.Background(), "a@otro"); err != nil || len(svc) != 0 {
		t.Errorf("otro equipo ve %v (%v)", svc, err)
	}
	if svc, err := m.Almacen.Listar(context.Background(), "a@equipo1"); err != nil || len(svc) != 1 {
		t.Errorf("el equipo de la calificación tiene %v (%v)", svc, err)
	}
}

// TestElRelevoPasaLasFallas: the door passes the class gateway's faults as they came, and the
// client's hang-up reaches the gateway.
func TestElRelevoPasaLasFallas(t *testing.T) {
	t.Parallel()
	fallas := map[string]pasarela.Falla{}
	for _, modo := range []string{"reiniciar", "cortar", "lento:99999"} {
		f, err := pasarela.LeerFalla(modo)
		if err != nil {
			t.Fatal(err)
		}
		fallas[modo] = f
	}
	se := make(chan struct{}, 1)
	guion := func(r *http.Request, _ []byte) pasarela.Paso {
		modo := r.URL.Query().Get("modo")
		if modo == "lento:99999" {
			go func() { <-r.Context().Done(); se <- struct{}{} }()
		}
		return pasarela.Paso{Falla: fallas[modo]}
	}
	m := claseDePrueba(t, &contador{n: map[string]int{}}, guion)
	r, cliente := porRelevo(t, m.Pasarela, "pase-vivo")

	// A reset is a reset.
	_, err := cliente.Get(r.Pasarela + "/servicios?modo=reiniciar")
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("reiniciar por el relevo: %v; se esperaba ECONNRESET", err)
	}
	// A cut body is cut: the status line arrives, the body ends early.
	resp, err := cliente.Get(r.Pasarela + "/servicios?modo=cortar")
	if err != nil {
		t.Fatalf("cortar: %v", err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cortar por el relevo: el cuerpo terminó con %v; se esperaba un corte", err)
	}
	// A client that gives up on a stalled answer leaves the gateway too.
	c, err := net.Dial("tcp", strings.TrimPrefix(r.Pasarela, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "GET /servicios?modo=lento:99999 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer lectura-a\r\n\r\n")
	// Nothing comes back (the answer is held) until the client hangs up.
	go bufio.NewReader(c).ReadByte() //nolint:errcheck // ends when c closes
	prueba.Esperar(t, "la petición lenta llega a la pasarela", func() bool { return m.EnCurso("pasarela") > 0 })
	c.Close()
	<-se
}

func TestCerrarEsperaLasPeticionesEnCurso(t *testing.T) {
	t.Parallel()
	f, _ := pasarela.LeerFalla("lento:99999")
	llego := make(chan struct{})
	var una sync.Once
	m, err := Nuevo(Opciones{Revisores: 1, Pasarela: &Pasarela{Guion: func(*http.Request, []byte) pasarela.Paso {
		una.Do(func() { close(llego) })
		return pasarela.Paso{Falla: f}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	terminada := make(chan error, 1)
	go func() {
		resp, err := http.Get(m.Pasarela + "/servicios")
		if err == nil {
			resp.Body.Close()
		}
		terminada <- err
	}()
	<-llego
	m.Cerrar()
	if n := m.EnCurso("pasarela"); n != 0 {
		t.Errorf("Cerrar volvió con %v peticiones en curso", n)
	}
	if err := <-terminada; err == nil {
		t.Error("la petición retenida recibió respuesta tras Cerrar")
	}
}

func TestPuertoOcupado(t *testing.T) {
	t.Parallel()
	m, err := Nuevo(Opciones{Revisores: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Cerrar()
	puerto := m.Revisor[strings.LastIndex(m.Revisor, ":")+1:]
	var n int
	for _, c := range puerto {
		n = n*10 + int(c-'0')
	}
	_, err = Nuevo(Opciones{Revisores: 1, Banco: true, Puertos: Puertos{Revisor: n}})
	var ocupado *servidor.PuertoOcupado
	if !errors.As(err, &ocupado) || ocupado.Programa != "revisor" {
		t.Fatalf("un puerto ocupado dio %v", err)
	}
}

func TestPararUno(t *testing.T) {
	t.Parallel()
	m, err := Nuevo(Opciones{Revisores: 1, Banco: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Cerrar()
	mentira, err := m.Agregar("servidor de mentira", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	if err != nil {
		t.Fatal(err)
	}
	m.Parar("laboratorio")
	if _, err := http.Get(m.Banco + "/codigo/200"); err == nil {
		t.Error("el laboratorio parado sigue respondiendo")
	}
	if c, _ := pedir(t, nil, "GET", mentira+"/", "", ""); c != 204 {
		t.Errorf("el servidor agregado respondió %d", c)
	}
	if c, _ := pedir(t, nil, "GET", m.Revisor+"/servicios", "lectura-a", ""); c != 200 {
		t.Errorf("el revisor respondió %d", c)
	}
}
