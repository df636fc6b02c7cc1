//go:build unix

// Command ataque is `make ataque`: it starts the built laboratory, revisor and gateway on free
// ports and runs against them the campaign of issue 16 — the five attacks that once took them down
// (bodies that end early through the gateway, aborted uploads, a 10 MB upload through the gateway,
// one credential's keys against another's, memory through long lists) and the campaign's other
// families (idle floods, slowloris, malformed heads, SSRF spellings, cross-credential probes). For
// each it reports what was sent, whether the servers held, and each server's peak memory and
// descriptors, then exits 1 if anything did not hold. --corto is the form CI runs in seconds.
//
// It reads /proc for the figures: it measures Linux, where the figures show -1 otherwise.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"cursohttp/pkg/topes"
)

// tamanos are how hard each family pushes.
type tamanos struct {
	abortadas    int // aborted uploads per server
	concurrencia int // connections at once for the floods
	subidas      int // 10 MB uploads per client
	llaves       int // Idempotency-Keys escritura-b uses against escritura-a's one
	servicios16K int // registrations attempted with a 16 KB URL
	servicios2K  int // registrations attempted per credential with a URL of the longest allowed
	listados     int // parallel listings
	ociosas      int // idle keep-alive connections per server
	lentas       int // slowloris connections per server
	goteo        time.Duration
	grandes      int           // services per team with 2 KB URLs, for a large listing
	sinLeer      int           // connections that never read, per server (more than the cap of 1,024)
	lectores     int           // slow readers of a large listing through the gateway
	listadoLento int           // services per team with 2 KB URLs for the slow readers' listing
	noASCII      int           // services per team with the longest URL outside ASCII
	revisor      []string      // extra revisor flags
	rechazos     time.Duration // refusals sent at full speed to the panel (issue 34.3)
	cuerpos      int           // connections trickling bodies on one machine (more than the cap of 1,024)
	goteoCuerpos time.Duration // how long they trickle (issue 34.6)
}

// completo is the campaign's size: what took the servers down.
var completo = tamanos{abortadas: 10_000, concurrencia: 200, subidas: 10, llaves: 10_050, servicios16K: 2000,
	servicios2K: 1000, listados: 8, ociosas: 3000, lentas: 1500, goteo: 12 * time.Second,
	grandes: 100, sinLeer: 1100, lectores: 100, listadoLento: 1000, noASCII: 10_000, rechazos: 30 * time.Second,
	cuerpos: 1100, goteoCuerpos: 12 * time.Second}

// corto is CI's: every family, small enough for seconds. The revisor's bounds are lowered so that
// the key and list families still pass them.
var corto = tamanos{abortadas: 2000, concurrencia: 100, subidas: 2, llaves: 60, servicios16K: 200,
	servicios2K: 100, listados: 8, ociosas: 1500, lentas: 100, goteo: 2 * time.Second,
	grandes: 20, sinLeer: 1100, lectores: 100, listadoLento: 95, noASCII: 90, rechazos: 3 * time.Second,
	cuerpos: 1100, goteoCuerpos: 3 * time.Second,
	revisor: []string{"--tope-llaves", "100", "--tope-llaves-credencial", "20", "--tope-servicios", "100"}}

// resultado is one row of the report.
type resultado struct {
	familia, servidor string
	enviadas          int
	resistio          bool
	detalle           string
	rss, fds          int64 // the server's peaks during the family
}

// sesion is one run: the three servers and the sizes.
type sesion struct {
	binario       string // the folder of the built programs, for a family that starts one of its own
	lab, rev, pas *servidor
	t             tamanos
	exigir        bool // a missing client (python3, node, curl) fails instead of being skipped
}

func (s *sesion) porNombre(n string) *servidor {
	switch n {
	case "revisor":
		return s.rev
	case "pasarela":
		return s.pas
	}
	return s.lab
}

type familia struct {
	nombre string
	correr func(context.Context, *sesion) []resultado
}

var familias = []familia{
	{"cuerpo-cortado", cuerpoCortado},
	{"subidas-abortadas", subidasAbortadas},
	{"subida-grande", subidaGrande},
	{"llaves-cruzadas", llavesCruzadas},
	{"memoria-listado", memoriaListado},
	{"conexiones-ociosas", conexionesOciosas},
	{"goteo", goteo},
	{"cabeceras-malformadas", cabecerasMalformadas},
	{"ssrf", ssrf},
	{"credenciales-cruzadas", credencialesCruzadas},
	{"token", tokenDelLaboratorio},
	{"panel-del-profesor", panelDelProfesor},
	{"almacenes", almacenesQueSobreviven},
	{"sin-leer", sinLeer},
	{"cuerpos-lentos", cuerposLentos},
	{"respuestas-lentas", respuestasLentas},
	{"libro-grande", libroGrande},
	{"servicios-no-ascii", serviciosNoASCII},
}

func main() {
	bin := flag.String("bin", "bin", "carpeta con los programas construidos")
	esCorto := flag.Bool("corto", false, "la forma corta, la de CI: todas las familias, en segundos")
	solo := flag.String("familia", "", "correr solo las familias que contienen este texto")
	flag.Parse()
	t := completo
	if *esCorto {
		t = corto
	}
	// CI installs python3, node and curl (.ci/run) and says so: there a missing one is a failure.
	exigir := os.Getenv("CURSOHTTP_CI") != ""
	ok, err := correr(*bin, t, *solo, exigir, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ataque:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

func correr(bin string, t tamanos, solo string, exigir bool, out io.Writer) (bool, error) {
	s := &sesion{t: t, exigir: exigir, binario: bin}
	var err error
	if s.lab, err = arrancar(bin, "laboratorio"); err != nil {
		return false, err
	}
	defer s.lab.parar()
	if s.rev, err = arrancar(bin, "revisor", append([]string{"--destinos", s.lab.addr}, t.revisor...)...); err != nil {
		return false, err
	}
	defer s.rev.parar()
	if s.pas, err = arrancar(bin, "pasarela", "--destino", s.rev.url()); err != nil {
		return false, err
	}
	defer s.pas.parar()

	fmt.Fprintf(out, "ataque contra %s: laboratorio %s, revisor %s, pasarela %s\n\n", bin, s.lab.addr, s.rev.addr, s.pas.addr)
	// The limits the families push against, as the programs have them (pkg/topes).
	var topesDichos []string
	for _, t := range topes.Tabla() {
		topesDichos = append(topesDichos, t.Nombre+" "+t.Texto())
	}
	fmt.Fprintf(out, "topes: %s\n\n", strings.Join(topesDichos, "; "))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "familia\tservidor\tenviadas\tresistió\tRSS pico\tdescriptores pico\tdetalle")
	todo, inicio := true, time.Now()
	ctx := context.Background()
	for _, f := range familias {
		if solo != "" && !strings.Contains(f.nombre, solo) {
			continue
		}
		for _, srv := range []*servidor{s.lab, s.rev, s.pas} {
			srv.pico()
		}
		t0 := time.Now()
		for _, r := range f.correr(ctx, s) {
			if r.rss == 0 && r.fds == 0 {
				r.rss, r.fds = s.porNombre(r.servidor).pico()
			}
			si := "sí"
			if !r.resistio {
				si, todo = "NO", false
			}
			fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%s\t%d\t%s\n", r.familia, r.servidor, r.enviadas, si, mb(r.rss), r.fds, r.detalle)
		}
		w.Flush()
		fmt.Fprintf(os.Stderr, "  %s: %s\n", f.nombre, time.Since(t0).Round(100*time.Millisecond))
	}
	w.Flush()
	fmt.Fprintln(out)
	for _, srv := range []*servidor{s.lab, s.rev, s.pas} {
		estado := "sigue respondiendo"
		if c, _, err := normal(srv, rutaNormal(srv)); err != nil || !srv.vivo() {
			estado, todo = fmt.Sprintf("NO responde: %d %v", c, err), false
		}
		fmt.Fprintf(out, "%-12s RSS pico de toda la corrida %s; %s; avisos de tope en su bitácora: %d\n",
			srv.nombre, mb(srv.picoTotal()), estado, len(srv.log.lineas(": tope de ")))
	}
	fmt.Fprintf(out, "\n%s en %s\n", map[bool]string{true: "todo resistió", false: "ALGO NO RESISTIÓ"}[todo], time.Since(inicio).Round(time.Second))
	return todo, nil
}

func mb(b int64) string {
	if b < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MB", float64(b)/(1<<20))
}
