package delservidor

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/reintento"
	"cursohttp/pkg/tabladecision"
)

// The server side, further than the course's five checks (revisor comprobar idempotencia, which
// stays as the course has it): what a server that claims Idempotency-Key support must also do, by
// draft-ietf-httpapi-idempotency-key-header-07 and Stripe's published guarantees.

// IDsServidor are the server checks' ids, in order; «vence» only runs with a validity to test.
var IDsServidor = []string{"repite-la-respuesta", "misma-llave-otro-cuerpo", "llave-por-credencial", "falla-no-consume", "concurrentes-un-efecto", "vence"}

// OpcionesServidor are a server check run's inputs.
type OpcionesServidor struct {
	Base     string        // the revisor's base URL
	Vigencia time.Duration // the key validity the server was started with; 0: «vence» is not checked
	Cliente  *http.Client  // nil: one whose requests give up after 30 s
	// Dormir waits out the validity; nil is reintento.Dormir (tests pass a clock of their own).
	Dormir func(context.Context, time.Duration) error
	// Concurrentes is how many same-key requests go at once; 0 is 10.
	Concurrentes int
}

// cabecerasConSentido are the headers a replay must repeat: what a client reads of a 201.
var cabecerasConSentido = []string{"Location", "Content-Type", "Content-Language", "ETag"}

type contestacion struct {
	codigo int
	h      http.Header
	cuerpo []byte
}

func (c contestacion) tipo() string { return tabladecision.TypeDelCuerpo(c.cuerpo) }

type sondaServidor struct {
	o     OpcionesServidor
	marca string
}

func (s sondaServidor) alta(ctx context.Context, credencial, llave, nombre, url string) (contestacion, error) {
	cuerpo := nodejs.CodificarJSON(nodejs.Objeto{{Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.o.Base+"/servicios", bytes.NewReader(cuerpo))
	if err != nil {
		return contestacion{}, err
	}
	req.GetBody = nil // never re-sent behind our back
	req.Header["Authorization"] = []string{"Bearer " + credencial}
	req.Header["Content-Type"] = []string{"application/json"}
	req.Header["Idempotency-Key"] = []string{llave}
	return s.hacer(req)
}

func (s sondaServidor) hacer(req *http.Request) (contestacion, error) {
	resp, err := s.o.Cliente.Do(req)
	if err != nil {
		return contestacion{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return contestacion{}, err
	}
	return contestacion{resp.StatusCode, resp.Header, b}, nil
}

// cuantos is how many services of credencial's team are named nombre.
func (s sondaServidor) cuantos(ctx context.Context, credencial, nombre string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.o.Base+"/servicios", nil)
	if err != nil {
		return 0, err
	}
	req.Header["Authorization"] = []string{"Bearer " + credencial}
	c, err := s.hacer(req)
	if err != nil {
		return 0, err
	}
	return Llamados(c.cuerpo, nombre), nil
}

// Llamados counts the services named nombre in a revisor's listing, the body of GET /servicios
// ({"servicios":[…]}); a body that is not one counts none.
func Llamados(listado []byte, nombre string) int {
	v, _ := nodejs.DecodificarJSON(listado)
	o, _ := v.(nodejs.Objeto)
	lista, _ := o.Valor("servicios")
	servicios, _ := lista.([]any)
	n := 0
	for _, x := range servicios {
		if so, ok := x.(nodejs.Objeto); ok {
			if nom, _ := so.Texto("nombre"); nom == nombre {
				n++
			}
		}
	}
	return n
}

const urlBuena = curso.URLLaboratorio + "/codigo/200"

type casoServidor struct {
	id, bien, mal string
	probar        func(ctx context.Context) (string, error)
}

func (s sondaServidor) casos() []casoServidor {
	m := s.marca
	casos := []casoServidor{
		{"repite-la-respuesta",
			"la repetición con la misma llave devolvió el mismo código, las mismas cabeceras con sentido y el mismo cuerpo, byte a byte",
			"una repetición debe devolver la respuesta guardada tal cual: código, Location, Content-Type, ETag y cuerpo (borrador de Idempotency-Key; lección 6, §6.6.4)",
			func(ctx context.Context) (string, error) {
				a, err := s.alta(ctx, "escritura-a", "r1-"+m, "r1-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				b, err := s.alta(ctx, "escritura-a", "r1-"+m, "r1-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				if a.codigo != 201 {
					return fmt.Sprintf("la primera dio %d, se esperaba 201", a.codigo), nil
				}
				if b.codigo != a.codigo {
					return fmt.Sprintf("la primera dio %d y la repetición %d", a.codigo, b.codigo), nil
				}
				for _, h := range cabecerasConSentido {
					if strings.Join(a.h.Values(h), ", ") != strings.Join(b.h.Values(h), ", ") {
						return fmt.Sprintf("%s cambió: «%s» y luego «%s»", h, strings.Join(a.h.Values(h), ", "), strings.Join(b.h.Values(h), ", ")), nil
					}
				}
				if !bytes.Equal(a.cuerpo, b.cuerpo) {
					return "el cuerpo de la repetición no es el de la primera", nil
				}
				return "", nil
			}},
		{"misma-llave-otro-cuerpo",
			"la misma llave con otro cuerpo dio 422 y no creó nada",
			"una llave que llega con otro cuerpo es un error del cliente: 422, y nada nuevo; repetir la respuesta anterior le haría creer que su alta ocurrió (borrador de Idempotency-Key; lección 6, §6.7.2)",
			func(ctx context.Context) (string, error) {
				if _, err := s.alta(ctx, "escritura-a", "r2-"+m, "r2-"+m, urlBuena); err != nil {
					return "", err
				}
				otra, err := s.alta(ctx, "escritura-a", "r2-"+m, "r2-otro-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				if otra.codigo != 422 {
					return fmt.Sprintf("dio %d%s, se esperaba 422", otra.codigo, examen.TipoCorto(otra.tipo())), nil
				}
				if n, err := s.cuantos(ctx, "escritura-a", "r2-otro-"+m); err != nil || n > 0 {
					return fmt.Sprintf("se creó el servicio del segundo cuerpo (%d)", n), err
				}
				return "", nil
			}},
		{"llave-por-credencial",
			"la misma llave con otra credencial fue otra petición: escritura-b no recibió la respuesta de escritura-a",
			"una llave es de quien la envía: la misma llave de otra credencial no puede devolver la respuesta guardada del primero (Stripe; lección 6, §6.7.5)",
			func(ctx context.Context) (string, error) {
				a, err := s.alta(ctx, "escritura-a", "r3-"+m, "r3-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				b, err := s.alta(ctx, "escritura-b", "r3-"+m, "r3-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				if a.codigo != 201 {
					return fmt.Sprintf("la de escritura-a dio %d, se esperaba 201", a.codigo), nil
				}
				if b.codigo == 201 && b.h.Get("Location") == a.h.Get("Location") {
					return "escritura-b recibió el 201 de escritura-a, con su Location", nil
				}
				if b.codigo != 201 {
					return fmt.Sprintf("la de escritura-b dio %d%s, se esperaba su propio 201", b.codigo, examen.TipoCorto(b.tipo())), nil
				}
				return "", nil
			}},
		{"falla-no-consume",
			"un alta que falló con 4xx no gastó la llave: corregida, con la misma llave, dio 201",
			"una petición que falla sin hacer nada no consume la llave: el cliente la corrige y repite con la misma (Stripe; lección 6, §6.7.3)",
			func(ctx context.Context) (string, error) {
				mala, err := s.alta(ctx, "escritura-a", "r4-"+m, "r4-"+m, examen.URLInvalida)
				if err != nil {
					return "", err
				}
				if mala.codigo < 400 || mala.codigo > 499 {
					return fmt.Sprintf("el alta mala dio %d, se esperaba un 4xx", mala.codigo), nil
				}
				buena, err := s.alta(ctx, "escritura-a", "r4-"+m, "r4-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				if buena.codigo != 201 {
					return fmt.Sprintf("el alta corregida dio %d%s, se esperaba 201", buena.codigo, examen.TipoCorto(buena.tipo())), nil
				}
				return "", nil
			}},
		{"concurrentes-un-efecto",
			fmt.Sprintf("%d altas a la vez con la misma llave hicieron un solo servicio: un 201 (el mismo en todas) y 409 llave-en-curso", s.o.Concurrentes),
			"peticiones simultáneas con la misma llave tienen un solo efecto: una se hace, las demás reciben 409 mientras sigue en curso o la respuesta guardada (borrador de Idempotency-Key; Stripe)",
			func(ctx context.Context) (string, error) {
				var wg sync.WaitGroup
				res := make([]contestacion, s.o.Concurrentes)
				errs := make([]error, s.o.Concurrentes)
				for i := range res {
					wg.Add(1)
					go func() {
						defer wg.Done()
						res[i], errs[i] = s.alta(ctx, "escritura-a", "r5-"+m, "r5-"+m, urlBuena)
					}()
				}
				wg.Wait()
				ubicacion := ""
				for i, r := range res {
					if errs[i] != nil {
						return "", errs[i]
					}
					switch {
					case r.codigo == 201 && (ubicacion == "" || r.h.Get("Location") == ubicacion):
						ubicacion = r.h.Get("Location")
					case r.codigo == 201:
						return "dos 201 con Location distintas", nil
					case r.codigo == 409 && strings.HasSuffix(r.tipo(), "/llave-en-curso"):
					default:
						return fmt.Sprintf("una dio %d%s", r.codigo, examen.TipoCorto(r.tipo())), nil
					}
				}
				n, err := s.cuantos(ctx, "escritura-a", "r5-"+m)
				if err != nil {
					return "", err
				}
				if n != 1 {
					return fmt.Sprintf("quedaron %d servicios, se esperaba 1", n), nil
				}
				return "", nil
			}},
	}
	if s.o.Vigencia > 0 {
		casos = append(casos, casoServidor{"vence",
			fmt.Sprintf("pasada la vigencia (%v), la llave se trató como nueva", s.o.Vigencia),
			"una llave vence cuando termina su vigencia, y después es nueva: con otro cuerpo da 201, no 422 ni la respuesta vieja (lección 6, §6.7.1 y ejercicio 3)",
			func(ctx context.Context) (string, error) {
				a, err := s.alta(ctx, "escritura-a", "r6-"+m, "r6-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				if a.codigo != 201 {
					return fmt.Sprintf("la primera dio %d, se esperaba 201", a.codigo), nil
				}
				if err := s.o.Dormir(ctx, s.o.Vigencia+250*time.Millisecond); err != nil {
					return "", err
				}
				b, err := s.alta(ctx, "escritura-a", "r6-"+m, "r6-otro-"+m, urlBuena)
				if err != nil {
					return "", err
				}
				if b.codigo != 201 || b.h.Get("Location") == a.h.Get("Location") {
					return fmt.Sprintf("tras la vigencia dio %d%s, se esperaba un 201 nuevo", b.codigo, examen.TipoCorto(b.tipo())), nil
				}
				return "", nil
			}})
	}
	return casos
}

// ComprobarServidor runs the server checks against o.Base; a request that gets no answer is that
// check's failure. ctx's end returns its error.
func ComprobarServidor(ctx context.Context, o OpcionesServidor) ([]examen.Comprobacion, error) {
	if o.Cliente == nil {
		o.Cliente = &http.Client{Timeout: 30 * time.Second}
	}
	if o.Dormir == nil {
		o.Dormir = reintento.Dormir
	}
	if o.Concurrentes <= 0 {
		o.Concurrentes = 10
	}
	o.Base = strings.TrimRight(o.Base, "/")
	s := sondaServidor{o: o, marca: uuid.NewString()[:8]}
	var cs []examen.Comprobacion
	for _, c := range s.casos() {
		falla, err := c.probar(ctx)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			falla = "sin respuesta: " + err.Error()
		}
		if falla == "" {
			cs = append(cs, examen.Comprobacion{ID: c.id, Paso: true, Linea: c.bien})
			continue
		}
		cs = append(cs, examen.Comprobacion{ID: c.id, Linea: c.mal, Detalles: []string{falla}})
	}
	return cs, nil
}
