//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Extension is the suffix of a scene transcript.
const Extension = ".escena"

// Linea is one expected line and where it sits in the transcript, so a
// difference can point at it.
type Linea struct {
	Texto  string
	Numero int
}

// TipoPaso says what a step of a scene does.
type TipoPaso int

const (
	// Comando runs a `$ ` line through bash and compares its output.
	Comando TipoPaso = iota
	// Arrancar starts a server (the lesson's "in another terminal").
	Arrancar
	// Detener stops a server (the lesson's Ctrl+C).
	Detener
	// Bitacora compares what a server printed in its terminal so far.
	Bitacora
)

// Paso is one step of a scene, in transcript order.
type Paso struct {
	Tipo   TipoPaso
	Numero int // transcript line of the `$ ` line or the directive

	Comando  string   // Comando
	Sale     *int     // Comando: the exit code the transcript states, if any
	Espera   *Espera  // Comando: the event its sleeps wait for first, if any ("# espera")
	Servidor string   // Arrancar, Detener, Bitacora
	Args     []string // Arrancar: extra arguments (mentira 503:2 201)
	Repetir  bool     // Arrancar of a "# reiniciar": the arguments of the server's last start
	SinOrden bool     // Bitacora: lines may come in any order
	Esperado []Linea  // Comando, Bitacora
	Env      []string // Comando, Arrancar: NAME=value in force at this step
}

// Espera is a "# espera: servidor línea" directive: every sleep of the next command first waits
// until that server's terminal shows one more line equal to Linea than it had when the command
// began (the request the lesson's sleep stands for has arrived), then sleeps its time. The lesson
// orders two requests with a short sleep; on a loaded machine the first can start later than the
// sleep lasts, and the event cannot.
type Espera struct{ Servidor, Linea string }

// Escena is one transcript: a series the lesson runs on freshly started programs.
type Escena struct {
	Ruta       string
	Nombre     string   // file name without the extension: 4.3.2-error-500
	Titulo     string   // the first comment line
	Comentario []Linea  // every plain comment line, shown in --paso
	Servidores []string // "# servidores:" started fresh before the first step
	Entorno    []string // "# env" before the first step: for those servers too
	// Leccion is "# lección: N": every server of the scene that has a program per lesson
	// (revisor, laboratorio) starts as that lesson's, with --leccion N.
	Leccion string
	// Necesita is "# necesita: jq": programs beyond bash and curl the scene's commands run; where
	// one is missing the scene is skipped, with its reason (a failure under CURSOHTTP_CI=1).
	Necesita []string
	Pasos    []Paso
}

// directivas are the words a `#` line may start with to be a directive
// rather than a comment. A trailing colon is optional.
var directivas = map[string]bool{
	"servidores": true, "arrancar": true, "detener": true, "reiniciar": true,
	"env": true, "sale": true, "bitácora": true, "lección": true, "espera": true, "necesita": true,
}

// LeerEscena reads a transcript file.
func LeerEscena(ruta string) (*Escena, error) {
	f, err := os.Open(ruta)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	e, err := ParsearEscena(f, ruta)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// ParsearEscena reads a transcript. The format is documented in main.go.
func ParsearEscena(r io.Reader, ruta string) (*Escena, error) {
	e := &Escena{Ruta: ruta, Nombre: strings.TrimSuffix(filepath.Base(ruta), Extension)}
	var (
		env     []string
		sale    *int
		espera  *Espera
		actual  *Paso // the step whose expected lines we are reading
		numero  int
		empezar = true // no step yet: "# servidores:" is allowed
	)
	cerrar := func() {
		if actual == nil {
			return
		}
		// Trailing blank lines separate one command from the next in the
		// lessons; they are not output.
		for len(actual.Esperado) > 0 && actual.Esperado[len(actual.Esperado)-1].Texto == "" {
			actual.Esperado = actual.Esperado[:len(actual.Esperado)-1]
		}
		e.Pasos = append(e.Pasos, *actual)
		actual = nil
	}
	falla := func(formato string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", ruta, numero, fmt.Sprintf(formato, a...))
	}
	lector := bufio.NewScanner(r)
	lector.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	for lector.Scan() {
		numero++
		linea := strings.TrimSuffix(lector.Text(), "\r")
		switch {
		case strings.HasPrefix(linea, "$ "):
			cerrar()
			if empezar {
				e.Entorno = append([]string(nil), env...)
			}
			empezar = false
			actual = &Paso{Tipo: Comando, Numero: numero, Comando: strings.TrimPrefix(linea, "$ "),
				Sale: sale, Espera: espera, Env: append([]string(nil), env...)}
			sale, espera = nil, nil
		case strings.HasPrefix(linea, "#"):
			palabra, resto := directiva(linea)
			// "lección", "espera" and "necesita" start many a sentence of narration («# espera (la
			// lección no lo imprime…)»): as directives they need their colon.
			if (palabra == "lección" || palabra == "espera" || palabra == "necesita") && !conDosPuntos(linea) {
				palabra = ""
			}
			if !directivas[palabra] {
				// A comment ends the output above it.
				cerrar()
				texto := strings.TrimSpace(strings.TrimPrefix(linea, "#"))
				if e.Titulo == "" && texto != "" {
					e.Titulo = texto
				}
				e.Comentario = append(e.Comentario, Linea{Texto: texto, Numero: numero})
				continue
			}
			cerrar()
			campos := strings.Fields(resto)
			switch palabra {
			case "servidores":
				if !empezar {
					return nil, falla("«# servidores:» va antes del primer paso")
				}
				e.Servidores = append(e.Servidores, campos...)
			case "necesita":
				if !empezar || len(campos) == 0 {
					return nil, falla("«# necesita:» va antes del primer paso, con los programas que la escena usa")
				}
				e.Necesita = append(e.Necesita, campos...)
			case "lección":
				if !empezar || e.Leccion != "" {
					return nil, falla("«# lección:» va una vez, antes del primer paso")
				}
				if len(campos) != 1 || !soloCifras(campos[0]) {
					return nil, falla("«# lección» lleva el número de una lección")
				}
				e.Leccion = campos[0]
			case "arrancar", "detener", "reiniciar":
				if len(campos) == 0 {
					return nil, falla("«# %s» necesita el nombre de un servidor", palabra)
				}
				if palabra != "arrancar" && len(campos) > 1 {
					return nil, falla("«# %s» lleva solo el nombre del servidor", palabra)
				}
				if empezar {
					e.Entorno = append([]string(nil), env...)
				}
				empezar = false
				if palabra == "detener" || palabra == "reiniciar" {
					e.Pasos = append(e.Pasos, Paso{Tipo: Detener, Numero: numero, Servidor: campos[0]})
				}
				if palabra == "arrancar" || palabra == "reiniciar" {
					e.Pasos = append(e.Pasos, Paso{Tipo: Arrancar, Numero: numero, Servidor: campos[0],
						Args: campos[1:], Repetir: palabra == "reiniciar", Env: append([]string(nil), env...)})
				}
			case "env":
				if len(campos) == 0 {
					return nil, falla("«# env» necesita NOMBRE=valor")
				}
				for _, c := range campos {
					if !strings.Contains(c, "=") || strings.HasPrefix(c, "=") {
						return nil, falla("«# env %s»: se esperaba NOMBRE=valor", c)
					}
				}
				env = append(env, campos...)
			case "sale":
				if len(campos) != 1 {
					return nil, falla("«# sale» lleva un número")
				}
				n, err := strconv.Atoi(campos[0])
				if err != nil || n < 0 || n > 255 {
					return nil, falla("«# sale %s»: se esperaba un código de salida entre 0 y 255", campos[0])
				}
				sale = &n
			case "espera":
				if len(campos) < 2 {
					return nil, falla("«# espera» lleva un servidor y la línea de su terminal que se espera")
				}
				espera = &Espera{Servidor: campos[0], Linea: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(resto), campos[0]))}
			case "bitácora":
				if len(campos) == 0 {
					return nil, falla("«# bitácora» necesita el nombre de un servidor")
				}
				p := Paso{Tipo: Bitacora, Numero: numero, Servidor: campos[0]}
				switch strings.Join(campos[1:], " ") {
				case "":
				case "sin orden":
					p.SinOrden = true
				default:
					return nil, falla("«# bitácora %s»: tras el nombre solo cabe «sin orden»", resto)
				}
				if empezar {
					e.Entorno = append([]string(nil), env...)
				}
				empezar = false
				actual = &p
			}
		default:
			if actual == nil {
				if strings.TrimSpace(linea) == "" {
					continue
				}
				return nil, falla("una línea de salida sin «$ » antes: %q", linea)
			}
			// A backslash lets an output line start with # or $.
			if strings.HasPrefix(linea, `\`) {
				linea = linea[1:]
			}
			actual.Esperado = append(actual.Esperado, Linea{Texto: linea, Numero: numero})
		}
	}
	if err := lector.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", ruta, err)
	}
	cerrar()
	if empezar {
		e.Entorno = env
	}
	if sale != nil {
		return nil, fmt.Errorf("%s: «# sale» al final, sin un comando después", ruta)
	}
	if espera != nil {
		return nil, fmt.Errorf("%s: «# espera» al final, sin un comando después", ruta)
	}
	return e, nil
}

// directiva splits "# palabra: resto" into its lower-case first word (without
// the colon) and the rest.
func directiva(linea string) (string, string) {
	t := strings.TrimSpace(strings.TrimPrefix(linea, "#"))
	palabra, resto, _ := strings.Cut(t, " ")
	palabra = strings.TrimSuffix(palabra, ":")
	switch palabra {
	case "bitacora":
		palabra = "bitácora"
	case "leccion":
		palabra = "lección"
	}
	return palabra, strings.TrimSpace(resto)
}

// conDosPuntos tells whether the first word of a # line ends in a colon.
func conDosPuntos(linea string) bool {
	palabra, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(linea, "#")), " ")
	return strings.HasSuffix(palabra, ":")
}

func soloCifras(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
