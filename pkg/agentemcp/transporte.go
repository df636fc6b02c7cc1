package agentemcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The stdio transport's bounds. A message is one line, and a line is at most topes.LineaMCP bytes: the
// tools' arguments are a name and an address of at most topes.NombreMCP and topes.URLMCP characters (under
// 20 KiB even with every character escaped), so a longer line is no call of theirs. The calls
// read and not yet answered are at most topes.LlamadasMCP and hold at most topes.LlamadasMCPBytes bytes of their
// lines: past either the server reads no more until some are answered, so a client that sends
// faster than the revisor answers waits instead of growing the server.

// transporte is MCP's stdio transport (newline-delimited JSON-RPC) read by this server itself
// rather than by the SDK's, which ends the session, and with it the process, at the first line
// that is not a JSON-RPC message (`[]`, `null`, `12345`, trailing garbage, an object as id) or
// that passes 16 MiB. Here each such line gets the error JSON-RPC 2.0 §5.1 names (-32700 when it
// is not JSON, -32600 when it is not a request: also a batch, which MCP dropped in 2025-06-18,
// and a line over topes.LineaMCP) with the id it carried when it had a valid one, null otherwise, and
// the session goes on. The connection also waits, when the input ends, until every call already
// read is answered: the SDK cancels the calls still running when its input ends, and
// «printf … | revisor agente mcp», or a host that closes stdin to stop the server as MCP's stdio
// transport says, would get no answer to what it had asked.
type transporte struct {
	entrada                              io.Reader
	salida                               io.Writer // never closed: it is the process's stdout
	topeLinea, topeEnCurso, topeLlamadas int
}

func (t *transporte) Connect(context.Context) (mcp.Connection, error) {
	c := &conexion{
		salida:       t.salida,
		topeLinea:    t.topeLinea,
		topeEnCurso:  t.topeEnCurso,
		topeLlamadas: t.topeLlamadas,
		mensajes:     make(chan jsonrpc.Message),
		finLectura:   make(chan struct{}),
		libre:        make(chan struct{}, 1),
		cerrada:      make(chan struct{}),
		pendientes:   map[jsonrpc.ID]int{},
	}
	go c.leer(bufio.NewReaderSize(t.entrada, 64<<10))
	return c, nil
}

// conexion is one session over the process's stdin and stdout.
type conexion struct {
	salida                               io.Writer
	escribir                             sync.Mutex // one line at a time on salida
	topeLinea, topeEnCurso, topeLlamadas int

	mensajes   chan jsonrpc.Message // from leer to Read, one at a time
	finLectura chan struct{}        // closed when leer ends, after errLectura is set
	errLectura error                // io.EOF, or why the input could not be read
	libre      chan struct{}        // a call was answered: leer may go on
	cerrada    chan struct{}
	cerrar     sync.Once

	mu         sync.Mutex
	pendientes map[jsonrpc.ID]int // calls read and not answered, with the bytes of their lines
	enCurso    int                // their sum
	vacia      chan struct{}      // closed when pendientes empties, if someone waits
}

// leer reads the input line by line and hands each JSON-RPC message to Read; anything else is
// answered here. It stops at the end of the input, at a read error or when the connection closes.
func (c *conexion) leer(r *bufio.Reader) {
	defer close(c.finLectura)
	for {
		linea, larga, err := leerLinea(r, c.topeLinea)
		if larga {
			c.fallar(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("un mensaje de más de %d bytes: este servidor no lo lee", c.topeLinea))
		} else if !c.atender(linea) {
			c.errLectura = io.EOF
			return
		}
		if err != nil {
			c.errLectura = err
			return
		}
		if !c.esperarLugar() {
			c.errLectura = io.EOF
			return
		}
	}
}

// leerLinea reads up to the next newline (or the end of the input), keeping at most tope bytes:
// larga says the line was longer, and what was kept is nothing.
func leerLinea(r *bufio.Reader, tope int) (linea []byte, larga bool, err error) {
	for {
		trozo, err := r.ReadSlice('\n')
		if !larga && len(linea)+len(trozo) > tope {
			larga, linea = true, nil
		}
		if !larga {
			linea = append(linea, trozo...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return linea, larga, err
		}
	}
}

// atender hands one line's message to Read, or answers it when it is not one; false when the
// connection closed meanwhile.
func (c *conexion) atender(linea []byte) bool {
	linea = bytes.TrimSpace(linea) // \r\n too, and a blank line is nothing
	if len(linea) == 0 {
		return true
	}
	if !json.Valid(linea) {
		c.fallar(nil, jsonrpc.CodeParseError, "la línea no es JSON: un mensaje JSON-RPC por línea")
		return true
	}
	switch linea[0] {
	case '{':
	case '[':
		c.fallar(nil, jsonrpc.CodeInvalidRequest, "un lote JSON-RPC: este servidor atiende un mensaje por línea (MCP quitó los lotes en 2025-06-18)")
		return true
	default:
		c.fallar(nil, jsonrpc.CodeInvalidRequest, "la línea no es un objeto JSON-RPC")
		return true
	}
	msg, err := jsonrpc.DecodeMessage(linea)
	if err != nil {
		c.fallar(idDe(linea), jsonrpc.CodeInvalidRequest, "la línea no es una petición JSON-RPC 2.0 (jsonrpc, method, id de texto o número)")
		return true
	}
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
		c.mu.Lock()
		// A second call with an id still in use is the SDK's to refuse, with no id: it frees
		// nothing when answered, so it is not counted.
		if _, ya := c.pendientes[req.ID]; !ya {
			c.pendientes[req.ID] = len(linea)
			c.enCurso += len(linea)
		}
		c.mu.Unlock()
	}
	select {
	case c.mensajes <- msg:
		return true
	case <-c.cerrada:
		return false
	}
}

// idDe is the id of a message that is not a valid request, when it has a valid one (a string or
// a number), so its error can name it; nil otherwise (JSON null).
func idDe(linea []byte) json.RawMessage {
	var m struct{ ID json.RawMessage }
	if json.Unmarshal(linea, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// fallar writes a JSON-RPC error response for a line that Read never sees.
func (c *conexion) fallar(id json.RawMessage, codigo int, mensaje string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	linea, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(codigo), Message: mensaje}})
	c.escribirLinea(linea)
}

func (c *conexion) escribirLinea(linea []byte) error {
	c.escribir.Lock()
	defer c.escribir.Unlock()
	_, err := c.salida.Write(append(linea, '\n')) // one Write: a line is never split
	return err
}

// esperarLugar waits while the calls in progress hold more than topeEnCurso bytes or are
// topeLlamadas; false when the connection closed meanwhile.
func (c *conexion) esperarLugar() bool {
	for {
		c.mu.Lock()
		lleno := c.enCurso > c.topeEnCurso || len(c.pendientes) >= c.topeLlamadas
		c.mu.Unlock()
		if !lleno {
			return true
		}
		select {
		case <-c.libre:
		case <-c.cerrada:
			return false
		}
	}
}

func (c *conexion) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.mensajes:
		return msg, nil
	case <-c.finLectura:
	case <-c.cerrada:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	// The input ended: every call read before is answered first.
	c.mu.Lock()
	var vacia chan struct{}
	if len(c.pendientes) > 0 {
		vacia = make(chan struct{})
		c.vacia = vacia
	}
	c.mu.Unlock()
	if vacia != nil {
		select {
		case <-vacia:
		case <-c.cerrada:
		case <-ctx.Done():
		}
	}
	return nil, c.errLectura
}

func (c *conexion) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	linea, err := jsonrpc.EncodeMessage(msg)
	if err == nil {
		err = c.escribirLinea(linea)
	}
	if res, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if n, ok := c.pendientes[res.ID]; ok {
			delete(c.pendientes, res.ID)
			c.enCurso -= n
			select {
			case c.libre <- struct{}{}:
			default:
			}
		}
		if len(c.pendientes) == 0 && c.vacia != nil {
			close(c.vacia)
			c.vacia = nil
		}
		c.mu.Unlock()
	}
	return err
}

func (c *conexion) Close() error {
	c.cerrar.Do(func() { close(c.cerrada) })
	return nil
}

func (c *conexion) SessionID() string { return "" }
