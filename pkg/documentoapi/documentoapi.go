// Package documentoapi gives the revisor's OpenAPI 3.1 document as JSON, for whoever serves or
// prints it (revisor openapi, the panel's /openapi.json, the MCP server's resource), and the list
// of its operations with the problem types each can answer (the problem pages). It is a leaf: the
// documents are files the revisor generated from its own route table and the problem catalogue
// (scripts/documentoapi, «go generate ./pkg/documentoapi»), embedded here, so the panel reads them
// without linking the revisor; this package's test fails when they are not what the revisor
// builds now, and internal/contrato checks that the revisor answers what they say.
package documentoapi

//go:generate go run ../../scripts/documentoapi

import (
	_ "embed"
	"encoding/json"
	"sync"
)

// TipoMedio is the document's media type when served.
const TipoMedio = "application/json"

//go:embed revisor.json
var final []byte

//go:embed revisor-leccion4.json
var leccion4 []byte

//go:embed operaciones.json
var operaciones []byte

// Documento is the document of the final revisor (the one Lessons 6 and 7 share), indented JSON.
// The slice is the caller's: a copy, so nobody can change what the next caller reads.
func Documento() []byte { return append([]byte(nil), final...) }

// DocumentoLeccion4 is the document of Lesson 4's revisor (revisor --leccion 4): its errors are a
// line of text and it takes no Idempotency-Key.
func DocumentoLeccion4() []byte { return append([]byte(nil), leccion4...) }

// Operacion is one documented operation of the final revisor: method, OpenAPI path and the keys of
// the problem types it can answer (gate's and handler's).
type Operacion struct {
	Metodo    string   `json:"metodo"`
	Ruta      string   `json:"ruta"`
	Problemas []string `json:"problemas"`
}

var leidas = sync.OnceValue(func() []Operacion {
	var ops []Operacion
	if err := json.Unmarshal(operaciones, &ops); err != nil {
		panic("documentoapi: operaciones.json: " + err.Error()) // generated and tested: never
	}
	return ops
})

// Operaciones lists the final revisor's documented operations in its route table's order (HEAD left
// out: it answers as GET). A fresh copy each call.
func Operaciones() []Operacion {
	ops := leidas()
	copia := make([]Operacion, len(ops))
	for i, o := range ops {
		copia[i] = Operacion{Metodo: o.Metodo, Ruta: o.Ruta, Problemas: append([]string(nil), o.Problemas...)}
	}
	return copia
}
