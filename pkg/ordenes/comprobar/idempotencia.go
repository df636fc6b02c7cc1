package comprobar

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/comprobar/delservidor"
	"cursohttp/pkg/ordenes/entorno"
)

// Lesson 6's checker (fig06_03): five probes of how POST /servicios honours Idempotency-Key. Every
// run invents its own names and keys (an 8-character mark), so it can be repeated without
// restarting the revisor; it leaves five services of team a behind.

const (
	idemURLLab = curso.URLLaboratorio + "/codigo/200"
	// idemEspera bounds each request: the course's checker has none and would hang on a revisor
	// that accepts and never answers.
	idemEspera = 30 * time.Second
)

type idemRespuesta struct {
	codigo   int
	location *string // nil prints "null", as the course's template does
	cuerpo   nodejs.Objeto
}

func (r idemRespuesta) tipo() string {
	v, ok := r.cuerpo.Valor("type")
	if !ok || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return string(nodejs.CodificarJSON(v))
}

func idemLocation(l *string) string {
	if l == nil {
		return "null"
	}
	return *l
}

type idemComprobador struct {
	base    string
	cliente *http.Client
}

func (c idemComprobador) alta(ctx context.Context, llave string, datos nodejs.Objeto) (idemRespuesta, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/servicios", bytes.NewReader(nodejs.CodificarJSON(datos)))
	if err != nil {
		return idemRespuesta{}, err
	}
	req.GetBody = nil // never re-sent behind our back (Go's Transport would, with Idempotency-Key)
	req.Header["Authorization"] = []string{"Bearer escritura-a"}
	req.Header["Content-Type"] = []string{"application/json"}
	req.Header["Idempotency-Key"] = []string{llave}
	resp, err := c.cliente.Do(req)
	if err != nil {
		return idemRespuesta{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return idemRespuesta{}, err
	}
	r := idemRespuesta{codigo: resp.StatusCode}
	if v := resp.Header.Values("Location"); len(v) > 0 {
		l := strings.Join(v, ", ")
		r.location = &l
	}
	if v, err := nodejs.DecodificarJSON(b); err == nil {
		r.cuerpo, _ = v.(nodejs.Objeto)
	}
	return r, nil
}

func (c idemComprobador) cuantos(ctx context.Context, nombre string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/servicios", nil)
	if err != nil {
		return 0, err
	}
	req.Header["Authorization"] = []string{"Bearer escritura-a"}
	resp, err := c.cliente.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	return delservidor.Llamados(b, nombre), nil
}

type idemCaso struct {
	nombre string
	probar func(ctx context.Context) (string, error) // "" = passed
}

func (c idemComprobador) casos(marca string) []idemCaso {
	datos := func(nombre, url string) nodejs.Objeto {
		return nodejs.Objeto{{Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}}
	}
	return []idemCaso{
		{"misma llave y mismo cuerpo: la misma respuesta, un solo servicio", func(ctx context.Context) (string, error) {
			d := datos("uno-"+marca, idemURLLab)
			primera, err := c.alta(ctx, "k1-"+marca, d)
			if err != nil {
				return "", err
			}
			segunda, err := c.alta(ctx, "k1-"+marca, d)
			if err != nil {
				return "", err
			}
			if primera.codigo != 201 {
				return fmt.Sprintf("la primera dio %d, se esperaba 201", primera.codigo), nil
			}
			if segunda.codigo != 201 || idemLocation(segunda.location) != idemLocation(primera.location) {
				return fmt.Sprintf("la segunda dio %d %s, se esperaba 201 %s", segunda.codigo, idemLocation(segunda.location), idemLocation(primera.location)), nil
			}
			return c.unoSolo(ctx, "uno-"+marca)
		}},
		{"misma llave con otro cuerpo: 422 llave-reutilizada, y no crea nada", func(ctx context.Context) (string, error) {
			if _, err := c.alta(ctx, "k2-"+marca, datos("dos-"+marca, idemURLLab)); err != nil {
				return "", err
			}
			otra, err := c.alta(ctx, "k2-"+marca, datos("otro-"+marca, idemURLLab))
			if err != nil {
				return "", err
			}
			if otra.codigo != 422 || otra.tipo() != curso.Problemas+"llave-reutilizada" {
				return fmt.Sprintf("dio %d %s, se esperaba 422 llave-reutilizada", otra.codigo, otra.tipo()), nil
			}
			n, err := c.cuantos(ctx, "otro-"+marca)
			if err != nil || n == 0 {
				return "", err
			}
			return fmt.Sprintf("se creó el servicio del segundo cuerpo (%d)", n), nil
		}},
		{"misma llave mientras la original sigue en curso: 409 llave-en-curso", func(ctx context.Context) (string, error) {
			d := datos("tres-"+marca, idemURLLab)
			type resultado struct {
				r   idemRespuesta
				err error
			}
			original := make(chan resultado, 1)
			go func() {
				r, err := c.alta(ctx, "k3-"+marca, d)
				original <- resultado{r, err}
			}()
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return "", ctx.Err()
			}
			durante, err := c.alta(ctx, "k3-"+marca, d)
			primera := <-original
			if err != nil {
				return "", err
			}
			if primera.err != nil {
				return "", primera.err
			}
			if durante.codigo != 409 || durante.tipo() != curso.Problemas+"llave-en-curso" {
				return fmt.Sprintf("la de en medio dio %d %s, se esperaba 409 llave-en-curso", durante.codigo, durante.tipo()), nil
			}
			if primera.r.codigo != 201 {
				return fmt.Sprintf("la original dio %d, se esperaba 201", primera.r.codigo), nil
			}
			return "", nil
		}},
		{"un alta que falla libera la llave: corregida, con la misma llave, 201", func(ctx context.Context) (string, error) {
			mala, err := c.alta(ctx, "k4-"+marca, datos("cuatro-"+marca, "ftp://archivos"))
			if err != nil {
				return "", err
			}
			if mala.codigo != 422 {
				return fmt.Sprintf("el alta mala dio %d, se esperaba 422", mala.codigo), nil
			}
			buena, err := c.alta(ctx, "k4-"+marca, datos("cuatro-"+marca, idemURLLab))
			if err != nil {
				return "", err
			}
			if buena.codigo != 201 {
				return fmt.Sprintf("el alta corregida dio %d, se esperaba 201", buena.codigo), nil
			}
			return "", nil
		}},
		{"dos llaves distintas con el mismo cuerpo: la segunda choca con el nombre (409 nombre-repetido)", func(ctx context.Context) (string, error) {
			d := datos("cinco-"+marca, idemURLLab)
			if _, err := c.alta(ctx, "k5a-"+marca, d); err != nil {
				return "", err
			}
			otra, err := c.alta(ctx, "k5b-"+marca, d)
			if err != nil {
				return "", err
			}
			if otra.codigo != 409 || otra.tipo() != curso.Problemas+"nombre-repetido" {
				return fmt.Sprintf("dio %d %s, se esperaba 409 nombre-repetido", otra.codigo, otra.tipo()), nil
			}
			return c.unoSolo(ctx, "cinco-"+marca)
		}},
	}
}

func (c idemComprobador) unoSolo(ctx context.Context, nombre string) (string, error) {
	n, err := c.cuantos(ctx, nombre)
	if err != nil || n == 1 {
		return "", err
	}
	return fmt.Sprintf("hay %d servicios con ese nombre, se esperaba 1", n), nil
}

// ComprobarIdempotencia runs the five checks against the revisor at base (default
// curso.URLRevisor), prints the course's lines to out and returns the exit code: 0 only when
// all five pass.
func ComprobarIdempotencia(ctx context.Context, base string, out io.Writer) int {
	if base == "" {
		base = curso.URLRevisor
	}
	c := idemComprobador{base: strings.TrimSuffix(base, "/"), cliente: &http.Client{Timeout: idemEspera}}
	marca := uuid.NewString()[:8]
	casos := c.casos(marca)
	bien := 0
	for _, caso := range casos {
		falla, err := caso.probar(ctx)
		if ctx.Err() != nil {
			return curso.Interrumpido // a check cut short neither passed nor failed
		}
		if err != nil {
			falla = "sin respuesta (" + nodejs.CodigoDeError(err) + ")"
		}
		if falla == "" {
			bien++
			fmt.Fprintf(out, "ok    %s\n", caso.nombre)
			continue
		}
		fmt.Fprintf(out, "FALLA %s\n      %s\n", caso.nombre, falla)
	}
	fmt.Fprintf(out, "\n%d de %d comprobaciones de idempotencia pasaron\n", bien, len(casos))
	if bien == len(casos) {
		return 0
	}
	return 1
}

// nuevoCmdComprobarIdempotencia is `revisor comprobar idempotencia [base]`; runF nil runs
// ComprobarIdempotencia against base, or the --revisor when no base is given.
func nuevoCmdComprobarIdempotencia(f *entorno.Fabrica, runF func(ctx context.Context, base string, out io.Writer) int) *cobra.Command {
	if runF == nil {
		runF = ComprobarIdempotencia
	}
	e := f.Entorno
	c := &cobra.Command{
		Use:   "idempotencia [base] [opciones]",
		Short: "Cinco comprobaciones de Idempotency-Key contra el revisor (fig06_03.ts)",
		Long: `Comprueba, contra el revisor de base (o el de --revisor), que la misma llave con el mismo
cuerpo repite la respuesta, que con otro cuerpo da 422 llave-reutilizada, que mientras la
original sigue en curso da 409 llave-en-curso, que un alta que falla libera la llave, y que dos
llaves distintas no hacen dos servicios con el mismo nombre. Usa nombres y llaves nuevos en cada
corrida. Sale con código 0 solo si pasan las cinco.`,
		Example: "  revisor comprobar idempotencia\n  revisor comprobar idempotencia http://127.0.0.1:28080",
		Args:    entorno.HastaUnArgumento,
		RunE: func(c *cobra.Command, args []string) error {
			base := e.ConBases().Revisor
			if len(args) == 1 {
				base = args[0]
			}
			return cli.Salir(runF(c.Context(), base, e.Out))
		},
	}
	entorno.ConRevisor(c, &e)
	return c
}
