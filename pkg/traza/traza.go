// Package traza is W3C Trace Context (the traceparent header) for the suite's four programs: one
// trace per alta-segura intent, one span (tramo) per attempt, per server and per probe, so one
// request can be followed from the client through the gateway and the revisor to the bench.
package traza

import (
	"context"
	"encoding/hex"
	"math/rand/v2"
	"net/http"
)

// ID is a trace id: 16 bytes, never all zero.
type ID [16]byte

// Tramo is a span id: 8 bytes, never all zero.
type Tramo [8]byte

// Contexto is where a program is in a trace: the trace, its own span, and the span of whoever
// called it (zero when the trace started here).
type Contexto struct {
	Traza ID
	Tramo Tramo
	Padre Tramo
	// Flags are the trace flags received (bit 0: sampled), passed on as they came.
	Flags byte
}

// Cabecera is the header's name as net/http canonicalises it.
const Cabecera = "Traceparent"

// CabeceraEstado is the vendor state that travels with it (tracestate), passed on untouched.
const CabeceraEstado = "Tracestate"

// muestreada is the flag a trace started here carries: every trace is recorded.
const muestreada = 0x01

// Nueva starts a trace: a fresh trace id and span, no parent.
func Nueva() Contexto {
	var c Contexto
	llenar(c.Traza[:])
	llenar(c.Tramo[:])
	c.Flags = muestreada
	return c
}

// Hijo is a new span of the same trace whose parent is c's span: an outgoing request, an attempt.
func (c Contexto) Hijo() Contexto {
	h := Contexto{Traza: c.Traza, Padre: c.Tramo, Flags: c.Flags}
	llenar(h.Tramo[:])
	return h
}

// Valido says whether c belongs to a trace (the zero Contexto does not).
func (c Contexto) Valido() bool { return c.Traza != ID{} }

// llenar fills b with random bytes, never all zero. math/rand/v2's generator is the runtime's
// per-thread ChaCha8: no lock, no system call, no allocation. W3C asks ids to be random, not secret.
func llenar(b []byte) {
	for {
		for i := 0; i < len(b); i += 8 {
			v := rand.Uint64()
			for j := i; j < len(b) && j < i+8; j++ {
				b[j] = byte(v)
				v >>= 8
			}
		}
		for _, x := range b {
			if x != 0 {
				return
			}
		}
	}
}

// Leer reads a traceparent value (W3C Trace Context §3.2): version-traceid-parentid-flags in lower
// case hex. It returns the caller's trace with the caller's span as Padre and no span of its own
// (see Continuar). Version ff, an all-zero id, upper case, or a version-00 value of the wrong
// length are not valid; a later version is read by its first four fields, as the spec asks.
func Leer(v string) (Contexto, bool) {
	var c Contexto
	if len(v) < 55 || v[2] != '-' || v[35] != '-' || v[52] != '-' {
		return c, false
	}
	var version [1]byte
	if !hexMinuscula(version[:], v[0:2]) || version[0] == 0xff {
		return c, false
	}
	if version[0] == 0 && len(v) != 55 {
		return c, false
	}
	if version[0] != 0 && len(v) > 55 && v[55] != '-' {
		return c, false
	}
	var flags [1]byte
	if !hexMinuscula(c.Traza[:], v[3:35]) || !hexMinuscula(c.Padre[:], v[36:52]) || !hexMinuscula(flags[:], v[53:55]) {
		return Contexto{}, false
	}
	if c.Traza == (ID{}) || c.Padre == (Tramo{}) {
		return Contexto{}, false
	}
	c.Flags = flags[0]
	if version[0] != 0 {
		// Only the flags this version defines are passed on (§3.2.2.5).
		c.Flags &= muestreada
	}
	return c, true
}

func hexMinuscula(dst []byte, s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	_, err := hex.Decode(dst, []byte(s))
	return err == nil
}

// Continuar is the trace a server works in for r: the caller's, with a new span whose parent is
// the caller's, when r carries one valid traceparent; otherwise a new trace.
func Continuar(r *http.Request) Contexto {
	if c, ok := DeCabecera(r.Header); ok {
		c.Tramo = Tramo{}
		llenar(c.Tramo[:])
		return c
	}
	return Nueva()
}

// DeCabecera reads the traceparent of h: exactly one field, valid.
func DeCabecera(h http.Header) (Contexto, bool) {
	v := h[Cabecera]
	if len(v) != 1 {
		return Contexto{}, false
	}
	return Leer(v[0])
}

// Valor is the traceparent that carries c onward: c's span is the parent of whatever receives it.
func (c Contexto) Valor() string {
	var b [55]byte
	return string(c.anadir(b[:0]))
}

func (c Contexto) anadir(b []byte) []byte {
	b = append(b, "00-"...)
	b = hex.AppendEncode(b, c.Traza[:])
	b = append(b, '-')
	b = hex.AppendEncode(b, c.Tramo[:])
	b = append(b, '-')
	return hex.AppendEncode(b, []byte{c.Flags})
}

// Poner sets on h the headers that carry c onward, and the tracestate that came with it.
func (c Contexto) Poner(h http.Header, estado []string) {
	h[Cabecera] = []string{c.Valor()}
	if len(estado) > 0 {
		h[CabeceraEstado] = estado
	}
}

// String is the trace id in hex, as the logs and the panel print it.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// String is the span id in hex.
func (t Tramo) String() string { return hex.EncodeToString(t[:]) }

// Vacio says whether t is the zero span (no parent).
func (t Tramo) Vacio() bool { return t == Tramo{} }

type claveContexto struct{}

// EnContexto returns ctx carrying c.
func EnContexto(ctx context.Context, c *Contexto) context.Context {
	return context.WithValue(ctx, claveContexto{}, c)
}

// DeContexto is the trace ctx carries, or nil.
func DeContexto(ctx context.Context) *Contexto {
	c, _ := ctx.Value(claveContexto{}).(*Contexto)
	return c
}
