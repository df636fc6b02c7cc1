package control

import "testing"

func TestLeerLasHerramientas(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		nombre string
		leer   func() (Ocupante, bool)
		want   Ocupante
		ok     bool
	}{
		{"ss", func() (Ocupante, bool) {
			return leerSS([]byte(`LISTEN 0      4096       127.0.0.1:18080      0.0.0.0:*    users:(("revisor",pid=4242,fd=3))` + "\n"))
		}, Ocupante{PID: 4242, Programa: "revisor"}, true},
		{"ss sin permiso", func() (Ocupante, bool) {
			return leerSS([]byte("LISTEN 0      4096       127.0.0.1:18080      0.0.0.0:*\n"))
		}, Ocupante{}, false},
		{"lsof", func() (Ocupante, bool) { return leerLsof([]byte("p4242\ncnode\nf22\n")) }, Ocupante{PID: 4242, Programa: "node"}, true},
		{"lsof vacío", func() (Ocupante, bool) { return leerLsof(nil) }, Ocupante{}, false},
	} {
		got, ok := c.leer()
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %+v %v, se esperaba %+v %v", c.nombre, got, ok, c.want, c.ok)
		}
	}
	netstat := []byte(`
Active Connections

  Proto  Local Address          Foreign Address        State           PID
  TCP    0.0.0.0:135            0.0.0.0:0              LISTENING       1000
  TCP    127.0.0.1:18080        127.0.0.1:51000        ESTABLISHED     77
  TCP    127.0.0.1:18080        0.0.0.0:0              ABHÖREN         4242
  TCP    127.0.0.1:180800       0.0.0.0:0              LISTENING       5
`)
	if pid, ok := leerNetstat(netstat, 18080); pid != 4242 || !ok {
		t.Errorf("netstat: %d %v", pid, ok)
	}
	if _, ok := leerNetstat(netstat, 18081); ok {
		t.Error("netstat: encontró un puerto que nadie escucha")
	}
	if got := leerTasklist([]byte(`"revisor.exe","4242","Console","1","12,345 K"` + "\r\n")); got != "revisor" {
		t.Errorf("tasklist: %q", got)
	}
	if got := leerTasklist([]byte("INFO: No tasks are running which match the specified criteria.\r\n")); got != "" {
		t.Errorf("tasklist sin tareas: %q", got)
	}
}
