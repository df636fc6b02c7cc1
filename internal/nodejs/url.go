package nodejs

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// URL is what the revisor needs of an address read as JavaScript's new URL() reads it (the WHATWG
// URL Standard).
type URL struct {
	// Esquema in lower case, with its colon: "http:", "https:", "ftp:"…
	Esquema string
	// Host as url.hostname, without brackets: a name in lower case, IPv4 in dotted decimal, IPv6
	// compressed in lower case ("::ffff:a9fe:a9fe").
	Host string
	// IP is the address when Host is an IP literal; otherwise the zero IP.
	IP netip.Addr
	// Puerto as url.port: "" when absent or the scheme's own.
	Puerto string
	// Ruta is what goes on the request line: the normalised path and, when present, "?query".
	// Only computed for special schemes.
	Ruta string
	// ConCredenciales reports whether the URL carries a user or password (user@host).
	ConCredenciales bool
}

// ErrNoEsURL is LeerURL's error: new URL() would throw.
var ErrNoEsURL = errors.New("no es una URL")

// puertoEspecial gives a special scheme's default port (file has none) and whether the scheme is
// special.
func puertoEspecial(esquema string) (string, bool) {
	switch esquema {
	case "http", "ws":
		return "80", true
	case "https", "wss":
		return "443", true
	case "ftp":
		return "21", true
	case "file":
		return "", true
	}
	return "", false
}

// PuertoEfectivo is the port connected to: the one written or the scheme's.
func (u URL) PuertoEfectivo() string {
	if u.Puerto != "" {
		return u.Puerto
	}
	p, _ := puertoEspecial(strings.TrimSuffix(u.Esquema, ":"))
	return p
}

// EsHTTP reports whether the scheme is http: or https:, the registration's check.
func (u URL) EsHTTP() bool { return u.Esquema == "http:" || u.Esquema == "https:" }

// LeerURL reads texto as new URL(texto) without a base. It follows the WHATWG standard in what
// decides where to connect: scheme, authority, host (IPv4 in all its forms, IPv6) and port. Limit:
// a host with letters outside ASCII is refused, because full IDNA mapping (UTS 46) is not in the
// standard library.
func LeerURL(texto string) (URL, error) {
	s := limpiar(texto)
	// Scheme: a letter, then letters, digits, + - and . up to ":".
	if s == "" || !esLetra(s[0]) {
		return URL{}, ErrNoEsURL
	}
	i := 1
	for i < len(s) && (esLetra(s[i]) || esDigito(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.') {
		i++
	}
	if i >= len(s) || s[i] != ':' {
		return URL{}, ErrNoEsURL
	}
	esquema := strings.ToLower(s[:i])
	resto := s[i+1:]
	u := URL{Esquema: esquema + ":"}
	defecto, especial := puertoEspecial(esquema)
	switch {
	case esquema == "file":
		// file: is of no interest to the revisor beyond being a URL, but new URL() still reads its
		// host ("file:// 0" throws), unless it is a Windows drive letter, which starts the path.
		if len(resto) >= 2 && strings.ContainsRune(`/\`, rune(resto[0])) && strings.ContainsRune(`/\`, rune(resto[1])) {
			host := resto[2:]
			if fin := strings.IndexAny(host, `/\?#`); fin >= 0 {
				host = host[:fin]
			}
			unidad := len(host) == 2 && esLetra(host[0]) && (host[1] == ':' || host[1] == '|')
			if host != "" && !unidad {
				if _, _, err := leerHost(host); err != nil {
					return URL{}, err
				}
			}
		}
		return u, nil
	case especial:
		// Any number of / or \ (none included) before the authority.
		resto = strings.TrimLeft(resto, `/\`)
	case strings.HasPrefix(resto, "//"):
		resto = resto[2:]
	default:
		// An opaque path (mailto:, javascript:…) always reads.
		return u, nil
	}

	// The authority ends at / ? # (and \ in special schemes).
	fin := strings.IndexAny(resto, "/?#")
	if especial {
		fin = strings.IndexAny(resto, `/?#\`)
	}
	if fin < 0 {
		fin = len(resto)
	}
	autoridad, cola := resto[:fin], resto[fin:]
	// The last @ separates the credentials from the host.
	if arroba := strings.LastIndexByte(autoridad, '@'); arroba >= 0 {
		// "user:pass@"; an empty user and an empty password (":@", "@") are no credentials.
		usuario, clave, _ := strings.Cut(autoridad[:arroba], ":")
		u.ConCredenciales = usuario != "" || clave != ""
		autoridad = autoridad[arroba+1:]
		if autoridad == "" {
			return URL{}, ErrNoEsURL
		}
	}
	// A colon outside brackets separates the port.
	host, puerto, conPuerto := autoridad, "", false
	dentro := false
	for j := 0; j < len(autoridad); j++ {
		switch autoridad[j] {
		case '[':
			dentro = true
		case ']':
			dentro = false
		case ':':
			if !dentro {
				host, puerto, conPuerto = autoridad[:j], autoridad[j+1:], true
			}
		}
		if conPuerto {
			break
		}
	}
	if host == "" && (especial || conPuerto) {
		return URL{}, ErrNoEsURL
	}
	if host != "" {
		var err error
		if especial {
			u.Host, u.IP, err = leerHost(host)
		} else {
			u.Host, err = leerHostOpaco(host)
		}
		if err != nil {
			return URL{}, err
		}
	}
	if puerto != "" {
		n := 0
		for j := 0; j < len(puerto); j++ {
			if !esDigito(puerto[j]) {
				return URL{}, ErrNoEsURL
			}
			n = n*10 + int(puerto[j]-'0')
			if n > 65535 {
				return URL{}, ErrNoEsURL
			}
		}
		if p := strconv.Itoa(n); p != defecto || !especial {
			u.Puerto = p
		}
	}
	if especial {
		u.Ruta = leerRuta(cola)
	}
	return u, nil
}

// limpiar strips C0 controls and spaces from both ends, and tabs and newlines from anywhere, as the
// standard's first step does.
func limpiar(texto string) string {
	s := strings.TrimFunc(texto, func(r rune) bool { return r <= 0x20 })
	if !strings.ContainsAny(s, "\t\r\n") {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
}

func esLetra(c byte) bool  { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
func esDigito(c byte) bool { return '0' <= c && c <= '9' }

func esHex(c byte) bool {
	return esDigito(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// digito is a hexadecimal digit's value, for callers that checked it is one.
func digito(c byte) int {
	v, _ := valorHex(c)
	return int(v)
}

// prohibidoEnHost is the standard's forbidden host code points.
func prohibidoEnHost(c byte) bool {
	return strings.IndexByte("\x00\t\n\r #/:<>?@[\\]^|", c) >= 0
}

// prohibidoEnDominio adds the C0 controls, % and DEL (forbidden domain code points).
func prohibidoEnDominio(c byte) bool {
	return prohibidoEnHost(c) || c < 0x20 || c == '%' || c == 0x7F
}

// leerHost follows the host parser for special schemes.
func leerHost(entrada string) (string, netip.Addr, error) {
	if entrada[0] == '[' {
		if entrada[len(entrada)-1] != ']' || len(entrada) < 2 {
			return "", netip.Addr{}, ErrNoEsURL
		}
		piezas, ok := leerIPv6(entrada[1 : len(entrada)-1])
		if !ok {
			return "", netip.Addr{}, ErrNoEsURL
		}
		var b [16]byte
		for i, p := range piezas {
			b[2*i], b[2*i+1] = byte(p>>8), byte(p)
		}
		return escribirIPv6(piezas), netip.AddrFrom16(b), nil
	}
	dominio := decodificarPorcentajes(entrada)
	var b strings.Builder
	for i := 0; i < len(dominio); i++ {
		c := dominio[i]
		if c >= 0x80 {
			// Without UTS 46 tables it cannot be turned into ASCII as a browser does: refused.
			return "", netip.Addr{}, ErrNoEsURL
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if prohibidoEnDominio(c) {
			return "", netip.Addr{}, ErrNoEsURL
		}
		b.WriteByte(c)
	}
	ascii := b.String()
	for _, etiqueta := range strings.Split(ascii, ".") {
		if strings.HasPrefix(etiqueta, "xn--") && !punycodeValido(etiqueta[4:]) {
			return "", netip.Addr{}, ErrNoEsURL
		}
	}
	if terminaEnNumero(ascii) {
		ip, ok := leerIPv4(ascii)
		if !ok {
			return "", netip.Addr{}, ErrNoEsURL
		}
		addr := netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)})
		return addr.String(), addr, nil
	}
	return ascii, netip.Addr{}, nil
}

// leerHostOpaco follows the opaque-host parser of non-special schemes.
func leerHostOpaco(entrada string) (string, error) {
	if entrada[0] == '[' {
		h, _, err := leerHost(entrada)
		return h, err
	}
	for i := 0; i < len(entrada); i++ {
		if prohibidoEnHost(entrada[i]) {
			return "", ErrNoEsURL
		}
	}
	return Escapar(entrada, EnHostOpaco), nil
}

func decodificarPorcentajes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && esHex(s[i+1]) && esHex(s[i+2]) {
			b.WriteByte(byte(digito(s[i+1])<<4 | digito(s[i+2])))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// terminaEnNumero decides whether the host reads as IPv4 (the standard's "ends in a number").
func terminaEnNumero(s string) bool {
	partes := strings.Split(s, ".")
	if partes[len(partes)-1] == "" {
		if len(partes) == 1 {
			return false
		}
		partes = partes[:len(partes)-1]
	}
	ultima := partes[len(partes)-1]
	if ultima != "" && strings.Trim(ultima, "0123456789") == "" {
		return true
	}
	_, ok := numeroIPv4(ultima)
	return ok
}

// numeroIPv4 reads a part in decimal, hexadecimal (0x) or octal (a leading 0). It saturates at 2^33
// so as not to overflow: any such value is already invalid.
func numeroIPv4(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !esHex(c) || uint64(digito(c)) >= base || (base == 10 && !esDigito(c)) {
			return 0, false
		}
		if n < 1<<33 {
			n = n*base + uint64(digito(c))
		}
	}
	return n, true
}

// leerIPv4 follows the IPv4 parser: one to four parts, the last one filling the missing bytes.
func leerIPv4(s string) (uint32, bool) {
	partes := strings.Split(s, ".")
	if partes[len(partes)-1] == "" && len(partes) > 1 {
		partes = partes[:len(partes)-1]
	}
	if len(partes) > 4 {
		return 0, false
	}
	numeros := make([]uint64, len(partes))
	for i, p := range partes {
		n, ok := numeroIPv4(p)
		if !ok {
			return 0, false
		}
		if i < len(partes)-1 && n > 255 {
			return 0, false
		}
		numeros[i] = n
	}
	ultimo := numeros[len(numeros)-1]
	if ultimo >= 1<<(8*(5-len(numeros))) {
		return 0, false
	}
	ip := ultimo
	for i, n := range numeros[:len(numeros)-1] {
		ip += n << (8 * (3 - i))
	}
	return uint32(ip), true
}

// leerIPv6 follows the standard's IPv6 parser (an IPv4 address at the end is allowed, a zone is not).
func leerIPv6(s string) ([8]uint16, bool) {
	var dir [8]uint16
	pieza, comprimir := 0, -1
	p := 0
	c := func() int {
		if p < len(s) {
			return int(s[p])
		}
		return -1
	}
	if c() == ':' {
		if !strings.HasPrefix(s[p:], "::") {
			return dir, false
		}
		p += 2
		pieza++
		comprimir = pieza
	}
	for c() != -1 {
		if pieza == 8 {
			return dir, false
		}
		if c() == ':' {
			if comprimir != -1 {
				return dir, false
			}
			p++
			pieza++
			comprimir = pieza
			continue
		}
		valor, largo := 0, 0
		for largo < 4 && c() != -1 && esHex(byte(c())) {
			valor = valor*16 + digito(byte(c()))
			p++
			largo++
		}
		if c() == '.' {
			if largo == 0 {
				return dir, false
			}
			p -= largo
			if pieza > 6 {
				return dir, false
			}
			vistos := 0
			for c() != -1 {
				parte := -1
				if vistos > 0 {
					if c() == '.' && vistos < 4 {
						p++
					} else {
						return dir, false
					}
				}
				if c() == -1 || !esDigito(byte(c())) {
					return dir, false
				}
				for c() != -1 && esDigito(byte(c())) {
					n := c() - '0'
					switch parte {
					case -1:
						parte = n
					case 0:
						return dir, false
					default:
						parte = parte*10 + n
					}
					if parte > 255 {
						return dir, false
					}
					p++
				}
				dir[pieza] = dir[pieza]<<8 | uint16(parte)
				vistos++
				if vistos == 2 || vistos == 4 {
					pieza++
				}
			}
			if vistos != 4 {
				return dir, false
			}
			break
		} else if c() == ':' {
			p++
			if c() == -1 {
				return dir, false
			}
		} else if c() != -1 {
			return dir, false
		}
		dir[pieza] = uint16(valor)
		pieza++
	}
	if comprimir != -1 {
		cambios := pieza - comprimir
		pieza = 7
		for pieza != 0 && cambios > 0 {
			dir[pieza], dir[comprimir+cambios-1] = dir[comprimir+cambios-1], dir[pieza]
			pieza--
			cambios--
		}
	} else if pieza != 8 {
		return dir, false
	}
	return dir, true
}

// escribirIPv6 is the IPv6 serializer: lower-case hex, the first longest run of zeros (two or
// more) as "::", and never the form with IPv4 at the end.
func escribirIPv6(dir [8]uint16) string {
	inicio, largo := -1, 1
	for i := 0; i < 8; {
		if dir[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && dir[j] == 0 {
			j++
		}
		if j-i > largo {
			inicio, largo = i, j-i
		}
		i = j
	}
	var b strings.Builder
	for i := 0; i < 8; i++ {
		if i == inicio {
			if i == 0 {
				b.WriteString("::")
			} else {
				b.WriteByte(':')
			}
			i += largo - 1
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(dir[i]), 16))
		if i < 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}

// FormatoIP writes an address as JavaScript writes it in url.hostname (no brackets, no zone): IPv4
// dotted, IPv6 compressed in hex.
func FormatoIP(a netip.Addr) string {
	if a.Is4() {
		return a.String()
	}
	b := a.As16()
	var dir [8]uint16
	for i := range dir {
		dir[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return escribirIPv6(dir)
}

// leerRuta normalises a special URL's path and query as the standard does (Ruta and
// Escapar) and joins them as fetch writes the request line, pathname + search: the fragment
// (#…) does not travel, and neither does an empty query ("/x?" goes as "/x", search being "").
func leerRuta(cola string) string {
	ruta, consulta, _ := Partir(cola)
	// The path starts after the / or \ that closed the authority.
	if ruta != "" {
		ruta = ruta[1:]
	}
	r := Ruta(ruta)
	if consulta != "" {
		r += "?" + Escapar(consulta, EnConsulta)
	}
	return r
}
