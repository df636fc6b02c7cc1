// Package pgefimero starts a throwaway PostgreSQL server from the machine's own binaries (Debian's
// `postgresql` package, Homebrew's, …): a new cluster in a folder of its own, reached only through
// a Unix socket in that folder (no TCP port to collide with anyone's), with durability off, since
// nothing in it is meant to last. The tests of the PostgreSQL store use one, and so does
// `make postgres` for a developer. If the process that started it dies, the server stops too.
package pgefimero

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/jackc/pgx/v5"
)

// Servidor is a running throwaway server.
type Servidor struct {
	dir     string // the cluster's folder; its socket is here too
	propia  bool   // dir was made here, and goes with Detener
	detener func() error
	parar   func() error
}

// VariableBinarios, when set, names the folder with initdb and postgres, and no other place is
// looked at: a version kept off PATH (Homebrew's postgresql@16), or an empty folder to see what
// the suite does on a machine without PostgreSQL.
const VariableBinarios = "CURSOHTTP_PG_BIN"

// Binarios finds the folder with initdb and postgres: VariableBinarios, else on PATH, else the
// newest of Debian's /usr/lib/postgresql/*/bin. It says in one line what is missing.
func Binarios() (string, error) {
	if dir := os.Getenv(VariableBinarios); dir != "" {
		for _, programa := range []string{"initdb", "postgres"} {
			if _, err := os.Stat(filepath.Join(dir, programa)); err != nil {
				return "", fmt.Errorf("no se encontró PostgreSQL: falta %s en %s (%s)", programa, dir, VariableBinarios)
			}
		}
		return dir, nil
	}
	if ruta, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("postgres"); err == nil {
			return filepath.Dir(ruta), nil
		}
	}
	candidatas, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(candidatas, func(a, b string) int { return versionDe(b) - versionDe(a) })
	for _, c := range candidatas {
		return filepath.Dir(c), nil
	}
	return "", errors.New("no se encontró PostgreSQL (initdb y postgres): en Debian o Ubuntu, apt-get install postgresql")
}

func versionDe(ruta string) int {
	var v int
	fmt.Sscan(filepath.Base(filepath.Dir(filepath.Dir(ruta))), &v)
	return v
}

// Arrancar initialises a cluster in dir ("" for a new temporary folder, removed by Detener) and
// starts it. A dir that already holds a cluster is started as it is, so a developer can keep one.
func Arrancar(ctx context.Context, dir string) (*Servidor, error) {
	// Said before any folder is made.
	if _, err := Binarios(); err != nil {
		return nil, err
	}
	s := &Servidor{dir: dir}
	var err error
	if dir == "" {
		if s.dir, err = os.MkdirTemp(carpetaTemporal(), "pg-"); err != nil {
			return nil, err
		}
		s.propia = true
	} else if s.dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if err := s.Reanudar(ctx); err != nil {
		if s.propia {
			os.RemoveAll(s.dir)
		}
		return nil, err
	}
	return s, nil
}

// Dir is the cluster's folder.
func (s *Servidor) Dir() string { return s.dir }

// URL is the address of database base as the superuser postgres, through the socket.
func (s *Servidor) URL(base string) string {
	return "postgres://postgres@/" + url.PathEscape(base) + "?host=" + url.QueryEscape(s.dir)
}

// CrearBase creates an empty database and returns its URL.
func (s *Servidor) CrearBase(ctx context.Context, nombre string) (string, error) {
	return CrearBase(ctx, s.URL("postgres"), nombre)
}

// CrearBase creates an empty database named nombre on the server of servidor (the URL of any
// database there, as a user who may create databases) and returns its URL.
func CrearBase(ctx context.Context, servidor, nombre string) (string, error) {
	c, err := pgx.Connect(ctx, servidor)
	if err != nil {
		return "", err
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{nombre}.Sanitize()); err != nil {
		return "", err
	}
	u, err := url.Parse(servidor)
	if err != nil {
		return "", err
	}
	u.Path = "/" + nombre
	u.RawPath = ""
	return u.String(), nil
}

// Parar stops the server as an administrator would (the fast shutdown: every client cut off at
// once, every commit kept) and keeps its folder, so that Reanudar can start it again with its data.
// Tests use it to see what survives a database that goes away. (Detener's immediate shutdown may
// lose the last commits: durability is off.)
func (s *Servidor) Parar() error { return s.parar() }

// Reanudar starts the server on its folder (initialising the cluster the first time): Arrancar's
// last step, and after Parar the same server again, with the same folder, socket and URLs.
func (s *Servidor) Reanudar(ctx context.Context) error {
	bin, err := Binarios()
	if err != nil {
		return err
	}
	return s.arrancar(ctx, bin)
}

// Detener stops the server at once and removes a temporary folder.
func (s *Servidor) Detener() error {
	err := s.detener()
	if s.propia {
		if e := os.RemoveAll(s.dir); err == nil {
			err = e
		}
	}
	return err
}

// opciones are the server's settings: no TCP, no durability (it is thrown away), enough
// connections for several revisors and their tests at once.
func opciones(dir string) []string {
	return []string{"-D", filepath.Join(dir, "datos"), "-k", dir,
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=300", "-c", "shared_buffers=32MB",
		"-c", "log_min_messages=fatal"}
}
