// Package oraculo asks the real Node what JavaScript makes of an input, so the suite's
// Node-fidelity code (internal/nodejs) is fuzzed
// against the engine it imitates instead of against a second copy of our own reading. One node
// process per test binary answers one JSON line per question over a pipe (tens of microseconds,
// so a fuzz run of 20,000 inputs costs about a second). Without node the tests that need it skip
// with one line; with CURSOHTTP_CI=1 (CI installs node) that is a failure. Only _test.go files
// import it.
package oraculo

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
)

// programa answers {"f": name, "b": base64 bytes, "d": "utf8"|"latin1", "z": TZ} with
// {"ok": bool, "v": base64 of the result's UTF-8 (or WTF-16 for strings with lone surrogates,
// flagged "w"), "n": number, "e": error name}. The input's decoding is the caller's model of how
// the bytes reached JavaScript: a request body is UTF-8 (replacing what is invalid, as
// TextDecoder does), a header value or a request target is latin1, as Node's parser reads them.
const programa = `
'use strict';
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin, terminal: false });
function texto(s) {
  // A string with a lone surrogate cannot be UTF-8: send its UTF-16 code units instead.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      return { w: true, v: Buffer.from(s, 'utf16le').toString('base64') };
    }
    if (c >= 0xdc00 && c <= 0xdfff) return { w: true, v: Buffer.from(s, 'utf16le').toString('base64') };
  }
  return { v: Buffer.from(s, 'utf8').toString('base64') };
}
// A number travels as text: JSON has no Infinity and no -0.
function numero(n) { return Object.is(n, -0) ? '-0' : String(n); }
const funciones = {
  'Date.parse': (s) => { const n = Date.parse(s); return { ok: !Number.isNaN(n), n: numero(n) }; },
  'Number': (s) => { const n = Number(s); return Object.assign({ ok: !Number.isNaN(n), n: numero(n) }, texto(Number.isNaN(n) ? '' : String(n))); },
  'decodeURIComponent': (s) => texto(decodeURIComponent(s)),
  'encodeURIComponent': (s) => texto(encodeURIComponent(s)),
  'texto': (s) => texto(s),
  'length': (s) => ({ n: numero(s.length) }),
  'trim': (s) => texto(s.trim()),
  'JSON': (s) => texto(JSON.stringify(JSON.parse(s))),
  'URL': (s) => {
    const u = new URL(s);
    return { v: Buffer.from(JSON.stringify({ protocol: u.protocol, hostname: u.hostname, port: u.port,
      pathname: u.pathname, search: u.search, username: u.username, password: u.password })).toString('base64') };
  },
  'URL.pathname': (s) => texto(new URL('http://h/' + s).pathname),
};
rl.on('line', (linea) => {
  const q = JSON.parse(linea);
  if (q.z !== undefined) process.env.TZ = q.z;
  let r;
  try {
    const s = Buffer.from(q.b, 'base64').toString(q.d);
    r = Object.assign({ ok: true }, funciones[q.f](s));
  } catch (e) {
    r = { ok: false, e: e && e.name ? e.name : String(e) };
  }
  process.stdout.write(JSON.stringify(r) + '\n');
});
`

// Node is one node process answering questions.
type Node struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	ruta string
}

// Respuesta is what JavaScript made of an input.
type Respuesta struct {
	OK    bool   `json:"ok"`
	Error string `json:"e"` // the thrown error's name (URIError, SyntaxError, TypeError) when !OK
	N     Numero `json:"n"` // a number result (Date.parse, Number, length)
	V     []byte `json:"v"` // a string result as UTF-8 (W: as UTF-16LE, it holds a lone surrogate)
	W     bool   `json:"w"`
}

// Numero is a JavaScript number as String() writes it (NaN, ±Infinity and -0 included).
type Numero float64

func (n *Numero) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	switch s {
	case "NaN":
		*n = Numero(math.NaN())
	case "Infinity":
		*n = Numero(math.Inf(1))
	case "-Infinity":
		*n = Numero(math.Inf(-1))
	default:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		*n = Numero(f)
	}
	return nil
}

// Texto is the string result as Go holds it: UTF-8 bytes (false when it holds a lone surrogate).
func (r Respuesta) Texto() (string, bool) { return string(r.V), !r.W }

// Arrancar starts a node process for tb, stopped when tb ends; without node the test skips with
// one line (fails under CURSOHTTP_CI=1). Call it outside f.Fuzz: each fuzz worker runs the target's
// setup once and then asks its one process many times.
func Arrancar(tb testing.TB) *Node {
	tb.Helper()
	ruta, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CURSOHTTP_CI") == "1" {
			tb.Fatalf("node no está (CI lo instala): %v", err)
		}
		tb.Skipf("sin node no hay oráculo: %v", err)
	}
	cmd := exec.Command(ruta, "-e", programa)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("node no arranca: %v", err)
	}
	tb.Cleanup(func() {
		in.Close() // node ends when its input does
		cmd.Wait()
	})
	return &Node{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16), ruta: ruta}
}

// Preguntar asks node for funcion applied to b, decoded as decodif ("utf8" or "latin1"), with TZ
// set to zona when it is not empty.
func (n *Node) Preguntar(tb testing.TB, funcion string, b []byte, decodif, zona string) Respuesta {
	tb.Helper()
	q := map[string]string{"f": funcion, "b": base64.StdEncoding.EncodeToString(b), "d": decodif}
	if zona != "" {
		q["z"] = zona
	}
	linea, _ := json.Marshal(q)
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, err := n.in.Write(append(linea, '\n')); err != nil {
		tb.Fatalf("node: %v", err)
	}
	resp, err := n.out.ReadBytes('\n')
	if err != nil {
		tb.Fatalf("node no respondió a %s(%q): %v", funcion, b, err)
	}
	var r Respuesta
	if err := json.Unmarshal(resp, &r); err != nil {
		tb.Fatalf("node respondió %q: %v", resp, err)
	}
	return r
}
