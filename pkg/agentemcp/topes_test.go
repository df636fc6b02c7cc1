package agentemcp

import (
	"context"
	"cursohttp/pkg/topes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The intents of unknown outcome are bounded by bytes as well as by count: however large the
// names and addresses the schema lets through, what the server remembers stays under
// topes.IntencionesMCPByte, its count matches what it holds, and the intent just taken is always kept.
func TestIntencionesTopeDeBytes(t *testing.T) {
	t.Parallel()
	var i intenciones
	nombre, url := strings.Repeat("ñ", topes.NombreMCP), "http://x/"+strings.Repeat("a", topes.URLMCP-9)
	n := 0
	nueva := func() string { n++; return fmt.Sprintf("llave-%d", n) }
	comprobar := func(cuando string) {
		t.Helper()
		suma := 0
		for yo, k := range i.llaves {
			suma += costo(yo, k)
		}
		if suma != i.bytes || i.bytes > topes.IntencionesMCPByte || len(i.llaves) > topes.IntencionesMCP {
			t.Fatalf("%s: %d intenciones, %d bytes (cuenta %d); tope %d bytes", cuando, len(i.llaves), suma, i.bytes, topes.IntencionesMCPByte)
		}
	}
	for j := range 2000 {
		yo := intencion{fmt.Sprint(j, nombre), url}
		k := i.tomar(yo, nueva)
		if i.tomar(yo, nueva) != k {
			t.Fatalf("la intención %d cambió de llave", j)
		}
		comprobar(fmt.Sprint("tomar ", j))
		i.seguirPendiente(intencion{fmt.Sprint("otra", j, nombre), url}, "x")
		comprobar(fmt.Sprint("seguirPendiente ", j))
	}
	if len(i.llaves) < topes.IntencionesMCPByte/(3*topes.NombreMCP+topes.URLMCP+20) {
		t.Errorf("solo %d intenciones de las más grandes caben en %d bytes", len(i.llaves), topes.IntencionesMCPByte)
	}
	for yo := range i.llaves {
		i.resuelta(yo)
	}
	comprobar("resueltas")
	// Small intents are bounded by count.
	for j := range 3000 {
		i.tomar(intencion{fmt.Sprint(j), "http://x/"}, nueva)
	}
	comprobar("pequeñas")
	if len(i.llaves) != topes.IntencionesMCP {
		t.Errorf("%d intenciones pequeñas, se esperaban %d", len(i.llaves), topes.IntencionesMCP)
	}
}

// Past topeEnCurso bytes, or topeLlamadas calls, read and not answered, the connection reads no
// more lines until one is answered: a client that sends faster than the revisor answers waits, the
// server does not grow.
func TestTransporteTopeEnCurso(t *testing.T) {
	t.Parallel()
	t.Run("bytes", func(t *testing.T) { t.Parallel(); topeEnCurso(t, true) })
	t.Run("llamadas", func(t *testing.T) { t.Parallel(); topeEnCurso(t, false) })
}

// topeEnCurso reads two calls with room for two only, by bytes or by count.
func topeEnCurso(t *testing.T, porBytes bool) {
	synctest.Test(t, func(t *testing.T) {
		entradaR, entradaW := io.Pipe()
		defer entradaW.Close()
		llamada := func(id int) string {
			return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"x"}}`, id) + "\n"
		}
		largo := len(llamada(1)) - 1
		tr := &transporte{entrada: entradaR, salida: io.Discard, topeLinea: topes.LineaMCP, topeEnCurso: largo + 1, topeLlamadas: topes.LlamadasMCP}
		if !porBytes {
			tr.topeEnCurso, tr.topeLlamadas = topes.LlamadasMCPBytes, 2
		}
		conn, err := tr.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		c := conn.(*conexion)
		escrita := make([]chan struct{}, 4)
		for i := range escrita {
			escrita[i] = make(chan struct{})
		}
		go func() {
			for i := range escrita {
				io.WriteString(entradaW, llamada(i+1))
				close(escrita[i])
			}
		}()
		leer := func(id int64) {
			t.Helper()
			msg, err := conn.Read(context.Background())
			if req, ok := msg.(*jsonrpc.Request); err != nil || !ok || req.ID.Raw() != id {
				t.Fatalf("Read: %v %v, se esperaba la llamada %d", msg, err, id)
			}
		}
		leer(1)
		leer(2) // two lines in progress: more than the budget
		synctest.Wait()
		select {
		case <-escrita[2]:
			t.Fatal("leyó la tercera línea con el tope lleno")
		default:
		}
		if c.enCurso != 2*largo {
			t.Errorf("en curso %d bytes, se esperaban %d", c.enCurso, 2*largo)
		}
		id, _ := jsonrpc.MakeID(float64(1))
		if err := conn.Write(context.Background(), &jsonrpc.Response{ID: id, Result: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
		leer(3) // one answered: room for one more
		synctest.Wait()
		select {
		case <-escrita[3]:
			t.Fatal("leyó la cuarta línea con el tope lleno")
		default:
		}
	})
}
