//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"cursohttp/pkg/token"
)

// tokenDelLaboratorio: what changes the lab for everybody, without the lab's token (issue 22.3).
// Against the gateway's control (PUT /_pasarela/simular) and a panel in front of it (POST /eventos,
// /simular, /borrar): no Authorization, random tokens, the course's credentials, a token off by
// one character, and the right token from another site (Sec-Fetch-Site, Origin),
// with the bodies a form of another site can send. Nothing may be accepted; afterwards the
// gateway simulates nothing, and the first event the panel shows is the one sent with the token.
func tokenDelLaboratorio(_ context.Context, s *sesion) []resultado {
	const familia = "token"
	profe := token.Nuevo()
	panel, err := arrancarOrden(s.binario, "laboratorio", []string{"panel"}, "--pasarela", s.pas.url(), "--token", profe)
	if err != nil {
		return []resultado{{familia: familia, servidor: "panel", detalle: err.Error()}}
	}
	defer panel.parar()
	otra := "A" // the right token but for its last character
	if strings.HasSuffix(profe, "A") {
		otra = "B"
	}
	casi := profe[:len(profe)-1] + otra
	tokens := []string{"", "escritura-a", "admin", casi, "Bearer", " " + casi, strings.Repeat("a", 8<<10)}
	for range 40 {
		tokens = append(tokens, token.Nuevo())
	}
	type intento struct {
		metodo, url, tipo, cuerpo string
		auth                      string // the whole Authorization field ("": none)
		otros                     []string
	}
	var intentos []intento
	evento := `{"programa":"pasarela","tipo":"peticion","escritura":true,"exito":true,"inicio":"2026-01-01T00:00:00Z","ms":1,"ruta":"/forjada"}` + "\n"
	destinos := []struct{ metodo, url, tipo, cuerpo string }{
		{"PUT", s.pas.url() + "/_pasarela/simular", "text/plain", "codigo:201"},
		{"POST", panel.url() + "/eventos", "application/x-ndjson", evento},
		{"POST", panel.url() + "/eventos", "text/plain", evento},
		{"POST", panel.url() + "/simular", "application/x-www-form-urlencoded", "modo=perder-siempre"},
		{"POST", panel.url() + "/borrar", "", ""},
	}
	for _, d := range destinos {
		for _, tk := range tokens {
			auth := ""
			if tk != "" {
				auth = "Bearer " + tk
			}
			intentos = append(intentos, intento{d.metodo, d.url, d.tipo, d.cuerpo, auth, nil})
		}
		intentos = append(intentos,
			intento{d.metodo, d.url, d.tipo, d.cuerpo, "Basic " + profe, nil},
			intento{d.metodo, d.url, d.tipo, d.cuerpo, "Bearer " + profe, []string{"Sec-Fetch-Site", "cross-site"}},
			intento{d.metodo, d.url, d.tipo, d.cuerpo, "Bearer " + profe, []string{"Sec-Fetch-Site", "same-site"}},
			intento{d.metodo, d.url, d.tipo, d.cuerpo, "Bearer " + profe, []string{"Origin", "http://localhost:1"}},
			intento{d.metodo, d.url, d.tipo, d.cuerpo, "Bearer " + profe, []string{"Origin", "null"}},
		)
	}
	var respuestas, pasaron conteo
	for _, in := range intentos {
		req, _ := http.NewRequest(in.metodo, in.url, strings.NewReader(in.cuerpo))
		if in.tipo != "" {
			req.Header.Set("Content-Type", in.tipo)
		}
		if in.auth != "" {
			req.Header.Set("Authorization", in.auth)
		}
		for i := 0; i+1 < len(in.otros); i += 2 {
			req.Header.Set(in.otros[i], in.otros[i+1])
		}
		resp, err := api.Do(req)
		if err != nil {
			respuestas.sumar("error")
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		respuestas.sumar(fmt.Sprint(resp.StatusCode))
		if resp.StatusCode < 400 {
			pasaron.sumar(in.metodo + " " + in.url[strings.LastIndexByte(in.url, '/'):])
		}
	}
	// What the gateway simulates, and the panel's first event once one is sent with the token.
	_, simula, _ := pedir("GET", s.pas.url()+"/_pasarela/simular", "", "", "")
	primero := primerEvento(panel.url(), profe)
	ok := pasaron.String() == "" && respuestas.de("error") == 0 &&
		strings.HasPrefix(simula, "pasarela: sin --simular") && strings.Contains(primero, `"ruta":"/con-token"`)
	detalle := fmt.Sprintf("%s; la pasarela: %q; el primer evento del panel: %s", &respuestas, strings.TrimSpace(simula), primero)
	if p := pasaron.String(); p != "" {
		detalle += "; PASARON: " + p
	}
	rss, fds := panel.pico()
	return []resultado{{familia: familia, servidor: "pasarela+panel", enviadas: len(intentos), resistio: ok, detalle: detalle, rss: rss, fds: fds}}
}

// primerEvento sends the panel one event with the lab's token and returns the first event its
// stream shows: that one, if nothing forged got in before it.
func primerEvento(base, profe string) string {
	ctx, cancelar := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelar()
	ev := `{"programa":"revisor","tipo":"peticion","inicio":"2026-01-01T00:00:00Z","ms":1,"ruta":"/con-token"}` + "\n"
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/eventos", strings.NewReader(ev))
	req.Header.Set("Authorization", "Bearer "+profe)
	resp, err := api.Do(req)
	if err != nil {
		return err.Error()
	}
	resp.Body.Close()
	req, _ = http.NewRequestWithContext(ctx, "GET", base+"/flujo", nil)
	resp, err = api.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	evento := false
	for sc.Scan() {
		switch l := sc.Text(); {
		case l == "event: evento":
			evento = true
		case evento && strings.HasPrefix(l, "data: "):
			return strings.TrimPrefix(l, "data: ")
		}
	}
	return "ninguno"
}
