package anuncio

import (
	"errors"
	"os"
	"syscall"
)

// tomarYEscribir creates ruta shared for reading only and keeps it open: while this process lives,
// nobody else can open it for writing, and that is the lock. Windows closes the handle when the
// process dies.
func tomarYEscribir(ruta string, contenido []byte) (soltar func(), err error) {
	nombre, err := syscall.UTF16PtrFromString(ruta)
	if err != nil {
		return nil, err
	}
	h, err := syscall.CreateFile(nombre, syscall.GENERIC_READ|syscall.GENERIC_WRITE, syscall.FILE_SHARE_READ,
		nil, syscall.CREATE_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(h), ruta)
	if _, err := f.Write(contenido); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}

// errorCompartido is ERROR_SHARING_VIOLATION: another process has the file open without sharing
// writes.
const errorCompartido = syscall.Errno(32)

// retenido says whether a live process holds the file at ruta (see tomarYEscribir).
func retenido(ruta string) (bool, error) {
	if _, err := os.Stat(ruta); err != nil {
		return false, err
	}
	f, err := os.OpenFile(ruta, os.O_WRONLY, 0)
	if errors.Is(err, errorCompartido) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	f.Close()
	return false, nil
}
