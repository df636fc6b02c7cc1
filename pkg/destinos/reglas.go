package destinos

import "net/netip"

// Fuente: registros de direcciones de uso especial de la IANA (IPv4 e IPv6) y
// la OWASP SSRF Prevention Cheat Sheet; las mismas listas que el curso.

// IPv4 va con lista negra: no hay un bloque «global» que se pueda permitir entero.
var ipv4Prohibidas = prefijos(
	"0.0.0.0/8",       // «esta red»
	"10.0.0.0/8",      // privada (RFC 1918)
	"100.64.0.0/10",   // espacio compartido (CGNAT); metadatos de Alibaba Cloud
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // enlace local: metadatos de la nube
	"172.16.0.0/12",   // privada (RFC 1918)
	"192.0.0.0/24",    // asignaciones de protocolo del IETF
	"192.0.2.0/24",    // documentación (TEST-NET-1)
	"192.88.99.0/24",  // relevo 6to4, retirado
	"192.168.0.0/16",  // privada (RFC 1918)
	"198.18.0.0/15",   // pruebas de rendimiento
	"198.51.100.0/24", // documentación (TEST-NET-2)
	"203.0.113.0/24",  // documentación (TEST-NET-3)
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reservada, con 255.255.255.255
)

// IPv6 va con lista blanca: solo el unicast global, menos lo que no es de internet.
var (
	ipv6Global     = netip.MustParsePrefix("2000::/3")
	ipv6Prohibidas = prefijos(
		"2001::/23",     // protocolos del IETF: Teredo, pruebas, ORCHID…
		"2001:db8::/32", // documentación
		"3fff::/20",     // documentación
		"5f00::/16",     // segment routing (SRv6)
	)
)

// Formatos IPv6 que llevan una IPv4 dentro: la IPv4 decide, antes que la lista
// blanca, para que ::ffff:8.8.8.8 pase y ::ffff:169.254.169.254 no.
var (
	mapeada     = netip.MustParsePrefix("::ffff:0:0/96") // RFC 4291
	compatible  = netip.MustParsePrefix("::/96")         // obsoleta; incluye :: y ::1
	nat64       = netip.MustParsePrefix("64:ff9b::/96")  // RFC 6052
	seisAcuatro = netip.MustParsePrefix("2002::/16")     // RFC 3056: bits 16 a 47
)

func prefijos(textos ...string) []netip.Prefix {
	lista := make([]netip.Prefix, len(textos))
	for i, t := range textos {
		lista[i] = netip.MustParsePrefix(t)
	}
	return lista
}

func enAlguno(lista []netip.Prefix, a netip.Addr) bool {
	for _, p := range lista {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Privada dice si una dirección es privada o reservada, es decir, si el revisor
// no debe conectarse a ella salvo que esté en la lista de permitidos.
// La zona (fe80::1%en0) no cuenta.
func Privada(a netip.Addr) bool {
	if !a.IsValid() {
		return true
	}
	a = a.WithZone("")
	if a.Is4() {
		return enAlguno(ipv4Prohibidas, a)
	}
	if v4, ok := ipv4Embebida(a); ok {
		return enAlguno(ipv4Prohibidas, v4)
	}
	return !ipv6Global.Contains(a) || enAlguno(ipv6Prohibidas, a)
}

// ipv4Embebida saca la IPv4 de las formas mapeada, compatible, NAT64 y 6to4.
func ipv4Embebida(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case mapeada.Contains(a), compatible.Contains(a), nat64.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case seisAcuatro.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}
