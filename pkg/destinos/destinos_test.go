package destinos

import (
	"context"
	"cursohttp/internal/nodejs"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"cursohttp/pkg/curso"
)

// dnsFijo is a fake DNS: each name always answers the same.
type dnsFijo map[string][]netip.Addr

func (d dnsFijo) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	direcciones, ok := d[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return direcciones, nil
}

// dnsCambiante answers the first address to the first query and the second to the rest: DNS
// rebinding.
type dnsCambiante struct {
	mu               sync.Mutex
	consultas        int
	primera, despues netip.Addr
}

func (d *dnsCambiante) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.consultas++
	if d.consultas == 1 {
		return []netip.Addr{d.primera}, nil
	}
	return []netip.Addr{d.despues}, nil
}

func ips(textos ...string) []netip.Addr {
	lista := make([]netip.Addr, len(textos))
	for i, t := range textos {
		lista[i] = netip.MustParseAddr(t)
	}
	return lista
}

// revisarDestino's verdicts (fig07_01/destinos.ts) with REVISOR_DESTINOS unset.
var veredictosDeNode = []struct {
	url       string
	permitido bool
	motivo    string
}{
	{"http://169.254.169.254/latest/meta-data/", false, "169.254.169.254:80: dirección privada o reservada"},
	{"http://100.100.100.200/", false, "100.100.100.200:80: dirección privada o reservada"},
	{"http://[64:ff9b::a9fe:a9fe]/", false, "[64:ff9b::a9fe:a9fe]:80: dirección privada o reservada"},
	{"http://224.0.0.1/", false, "224.0.0.1:80: dirección privada o reservada"},
	{"http://[ff02::1]/", false, "[ff02::1]:80: dirección privada o reservada"},
	{"http://[2002:a9fe:a9fe::]/", false, "[2002:a9fe:a9fe::]:80: dirección privada o reservada"},
	{"http://[::7f00:1]/", false, "[::7f00:1]:80: dirección privada o reservada"},
	{"http://[64:ff9b:1::a9fe:a9fe]/", false, "[64:ff9b:1::a9fe:a9fe]:80: dirección privada o reservada"},
	{"http://240.0.0.1/", false, "240.0.0.1:80: dirección privada o reservada"},
	{"http://198.18.0.1/", false, "198.18.0.1:80: dirección privada o reservada"},
	{"http://192.0.2.1/", false, "192.0.2.1:80: dirección privada o reservada"},
	{"http://[2001:db8::1]/", false, "[2001:db8::1]:80: dirección privada o reservada"},
	{"http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", false, "[2001:0:4136:e378:8000:63bf:3fff:fdd2]:80: dirección privada o reservada"},
	{"http://[::ffff:169.254.169.254]/", false, "[::ffff:a9fe:a9fe]:80: dirección privada o reservada"},
	{"http://[::ffff:8.8.8.8]/", true, ""},
	{"http://[2002:808:808::]/", true, ""},
	{"http://[::1]/", false, "[::1]:80: dirección privada o reservada"},
	{"http://[fe80::1%25en0]/", false, "no es una URL"},
	{"http://[fe80::1]:8080/", false, "[fe80::1]:8080: dirección privada o reservada"},
	{"http://127.0.0.1:18081/codigo/200", true, ""},
	{"http://127.0.0.1:18082/", false, "127.0.0.1:18082: dirección privada o reservada"},
	{"http://2130706433:18081/", true, ""},
	{"http://0x7f.1:18081/", true, ""},
	{"http://0177.0.0.1/", false, "127.0.0.1:80: dirección privada o reservada"},
	{"https://127.0.0.1:18081/", true, ""},
	{"http://[::ffff:127.0.0.1]:18081/", false, "[::ffff:7f00:1]:18081: dirección privada o reservada"},
	{"http://8.8.8.8/", true, ""},
	{"https://1.1.1.1:8443/", true, ""},
	{"http://0.0.0.0/", false, "0.0.0.0:80: dirección privada o reservada"},
	{"http://0/", false, "0.0.0.0:80: dirección privada o reservada"},
	{"http://10.1.2.3/", false, "10.1.2.3:80: dirección privada o reservada"},
	{"http://172.16.0.1/", false, "172.16.0.1:80: dirección privada o reservada"},
	{"http://172.32.0.1/", true, ""},
	{"http://192.168.1.1/", false, "192.168.1.1:80: dirección privada o reservada"},
	{"http://192.88.99.1/", false, "192.88.99.1:80: dirección privada o reservada"},
	{"http://198.51.100.1/", false, "198.51.100.1:80: dirección privada o reservada"},
	{"http://203.0.113.1/", false, "203.0.113.1:80: dirección privada o reservada"},
	{"http://255.255.255.255/", false, "255.255.255.255:80: dirección privada o reservada"},
	{"http://100.63.255.255/", true, ""},
	{"http://100.128.0.0/", true, ""},
	{"http://192.0.0.1/", false, "192.0.0.1:80: dirección privada o reservada"},
	{"http://[::]/", false, "[::]:80: dirección privada o reservada"},
	{"http://[fc00::1]/", false, "[fc00::1]:80: dirección privada o reservada"},
	{"http://[100::1]/", false, "[100::1]:80: dirección privada o reservada"},
	{"http://[2001:200::1]/", true, ""},
	{"http://[2001:4860:4860::8888]/", true, ""},
	{"http://[3fff::1]/", false, "[3fff::1]:80: dirección privada o reservada"},
	{"http://[5f00::1]/", false, "[5f00::1]:80: dirección privada o reservada"},
	{"http://[4000::1]/", false, "[4000::1]:80: dirección privada o reservada"},
	{"http://[2001:1ff::1]/", false, "[2001:1ff::1]:80: dirección privada o reservada"},
	{"http://[::ffff:10.0.0.1]/", false, "[::ffff:a00:1]:80: dirección privada o reservada"},
	{"http://[64:ff9b::808:808]/", true, ""},
	{"http://[2002:c0a8:101::1]/", false, "[2002:c0a8:101::1]:80: dirección privada o reservada"},
	{"ftp://1.2.3.4/", false, "solo http o https"},
	{"foo", false, "no es una URL"},
	{"mailto:a@b", false, "solo http o https"},
	{"http://a%25b/", false, "no es una URL"},
	{"http://[1:2:3:4:5:6:7:8]/", false, "[1:2:3:4:5:6:7:8]:80: dirección privada o reservada"},
	{"http://[2001:db8:0:0:1:0:0:1]/", false, "[2001:db8::1:0:0:1]:80: dirección privada o reservada"},
}

func TestRevisarComoNode(t *testing.T) {
	t.Parallel()
	v := Nuevo(nil, dnsFijo{})
	for _, c := range veredictosDeNode {
		got := v.Revisar(context.Background(), c.url)
		if got.Permitido != c.permitido || got.Motivo != c.motivo {
			t.Errorf("Revisar(%q) = %v %q; Node: %v %q", c.url, got.Permitido, got.Motivo, c.permitido, c.motivo)
		}
	}
}

// With REVISOR_DESTINOS=" [::1]:18081 , 10.0.0.1:80,[::ffff:7f00:1]:18081", as in Node.
func TestRevisarPermitidosConfigurados(t *testing.T) {
	t.Parallel()
	v := Nuevo(LeerPermitidos(" [::1]:18081 , 10.0.0.1:80,[::ffff:7f00:1]:18081"), dnsFijo{"localhost": ips("127.0.0.1")})
	casos := []struct {
		url       string
		permitido bool
		motivo    string
	}{
		{"http://[::1]:18081/", true, ""},
		{"http://[0:0::1]:18081/", true, ""},
		{"http://10.0.0.1/", true, ""},
		{"http://10.0.0.1:81/", false, "10.0.0.1:81: dirección privada o reservada"},
		{"http://127.0.0.1:18081/", false, "127.0.0.1:18081: dirección privada o reservada"},
		{"http://[::ffff:127.0.0.1]:18081/", true, ""},
		{"http://localhost:18081/", false, "localhost resuelve a una dirección privada o reservada"},
	}
	for _, c := range casos {
		got := v.Revisar(context.Background(), c.url)
		if got.Permitido != c.permitido || got.Motivo != c.motivo {
			t.Errorf("Revisar(%q) = %v %q; quiero %v %q", c.url, got.Permitido, got.Motivo, c.permitido, c.motivo)
		}
	}
}

func TestRevisarNombres(t *testing.T) {
	t.Parallel()
	dns := dnsFijo{
		"publico.example": ips("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"),
		"mixto.example":   ips("8.8.8.8", "10.0.0.1"), // one bad address is enough
		"local.example":   ips("::1"),
		"vacio.example":   {},
		"mapeado.example": ips("::ffff:127.0.0.1"), // resolvers that return the mapped IPv4 address
		"localhost":       ips("127.0.0.1", "::1"),
	}
	v := Nuevo(nil, dns)
	casos := []struct {
		url         string
		permitido   bool
		motivo      string
		direcciones []string
	}{
		{"http://publico.example/", true, "", []string{"93.184.216.34:80", "[2606:2800:220:1:248:1893:25c8:1946]:80"}},
		{"https://PUBLICO.example:8443/x", true, "", []string{"93.184.216.34:8443", "[2606:2800:220:1:248:1893:25c8:1946]:8443"}},
		{"http://mixto.example/", false, "mixto.example resuelve a una dirección privada o reservada", nil},
		{"http://local.example/", false, "local.example resuelve a una dirección privada o reservada", nil},
		{"http://nada.example/", false, "el nombre nada.example no se pudo resolver", nil},
		{"http://vacio.example/", false, "el nombre vacio.example no se pudo resolver", nil},
		{"http://mapeado.example:18081/", true, "", []string{"127.0.0.1:18081"}},
		{"http://localhost:18080/", false, "localhost resuelve a una dirección privada o reservada", nil},
		// localhost also gives ::1, which is not allowed: refused whole.
		{"http://localhost:18081/", false, "localhost resuelve a una dirección privada o reservada", nil},
		{"http://127.0.0.1:18081/codigo/200", true, "", []string{"127.0.0.1:18081"}},
	}
	for _, c := range casos {
		got := v.Revisar(context.Background(), c.url)
		var dirs []string
		for _, d := range got.Direcciones {
			dirs = append(dirs, d.String())
		}
		if got.Permitido != c.permitido || got.Motivo != c.motivo || !slices.Equal(dirs, c.direcciones) {
			t.Errorf("Revisar(%q) = %v %q %v; quiero %v %q %v", c.url, got.Permitido, got.Motivo, dirs, c.permitido, c.motivo, c.direcciones)
		}
	}
}

func TestPrivada(t *testing.T) {
	t.Parallel()
	prohibidas := []string{
		"0.0.0.0", "0.255.255.255", "10.0.0.0", "10.255.255.255", "100.64.0.0", "100.127.255.255",
		"127.0.0.1", "127.255.255.255", "169.254.0.0", "169.254.169.254", "172.16.0.0", "172.31.255.255",
		"192.0.0.0", "192.0.0.255", "192.0.2.0", "192.0.2.255", "192.88.99.0", "192.88.99.255",
		"192.168.0.0", "192.168.255.255", "198.18.0.0", "198.19.255.255", "198.51.100.0", "198.51.100.255",
		"203.0.113.0", "203.0.113.255", "224.0.0.0", "239.255.255.255", "240.0.0.0", "255.255.255.255",
		// IPv6 outside 2000::/3 or in its reserved blocks.
		"::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%en0", "ff02::1", "100::1", "64:ff9b:1::a9fe:a9fe",
		"4000::1", "2001::1", "2001:1ff:ffff::1", "2001:db8::1", "3fff::1", "3fff:fff::1", "5f00::1",
		// A bad embedded IPv4 address.
		"::ffff:169.254.169.254", "::ffff:127.0.0.1", "::7f00:1", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::",
		"2002:7f00:1::1", "::ffff:10.0.0.1",
	}
	publicas := []string{
		"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255",
		"128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.0.3.0",
		"192.88.98.255", "192.88.100.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0",
		"203.0.112.255", "223.255.255.255",
		"2001:200::1", "2001:4860:4860::8888", "2606:4700::1111", "3ffe:ffff::1", "3fff:1000::1",
		"::ffff:8.8.8.8", "::8.8.8.8", "64:ff9b::808:808", "2002:808:808::", "2002:808:808::1",
	}
	for _, s := range prohibidas {
		if !Privada(netip.MustParseAddr(s)) {
			t.Errorf("Privada(%s) = false", s)
		}
	}
	for _, s := range publicas {
		if Privada(netip.MustParseAddr(s)) {
			t.Errorf("Privada(%s) = true", s)
		}
	}
	if !Privada(netip.Addr{}) {
		t.Error("la dirección cero debe tratarse como prohibida")
	}
}

func TestLeerPermitidos(t *testing.T) {
	t.Parallel()
	if got := LeerPermitidos(" 127.0.0.1:18081 ,[::1]:80,"); !slices.Equal(got, []string{"127.0.0.1:18081", "[::1]:80", ""}) {
		t.Errorf("LeerPermitidos = %q", got)
	}
	if err := ValidarPermitidos([]string{"127.0.0.1:18081", "[::1]:80", ""}); err != nil {
		t.Errorf("ValidarPermitidos: %v", err)
	}
	if err := ValidarPermitidos([]string{"localhost:18081", "::1:80"}); err == nil || !strings.Contains(err.Error(), `«localhost:18081», «::1:80»`) {
		t.Errorf("ValidarPermitidos con malas = %v", err)
	}
	// An empty list allows nothing private; nil is the default one.
	if v := Nuevo([]string{}, dnsFijo{}); v.Revisar(context.Background(), "http://127.0.0.1:18081/").Permitido {
		t.Error("lista vacía permitió 127.0.0.1:18081")
	}
	if v := Nuevo(nil, dnsFijo{}); !v.Revisar(context.Background(), "http://127.0.0.1:18081/").Permitido {
		t.Error("la lista por omisión no permitió 127.0.0.1:18081")
	}
}

// servidorContado starts a server on 127.0.0.1:0 that counts the connections it accepts.
func servidorContado(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conexiones atomic.Int64
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	s.Config.ConnState = func(_ net.Conn, estado http.ConnState) {
		if estado == http.StateNew {
			conexiones.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s, &conexiones
}

// The DNS answers a public IP at registration and 127.0.0.1 at connection: the check passes, but
// the connection is refused and nothing reaches the local server.
func TestDialContextFrenaElDNSRebinding(t *testing.T) {
	t.Parallel()
	servidor, conexiones := servidorContado(t)
	puerto := servidor.Listener.Addr().(*net.TCPAddr).Port
	dns := &dnsCambiante{primera: netip.MustParseAddr("93.184.216.34"), despues: netip.MustParseAddr("127.0.0.1")}
	v := Nuevo([]string{}, dns)
	url := "http://rebinding.example:" + strconv.Itoa(puerto) + "/"

	if veredicto := v.Revisar(context.Background(), url); !veredicto.Permitido {
		t.Fatalf("al registrar: %q", veredicto.Motivo)
	}
	cliente := &http.Client{Transport: v.Transporte()}
	respuesta, err := cliente.Get(url)
	if err == nil {
		respuesta.Body.Close()
		t.Fatal("la conexión se permitió tras el rebinding")
	}
	prohibido, ok := EsProhibido(err)
	if !ok {
		t.Fatalf("error %v no es *Prohibido", err)
	}
	if prohibido.Motivo != "rebinding.example resuelve a una dirección privada o reservada" {
		t.Errorf("motivo %q", prohibido.Motivo)
	}
	if n := conexiones.Load(); n != 0 {
		t.Errorf("el servidor local recibió %d conexiones", n)
	}
}

// A destination on the allowed list does connect, by IP and by name, and to the checked address
// (the resolver is asked once per connection).
func TestDialContextPermitido(t *testing.T) {
	t.Parallel()
	servidor, conexiones := servidorContado(t)
	destino := servidor.Listener.Addr().String()
	dns := &dnsCambiante{primera: netip.MustParseAddr("127.0.0.1"), despues: netip.MustParseAddr("127.0.0.1")}
	v := Nuevo([]string{destino}, dns)
	for _, url := range []string{"http://" + destino + "/", "http://laboratorio.example:" + destino[strings.LastIndexByte(destino, ':')+1:] + "/"} {
		cliente := &http.Client{Transport: v.Transporte()}
		respuesta, err := cliente.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		respuesta.Body.Close()
		if respuesta.StatusCode != http.StatusNoContent {
			t.Errorf("GET %s: %d", url, respuesta.StatusCode)
		}
		cliente.CloseIdleConnections()
	}
	if n := conexiones.Load(); n != 2 {
		t.Errorf("conexiones = %d, quiero 2", n)
	}
	if dns.consultas != 1 {
		t.Errorf("consultas al DNS = %d, quiero 1", dns.consultas)
	}
	// The same server off the list: refused by IP, in the course's words.
	_, err := Nuevo([]string{}, dns).DialContext(context.Background(), "tcp", destino)
	var prohibido *Prohibido
	if !errors.As(err, &prohibido) || prohibido.Motivo != destino+": dirección privada o reservada" {
		t.Errorf("DialContext(%s) = %v", destino, err)
	}
	if n := conexiones.Load(); n != 2 {
		t.Errorf("conexiones = %d tras el rechazo, quiero 2", n)
	}
}

func TestDialContextSinNombre(t *testing.T) {
	t.Parallel()
	v := Nuevo(nil, dnsFijo{})
	_, err := v.DialContext(context.Background(), "tcp", "nada.example:80")
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) {
		t.Errorf("error %v, quiero *net.DNSError (sin conexión)", err)
	}
	if _, err := v.DialContext(context.Background(), "udp", "8.8.8.8:53"); err == nil {
		t.Error("udp permitido")
	}
}

func FuzzRevisarIP(f *testing.F) {
	for _, s := range []string{"169.254.169.254", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::", "::ffff:8.8.8.8", "2002:808:808::", "::1", "fe80::1", "2001:db8::1"} {
		a := netip.MustParseAddr(s).As16()
		f.Add(a[:], uint16(80))
	}
	v := Nuevo(nil, dnsFijo{})
	f.Fuzz(func(t *testing.T, bytes []byte, puerto uint16) {
		if len(bytes) != 16 && len(bytes) != 4 {
			return
		}
		a, _ := netip.AddrFromSlice(bytes)
		privada := Privada(a)
		// The mapped form decides as its IPv4 address does.
		if a.Is4() && Privada(netip.AddrFrom16(a.As16())) != privada {
			t.Fatalf("%s y su forma mapeada discrepan", a)
		}
		texto := nodejs.FormatoIP(a)
		if a.Is6() {
			texto = "[" + texto + "]"
		}
		veredicto := v.Revisar(context.Background(), "http://"+texto+":"+strconv.Itoa(int(puerto))+"/")
		if veredicto.Motivo == "no es una URL" {
			t.Fatalf("%s no se pudo leer como URL", texto)
		}
		permitida := netip.AddrPortFrom(a, puerto) == netip.MustParseAddrPort(curso.DireccionLaboratorio)
		if veredicto.Permitido != (!privada || permitida) {
			t.Fatalf("Revisar(%s:%d) = %v, Privada = %v", texto, puerto, veredicto.Permitido, privada)
		}
	})
}
