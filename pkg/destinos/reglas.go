package destinos

import "net/netip"

// Source: IANA's special-purpose address registries (IPv4 and IPv6) and the OWASP SSRF Prevention
// Cheat Sheet; the same lists as the course.

// IPv4 goes by a deny list: there is no "global" block that could be allowed whole.
var ipv4Prohibidas = prefijos(
	"0.0.0.0/8",       // "this network"
	"10.0.0.0/8",      // private (RFC 1918)
	"100.64.0.0/10",   // shared address space (CGNAT); Alibaba Cloud metadata
	"127.0.0.0/8",     // loopback
	"169.254.0.0/16",  // link local: cloud metadata
	"172.16.0.0/12",   // private (RFC 1918)
	"192.0.0.0/24",    // IETF protocol assignments
	"192.0.2.0/24",    // documentation (TEST-NET-1)
	"192.88.99.0/24",  // 6to4 relay, deprecated
	"192.168.0.0/16",  // private (RFC 1918)
	"198.18.0.0/15",   // benchmarking
	"198.51.100.0/24", // documentation (TEST-NET-2)
	"203.0.113.0/24",  // documentation (TEST-NET-3)
	"224.0.0.0/4",     // multicast
	"240.0.0.0/4",     // reserved, 255.255.255.255 included
)

// IPv6 goes by an allow list: only global unicast, less what is not on the internet.
var (
	ipv6Global     = netip.MustParsePrefix("2000::/3")
	ipv6Prohibidas = prefijos(
		"2001::/23",     // IETF protocols: Teredo, benchmarking, ORCHID…
		"2001:db8::/32", // documentation
		"3fff::/20",     // documentation
		"5f00::/16",     // segment routing (SRv6)
	)
)

// IPv6 forms that carry an IPv4 address: the IPv4 address decides, before the allow list, so that
// ::ffff:8.8.8.8 passes and ::ffff:169.254.169.254 does not.
var (
	mapeada     = netip.MustParsePrefix("::ffff:0:0/96") // RFC 4291
	compatible  = netip.MustParsePrefix("::/96")         // deprecated; includes :: and ::1
	nat64       = netip.MustParsePrefix("64:ff9b::/96")  // RFC 6052
	seisAcuatro = netip.MustParsePrefix("2002::/16")     // RFC 3056: bits 16 to 47
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

// Privada reports whether an address is private or reserved, that is, whether the revisor must not
// connect to it unless it is on the allowed list. The zone (fe80::1%en0) does not count.
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

// ipv4Embebida takes the IPv4 address out of the mapped, compatible, NAT64 and 6to4 forms.
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
