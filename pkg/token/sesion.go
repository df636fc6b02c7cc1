package token

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The instructor's session on the panel's page (issue 34, item 1). The page no longer carries the
// lab's token: whoever holds the token (the lab controller, «laboratorio lab enlace») makes a
// one-time link, and opening it gives that browser a session cookie, a random value that is not
// the token. A page opened without it only reads.
const (
	// RutaEnlace is the panel's route that takes a one-time link (?codigo=).
	RutaEnlace = "/entrar"
	// Galleta is the session cookie's name.
	Galleta = "panel-sesion"
	// VigenciaEnlace is how long a one-time link can be opened after it was made.
	VigenciaEnlace = 15 * time.Minute
	// SinEnlace ends every line that offers the link: what the page does for whoever has none.
	SinEnlace = "sin él, la página solo muestra lo que pasa, sin poder cambiar nada"
	// TopeSesiones: sessions kept at once; past it the oldest ends (its page only reads again).
	TopeSesiones = 64
	// TopeCanjes: links opened within one VigenciaEnlace that are remembered as used; past it a
	// new one is refused until the oldest lapse. Only the token's holder can make links.
	TopeCanjes = 1024
)

// NuevoEnlace is a one-time link's code, made with the lab's token at ahora: a random nonce, the
// time, and their HMAC-SHA-256 keyed by the token. It carries nothing of the token itself, and
// only a panel with the same token takes it. base64url and digits: safe in a URL's query.
func NuevoEnlace(instructor string, ahora time.Time) string {
	cuerpo := Nuevo() + "." + strconv.FormatInt(ahora.Unix(), 10)
	return cuerpo + "." + firmar(instructor, cuerpo)
}

// Enlace is a one-time link to the panel at base (http://127.0.0.1:18084), made with the lab's token.
func Enlace(base, instructor string, ahora time.Time) string {
	return strings.TrimSuffix(base, "/") + RutaEnlace + "?codigo=" + NuevoEnlace(instructor, ahora)
}

func firmar(instructor, cuerpo string) string {
	mac := hmac.New(sha256.New, []byte("cursohttp enlace\x00"+instructor))
	mac.Write([]byte(cuerpo))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// Sesiones are a panel's instructor sessions and the links already opened. Safe for concurrent use.
type Sesiones struct {
	instructor string
	ahora      func() time.Time
	mu         sync.Mutex
	canjeados  map[string]time.Time // a used link's nonce → when its link lapses
	sesiones   map[[32]byte]struct{}
	orden      [][32]byte // sessions, oldest first
}

// NuevasSesiones holds the sessions of a panel whose lab token is instructor; ahora is time.Now
// or a test's clock.
func NuevasSesiones(instructor string, ahora func() time.Time) *Sesiones {
	if ahora == nil {
		ahora = time.Now
	}
	return &Sesiones{instructor: instructor, ahora: ahora, canjeados: map[string]time.Time{}, sesiones: map[[32]byte]struct{}{}}
}

// Canjear takes a one-time link's code: when it was made with this panel's token, less than
// VigenciaEnlace ago and never opened before, it returns a new session's value for the cookie.
func (s *Sesiones) Canjear(codigo string) (string, bool) {
	partes := strings.Split(codigo, ".")
	if len(partes) != 3 || s.instructor == "" {
		return "", false
	}
	cuerpo := partes[0] + "." + partes[1]
	if !hmac.Equal([]byte(firmar(s.instructor, cuerpo)), []byte(partes[2])) {
		return "", false
	}
	seg, err := strconv.ParseInt(partes[1], 10, 64)
	if err != nil {
		return "", false
	}
	ahora := s.ahora()
	// A minute of skew: the link may come from another process's clock on the same machine.
	hecho := time.Unix(seg, 0)
	vence := hecho.Add(VigenciaEnlace)
	if ahora.After(vence) || hecho.After(ahora.Add(time.Minute)) {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, v := range s.canjeados {
		if ahora.After(v) {
			delete(s.canjeados, n)
		}
	}
	if _, usado := s.canjeados[partes[0]]; usado || len(s.canjeados) >= TopeCanjes {
		return "", false
	}
	s.canjeados[partes[0]] = vence
	valor := Nuevo() + Nuevo()
	h := sha256.Sum256([]byte(valor))
	s.sesiones[h] = struct{}{}
	s.orden = append(s.orden, h)
	for len(s.orden) > TopeSesiones {
		delete(s.sesiones, s.orden[0])
		s.orden = s.orden[1:]
	}
	return valor, true
}

// Valida says whether r carries a session's cookie. Sessions are looked up by their SHA-256, so
// how long a lookup takes says nothing of a session's value.
func (s *Sesiones) Valida(r *http.Request) bool {
	c, err := r.Cookie(Galleta)
	if err != nil || c.Value == "" {
		return false
	}
	h := sha256.Sum256([]byte(c.Value))
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.sesiones[h]
	return ok
}

// GalletaDeSesion is the Set-Cookie for a session: HttpOnly (the page's scripts never see it),
// SameSite=Strict (no other site's page makes the browser send it), for the whole panel, and for
// as long as the browser runs.
func GalletaDeSesion(valor string) *http.Cookie {
	return &http.Cookie{Name: Galleta, Value: valor, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode}
}
