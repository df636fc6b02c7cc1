package revisor

import (
	"net/http"
	"strings"
)

// Roles of a credential.
const (
	Lector   = "lector"
	Escritor = "escritor"
	Admin    = "admin"
)

// Credencial is who is asking: its name (the rate-limit and Idempotency-Key owner), its team ("*"
// sees every team) and its role.
type Credencial struct {
	Nombre string
	Equipo string
	Rol    string
}

// credenciales are the course's practice credentials (§0.2). A real API gets them from an identity
// provider, not from the code.
var credenciales = map[string]Credencial{
	"lectura-a":   {"lectura-a", "a", Lector},
	"escritura-a": {"escritura-a", "a", Escritor},
	"escritura-b": {"escritura-b", "b", Escritor},
	"admin":       {"admin", "*", Admin},
}

// Identificacion is what the Authorization header said.
type Identificacion int

const (
	// Ninguna: no Authorization header.
	Ninguna Identificacion = iota
	// OtroEsquema: a scheme other than Bearer (Basic, say).
	OtroEsquema
	// Invalida: Bearer with a credential that does not exist or is badly written.
	Invalida
	// Valida: a known credential.
	Valida
)

// Identificar reads Authorization as the course does: credentials = auth-scheme [ 1*SP token68 ]
// (RFC 9110 §11.4), the scheme compared without case (§11.1), then exactly one token after the
// spaces. A present but empty header is "another scheme", as in the course.
// otra, when not nil, is the table instead of the course's (a class lab's students, EnClase).
func Identificar(h http.Header, otra func(string) (Credencial, bool)) (Identificacion, Credencial) {
	valores, ok := h["Authorization"]
	if !ok || len(valores) == 0 {
		return Ninguna, Credencial{}
	}
	// Node keeps the first Authorization field of a request and drops the rest.
	cabecera := valores[0]
	fin := 0
	for fin < len(cabecera) && cabecera[fin] != ' ' {
		fin++
	}
	if fin == 0 || !esBearer(cabecera[:fin]) {
		return OtroEsquema, Credencial{}
	}
	resto := cabecera[fin:]
	i := 0
	for i < len(resto) && resto[i] == ' ' {
		i++
	}
	if i == 0 {
		return Invalida, Credencial{}
	}
	// Whatever follows the spaces must be one known token; a token with spaces or any other
	// whitespace inside is not in the table, so a plain lookup decides.
	// A class lab's table replaces the course's: its printed credentials, admin above all, open
	// nothing there (issue 40).
	var c Credencial
	if otra != nil {
		c, ok = otra(resto[i:])
	} else {
		c, ok = credenciales[resto[i:]]
	}
	if !ok {
		return Invalida, Credencial{}
	}
	return Valida, c
}

// esBearer compares ASCII letters without case; a non-ASCII byte never folds into "bearer".
func esBearer(s string) bool {
	const b = "bearer"
	if len(s) != len(b) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

// Motivo is the 401's detail for each case.
func Motivo(id Identificacion) string {
	switch id {
	case Ninguna:
		return "falta la credencial"
	case OtroEsquema:
		return "solo se admite el esquema Bearer"
	}
	return "la credencial no es válida"
}

// Reto is the challenge a 401 must carry (RFC 9110 §11.6.1; Bearer is RFC 6750). error="invalid_token"
// only when a Bearer credential came and is no good (RFC 6750 §3); not for a missing one or another
// scheme (§3.1).
func Reto(id Identificacion) string {
	if id == Invalida {
		return `Bearer realm="revisor", error="invalid_token"`
	}
	return `Bearer realm="revisor"`
}

// puedeEscribir: lectors only read.
func (c Credencial) puedeEscribir() bool { return c.Rol == Escritor || c.Rol == Admin }

// delEquipo: a credential sees its team's services; "*" sees all.
func (c Credencial) delEquipo(equipo string) bool { return c.Equipo == "*" || equipo == c.Equipo }

// SeparadorClase joins a course credential and a student's team in classroom mode: the class's
// gateway forwards «Bearer escritura-a» of a student's client as «Bearer escritura-a@EQUIPO».
const SeparadorClase = "@"

// EnClase is a class lab's credentials (Opciones.Credenciales): the course's lector and escritor
// credentials of each student's own team, «NOMBRE@EQUIPO» with EQUIPO 1 to 32 lowercase letters or
// digits, each team seeing only its own services. admin, which sees every team, is not one: a
// student never reaches another's services.
func EnClase(token string) (Credencial, bool) {
	base, equipo, ok := strings.Cut(token, SeparadorClase)
	if !ok || len(equipo) == 0 || len(equipo) > 32 {
		return Credencial{}, false
	}
	for i := 0; i < len(equipo); i++ {
		if c := equipo[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return Credencial{}, false
		}
	}
	c, ok := credenciales[base]
	if !ok || c.Rol == Admin {
		return Credencial{}, false
	}
	return Credencial{Nombre: token, Equipo: c.Equipo + SeparadorClase + equipo, Rol: c.Rol}, true
}
