// Package anuncio is the contract between the lab controller (pkg/control) and the servers it starts:
// each server is started with --estado-lab FILE and, once it listens, writes FILE (its program, pid
// and address) and holds an operating-system lock on it for as long as it listens (flock on unix, a
// file opened without write sharing on Windows). The lock dies with the process, whatever kills
// it, so a held lock is a live server of the lab's, and a file nobody holds is stale, whatever pid
// it names. Both sides import this leaf package; neither imports the other.
package anuncio

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Estado is what a server writes to its state file once it listens.
type Estado struct {
	Programa  string    `json:"programa"`
	PID       int       `json:"pid"`
	Direccion string    `json:"direccion"`
	Desde     time.Time `json:"desde"`
}

// Anunciar writes the state file of a server that listens on ln and holds its lock until the
// returned listener is closed; closing it also removes the file. It is called by the server itself
// (servidor.Escuchar, with --estado-lab).
func Anunciar(ln net.Listener, ruta, programa string) (net.Listener, error) {
	e := Estado{Programa: programa, PID: os.Getpid(), Direccion: ln.Addr().String(), Desde: time.Now().UTC().Truncate(time.Second)}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(ruta), 0o755); err != nil {
		return nil, fmt.Errorf("%s no puede escribir su estado en %s: %w", programa, ruta, err)
	}
	soltar, err := tomarYEscribir(ruta, append(b, '\n'))
	if err != nil {
		return nil, fmt.Errorf("%s no puede escribir su estado en %s: %w", programa, ruta, err)
	}
	return &anunciado{Listener: ln, soltar: func() {
		soltar()
		os.Remove(ruta)
	}}, nil
}

// anunciado is a listener whose state file goes when it closes: a server that stops listening is
// no longer the lab's, even while it finishes the requests in flight.
type anunciado struct {
	net.Listener
	una    sync.Once
	soltar func()
}

func (a *anunciado) Close() error {
	err := a.Listener.Close()
	a.una.Do(a.soltar)
	return err
}

// ErrArrancando is a state file that is held but not yet written whole (on Windows the file is
// locked from its creation, before its bytes are in).
var ErrArrancando = errors.New("el servidor aún está escribiendo su estado")

// Leer says whether the state file at ruta belongs to a live server and, if so, what it wrote. A
// file that does not exist or that nobody holds is (Estado{}, false, nil); a stale one is removed.
func Leer(ruta string) (Estado, bool, error) {
	vivo, err := retenido(ruta)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Estado{}, false, nil
		}
		return Estado{}, false, err
	}
	if !vivo {
		os.Remove(ruta)
		return Estado{}, false, nil
	}
	b, err := os.ReadFile(ruta)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) { // it stopped between the two looks
			return Estado{}, false, nil
		}
		return Estado{}, false, err
	}
	var e Estado
	if json.Unmarshal(b, &e) != nil || e.PID <= 0 {
		return Estado{}, true, ErrArrancando
	}
	return e, true, nil
}
