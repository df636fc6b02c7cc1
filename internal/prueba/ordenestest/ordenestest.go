// Package ordenestest is what the tests of the revisor's client programs (pkg/ordenes/<programa>
// and pkg/agentemcp) share: the laboratory and the revisor in-process on free ports, an Entorno
// that never sleeps, a factory with a test's own environment, running one order as the revisor
// binary does, the table of command lines and what each one hands its program, and a comparison
// that names the first differing line. Only _test.go files import it.
package ordenestest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"cursohttp/internal/prueba"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/cli"
	"cursohttp/pkg/montaje"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// Laboratorio starts our laboratory on an ephemeral port (pkg/montaje), with its per-request log.
func Laboratorio(t *testing.T) (string, *prueba.Buffer) {
	t.Helper()
	registro := &prueba.Buffer{}
	log := bitacora.NuevoLogger(registro, registro, false)
	m, err := montaje.Nuevo(montaje.Opciones{Banco: true, Envolver: func(_ string, h http.Handler) http.Handler { return bitacora.Registrar(log, h) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Cerrar)
	return m.Banco, registro
}

// Revisor starts our revisor in-process, freshly (ids 1-6 seeded, so the next is 7), with its
// per-request log. guardar is its simulated save (0: the course's 500 ms).
func Revisor(t *testing.T, guardar time.Duration) (string, *prueba.Buffer) {
	t.Helper()
	return RevisorVariante(t, guardar, variantes.Pedido{})
}

// RevisorVariante is Revisor for the program the command line «revisor ARGS» would start (pedido
// says what those ARGS ask).
func RevisorVariante(t *testing.T, guardar time.Duration, pedido variantes.Pedido) (string, *prueba.Buffer) {
	t.Helper()
	programa, err := variantes.Resolver(variantes.Revisor, pedido)
	if err != nil {
		t.Fatal(err)
	}
	registro := &prueba.Buffer{}
	log := bitacora.NuevoLogger(registro, registro, false)
	m, err := montaje.Nuevo(montaje.Opciones{Revisores: 1,
		Revisor: func(montaje.Direcciones) revisor.Opciones {
			return revisor.Opciones{Log: log, Guardar: guardar, EsperaCierre: 10 * time.Millisecond, Programa: programa}
		},
		Envolver: func(_ string, h http.Handler) http.Handler { return bitacora.Registrar(log, h) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Cerrar)
	return m.Revisor, registro
}

// SinEsperas sleeps no time at all but still honours ctx, so retry loops run instantly.
func SinEsperas(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// Entorno is an Entorno that writes to out and never sleeps.
func Entorno(out io.Writer) entorno.Entorno {
	return entorno.Entorno{Out: out, Err: out, Cliente: entorno.NuevoCliente(), Dormir: SinEsperas}
}

// Fabrica is the programs' factory writing to out and errOut, with variables as the whole
// environment.
func Fabrica(out, errOut io.Writer, variables map[string]string) *entorno.Fabrica {
	f := entorno.NuevaFabrica(out, errOut)
	f.Variable = func(nombre string) (string, bool) { v, ok := variables[nombre]; return v, ok }
	return f
}

// Ejecutar runs one order as the revisor binary does (args start with its name), built by nuevo
// under a root called revisor, and returns its output and exit code.
func Ejecutar(t *testing.T, nuevo func(*entorno.Fabrica) *cobra.Command, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	raiz := &cobra.Command{Use: "revisor"}
	raiz.AddCommand(nuevo(Fabrica(&out, &errOut, nil)))
	c := cli.Ejecutar(context.Background(), raiz, args, nil, &out, &errOut)
	return out.String(), errOut.String(), c
}

// CompararLineas fails with the first differing line, which is easier to read than a whole diff.
func CompararLineas(t *testing.T, obtenido, esperado string) {
	t.Helper()
	if obtenido == esperado {
		return
	}
	o, e := strings.Split(obtenido, "\n"), strings.Split(esperado, "\n")
	for i := 0; i < max(len(o), len(e)); i++ {
		var lo, le string
		if i < len(o) {
			lo = o[i]
		}
		if i < len(e) {
			le = e[i]
		}
		if lo != le {
			t.Fatalf("línea %d:\n obtenida: %q\n esperada: %q\n--- salida completa:\n%s", i+1, lo, le, obtenido)
		}
	}
}

// Anotar writes down what a program was handed, instead of running it.
type Anotar = func(string)

// Linea is one command line of an order and what it must become: the inputs its program gets
// through runF (written down by the runF the test gives Construir), or a usage error.
type Linea struct {
	Construir func(*entorno.Fabrica, Anotar) *cobra.Command
	Linea     string
	Variables map[string]string
	Codigo    int
	Anotado   string // "" when runF must not be called
	Stderr    string
}

// Lineas runs each command line with its own environment and checks the exit code, stderr, that
// nothing reached stdout, and what the program was handed (once at most).
func Lineas(t *testing.T, casos []Linea) {
	t.Helper()
	for _, c := range casos {
		var out, errOut bytes.Buffer
		var anotado []string
		cmd := c.Construir(Fabrica(&out, &errOut, c.Variables), func(s string) { anotado = append(anotado, s) })
		codigo := cli.Ejecutar(context.Background(), cmd, strings.Fields(c.Linea), nil, &out, &errOut)
		nombre := cmd.Name() + " " + c.Linea
		if codigo != c.Codigo || errOut.String() != c.Stderr || out.Len() != 0 {
			t.Errorf("%s: código %d, stdout %q, stderr %q; se esperaba %d y %q", nombre, codigo, out.String(), errOut.String(), c.Codigo, c.Stderr)
		}
		if got := strings.Join(anotado, " | "); got != c.Anotado || len(anotado) > 1 {
			t.Errorf("%s: el programa recibió %q; se esperaba %q", nombre, anotado, c.Anotado)
		}
	}
}

// Bases writes down an Entorno's base URLs.
func Bases(e entorno.Entorno) string {
	return fmt.Sprintf("revisor=%q laboratorio=%q", e.Revisor, e.Laboratorio)
}

// SoloEntorno is the constructor of an order whose only input is its Entorno, with a runF that
// writes down its base URLs.
func SoloEntorno(nuevo func(*entorno.Fabrica, func(context.Context, entorno.Entorno) int) *cobra.Command) func(*entorno.Fabrica, Anotar) *cobra.Command {
	return func(f *entorno.Fabrica, a Anotar) *cobra.Command {
		return nuevo(f, func(_ context.Context, e entorno.Entorno) int { a(Bases(e)); return 0 })
	}
}
