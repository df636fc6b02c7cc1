package predecir

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/laboratorio"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/pasarela"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/variantes"
)

// Lab is a fresh laboratory and revisor of one exercise's run, in this process, on free ports of
// 127.0.0.1, so that a run never meets what the student has on 18080-18082 nor another run. The six
// start-up services point at this laboratory instead of 18081, and a request that names the
// course's laboratory is sent with this one's address (Lab.URL).
type Lab struct {
	Laboratorio string // base URL
	Revisor     string // base URL
	Pasarela    string // base URL, when OpcionesLab.Pasarela

	rutas  *contador
	cerrar []func()
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

func (c *contador) ServeHTTP(w http.ResponseWriter, r *http.Request, h http.Handler) {
	c.mu.Lock()
	c.n[r.URL.Path]++
	c.mu.Unlock()
	h.ServeHTTP(w, r)
}

// Veces is how many requests for ruta the laboratory got so far.
func (l *Lab) Veces(ruta string) int {
	l.rutas.mu.Lock()
	defer l.rutas.mu.Unlock()
	return l.rutas.n[ruta]
}

// NuevoLab starts a laboratory and a revisor; Cerrar stops both. ctx bounds nothing after start.
func NuevoLab(o OpcionesLab) (*Lab, error) {
	l := &Lab{rutas: &contador{n: map[string]int{}}}
	banco := laboratorio.Nuevo(zerolog.Nop())
	labURL, err := l.servir("laboratorio", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.rutas.ServeHTTP(w, r, banco)
	}))
	if err != nil {
		return nil, err
	}
	l.Laboratorio = labURL
	programa, err := variantes.Resolver(variantes.Revisor, o.Pedido)
	if err != nil {
		l.Cerrar()
		return nil, err
	}
	semillas := almacen.Semillas()
	for i := range semillas {
		semillas[i].URL = l.URL(semillas[i].URL)
	}
	alm := almacen.NuevaMemoria(almacen.Opciones{Semillas: semillas, Llaves: idempotencia.Opciones{Vigencia: o.Vigencia}})
	rv := revisor.Nuevo(revisor.Opciones{
		Log: zerolog.Nop(), Almacen: alm, Programa: programa,
		Destinos: []string{strings.TrimPrefix(labURL, "http://")},
	})
	l.cerrar = append(l.cerrar, rv.Cerrar)
	if l.Revisor, err = l.servir("revisor", rv); err != nil {
		l.Cerrar()
		return nil, err
	}
	if o.Pasarela {
		u, err := url.Parse(l.Revisor)
		if err != nil {
			l.Cerrar()
			return nil, err
		}
		if l.Pasarela, err = l.servir("pasarela", pasarela.Nueva(pasarela.Opciones{Destinos: []*url.URL{u}, Log: zerolog.Nop()})); err != nil {
			l.Cerrar()
			return nil, err
		}
	}
	return l, nil
}

// Mentira starts fig06_04.ts's fake gateway with these answers (laboratorio mentira) and returns
// it with its base URL; Cerrar stops it.
func (l *Lab) Mentira(respuestas ...string) (*laboratorio.Mentira, string, error) {
	m, err := laboratorio.NuevaMentira(respuestas, zerolog.Nop(), laboratorio.OpcionesMentira{})
	if err != nil {
		return nil, "", err
	}
	l.cerrar = append(l.cerrar, m.Cerrar) // lets «mudo» go before its server shuts down
	u, err := l.servir("servidor de mentira", m)
	return m, u, err
}

// PararLaboratorio stops the laboratory alone (Ctrl+C in its terminal): its port then refuses.
func (l *Lab) PararLaboratorio() {
	if len(l.cerrar) > 0 {
		l.cerrar[0]()
		l.cerrar[0] = func() {}
	}
}

func (l *Lab) servir(nombre string, h http.Handler) (string, error) {
	ln, err := servidor.Escuchar(nombre, servidor.Opciones{Direccion: curso.Host, Puerto: 0})
	if err != nil {
		return "", err
	}
	srv := servidor.Nuevo(h)
	hecho := make(chan struct{})
	go func() {
		defer close(hecho)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return
		}
	}()
	l.cerrar = append(l.cerrar, func() {
		ctx, cancelar := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancelar()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-hecho
	})
	return "http://" + ln.Addr().String(), nil
}

// Cerrar stops everything the lab started, the laboratory first.
func (l *Lab) Cerrar() {
	for _, c := range l.cerrar {
		c()
	}
	l.cerrar = nil
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
