package pizarra

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cursohttp/pkg/matricula"
)

// The instructor's list of credentials (lab/clase/credenciales.txt, issue 40 item 4): one line per
// student, «NOMBRE<tab>CREDENCIAL», each current student's current credential once. The class's
// store keeps only their SHA-256, so this file is the one place a credential is in clear after it
// was said; every change of the credentials rewrites it whole (a new file in the same folder,
// synced, renamed over the old one: never half written, never only appended), 0600.

// CambioDeCredenciales is one change of the credentials, as ActualizarCredenciales applies it.
type CambioDeCredenciales struct {
	// Nuevas are credentials made now (agregar, renovar): each replaces its student's line, or is
	// added at the end.
	Nuevas []matricula.Credencial
	// Todas says Nuevas are every live credential (rotar): the file becomes exactly them.
	Todas bool
	// Quitar are students whose credential no longer counts (quitar, revocar): their lines go.
	Quitar []string
	// Lista, when not nil, is the roster: a line whose student is not in it goes (a row removed
	// elsewhere, from the board's page), and the lines follow its order.
	Lista []string
}

// ActualizarCredenciales applies c to the list in dir and returns its path. Names are compared as
// the roster keeps them (matricula.Normalizar).
func ActualizarCredenciales(dir string, c CambioDeCredenciales) (string, error) {
	ruta := filepath.Join(dir, ArchivoCredenciales)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ruta, err
	}
	var lineas []matricula.Credencial
	if !c.Todas {
		var err error
		if lineas, err = LeerCredenciales(ruta); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ruta, err
		}
	}
	fuera := map[string]bool{}
	for _, n := range c.Quitar {
		fuera[normal(n)] = true
	}
	lineas = slices.DeleteFunc(lineas, func(l matricula.Credencial) bool { return fuera[l.Alumno] })
	for _, nueva := range c.Nuevas {
		nueva.Alumno = normal(nueva.Alumno)
		if i := slices.IndexFunc(lineas, func(l matricula.Credencial) bool { return l.Alumno == nueva.Alumno }); i >= 0 {
			lineas[i] = nueva
		} else {
			lineas = append(lineas, nueva)
		}
	}
	if c.Lista != nil {
		lugar := map[string]int{}
		for i, n := range c.Lista {
			lugar[normal(n)] = i + 1
		}
		lineas = slices.DeleteFunc(lineas, func(l matricula.Credencial) bool { return lugar[l.Alumno] == 0 })
		slices.SortStableFunc(lineas, func(a, b matricula.Credencial) int { return lugar[a.Alumno] - lugar[b.Alumno] })
	}
	var b bytes.Buffer
	for _, l := range lineas {
		b.WriteString(l.Alumno + "\t" + l.Secreto + "\n")
	}
	return ruta, EscribirPrivado(ruta, b.Bytes())
}

// LeerCredenciales reads the list at ruta: one credential per student, the last line of a name
// counting (a list an older version appended to may name one twice).
func LeerCredenciales(ruta string) ([]matricula.Credencial, error) {
	f, err := os.Open(ruta)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var l []matricula.Credencial
	s := bufio.NewScanner(f)
	for s.Scan() {
		nombre, secreto, ok := strings.Cut(s.Text(), "\t")
		if !ok || nombre == "" || secreto == "" {
			continue
		}
		nombre = normal(nombre)
		l = slices.DeleteFunc(l, func(c matricula.Credencial) bool { return c.Alumno == nombre })
		l = append(l, matricula.Credencial{Alumno: nombre, Secreto: secreto})
	}
	return l, s.Err()
}

// normal is a name as the roster keeps it, or as given when it is none.
func normal(nombre string) string {
	if n, err := matricula.Normalizar(nombre); err == nil {
		return n
	}
	return nombre
}

// EscribirPrivado replaces ruta with datos, readable by its owner only (0600): a new file in the
// same folder, synced to the disk, renamed over the old one, and the folder synced, so a crash
// leaves the old file or the new one, never part of either.
func EscribirPrivado(ruta string, datos []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(ruta), "."+filepath.Base(ruta)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone already once renamed
	err = tmp.Chmod(0o600)
	if errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	if err == nil {
		_, err = tmp.Write(datos)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerrar := tmp.Close(); err == nil {
		err = cerrar
	}
	if err == nil {
		err = os.Rename(tmp.Name(), ruta)
	}
	if err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(ruta)); err == nil {
		d.Sync() //nolint:errcheck // not every system syncs a folder (Windows)
		d.Close()
	}
	return nil
}

// DecirCredenciales prints credentials made now, each once, to whoever ran the order (the
// instructor's terminal), and where the list is.
func DecirCredenciales(out io.Writer, l []matricula.Credencial, ruta string) {
	for _, c := range l {
		fmt.Fprintf(out, "%s\t%s\n", c.Alumno, c.Secreto)
	}
	switch len(l) {
	case 0:
	case 1:
		fmt.Fprintf(out, "(1 credencial, también en %s, que solo tú puedes leer)\n", ruta)
	default:
		fmt.Fprintf(out, "(%d credenciales, también en %s, que solo tú puedes leer)\n", len(l), ruta)
	}
}
