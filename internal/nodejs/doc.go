// Package nodejs is the suite's contract with Node 20, the engine of the course's reference: where a
// student compares our bytes with what a lesson's program printed or sent, the answer is computed
// here, once, and nowhere else imitates JavaScript.
//
// # What of Node it reproduces
//
//   - JSON.parse and JSON.stringify (json.go): member order as a JavaScript object keeps it
//     (integer-like names first), JavaScript's number format, no HTML escaping, lone surrogates kept
//     as WTF-8 and written back as \uXXXX, invalid UTF-8 in a body decoded as Node's decoder does.
//   - new URL() without a base (url.go, punycode.go): scheme, credentials, host (IPv4 in every form
//     the standard reads, IPv6, opaque hosts, "xn--" labels), port and the resolved path; and the
//     path algorithm alone, with the percent-encode sets (ruta.go: Ruta, Partir, Escapar).
//   - decodeURIComponent (componente.go), Number() and String(number) (numero.go), Date.parse
//     (fecha.go), String.prototype.trim and .length and fetch's Response.text() (texto.go).
//   - Node's names for failed requests: fetch's cause.code (ECONNREFUSED, ECONNRESET, ENOTFOUND,
//     UND_ERR_SOCKET…) on every system (errores.go, errno_*.go), and the TypeError a JavaScript
//     program throws where the course's code forgets a check (prototipo.go).
//
// # Input models
//
// Every function takes Go bytes and says which JavaScript value they stand for. A body or a JSON
// text is UTF-8 as Node decodes it (each maximal invalid subpart one U+FFFD; a BOM dropped by
// Texto only). A header value is latin1, one character per byte, as Node's fetch hands it over
// (LeerFecha, LeerNumero). A registration's url is the string JSON.parse made (LeerURL).
// A request target or path is the raw bytes on the request line (Ruta, Partir).
//
// # What it does not do
//
// Full IDNA mapping (UTS 46) is not in the standard library: a host with letters outside ASCII is
// refused where Node would map it, and an "xn--" label is only checked to decode to lower-case
// printable text, so a few labels UTS 46 would map or forbid are accepted (they then name nothing
// that resolves). Ada, Node 20's URL parser, leaves dot segments unresolved after a
// segment like ".b"; Ruta follows the standard there, and docs/diferencias.md records it.
//
// # Where it is checked
//
// Two ways, both in `go test`. Tables recorded from Node 20 (the TestXComoY tests: values printed by
// `node -e` or by the reference with tsx) pin the cases a lesson shows. And each parser is fuzzed
// against the real engine: the FuzzXComoNode targets (oraculo_test.go, json_oraculo_test.go,
// url_oraculo_test.go) send every input to one node process through internal/prueba/oraculo and
// compare answers; their seed corpus runs in every `go test`, `go test -fuzz` explores further.
// Without node those targets skip with one line; under CURSOHTTP_CI=1 (CI installs node) that is a
// failure. The JSON reader is also fuzzed against encoding/json's tokenizer, the decoder it
// replaced (json_referencia_test.go).
package nodejs
