package predecir

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/montaje"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// Lab is a fresh laboratory and revisor of one exercise's run, in this process, on free ports of
// 127.0.0.1 (one assembly, pkg/montaje), so that a run never meets what the student has on
// 18080-18082 nor another run. The six start-up services point at this laboratory instead of
// 18081, and a request that names the course's laboratory is sent with this one's address (Lab.URL).
type Lab struct {
	Laboratorio string // base URL
	Revisor     string // base URL
	Pasarela    string // base URL, when OpcionesLab.Pasarela

	mj       *montaje.Montaje
	rutas    *contador
	mentiras []func()
}

// OpcionesLab say which revisor the exercise's lesson runs.
type OpcionesLab struct {
	Pedido   variantes.Pedido // which of the course's revisors (--leccion, --ejercicio)
	Vigencia time.Duration    // of the Idempotency-Key records; 0 is the course's 24 h
	Pasarela bool             // also the gateway in front of the revisor (Lesson 6)
}

// contador counts the requests the laboratory gets per path, as its terminal would show them.
type contador struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *contador) envolver(servicio string, h http.Handler) http.Handler {
	if servicio != "laboratorio" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.n[r.URL.Path]++
		c.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// Veces is how many requests for ruta the laboratory got so far.
func (l *Lab) Veces(ruta string) int {
	l.rutas.mu.Lock()
	defer l.rutas.mu.Unlock()
	return l.rutas.n[ruta]
}

// NuevoLab starts a laboratory and a revisor; Cerrar stops both.
func NuevoLab(o OpcionesLab) (*Lab, error) {
	programa, err := variantes.Resolver(variantes.Revisor, o.Pedido)
	if err != nil {
		return nil, err
	}
	l := &Lab{rutas: &contador{n: map[string]int{}}}
	mo := montaje.Opciones{Revisores: 1, Banco: true, Envolver: l.rutas.envolver, EsperaApagado: 2 * time.Second,
		Revisor: func(d montaje.Direcciones) revisor.Opciones {
			semillas := almacen.Semillas()
			for i := range semillas {
				semillas[i].URL = strings.Replace(semillas[i].URL, curso.URLLaboratorio, d.Banco, 1)
			}
			alm := almacen.NuevaMemoria(almacen.Opciones{Semillas: semillas, Llaves: idempotencia.Opciones{Vigencia: o.Vigencia}})
			return revisor.Opciones{Log: zerolog.Nop(), Almacen: alm, Programa: programa,
				Destinos: []string{strings.TrimPrefix(d.Banco, "http://")}}
		}}
	if o.Pasarela {
		mo.Pasarela = &montaje.Pasarela{Log: zerolog.Nop()}
	}
	if l.mj, err = montaje.Nuevo(mo); err != nil {
		return nil, err
	}
	l.Laboratorio, l.Revisor, l.Pasarela = l.mj.Banco, l.mj.Revisor, l.mj.Pasarela
	return l, nil
}

// Mentira starts fig06_04.ts's fake gateway with these answers (laboratorio mentira) and returns
// it with its base URL; Cerrar stops it.
func (l *Lab) Mentira(respuestas ...string) (*laboratorio.Mentira, string, error) {
	m, err := laboratorio.NuevaMentira(respuestas, zerolog.Nop(), laboratorio.OpcionesMentira{})
	if err != nil {
		return nil, "", err
	}
	l.mentiras = append(l.mentiras, m.Cerrar) // lets «mudo» go before its server shuts down
	u, err := l.mj.Agregar("servidor de mentira", m)
	return m, u, err
}

// PararLaboratorio stops the laboratory alone (Ctrl+C in its terminal): its port then refuses.
func (l *Lab) PararLaboratorio() { l.mj.Parar("laboratorio") }

// Cerrar stops everything the lab started.
func (l *Lab) Cerrar() {
	for _, c := range l.mentiras {
		c()
	}
	l.mentiras = nil
	l.mj.Cerrar()
}

// URL is u with the course's laboratory (127.0.0.1:18081) replaced by this one.
func (l *Lab) URL(u string) string {
	return strings.Replace(u, curso.URLLaboratorio, l.Laboratorio, 1)
}

// Entorno is what the course's client programs need to run against this lab.
func (l *Lab) Entorno(e entorno.Entorno) entorno.Entorno {
	e.Revisor, e.Laboratorio = l.Revisor, l.Laboratorio
	return e
}
