// Command postgres is `make postgres`: a throwaway PostgreSQL server for developing and testing
// the revisor's --datos postgres://… (pkg/pgefimero). It prints the URL to give --datos and the
// line that makes the tests use this server instead of starting their own, and runs until Ctrl+C,
// when it stops the server (keeping every commit) and, unless --dir named a folder to keep,
// removes its data.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"cursohttp/pkg/pgefimero"
)

func main() {
	dir := flag.String("dir", "", "carpeta donde guardar el clúster para usarlo otra vez (por omisión, una temporal que se borra al salir)")
	base := flag.String("base", "cursohttp", "la base de datos que se crea para el revisor")
	flag.Parse()
	ctx, parar := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer parar()
	s, err := pgefimero.Arrancar(ctx, *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "postgres:", err)
		os.Exit(1)
	}
	url, err := s.CrearBase(ctx, *base)
	if err != nil {
		// A kept cluster already has it.
		url = s.URL(*base)
	}
	fmt.Printf("postgres en %s\n\n  revisor --datos '%s'\n  export CURSOHTTP_PG_URL='%s'   (las pruebas lo usan en vez de arrancar el suyo)\n\nCtrl+C lo detiene.\n",
		s.Dir(), url, s.URL("postgres"))
	<-ctx.Done()
	// A fast shutdown first: a cluster kept with --dir keeps every commit (durability is off, and
	// Detener's immediate shutdown may lose the last ones).
	if err := s.Parar(); err != nil {
		fmt.Fprintln(os.Stderr, "postgres:", err)
		os.Exit(1)
	}
	if err := s.Detener(); err != nil {
		fmt.Fprintln(os.Stderr, "postgres:", err)
		os.Exit(1)
	}
}
