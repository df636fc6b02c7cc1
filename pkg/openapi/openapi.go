// Package openapi gives the revisor's OpenAPI 3.1 document as JSON, for whoever serves or prints
// it (revisor openapi, the panel's /openapi.json, the MCP server's resource). The document is
// built by pkg/revisor from its own route table and the problem catalogue, so it cannot drift from
// what the revisor answers; internal/contrato checks that it does not.
package openapi

import (
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/variantes"
)

// TipoMedio is the document's media type when served.
const TipoMedio = "application/json"

// Documento is the document of the final revisor (the one Lessons 6 and 7 share), indented JSON.
func Documento() []byte { return revisor.Documento(variantes.Eleccion{}) }

// DocumentoLeccion4 is the document of Lesson 4's revisor (revisor --leccion 4): its errors are a
// line of text and it takes no Idempotency-Key.
func DocumentoLeccion4() []byte { return revisor.Documento(variantes.Eleccion{Leccion: 4}) }
