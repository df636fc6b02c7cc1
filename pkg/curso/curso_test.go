package curso

import (
	"net"
	"strconv"
	"testing"
)

// Each address names its port: the digits are written twice in curso.go, and a change to one alone
// would send a client to a port nobody listens on.
func TestDireccionesYPuertosCoinciden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		direccion string
		puerto    int
	}{
		{DireccionRevisor, PuertoRevisor},
		{DireccionLaboratorio, PuertoLaboratorio},
		{DireccionPasarela, PuertoPasarela},
		{DireccionHostil, PuertoHostil},
		{DireccionPanel, PuertoPanel},
	} {
		if want := net.JoinHostPort(Host, strconv.Itoa(c.puerto)); c.direccion != want {
			t.Errorf("dirección %q, su puerto dice %q", c.direccion, want)
		}
	}
}
