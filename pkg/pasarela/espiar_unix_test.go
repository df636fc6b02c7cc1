//go:build unix && !aix

package pasarela

import (
	"net"
	"testing"
)

// On unix the fast path answers for every real socket, so viva never waits; a connection without
// a socket (net.Pipe) is left to the portable check.
func TestEspiar(t *testing.T) {
	t.Parallel()
	want := map[string]bool{"quieta": true, "cerrada": false, "con-bytes": false}
	for nombre, cd := range conexionesDePrueba(t) {
		vive, pudo := espiar(cd.c)
		if !pudo || vive != want[nombre] {
			t.Errorf("espiar(%s) = %v, %v; se esperaba %v, true", nombre, vive, pudo, want[nombre])
		}
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if _, pudo := espiar(a); pudo {
		t.Error("espiar dijo poder mirar un net.Pipe, que no tiene socket")
	}
}
