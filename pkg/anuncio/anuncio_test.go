package anuncio

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
)

func TestAnunciarYLeer(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ruta := filepath.Join(t.TempDir(), "sub", "revisor.estado")
	anunciado, err := Anunciar(ln, ruta, "revisor")
	if err != nil {
		t.Fatal(err)
	}
	e, vivo, err := Leer(ruta)
	if err != nil || !vivo || e.PID != os.Getpid() || e.Programa != "revisor" || e.Direccion != ln.Addr().String() {
		t.Fatalf("Leer: %+v %v %v", e, vivo, err)
	}
	anunciado.Close()
	if _, err := os.Stat(ruta); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("al cerrar, el archivo de estado sigue: %v", err)
	}
	if _, vivo, err := Leer(ruta); vivo || err != nil {
		t.Errorf("Leer tras cerrar: %v %v", vivo, err)
	}
}
