//go:build unix

package anuncio

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// tomarYEscribir writes contenido to a temporary file, locks it and renames it to ruta, so that
// whoever finds ruta finds it complete and locked. The lock (flock) belongs to the open file, so it
// lasts until soltar or the death of the process.
func tomarYEscribir(ruta string, contenido []byte) (soltar func(), err error) {
	f, err := os.CreateTemp(filepath.Dir(ruta), "."+filepath.Base(ruta)+".*")
	if err != nil {
		return nil, err
	}
	limpiar := func() { f.Close(); os.Remove(f.Name()) }
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		limpiar()
		return nil, err
	}
	if _, err := f.Write(contenido); err != nil {
		limpiar()
		return nil, err
	}
	if err := os.Rename(f.Name(), ruta); err != nil {
		limpiar()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// retenido says whether a live process holds the lock of the file at ruta.
func retenido(ruta string) (bool, error) {
	f, err := os.Open(ruta)
	if err != nil {
		return false, err
	}
	defer f.Close()
	err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err // nil: we took it, so nobody had it; closing f gives it back
}

func flock(f *os.File, como int) error {
	for {
		err := syscall.Flock(int(f.Fd()), como)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
