// Package token is the lab's token (issue 22.3): what anything that changes the lab for others
// asks for — the gateway's process-wide fault (PUT /_pasarela/simular), the panel's control, its
// events and its «Limpiar». A server takes it from --token, else from its environment
// (CURSOHTTP_TOKEN), else makes one at start-up; the lab controller makes one per «laboratorio lab
// arrancar» and hands it to every server it starts. (The class token, which let any student post
// grading results to the panel's class page, went with that page: issue 40, item 9.)
//
// A request that carries the right token may still come from a web page the student opened on
// another site, which the browser lets send a form or a fetch without preflight (a "simple"
// request) to 127.0.0.1: such a request is refused before the token is looked at (MismoSitio).
package token

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"
)

// Variable is the environment variable the lab's servers and programs read when no flag says the
// token.
const Variable = "CURSOHTTP_TOKEN"

// Nuevo is a fresh token: 128 random bits, base64url without padding (22 characters), safe in a
// header, a URL, a file name and an HTML attribute.
func Nuevo() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand: it panics rather than return short)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Elegir is the token a server or program uses: the flag's value when set, else the environment
// variable's, else a new one (generado true: the server says it on its start-up lines). entorno is
// os.LookupEnv, or a test's own.
func Elegir(bandera string, entorno func(string) (string, bool), variable string) (valor string, generado bool) {
	if v := strings.TrimSpace(bandera); v != "" {
		return v, false
	}
	if entorno != nil {
		if v, ok := entorno(variable); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), false
		}
	}
	return Nuevo(), true
}

// Iguales compares two tokens in constant time, whatever their lengths: both are hashed first, so
// neither a prefix nor the length of the real one shows in how long a refusal takes. An empty
// token never matches.
func Iguales(dado, esperado string) bool {
	if dado == "" || esperado == "" {
		return false
	}
	a, b := sha256.Sum256([]byte(dado)), sha256.Sum256([]byte(esperado))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// Portador is the token of «Authorization: Bearer TOKEN» (the scheme in any case, RFC 9110
// §11.1); "" when the request carries none.
func Portador(r *http.Request) string {
	v := r.Header.Values("Authorization")
	if len(v) != 1 {
		return ""
	}
	esquema, valor, ok := strings.Cut(strings.TrimSpace(v[0]), " ")
	if !ok || !strings.EqualFold(esquema, "Bearer") {
		return ""
	}
	return strings.TrimSpace(valor)
}

// MismoSitio says whether r may come from where it says: not from a page of another site. A
// browser names a request's initiator in Sec-Fetch-Site (same-origin, same-site, cross-site, or
// none when the user typed the address) and, on a POST, its page's origin in Origin; programs
// (curl, the suite's own) send neither. Only same-origin and none pass (same-site is another port
// of 127.0.0.1, another server of the lab or a student's page on it), and an Origin must be this
// server's own, as the request's Host names it.
func MismoSitio(r *http.Request) bool {
	switch strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))) {
	case "", "same-origin", "none":
	default:
		return false
	}
	origenes := r.Header.Values("Origin")
	if len(origenes) == 0 {
		return true
	}
	if len(origenes) > 1 {
		return false
	}
	esquema := "http://"
	if r.TLS != nil {
		esquema = "https://"
	}
	return strings.EqualFold(strings.TrimSpace(origenes[0]), esquema+r.Host)
}

// Nivel is what a request may do. Instructor, everything that changes the lab for others, is the
// only level left since the class token went (issue 40, item 9); Comprobar keeps taking it so that
// its callers say what they guard.
type Nivel int

const Instructor Nivel = 0

// Puerta holds a server's token and checks requests against it.
type Puerta struct {
	Instructor string // the lab's token
}

// Refusal codes: 403 for a request from another site (no token can make it right), 401 for a
// missing or wrong token.
const (
	DeOtroSitio = http.StatusForbidden
	SinPermiso  = http.StatusUnauthorized
	Desafio     = `Bearer realm="laboratorio"` // WWW-Authenticate of a 401
	MotivoSitio = "una página de otro sitio no puede cambiar el laboratorio"
	MotivoFalta = "cambiar el laboratorio para todos pide el token del laboratorio (Authorization: Bearer …)"
	MotivoMalo  = "ese no es el token del laboratorio"
)

// Comprobar says whether r may do what nivel allows: 0 when it may; else the status to answer
// (DeOtroSitio or SinPermiso) and one sentence why. The cross-site check comes first: a request
// from another site is refused whatever it carries.
func (p Puerta) Comprobar(r *http.Request, _ Nivel) (int, string) {
	if !MismoSitio(r) {
		return DeOtroSitio, MotivoSitio
	}
	dado := Portador(r)
	switch {
	case Iguales(dado, p.Instructor):
		return 0, ""
	case dado == "":
		return SinPermiso, MotivoFalta
	}
	return SinPermiso, MotivoMalo
}
