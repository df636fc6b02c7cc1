// Package red gives a test another machine on a network with this one: a Linux network namespace
// joined to this machine by a veth pair, each end with an address of one /30. What runs in it
// (Maquina.Orden) reaches this machine only at Maquina.Anfitrion, as a laptop on a class network
// reaches the instructor's, and this machine's loopback is not its loopback; Maquina.Vecina links
// two such machines to each other instead (an instructor's and a student's). Only _test.go files
// import it; it needs root and iproute2's ip, and says in one line why when it cannot.
package red

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// Maquina is one namespace: a machine of its own.
type Maquina struct {
	Nombre    string // the namespace's name (ip netns)
	Anfitrion string // the address of the machine it is linked to (this one, or Vecina's), as it reaches it
	Direccion string // the other machine's own address
}

var siguiente atomic.Uint32

// Nueva makes a machine for t and removes it when t ends. A machine that cannot be made is an
// error of one line, naming what is missing.
func Nueva(t testing.TB) (*Maquina, error) {
	t.Helper()
	return nueva(t, "")
}

// Vecina makes another machine for t on a link of its own with m, as two laptops on the class
// network reach each other: it reaches m at its Anfitrion (m's address on that link), m reaches
// it at its Direccion, and neither reaches this machine through it.
func (m *Maquina) Vecina(t testing.TB) (*Maquina, error) {
	t.Helper()
	return nueva(t, m.Nombre)
}

// nueva makes a machine linked to the namespace junto ("" for this machine).
func nueva(t testing.TB, junto string) (*Maquina, error) {
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("hace falta ser root para crear otra máquina de red (ip netns)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return nil, fmt.Errorf("falta ip (iproute2) para crear otra máquina de red")
	}
	var azar [4]byte
	rand.Read(azar[:]) //nolint:errcheck // never fails
	// 10.B.C.D/30 with B and C drawn and D a counter: parallel tests and processes rarely meet, and
	// a name or subnet taken is tried again.
	for intento := range 8 {
		n := siguiente.Add(1)
		b, c := 64+azar[0]%128, azar[1]+byte(intento)
		d := byte((binary.BigEndian.Uint16(azar[2:])+uint16(n)*4)%64) * 4
		nombre := fmt.Sprintf("cursohttp-%d-%d", os.Getpid(), n)
		m := &Maquina{Nombre: nombre, Anfitrion: fmt.Sprintf("10.%d.%d.%d", b, c, d+1), Direccion: fmt.Sprintf("10.%d.%d.%d", b, c, d+2)}
		if err := m.crear(junto); err != nil {
			m.borrar()
			if intento < 7 && strings.Contains(err.Error(), "exists") {
				continue
			}
			return nil, err
		}
		t.Cleanup(m.borrar)
		return m, nil
	}
	return nil, fmt.Errorf("no encontré una subred libre para otra máquina")
}

// crear makes the namespace and its link, whose outer end is in junto ("" for this machine).
func (m *Maquina) crear(junto string) error {
	fuera, dentro := "ch"+m.Nombre[len("cursohttp-"):], "cd"+m.Nombre[len("cursohttp-"):]
	fuera, dentro = recortar(fuera), recortar(dentro)
	var alla []string // what runs on the outer end's side
	if junto != "" {
		alla = []string{"-n", junto}
	}
	pasos := [][]string{
		{"netns", "add", m.Nombre},
		append(slices.Clone(alla), "link", "add", fuera, "type", "veth", "peer", "name", dentro),
		append(slices.Clone(alla), "link", "set", dentro, "netns", m.Nombre),
		append(slices.Clone(alla), "addr", "add", m.Anfitrion+"/30", "dev", fuera),
		append(slices.Clone(alla), "link", "set", fuera, "up"),
		{"-n", m.Nombre, "addr", "add", m.Direccion + "/30", "dev", dentro},
		{"-n", m.Nombre, "link", "set", dentro, "up"},
		{"-n", m.Nombre, "link", "set", "lo", "up"},
	}
	for _, p := range pasos {
		if out, err := exec.Command("ip", p...).CombinedOutput(); err != nil {
			return fmt.Errorf("ip %s: %v: %s", strings.Join(p, " "), err, strings.TrimSpace(string(out)))
		}
	}
	return nil
}

// recortar keeps a link's name within the kernel's 15 characters.
func recortar(s string) string {
	if len(s) > 15 {
		return s[:15]
	}
	return s
}

// borrar removes the namespace, and with it both ends of the link.
func (m *Maquina) borrar() {
	exec.Command("ip", "netns", "del", m.Nombre).Run() //nolint:errcheck // already gone
}

// Orden is the command nombre args… to run on the other machine.
func (m *Maquina) Orden(ctx context.Context, nombre string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", m.Nombre, nombre}, args...)...)
}
