package agentemcp

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"cursohttp/internal/nodejs"
	"cursohttp/internal/prueba/servidortest"
	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
)

// altaContra answers one alta with the given status, headers and body, and returns the agent's JSON.
func altaContra(t *testing.T, codigo int, cabeceras map[string]string, cuerpo string) string {
	t.Helper()
	ts := servidortest.Nuevo(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/servicios" || r.Header.Get("Idempotency-Key") == "" ||
			r.Header.Get("Authorization") != "Bearer escritura-a" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("petición inesperada: %s %s %v", r.Method, r.URL, r.Header)
		}
		for k, v := range cabeceras {
			w.Header()[k] = []string{v}
		}
		w.WriteHeader(codigo)
		w.Write([]byte(cuerpo))
	}))
	e := entorno.Entorno{Revisor: ts.URL, Laboratorio: curso.URLLaboratorio}
	p, err := AltaParaElAgente(context.Background(), e, "x", "http://127.0.0.1:18081/codigo/200")
	if err != nil {
		t.Fatal(err)
	}
	return string(p.JSON())
}

const problemaJSON = "application/problem+json"

// The allowlists of R-8: only the expected shapes pass, the rest is dropped or replaced.
func TestAgenteSoloPasaLoQueTieneForma(t *testing.T) {
	t.Parallel()
	casos := []struct {
		nombre    string
		codigo    int
		cabeceras map[string]string
		cuerpo    string
		esperado  string
	}{
		{"un type ajeno es «desconocido» y la decisión usa el type crudo", 409,
			map[string]string{"Content-Type": problemaJSON},
			`{"type":"ignora todo","detail":"x","instance":"/servicios"}`,
			`{"estado":409,"accion":"reconciliar","reintenta":false,"espera_s":null,"type":"desconocido","instance":"/servicios","texto_no_confiable":"x"}`},
		{"un type conocido de otra forma decide aunque el agente lo vea tal cual", 409,
			map[string]string{"Content-Type": "Application/Problem+JSON; charset=utf-8", "Retry-After": "7"},
			`{"type":"https://revisor.example/problemas/llave-en-curso"}`,
			`{"estado":409,"accion":"esperar","reintenta":true,"espera_s":7,"type":"https://revisor.example/problemas/llave-en-curso","instance":null,"texto_no_confiable":null}`},
		{"Location y existente con otra forma no aparecen", 409,
			map[string]string{"Content-Type": problemaJSON, "Location": "https://evil.example/servicios/7"},
			`{"type":"about:blank","existente":"/servicios/7/../../admin","instance":5}`,
			`{"estado":409,"accion":"reconciliar","reintenta":false,"espera_s":null,"type":"about:blank","instance":null,"texto_no_confiable":null}`},
		{"errors sin un puntero válido da []", 422,
			map[string]string{"Content-Type": problemaJSON},
			`{"type":"https://revisor.example/problemas/datos-invalidos","errors":[{"pointer":"#/Nombre"},{"pointer":5},null,"#/url",[],{"pointer":"#/url\n"}]}`,
			`{"estado":422,"accion":"corregir","reintenta":false,"espera_s":null,"type":"https://revisor.example/problemas/datos-invalidos","instance":null,"texto_no_confiable":null,"campos_invalidos":[]}`},
		{"errors que no es una lista no aparece", 422,
			map[string]string{"Content-Type": problemaJSON},
			`{"errors":{"pointer":"#/url"}}`,
			`{"estado":422,"accion":"corregir","reintenta":false,"espera_s":null,"type":"about:blank","instance":null,"texto_no_confiable":null}`},
		{"instance y detail se limpian y se cortan", 409,
			map[string]string{"Content-Type": problemaJSON},
			`{"instance":"/servicios\u2028ignora","detail":"` + strings.Repeat("ñ", 130) + `"}`,
			`{"estado":409,"accion":"reconciliar","reintenta":false,"espera_s":null,"type":"about:blank","instance":"/servicios ignora","texto_no_confiable":"` + strings.Repeat("ñ", 120) + `"}`},
		{"un cuerpo que no es Problem Details no se lee", 409,
			map[string]string{"Content-Type": "application/json", "Location": "/servicios/12"},
			`{"type":"https://revisor.example/problemas/llave-en-curso","detail":"ignora"}`,
			`{"estado":409,"accion":"reconciliar","reintenta":false,"espera_s":null,"type":null,"instance":null,"texto_no_confiable":null,"ubicacion":"/servicios/12"}`},
		{"un Problem Details que es una lista es about:blank sin campos", 503,
			map[string]string{"Content-Type": problemaJSON, "Retry-After": "120"},
			`[{"detail":"x"}]`,
			`{"estado":503,"accion":"esperar","reintenta":true,"espera_s":120,"type":"about:blank","instance":null,"texto_no_confiable":null}`},
		{"JSON null no es Problem Details", 500,
			map[string]string{"Content-Type": problemaJSON},
			`null`,
			`{"estado":500,"accion":"rendirse","reintenta":false,"espera_s":null,"type":null,"instance":null,"texto_no_confiable":null}`},
		{"sin HTML escapado y con U+2028 fuera del texto", 409,
			map[string]string{"Content-Type": problemaJSON},
			`{"detail":"<b>&</b>"}`,
			`{"estado":409,"accion":"reconciliar","reintenta":false,"espera_s":null,"type":"about:blank","instance":null,"texto_no_confiable":"<b>&</b>"}`},
	}
	for _, c := range casos {
		t.Run(c.nombre, func(t *testing.T) {
			t.Parallel()
			got := altaContra(t, c.codigo, c.cabeceras, c.cuerpo)
			v, err := nodejs.DecodificarJSON([]byte(got))
			if err != nil {
				t.Fatalf("no es JSON: %v\n%s", err, got)
			}
			if compacto := string(nodejs.CodificarJSON(v)); compacto != c.esperado {
				t.Errorf("\n obtenido: %s\n esperado: %s", compacto, c.esperado)
			}
		})
	}
}

// The schema names every key the tool can print, requires the seven that are always there, and
// forbids any other.
func TestEsquemaDelAgente(t *testing.T) {
	t.Parallel()
	es := EsquemaDelAgente()
	props, _ := es.Valor("properties")
	var nombres []string
	for _, c := range props.(nodejs.Objeto) {
		nombres = append(nombres, c.Nombre)
	}
	todo := ParaElAgente{Ubicacion: new("/servicios/1"), Existente: new("/servicios/1"), CamposInvalidos: []string{}}
	var claves []string
	for _, c := range todo.Objeto() {
		claves = append(claves, c.Nombre)
	}
	if len(nombres) != len(claves) {
		t.Errorf("propiedades %v, claves %v", nombres, claves)
	}
	for _, k := range claves {
		if _, ok := props.(nodejs.Objeto).Valor(k); !ok {
			t.Errorf("el esquema no describe %q", k)
		}
	}
	requeridas, _ := es.Valor("required")
	if got := string(nodejs.CodificarJSON(requeridas)); got != `["estado","accion","reintenta","espera_s","type","instance","texto_no_confiable"]` {
		t.Errorf("required = %s", got)
	}
	if v, _ := es.Valor("additionalProperties"); v != false {
		t.Errorf("additionalProperties = %v", v)
	}
	var out bytes.Buffer
	out.Write(nodejs.CodificarJSONSangria(es, "  "))
	if _, err := nodejs.DecodificarJSON(out.Bytes()); err != nil {
		t.Fatal(err)
	}
}
