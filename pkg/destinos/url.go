package destinos

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"

	"cursohttp/pkg/nodejs"
)

// URL es lo que el revisor necesita de una dirección leída como la lee
// new URL() de JavaScript (WHATWG URL Standard).
type URL struct {
	// Esquema en minúsculas y con los dos puntos: "http:", "https:", "ftp:"…
	Esquema string
	// Host como url.hostname, sin corchetes: nombre en minúsculas, IPv4 en
	// decimal con puntos, IPv6 comprimida en minúsculas ("::ffff:a9fe:a9fe").
	Host string
	// IP es la dirección cuando Host es una IP literal; si no, la IP cero.
	IP netip.Addr
	// Puerto como url.port: "" cuando no vino o es el de su esquema.
	Puerto string
	// Ruta es lo que va en la línea de petición: ruta normalizada y, si vino, "?consulta".
	// Solo se calcula para los esquemas especiales.
	Ruta string
	// ConCredenciales dice si la URL trae usuario o contraseña (usuario@host).
	ConCredenciales bool
}

// ErrNoEsURL es el error de LeerURL: new URL() lanzaría una excepción.
var ErrNoEsURL = errors.New("no es una URL")

// puertoEspecial da el puerto por omisión de un esquema especial (file no
// tiene) y si el esquema es especial.
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

// PuertoEfectivo es el puerto al que se conecta: el escrito o el de su esquema.
func (u URL) PuertoEfectivo() string {
	if u.Puerto != "" {
		return u.Puerto
	}
	p, _ := puertoEspecial(strings.TrimSuffix(u.Esquema, ":"))
	return p
}

// EsHTTP dice si el esquema es http: o https:, la validación del alta.
func (u URL) EsHTTP() bool { return u.Esquema == "http:" || u.Esquema == "https:" }

// LeerURL lee texto como new URL(texto) sin base. Sigue el estándar WHATWG en lo
// que decide a dónde se conecta: esquema, autoridad, host (IPv4 en todas sus
// formas, IPv6) y puerto. Límite: un host con letras fuera de ASCII se rechaza,
// porque el mapeo IDNA (UTS 46) completo no está en la biblioteca estándar.
func LeerURL(texto string) (URL, error) {
	s := limpiar(texto)
	// Esquema: una letra, luego letras, dígitos, + - y . hasta «:».
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
		// file: no interesa al revisor; basta con saber que es una URL.
		return u, nil
	case especial:
		// Cualquier cantidad de / o \ (incluso ninguna) antes de la autoridad.
		resto = strings.TrimLeft(resto, `/\`)
	case strings.HasPrefix(resto, "//"):
		resto = resto[2:]
	default:
		// Ruta opaca (mailto:, javascript:…): siempre se lee.
		return u, nil
	}

	// La autoridad termina en / ? # (y \ en los especiales).
	fin := strings.IndexAny(resto, "/?#")
	if especial {
		fin = strings.IndexAny(resto, `/?#\`)
	}
	if fin < 0 {
		fin = len(resto)
	}
	autoridad, cola := resto[:fin], resto[fin:]
	// El último @ separa las credenciales del host.
	if arroba := strings.LastIndexByte(autoridad, '@'); arroba >= 0 {
		u.ConCredenciales = arroba > 0
		autoridad = autoridad[arroba+1:]
		if autoridad == "" {
			return URL{}, ErrNoEsURL
		}
	}
	// Los dos puntos fuera de corchetes separan el puerto.
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

// limpiar quita los controles C0 y espacios de los extremos, y los tabuladores
// y saltos de línea de cualquier parte, como el primer paso del estándar.
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

func valorHex(c byte) int {
	switch {
	case esDigito(c):
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

// prohibidoEnHost son los forbidden host code points del estándar.
func prohibidoEnHost(c byte) bool {
	return strings.IndexByte("\x00\t\n\r #/:<>?@[\\]^|", c) >= 0
}

// prohibidoEnDominio añade los controles C0, % y DEL.
func prohibidoEnDominio(c byte) bool {
	return prohibidoEnHost(c) || c < 0x20 || c == '%' || c == 0x7F
}

// leerHost sigue el host parser para esquemas especiales.
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
			// Sin tablas UTS 46 no se puede pasar a ASCII como el navegador: se rechaza.
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

// leerHostOpaco sigue el opaque-host parser de los esquemas no especiales.
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
	return nodejs.Escapar(entrada, nodejs.EnHostOpaco), nil
}

func decodificarPorcentajes(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && esHex(s[i+1]) && esHex(s[i+2]) {
			b.WriteByte(byte(valorHex(s[i+1])<<4 | valorHex(s[i+2])))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// terminaEnNumero decide si el host se lee como IPv4 (ends in a number).
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

// numeroIPv4 lee una parte en decimal, hexadecimal (0x) u octal (0 delante).
// Satura en 2^33 para no desbordar: cualquier valor así ya es inválido.
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
		if !esHex(c) || uint64(valorHex(c)) >= base || (base == 10 && !esDigito(c)) {
			return 0, false
		}
		if n < 1<<33 {
			n = n*base + uint64(valorHex(c))
		}
	}
	return n, true
}

// leerIPv4 sigue el IPv4 parser: de una a cuatro partes, la última llena los bytes que faltan.
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

// leerIPv6 sigue el IPv6 parser del estándar (admite la IPv4 al final, no admite zona).
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
			valor = valor*16 + valorHex(byte(c()))
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

// escribirIPv6 es el IPv6 serializer: hex en minúsculas, la primera racha más
// larga de ceros (dos o más) como «::», y nunca la forma con IPv4 al final.
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

// FormatoIP escribe una dirección como la escribe JavaScript en url.hostname
// (sin corchetes ni zona): IPv4 con puntos, IPv6 comprimida en hex.
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

// leerRuta normaliza ruta y consulta de un esquema especial como el estándar:
// \ vale como /, se resuelven . y .., y se codifica lo que no puede ir tal cual.
// El fragmento (#…) no viaja en la petición y se descarta.
func leerRuta(cola string) string {
	ruta, consulta, conConsulta := nodejs.Partir(cola)
	// La ruta empieza después de la / o \ que cierra la autoridad.
	if ruta != "" {
		ruta = ruta[1:]
	}
	r := nodejs.Ruta(ruta)
	if conConsulta {
		r += "?" + nodejs.Escapar(consulta, nodejs.EnConsulta)
	}
	return r
}
