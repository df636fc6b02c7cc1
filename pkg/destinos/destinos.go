// Package destinos decides where the revisor may connect, so that a URL written by a client cannot
// take it into its own network or to the cloud's metadata (SSRF), not even by changing DNS between
// the check and the connection.
package destinos

import (
	"context"
	"cursohttp/internal/nodejs"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"cursohttp/pkg/curso"
)

// Resolver turns names into addresses; net.DefaultResolver is one, and the tests put in a fake DNS.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Veredicto is Revisar's answer. When the destination is refused, Motivo says why in the course's
// words; when it is allowed, Direcciones are the addresses already checked.
type Veredicto struct {
	Permitido   bool
	Motivo      string
	Direcciones []netip.AddrPort
}

// Prohibido is DialContext's error for a refused destination; the caller recognises it with
// errors.As and files it as "destino-prohibido".
type Prohibido struct {
	Motivo string
}

func (e *Prohibido) Error() string { return "destino prohibido: " + e.Motivo }

// Verificador applies the destination rules. It does not change after Nuevo and may be used from
// several goroutines.
type Verificador struct {
	permitidos map[netip.AddrPort]struct{}
	resolver   Resolver
	marcador   net.Dialer
}

// Nuevo builds a Verificador. permitidos are "ip:port" destinations (IPv6 as "[addr]:port")
// accepted even though private; nil means the default list (curso.DireccionLaboratorio, the course's
// laboratory) and an empty list, none. Entries that are not ip:port match nothing, as in the course
// (see ValidarPermitidos). A nil resolver uses net.DefaultResolver.
func Nuevo(permitidos []string, resolver Resolver) *Verificador {
	if permitidos == nil {
		permitidos = []string{curso.DireccionLaboratorio}
	}
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	v := &Verificador{permitidos: make(map[netip.AddrPort]struct{}), resolver: resolver}
	for _, p := range permitidos {
		if ap, err := netip.ParseAddrPort(strings.TrimSpace(p)); err == nil {
			v.permitidos[sinZona(ap)] = struct{}{}
		}
	}
	return v
}

// LeerPermitidos splits the value of --destinos or REVISOR_DESTINOS: comma-separated, with no
// spaces around each destination.
func LeerPermitidos(texto string) []string {
	partes := strings.Split(texto, ",")
	for i, p := range partes {
		partes[i] = strings.TrimSpace(p)
	}
	return partes
}

// ValidarPermitidos reports the entries that are not ip:port (empty ones are tolerated), so that a
// configuration mistake does not pass in silence.
func ValidarPermitidos(permitidos []string) error {
	var malas []string
	for _, p := range permitidos {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := netip.ParseAddrPort(p); err != nil {
			malas = append(malas, "«"+p+"»")
		}
	}
	if len(malas) > 0 {
		return fmt.Errorf("destinos permitidos que no son ip:puerto: %s", strings.Join(malas, ", "))
	}
	return nil
}

func sinZona(ap netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(ap.Addr().WithZone(""), ap.Port())
}

// Revisar decides whether the revisor may connect to the URL texto: the name is resolved and EVERY
// address must be public or on the allowed list. One bad address is enough to refuse it.
func (v *Verificador) Revisar(ctx context.Context, texto string) Veredicto {
	u, err := nodejs.LeerURL(texto)
	if err != nil {
		return Veredicto{Motivo: "no es una URL"}
	}
	if !u.EsHTTP() {
		return Veredicto{Motivo: "solo http o https"}
	}
	puerto, _ := strconv.ParseUint(u.PuertoEfectivo(), 10, 16)
	if u.IP.IsValid() {
		return v.juzgar(u.Host, true, []netip.Addr{u.IP}, uint16(puerto))
	}
	direcciones, err := v.resolver.LookupNetIP(ctx, "ip", u.Host)
	if err != nil || len(direcciones) == 0 {
		return Veredicto{Motivo: fmt.Sprintf("el nombre %s no se pudo resolver", u.Host)}
	}
	return v.juzgar(u.Host, false, direcciones, uint16(puerto))
}

// juzgar applies the rules to a destination's addresses.
func (v *Verificador) juzgar(nombre string, literal bool, direcciones []netip.Addr, puerto uint16) Veredicto {
	var prohibidas []string
	validas := make([]netip.AddrPort, 0, len(direcciones))
	vistas := make(map[netip.AddrPort]bool, len(direcciones))
	for _, d := range direcciones {
		if !literal {
			// Some resolvers return an IPv4 address as ::ffff:a.b.c.d; it is the same one.
			d = d.Unmap()
		}
		destino := netip.AddrPortFrom(d, puerto)
		if _, ok := v.permitidos[sinZona(destino)]; !ok && Privada(d) {
			prohibidas = append(prohibidas, escribirDestino(d, puerto))
			continue
		}
		if !vistas[destino] {
			vistas[destino] = true
			validas = append(validas, destino)
		}
	}
	if len(prohibidas) > 0 {
		// An address the client wrote is repeated as is; what a name resolved to is not listed:
		// it depends on the system and would draw the internal network.
		if literal {
			return Veredicto{Motivo: strings.Join(prohibidas, ", ") + ": dirección privada o reservada"}
		}
		return Veredicto{Motivo: nombre + " resuelve a una dirección privada o reservada"}
	}
	return Veredicto{Permitido: true, Direcciones: validas}
}

// escribirDestino writes "ip:port" as the course does: IPv6 in brackets and in url.hostname's form.
func escribirDestino(a netip.Addr, puerto uint16) string {
	p := strconv.Itoa(int(puerto))
	if a.Is4() {
		return a.String() + ":" + p
	}
	return "[" + nodejs.FormatoIP(a) + "]:" + p
}

// DialContext is for http.Transport: it resolves the name ONCE, checks each address with the same
// rules as Revisar and connects only to a checked address, without resolving again. So a DNS answer
// that changes between the check and the connection (DNS rebinding) cannot take the revisor into
// the internal network. A refused destination returns *Prohibido.
func (v *Verificador) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var familia string
	switch network {
	case "tcp":
		familia = "ip"
	case "tcp4":
		familia = "ip4"
	case "tcp6":
		familia = "ip6"
	default:
		return nil, fmt.Errorf("destinos: red %q no admitida", network)
	}
	host, textoPuerto, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	puerto, err := strconv.ParseUint(textoPuerto, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("destinos: puerto inválido en %q", addr)
	}
	var veredicto Veredicto
	if ip, err := netip.ParseAddr(host); err == nil {
		veredicto = v.juzgar(host, true, []netip.Addr{ip}, uint16(puerto))
	} else {
		direcciones, err := v.resolver.LookupNetIP(ctx, familia, host)
		if err != nil {
			return nil, err
		}
		if len(direcciones) == 0 {
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		}
		veredicto = v.juzgar(host, false, direcciones, uint16(puerto))
	}
	if !veredicto.Permitido {
		return nil, &Prohibido{Motivo: veredicto.Motivo}
	}
	var ultimo error
	for _, destino := range veredicto.Direcciones {
		conexion, err := v.marcador.DialContext(ctx, network, destino.String())
		if err == nil {
			return conexion, nil
		}
		ultimo = err
		if ctx.Err() != nil {
			break
		}
	}
	return nil, ultimo
}

// Transporte is an http.Transport that connects only to checked destinations and never goes through
// a proxy (the proxy would be the destination checked).
func (v *Verificador) Transporte() *http.Transport {
	return &http.Transport{
		Proxy:             nil,
		DialContext:       v.DialContext,
		ForceAttemptHTTP2: false,
	}
}

// EsProhibido reports whether err (or something it wraps) is a *Prohibido, and returns it.
func EsProhibido(err error) (*Prohibido, bool) {
	var p *Prohibido
	ok := errors.As(err, &p)
	return p, ok
}
