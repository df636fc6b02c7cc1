// Package pizarra is classroom mode's class board (laboratorio clase: NuevoTablero, over the
// class's store, tablero.go), with the class lab's routes and files that laboratorio names without
// linking the class lab (sitioclase.go). The board serves web/clase.html, its script and its
// styles from the binary. The panel's own class page of local mode, which took results from any
// student holding a shared token, is gone (issue 40, item 9): the board is the one class board.
package pizarra

import (
	"embed"
	"io/fs"
	"net/http"

	"cursohttp/pkg/servidor"
)

//go:embed web
var web embed.FS

// archivos serves the board's files (web/): clase.html, clase.js, clase.css.
var archivos = func() http.Handler {
	sub, _ := fs.Sub(web, "web")
	return http.FileServerFS(sub)
}()

// servirArchivo serves one of the board's files, with the pages' protections.
var servirArchivo = servidor.ArchivosDePagina(archivos)

// The board's routes (pkg/clase serves them on the class lab's pizarra).
const (
	RutaClase  = "/clase"        // GET: the page
	RutaEstado = "/clase/estado" // GET: the whole board, JSON, for the page
	// RutaResultados is where the local mode's grader used to post a verdict; the board answers
	// it 410 (SinVeredictosDeFuera) whatever the method, so an old grader is told at once.
	RutaResultados = "/clase/resultados"
)

// EstadoNoJuzgada is a check that judged nothing (pkg/examen's EstadoNoJuzgada; not linked here).
const EstadoNoJuzgada = "no-juzgada"
