// Package destinos decide a dónde puede conectarse el revisor, para que una URL
// escrita por un cliente no lo lleve a su propia red ni a los metadatos de la
// nube (SSRF), ni siquiera cambiando el DNS entre la revisión y la conexión.
package destinos

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"cursohttp/pkg/curso"
)

// Resolver traduce nombres a direcciones; net.DefaultResolver lo cumple y las
// pruebas ponen un DNS de mentira.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Veredicto es la respuesta de Revisar. Si no se permite, Motivo dice por qué
// con el texto del curso; si se permite, Direcciones son las ya validadas.
type Veredicto struct {
	Permitido   bool
	Motivo      string
	Direcciones []netip.AddrPort
}

// Prohibido es el error de DialContext cuando el destino no se permite; quien
// llama lo reconoce con errors.As y lo clasifica como «destino-prohibido».
type Prohibido struct {
	Motivo string
}

func (e *Prohibido) Error() string { return "destino prohibido: " + e.Motivo }

// Verificador aplica las reglas de destino. Es inmutable tras Nuevo y se puede
// usar desde varias gorrutinas.
type Verificador struct {
	permitidos map[netip.AddrPort]struct{}
	resolver   Resolver
	marcador   net.Dialer
}

// Nuevo arma un Verificador. permitidos son destinos «ip:puerto» (IPv6 como
// «[dir]:puerto») que se aceptan aunque sean privados; nil significa la lista
// por omisión (curso.DireccionLaboratorio, el laboratorio del curso) y una lista vacía, ninguno. Las entradas que
// no son ip:puerto no coinciden con nada, como en el curso (ver ValidarPermitidos).
// resolver nil usa net.DefaultResolver.
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

// LeerPermitidos parte el valor de --destinos o REVISOR_DESTINOS: separado por
// comas y sin espacios alrededor de cada destino.
func LeerPermitidos(texto string) []string {
	partes := strings.Split(texto, ",")
	for i, p := range partes {
		partes[i] = strings.TrimSpace(p)
	}
	return partes
}

// ValidarPermitidos avisa de las entradas que no son ip:puerto (las vacías se
// toleran), para que un error de configuración no pase en silencio.
func ValidarPermitidos(permitidos []string) error {
	var malas []string
	for _, p := range permitidos {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := netip.ParseAddrPort(p); err != nil {
			malas = append(malas, strconv.Quote(p))
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

// Revisar decide si el revisor puede conectarse a la URL texto: se resuelve el
// nombre y CADA dirección tiene que ser pública o estar en la lista de
// permitidos. Basta una mala para rechazar el destino.
func (v *Verificador) Revisar(ctx context.Context, texto string) Veredicto {
	u, err := LeerURL(texto)
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

// juzgar aplica las reglas a las direcciones de un destino.
func (v *Verificador) juzgar(nombre string, literal bool, direcciones []netip.Addr, puerto uint16) Veredicto {
	var prohibidas []string
	validas := make([]netip.AddrPort, 0, len(direcciones))
	vistas := make(map[netip.AddrPort]bool, len(direcciones))
	for _, d := range direcciones {
		if !literal {
			// Algunos resolutores devuelven la IPv4 como ::ffff:a.b.c.d; es la misma.
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
		// Una dirección escrita por el cliente se repite tal cual; lo que resolvió
		// un nombre no se enumera: depende del sistema y dibuja la red interna.
		if literal {
			return Veredicto{Motivo: strings.Join(prohibidas, ", ") + ": dirección privada o reservada"}
		}
		return Veredicto{Motivo: nombre + " resuelve a una dirección privada o reservada"}
	}
	return Veredicto{Permitido: true, Direcciones: validas}
}

// escribirDestino escribe «ip:puerto» como el curso: IPv6 entre corchetes y en
// la forma de url.hostname.
func escribirDestino(a netip.Addr, puerto uint16) string {
	p := strconv.Itoa(int(puerto))
	if a.Is4() {
		return a.String() + ":" + p
	}
	return "[" + FormatoIP(a) + "]:" + p
}

// DialContext es para http.Transport: resuelve el nombre UNA vez, valida cada
// dirección con las mismas reglas que Revisar y se conecta solo a una dirección
// validada, sin volver a resolver. Así un DNS que cambia entre la revisión y la
// conexión (DNS rebinding) no lleva al revisor a la red interna. Si el destino
// no se permite devuelve *Prohibido.
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

// Transporte es un http.Transport que solo se conecta a destinos validados y
// nunca pasa por un proxy (el proxy sería el destino que se valida).
func (v *Verificador) Transporte() *http.Transport {
	return &http.Transport{
		Proxy:             nil,
		DialContext:       v.DialContext,
		ForceAttemptHTTP2: false,
	}
}

// EsProhibido dice si err (o algo que envuelve) es un *Prohibido, y lo devuelve.
func EsProhibido(err error) (*Prohibido, bool) {
	var p *Prohibido
	ok := errors.As(err, &p)
	return p, ok
}
