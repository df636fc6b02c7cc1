package nodejs

import (
	"strconv"
	"strings"
	"testing"
)

// A table checked against Node 20's new URL() (the course's reference, with tsx): input, is it a
// URL?, protocol, hostname without brackets, port, pathname+search.
var urlsDeNode = []struct {
	entrada                     string
	ok                          bool
	esquema, host, puerto, ruta string
}{
	{"http://2130706433/", true, "http:", "127.0.0.1", "", "/"},
	{"http://0x7f.1/", true, "http:", "127.0.0.1", "", "/"},
	{"http://0177.0.0.1/", true, "http:", "127.0.0.1", "", "/"},
	{"  http://EXAMPLE.com  ", true, "http:", "example.com", "", "/"},
	{"\u0000http://a/\u001f", true, "http:", "a", "", "/"},
	{"ht\ttp://a\n.b/", true, "http:", "a.b", "", "/"},
	{"HTTP:\\\\a\\b", true, "http:", "a", "", "/b"},
	{"http:a.com", true, "http:", "a.com", "", "/"},
	{"http:////a.com", true, "http:", "a.com", "", "/"},
	{"http://u:p@a.com:080/", true, "http:", "a.com", "", "/"},
	{"http://a.com:65535/", true, "http:", "a.com", "65535", "/"},
	{"http://a.com:65536/", false, "", "", "", ""},
	{"http://a.com:/", true, "http:", "a.com", "", "/"},
	{"https://a.com:443/", true, "https:", "a.com", "", "/"},
	{"http://a.com:443/", true, "http:", "a.com", "443", "/"},
	{"http://%41.com/", true, "http:", "a.com", "", "/"},
	{"http://a%2525b/", false, "", "", "", ""},
	{"http://a%25b/", false, "", "", "", ""},
	{"http://1..2/", false, "", "", "", ""},
	{"http://foo.0x/", false, "", "", "", ""},
	{"http://foo.09/", false, "", "", "", ""},
	{"http://1.2.3.4./", true, "http:", "1.2.3.4", "", "/"},
	{"http://0x/", true, "http:", "0.0.0.0", "", "/"},
	{"http://0xffffffff/", true, "http:", "255.255.255.255", "", "/"},
	{"http://0x100000000/", false, "", "", "", ""},
	{"http://256.0.0.1/", false, "", "", "", ""},
	{"http://1.256/", true, "http:", "1.0.1.0", "", "/"},
	{"http://1.2.65536/", false, "", "", "", ""},
	{"http://1.2.3.4.5/", false, "", "", "", ""},
	{"http://1.2.3.4.5.a/", true, "http:", "1.2.3.4.5.a", "", "/"},
	{"http://09/", false, "", "", "", ""},
	{"http://08.1/", false, "", "", "", ""},
	{"http://[::ffff:169.254.169.254]/", true, "http:", "::ffff:a9fe:a9fe", "", "/"},
	{"http://[64:ff9b::a9fe:a9fe]/", true, "http:", "64:ff9b::a9fe:a9fe", "", "/"},
	{"http://[2002:a9fe:a9fe::]/", true, "http:", "2002:a9fe:a9fe::", "", "/"},
	{"http://[::1]/", true, "http:", "::1", "", "/"},
	{"http://[fe80::1%25en0]/", false, "", "", "", ""},
	{"http://[0:0:0:0:0:0:0:1]:8080/", true, "http:", "::1", "8080", "/"},
	{"http://[1:0:0:2:0:0:0:3]/", true, "http:", "1:0:0:2::3", "", "/"},
	{"http://[1:0:0:2:0:0:3:4]/", true, "http:", "1::2:0:0:3:4", "", "/"},
	{"http://[::ffff:8.8.8.8]/", true, "http:", "::ffff:808:808", "", "/"},
	{"http://[2002:808:808::]/", true, "http:", "2002:808:808::", "", "/"},
	{"http://[::7f00:1]/", true, "http:", "::7f00:1", "", "/"},
	{"http://[::1.2.3]/", false, "", "", "", ""},
	{"http://[::01.2.3.4]/", false, "", "", "", ""},
	{"http://[1::2::3]/", false, "", "", "", ""},
	{"http://[12345::]/", false, "", "", "", ""},
	{"http://[::]/", true, "http:", "::", "", "/"},
	{"http://[a:b:c:d:e:f:0:1]/", true, "http:", "a:b:c:d:e:f:0:1", "", "/"},
	{"http://[a:b:c:d:e:f:1.2.3.4]/", true, "http:", "a:b:c:d:e:f:102:304", "", "/"},
	{"http://[::1/", false, "", "", "", ""},
	{"http://a b/", false, "", "", "", ""},
	{"http://a<b/", false, "", "", "", ""},
	{"http://a^b/", false, "", "", "", ""},
	{"http://a|b/", false, "", "", "", ""},
	{"http://a%00b/", false, "", "", "", ""},
	{"http://a%7Fb/", false, "", "", "", ""},
	{"http://@a/", true, "http:", "a", "", "/"},
	{"http://a@/", false, "", "", "", ""},
	{"http://@/", false, "", "", "", ""},
	{"http://a@b@c/", true, "http:", "c", "", "/"},
	{"http://a:b:c@d/", true, "http:", "d", "", "/"},
	{"http:///", false, "", "", "", ""},
	{"http://", false, "", "", "", ""},
	{"http:", false, "", "", "", ""},
	{"ftp://cuentas", true, "ftp:", "cuentas", "", "/"},
	{"mailto:x@y", true, "mailto:", "", "", ""},
	{"foo", false, "", "", "", ""},
	{"1http://a/", false, "", "", "", ""},
	{"javascript:alert(1)", true, "javascript:", "", "", ""},
	{"file:///etc/passwd", true, "file:", "", "", ""},
	{"http://a.com\\@b.com/", true, "http:", "a.com", "", "/@b.com/"},
	{"http://a.com#@b.com/", true, "http:", "a.com", "", "/"},
	{"http://a.com?@b.com/", true, "http:", "a.com", "", "/?@b.com/"},
	{"http://xn--bcher-kva.example/", true, "http:", "xn--bcher-kva.example", "", "/"},
	{"http://xn--a/", false, "", "", "", ""},
	{"http://XN--BCHER-KVA.example/", true, "http:", "xn--bcher-kva.example", "", "/"},
	{"http://a..b/", true, "http:", "a..b", "", "/"},
	{"http://.a/", true, "http:", ".a", "", "/"},
	{"http://a./", true, "http:", "a.", "", "/"},
	{"http://./", true, "http:", ".", "", "/"},
	{"http://../", true, "http:", "..", "", "/"},
	{"http://a.com:8a/", false, "", "", "", ""},
	{"http://a.com:-1/", false, "", "", "", ""},
	{"http://a.com:0/", true, "http:", "a.com", "0", "/"},
	{"http://a.com:00080/", true, "http:", "a.com", "", "/"},
	{"http://a.com:99999999999999999999/", false, "", "", "", ""},
	{"http://0/", true, "http:", "0.0.0.0", "", "/"},
	{"http://0.0.0.0/", true, "http:", "0.0.0.0", "", "/"},
	{"http://127.1/", true, "http:", "127.0.0.1", "", "/"},
	{"http://[0::]/", true, "http:", "::", "", "/"},
	{"http://[::ffff:7f00:1]:18081/", true, "http:", "::ffff:7f00:1", "18081", "/"},
	{"http://localhost:18080/", true, "http:", "localhost", "18080", "/"},
	{"http://LOCALHOST/", true, "http:", "localhost", "", "/"},
	{"http://a b/", false, "", "", "", ""},
	{"http://a/b c/d?e f#g", true, "http:", "a", "", "/b%20c/d?e%20f"},
	{"http://a/./b/../c", true, "http:", "a", "", "/c"},
	{"http://a/%2e%2E/x", true, "http:", "a", "", "/x"},
	{"http://a?x", true, "http:", "a", "", "/?x"},
	{"http://a#x", true, "http:", "a", "", "/"},
	{"http://1.2.3.0x/", true, "http:", "1.2.3.0", "", "/"},
	{"http://1.2.3.08/", false, "", "", "", ""},
	{"http://1.2.3.0x1g/", true, "http:", "1.2.3.0x1g", "", "/"},
	{"http://0x.0x.0x.0x/", true, "http:", "0.0.0.0", "", "/"},
	{"http://[::ffff:1.2.3.4]/", true, "http:", "::ffff:102:304", "", "/"},
	{"http://[1:2:3:4:5:6:7::]/", true, "http:", "1:2:3:4:5:6:7:0", "", "/"},
	{"http://[1:2:3:4:5:6:7:8:9]/", false, "", "", "", ""},
	{"http://[:1]/", false, "", "", "", ""},
	{"http://[1:]/", false, "", "", "", ""},
	{"http://[::1.2.3.4]/", true, "http:", "::102:304", "", "/"},
	{"http://[fe80::1]/", true, "http:", "fe80::1", "", "/"},
	{"http://[FF02::1]/", true, "http:", "ff02::1", "", "/"},
	{"http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", true, "http:", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "", "/"},
	{"http://[64:ff9b:1::a9fe:a9fe]/", true, "http:", "64:ff9b:1::a9fe:a9fe", "", "/"},
	{"wss://a/", true, "wss:", "a", "", "/"},
	{"https:/a", true, "https:", "a", "", "/"},
	{"http://a:b@c:d/", false, "", "", "", ""},
	{"http://%30x7f.1/", true, "http:", "127.0.0.1", "", "/"},
	{"http://a%2Eb/", true, "http:", "a.b", "", "/"},
	{"http://%5B::1%5D/", false, "", "", "", ""},
	{"HTTPS://A.COM/", true, "https:", "a.com", "", "/"},
	{"http://xn--/", false, "", "", "", ""},
	{"http://xn--abc/", false, "", "", "", ""},
	{"http://xn--zca/", true, "http:", "xn--zca", "", "/"},
	{"http://xn--ls8h/", true, "http:", "xn--ls8h", "", "/"},
	{"http://xn--bcher-kva.xn--/", false, "", "", "", ""},
	{"http://xn--nxasmq6b/", true, "http:", "xn--nxasmq6b", "", "/"},
	{"http://xn--Nxasmq6b/", true, "http:", "xn--nxasmq6b", "", "/"},
	{"http://a/^`{}|", true, "http:", "a", "", "/^%60%7B%7D|"},
	{"http://a/?'\"<>^`{}", true, "http:", "a", "", "/?%27%22%3C%3E^`{}"},
	{"http://a/%zz", true, "http:", "a", "", "/%zz"},
	{"http://a/é", true, "http:", "a", "", "/%C3%A9"},
	{"http://a/?é", true, "http:", "a", "", "/?%C3%A9"},
	{"foo://a b/", false, "", "", "", ""},
	{"foo://a:99999/", false, "", "", "", ""},
	{"foo://:1/", false, "", "", "", ""},
	{"foo://a%/", true, "foo:", "a%", "", ""},
	{"foo://[::1]:5/", true, "foo:", "::1", "5", ""},
	{"ftp://a:21/", true, "ftp:", "a", "", "/"},
	{"ws://a:80/", true, "ws:", "a", "", "/"},
	{"http://a/b/..", true, "http:", "a", "", "/"},
	{"http://a/b/.", true, "http:", "a", "", "/b/"},
	{"http://a/..", true, "http:", "a", "", "/"},
	{"http://a/b/%2e%2e?x", true, "http:", "a", "", "/?x"},
	{"http://a/b/./?x", true, "http:", "a", "", "/b/?x"},
	{"http://a/?", true, "http:", "a", "", "/"}, // fetch sends pathname + search, and search is "" for an empty query
	{"http://a/??#", true, "http:", "a", "", "/??"},
	{"http://a", true, "http:", "a", "", "/"},
	{"http://a:1/\\x\\y", true, "http:", "a", "1", "//x/y"},
	// Node 20's Ada keeps a path as written when its first "/." is followed by another character
	// (AtajoDeAda); found by FuzzLeerURLComoNode (issue 35).
	{"http:0//.00/.#0", true, "http:", "0.0.0.0", "", "//.00/."},
	{"http:0//.00/.?x", true, "http:", "0.0.0.0", "", "//.00/.?x"},
	{"http://a/b/.x/../c", true, "http:", "a", "", "/b/.x/../c"},
	{"http:0//b/.#0", true, "http:", "0.0.0.0", "", "//b/"},
	{"http://a/.x/.", true, "http:", "a", "", "/.x/"},
	{"http://a/x/./.x/..", true, "http:", "a", "", "/x/"},
}

func TestLeerURLComoNode(t *testing.T) {
	t.Parallel()
	for _, c := range urlsDeNode {
		u, err := LeerURL(c.entrada)
		if (err == nil) != c.ok {
			t.Errorf("LeerURL(%q): error %v; Node dice ok=%v", c.entrada, err, c.ok)
			continue
		}
		if !c.ok {
			continue
		}
		if u.Esquema != c.esquema || u.Host != c.host || u.Puerto != c.puerto {
			t.Errorf("LeerURL(%q) = %q %q %q; Node: %q %q %q", c.entrada, u.Esquema, u.Host, u.Puerto, c.esquema, c.host, c.puerto)
		}
		if c.ruta != "" && u.Ruta != c.ruta {
			t.Errorf("LeerURL(%q).Ruta = %q; Node: %q", c.entrada, u.Ruta, c.ruta)
		}
	}
}

// A deliberate difference: without UTS 46 tables a Unicode host is not turned into ASCII; it is
// refused (Node converts it: bücher → xn--bcher-kva).
func TestLeerURLRechazaHostUnicode(t *testing.T) {
	t.Parallel()
	for _, entrada := range []string{"http://bücher.example/", "http://İ.com/", "http://b%C3%BCcher.example/"} {
		if _, err := LeerURL(entrada); err == nil {
			t.Errorf("LeerURL(%q) no falló", entrada)
		}
	}
}

// A known difference: an "xn--" label that decodes well but to characters UTS 46 forbids
// (xn--a-ecp is "a⒈") is accepted; its name then does not resolve. Those that do not decode are
// refused, as in Node.
func TestLeerURLPunycode(t *testing.T) {
	t.Parallel()
	casos := map[string]bool{
		"http://xn--a-ecp.ru/":          true, // Node: fails
		"http://xn--zca/":               true,
		"http://xn--bcher-kva.example/": true,
		"http://xn--/":                  false,
		"http://xn--abc/":               false,
		"http://xn---abc/":              false,
		"http://xn--abc-/":              true,  // ASCII only: Node 20 accepts it
		"http://xn--ffff/":              false, // starts with a combining mark
		"http://xn--99999999999999999/": false,
	}
	for entrada, ok := range casos {
		if _, err := LeerURL(entrada); (err == nil) != ok {
			t.Errorf("LeerURL(%q): error %v, quiero ok=%v", entrada, err, ok)
		}
	}
}

func FuzzLeerURL(f *testing.F) {
	for _, c := range urlsDeNode {
		f.Add(c.entrada)
	}
	f.Fuzz(func(t *testing.T, texto string) {
		u, err := LeerURL(texto)
		if err != nil || !u.EsHTTP() {
			return
		}
		if u.Host == "" || !strings.HasPrefix(u.Ruta, "/") {
			t.Fatalf("LeerURL(%q) = %+v: host vacío o ruta sin /", texto, u)
		}
		if u.IP.IsValid() {
			if u.Host != FormatoIP(u.IP) {
				t.Fatalf("LeerURL(%q): Host %q e IP %s no coinciden", texto, u.Host, u.IP)
			}
		} else {
			for i := 0; i < len(u.Host); i++ {
				if c := u.Host[i]; prohibidoEnDominio(c) || c >= 0x80 || ('A' <= c && c <= 'Z') {
					t.Fatalf("LeerURL(%q): host %q con %q", texto, u.Host, c)
				}
			}
		}
		if u.Puerto != "" {
			n, err := strconv.Atoi(u.Puerto)
			if err != nil || n < 0 || n > 65535 || strconv.Itoa(n) != u.Puerto {
				t.Fatalf("LeerURL(%q): puerto %q", texto, u.Puerto)
			}
		}
		// What is already normalised reads back the same.
		host := u.Host
		if u.IP.Is6() {
			host = "[" + host + "]"
		}
		if u.Puerto != "" {
			host += ":" + u.Puerto
		}
		otra, err := LeerURL(u.Esquema + "//" + host + u.Ruta)
		if err != nil || otra.Host != u.Host || otra.Puerto != u.Puerto || otra.Ruta != u.Ruta || otra.IP != u.IP {
			t.Fatalf("LeerURL(%q) = %+v; releída = %+v, %v", texto, u, otra, err)
		}
	})
}
