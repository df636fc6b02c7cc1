//go:build unix

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"cursohttp/pkg/token"
)

// panelDelProfesor: the panel of issue 34, started as the lab controller starts it (its token from
// a file, never on its command line). Another user of the machine, or a student on the class
// network, asks for every page and reads the panel's command line: no token anywhere (item 1, 2).
// The one-time link opens the instructor's session once (1). A client sends refusals at full
// speed: the panel's log must grow by less than 10 MB an hour (3). Python's http.client posts a
// 4 MB event five times: it must read the 413 each time (4). The documentation's pages carry the
// page's headers (5).
func panelDelProfesor(_ context.Context, s *sesion) []resultado {
	const familia = "panel-del-profesor"
	fallo := func(err error) []resultado {
		return []resultado{{familia: familia, servidor: "panel", detalle: err.Error()}}
	}
	dir, err := os.MkdirTemp("", "ataque-panel-")
	if err != nil {
		return fallo(err)
	}
	defer os.RemoveAll(dir)
	profe := token.Nuevo()
	archivo := filepath.Join(dir, "token")
	if err := os.WriteFile(archivo, []byte(profe+"\n"), 0o600); err != nil {
		return fallo(err)
	}
	panel, err := arrancarOrden(s.binario, "laboratorio", []string{"panel"}, "--pasarela", s.pas.url(), "--token-archivo", archivo)
	if err != nil {
		return fallo(err)
	}
	defer panel.parar()
	var out []resultado
	add := func(nombre string, enviadas int, ok bool, detalle string) {
		rss, fds := panel.pico()
		out = append(out, resultado{familia: familia, servidor: "panel: " + nombre, enviadas: enviadas, resistio: ok, detalle: detalle, rss: rss, fds: fds})
	}
	base := panel.url()

	// 1, 2: no token in any page, nor in the panel's command line, nor in «lab token --help».
	var vistos []string
	paginas := []string{"/", "/panel.js", "/clase", "/openapi", "/openapi.json", "/problemas", "/problemas/llave-en-curso"}
	for _, ruta := range paginas {
		for _, host := range []string{"", "localhost", "192.168.1.10:18084"} {
			req, _ := http.NewRequest("GET", base+ruta, nil)
			if host != "" {
				req.Host = host
			}
			resp, err := api.Do(req)
			if err != nil {
				vistos = append(vistos, ruta+": "+err.Error())
				continue
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), profe) {
				vistos = append(vistos, ruta+" (Host "+host+")")
			}
		}
	}
	linea, _ := os.ReadFile("/proc/" + strconv.Itoa(panel.cmd.Process.Pid) + "/cmdline")
	if strings.Contains(string(linea), profe) {
		vistos = append(vistos, "la línea de órdenes del panel")
	}
	ayuda, _ := exec.Command(filepath.Join(s.binario, "laboratorio"), "lab", "token", "--help").Output()
	if strings.Contains(string(ayuda), "$(laboratorio lab token)") || !strings.Contains(string(ayuda), "-H @lab/autorizacion") {
		vistos = append(vistos, "«laboratorio lab token --help» pone el token en una línea de órdenes")
	}
	add("token a la vista", len(paginas)*3+2, len(vistos) == 0, fmt.Sprintf("%d páginas por 3 nombres, la línea de órdenes, la ayuda; con el token: %v", len(paginas), vistos))

	// 1: the one-time link, once; its cookie acts; without it, refused.
	sinSeguir := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	enlace := token.Enlace(base, profe, time.Now())
	var codigos []string
	var galleta *http.Cookie
	for range 2 {
		resp, err := sinSeguir.Get(enlace)
		if err != nil {
			codigos = append(codigos, err.Error())
			continue
		}
		resp.Body.Close()
		codigos = append(codigos, strconv.Itoa(resp.StatusCode))
		if len(resp.Cookies()) == 1 {
			galleta = resp.Cookies()[0]
		}
	}
	borrar := func(con *http.Cookie) string {
		req, _ := http.NewRequest("POST", base+"/borrar", nil)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Origin", base)
		if con != nil {
			req.AddCookie(con)
		}
		resp, err := api.Do(req)
		if err != nil {
			return err.Error()
		}
		resp.Body.Close()
		return strconv.Itoa(resp.StatusCode)
	}
	codigos = append(codigos, "con la galleta "+borrar(galleta), "sin ella "+borrar(nil))
	ok := galleta != nil && galleta.HttpOnly && galleta.SameSite == http.SameSiteStrictMode &&
		strings.Join(codigos, ",") == "303,403,con la galleta 204,sin ella 401"
	add("enlace de una vez", 4, ok, "el enlace dos veces, «Limpiar» con y sin la galleta: "+strings.Join(codigos, ", "))

	// 3: refusals at full speed, 8 clients at once, for s.t.rechazos.
	antes := panel.log.escritos()
	var enviadas atomic.Int64
	hasta := time.Now().Add(s.t.rechazos)
	enParalelo(8, 8, func(int) {
		for time.Now().Before(hasta) {
			req, _ := http.NewRequest("POST", base+"/borrar", nil)
			req.Header.Set("Authorization", "Bearer "+token.Nuevo())
			resp, err := api.Do(req)
			if err != nil {
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			enviadas.Add(1)
		}
	})
	// The last interval's sums.
	time.Sleep(token.IntervaloRechazos + time.Second)
	crecio := panel.log.escritos() - antes
	porHora := float64(crecio) * float64(time.Hour) / float64(s.t.rechazos)
	porSegundo := float64(enviadas.Load()) / s.t.rechazos.Seconds()
	add("rechazos sin parar", int(enviadas.Load()), porHora < 10<<20,
		fmt.Sprintf("%.0f rechazos por segundo durante %s: la bitácora creció %d bytes, %.2f MB por hora (antes, unos 125 bytes por rechazo: %.0f MB por hora)",
			porSegundo, s.t.rechazos, crecio, porHora/(1<<20), porSegundo*125*3600/(1<<20)))

	// 4: Python's http.client posts a 4 MB event five times.
	if python, err := exec.LookPath("python3"); err != nil {
		add("413 a Python", 0, !s.exigir, "omitido: python3 no está instalado")
		anotarSalto("ataque panel-del-profesor con http.client de Python", "python3 no está instalado")
	} else {
		evento := filepath.Join(dir, "evento")
		x := strings.Repeat("x", 4<<20)
		if err := os.WriteFile(evento, []byte(`{"programa":"revisor","tipo":"peticion","ruta":"/`+x+`"}`+"\n"), 0o600); err != nil {
			return fallo(err)
		}
		guion := `import http.client, sys
cuerpo = open(sys.argv[3], "rb").read()
for _ in range(5):
    try:
        c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=20)
        c.request("POST", "/eventos", body=cuerpo, headers={"Authorization": "Bearer " + sys.argv[4], "Content-Type": "application/x-ndjson"})
        print(c.getresponse().status)
        c.close()
    except Exception as e:
        print(type(e).__name__)`
		host, puerto, _ := strings.Cut(panel.addr, ":")
		b, _ := exec.Command(python, "-c", guion, host, puerto, evento, profe).Output()
		var respuestas conteo
		for _, l := range strings.Fields(string(b)) {
			respuestas.sumar(l)
		}
		add("413 a Python", 5, respuestas.de("413") == 5, "http.client manda un evento de 4 MB cinco veces: "+respuestas.String())
	}

	// 5: the documentation's pages carry the page's headers.
	var sin []string
	for _, ruta := range []string{"/", "/openapi", "/openapi.json", "/problemas", "/problemas/llave-en-curso"} {
		resp, err := api.Get(base + ruta)
		if err != nil {
			sin = append(sin, ruta+": "+err.Error())
			continue
		}
		resp.Body.Close()
		h := resp.Header
		if !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY" ||
			h.Get("Cache-Control") == "" || h.Get("X-Content-Type-Options") != "nosniff" {
			sin = append(sin, ruta)
		}
	}
	add("cabeceras de las páginas", 5, len(sin) == 0, fmt.Sprintf("CSP, X-Frame-Options, nosniff y Cache-Control en /, /openapi, /openapi.json, /problemas y una página de problema; sin ellas: %v", sin))
	return out
}
