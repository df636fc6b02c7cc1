// Package documentoapi gives the final revisor's OpenAPI 3.1 document as JSON, for whoever serves
// or prints it without linking the revisor (revisor openapi, the panel's /openapi.json, the MCP
// server's resource), and the list of its operations with the problem types each can answer (the
// problem pages), read from that document. It is a leaf: the document is the one file the revisor
// generated from its own route table and the problem catalogue (scripts/documentoapi, «go generate
// ./pkg/documentoapi»), embedded here; this package's test fails when it is not what the revisor
// builds now, and internal/contrato checks that the revisor answers what it says. Lesson 4's
// document is the revisor's own to build (revisor.Documento): only the revisor prints it.
package documentoapi

//go:generate go run ../../scripts/documentoapi

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
	"sync"
)

// TipoMedio is the document's media type when served.
const TipoMedio = "application/json"

//go:embed revisor.json
var final []byte

// Documento is the document of the final revisor (the one Lessons 6 and 7 share), indented JSON.
// The slice is the caller's: a copy, so nobody can change what the next caller reads.
func Documento() []byte { return append([]byte(nil), final...) }

// Operacion is one documented operation of the final revisor: method, OpenAPI path and the keys of
// the problem types it can answer (gate's and handler's).
type Operacion struct {
	Metodo    string   `json:"metodo"`
	Ruta      string   `json:"ruta"`
	Problemas []string `json:"problemas"`
}

var leidas = sync.OnceValue(func() []Operacion {
	ops, err := operacionesDe(final)
	if err != nil {
		panic("documentoapi: revisor.json: " + err.Error()) // generated and tested: never
	}
	return ops
})

// Operaciones lists the final revisor's documented operations in the document's order, its route
// table's (HEAD left out: it answers as GET), each with the problem types its answers name. A fresh
// copy each call.
func Operaciones() []Operacion {
	ops := leidas()
	copia := make([]Operacion, len(ops))
	for i, o := range ops {
		copia[i] = Operacion{Metodo: o.Metodo, Ruta: o.Ruta, Problemas: append([]string(nil), o.Problemas...)}
	}
	return copia
}

// operacionesDe reads the operations out of an OpenAPI document, each with the problem types its
// answers name, once each, in the document's order.
func operacionesDe(doc []byte) ([]Operacion, error) {
	leidas, err := Recorrer(doc)
	if err != nil {
		return nil, err
	}
	ops := make([]Operacion, len(leidas))
	for i, l := range leidas {
		ops[i] = Operacion{Metodo: l.Metodo, Ruta: l.Ruta, Problemas: []string{}}
		for _, r := range l.Respuestas {
			for _, p := range ProblemasDe(r.Cuerpo) {
				if !slices.Contains(ops[i].Problemas, p) {
					ops[i].Problemas = append(ops[i].Problemas, p)
				}
			}
		}
	}
	return ops, nil
}

// OperacionLeida is one operation of an OpenAPI document as written there: its method, its path,
// the operation object itself and its answers in the document's order.
type OperacionLeida struct {
	Metodo, Ruta string
	Objeto       json.RawMessage
	Respuestas   []RespuestaLeida
}

// RespuestaLeida is one answer of an operation: its status key and its object, a $ref to
// components/responses already followed.
type RespuestaLeida struct {
	Codigo string
	Cuerpo json.RawMessage
}

// Recorrer reads the operations out of an OpenAPI document in its order (HEAD left out: it answers
// as GET), for whoever lists them (Operaciones, the panel's reading page).
func Recorrer(doc []byte) ([]OperacionLeida, error) {
	var d struct {
		Paths      ordenado `json:"paths"`
		Components struct {
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	var ops []OperacionLeida
	for _, camino := range d.Paths {
		var item ordenado
		if err := json.Unmarshal(camino.valor, &item); err != nil {
			return nil, err
		}
		for _, m := range item {
			if m.clave == "parameters" || m.clave == "head" {
				continue
			}
			var op struct {
				Responses ordenado `json:"responses"`
			}
			if err := json.Unmarshal(m.valor, &op); err != nil {
				return nil, err
			}
			o := OperacionLeida{Metodo: strings.ToUpper(m.clave), Ruta: camino.clave, Objeto: m.valor}
			for _, r := range op.Responses {
				cuerpo := r.valor
				var referencia struct {
					Ref string `json:"$ref"`
				}
				if json.Unmarshal(cuerpo, &referencia) == nil && referencia.Ref != "" {
					cuerpo = d.Components.Responses[strings.TrimPrefix(referencia.Ref, "#/components/responses/")]
				}
				o.Respuestas = append(o.Respuestas, RespuestaLeida{Codigo: r.clave, Cuerpo: cuerpo})
			}
			ops = append(ops, o)
		}
	}
	return ops, nil
}

// ProblemasDe are the problem types an answer's schema names (its $refs to problema-<clave>), once
// each, in its order.
func ProblemasDe(respuesta []byte) []string {
	var nombres []string
	const prefijo = `"#/components/schemas/problema-`
	texto := string(respuesta)
	for {
		i := strings.Index(texto, prefijo)
		if i < 0 {
			return nombres
		}
		texto = texto[i+len(prefijo):]
		if j := strings.IndexByte(texto, '"'); j >= 0 && !slices.Contains(nombres, texto[:j]) {
			nombres = append(nombres, texto[:j])
		}
	}
}

// ordenado is a JSON object read in its order (encoding/json's maps forget it).
type ordenado []struct {
	clave string
	valor json.RawMessage
}

func (o *ordenado) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, struct {
			clave string
			valor json.RawMessage
		}{t.(string), v})
	}
	return nil
}
