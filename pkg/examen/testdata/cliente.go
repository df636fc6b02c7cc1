// Command cliente is the grader's test client in Go (net/http): it registers NOMBRE URL through
// PASARELA_URL as Lesson 6 asks, or, with --defecto, makes one mistake on purpose. It is built by
// the tests (go build testdata/cliente.go), never by go build ./...
package main

import (
	"bytes"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	defecto := flag.String("defecto", "", "inunda, sin-espera, directo, reintenta-409, reintenta-403, espera-larga, llave-del-cuerpo, conexiones")
	revisor := flag.String("revisor", "http://127.0.0.1:18080", "where --defecto directo sends its retries")
	conexiones := flag.Int("conexiones", 2000, "how many connections --defecto conexiones opens to the gateway")
	abiertas := flag.String("abiertas", "", "the file --defecto conexiones creates once they are open")
	seguir := flag.String("seguir", "", "the file --defecto conexiones waits for before closing them and registering")
	flag.Parse()
	if flag.NArg() < 2 {
		fmt.Fprintln(os.Stderr, "uso: cliente [--defecto D] NOMBRE URL")
		os.Exit(2)
	}
	nombre, url := flag.Arg(flag.NArg()-2), flag.Arg(flag.NArg()-1)
	base := os.Getenv("PASARELA_URL")
	if base == "" {
		base = "http://127.0.0.1:18082"
	}
	if *defecto == "conexiones" {
		// Connections that send nothing, held until the test has counted the grader's descriptors;
		// then an ordinary registration.
		var cs []net.Conn
		for range *conexiones {
			c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			cs = append(cs, c)
		}
		os.WriteFile(*abiertas, nil, 0o644) //nolint:errcheck // the test waits for it, and fails without it
		for {
			if _, err := os.Stat(*seguir); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, c := range cs {
			c.Close()
		}
	}
	cuerpo, _ := json.Marshal(map[string]string{"nombre": nombre, "url": url})
	b := make([]byte, 16)
	crand.Read(b) //nolint:errcheck // crypto/rand does not fail
	llave := hex.EncodeToString(b)
	if *defecto == "llave-del-cuerpo" {
		llave = fmt.Sprintf("%x", cuerpo)[:32]
	}
	espera := 2 * time.Second
	if *defecto == "espera-larga" {
		espera = 15 * time.Second
	}
	cliente := &http.Client{Timeout: espera}
	intento := func(destino string) (int, string, int, error) {
		req, _ := http.NewRequest(http.MethodPost, destino+"/servicios", bytes.NewReader(cuerpo))
		req.Header.Set("Authorization", "Bearer escritura-a")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", llave)
		resp, err := cliente.Do(req)
		if err != nil {
			return 0, "", 0, err
		}
		defer resp.Body.Close()
		var p struct{ Type string }
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return 0, "", 0, err
		}
		json.Unmarshal(b, &p) //nolint:errcheck // not every answer is a problem
		ra, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return resp.StatusCode, p.Type, ra, nil
	}
	if *defecto == "inunda" {
		// 64 at a time, no wait, until one gets a 2xx or 200 were sent.
		var enviadas, bien atomic.Int64
		var wg sync.WaitGroup
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for bien.Load() == 0 && enviadas.Add(1) <= 200 {
					if c, _, _, _ := intento(base); c/100 == 2 {
						bien.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		if bien.Load() > 0 {
			os.Exit(0)
		}
		os.Exit(1)
	}
	const intentos = 4
	for n := 1; n <= intentos; n++ {
		destino := base
		if *defecto == "directo" && n > 1 {
			destino = *revisor
		}
		codigo, tipo, ra, err := intento(destino)
		if err == nil && codigo/100 == 2 {
			os.Exit(0)
		}
		if err == nil {
			reintentable := codigo == 502 || codigo == 503 || codigo == 504 || codigo == 408 || codigo == 429 ||
				(codigo == 409 && strings.HasSuffix(tipo, "/llave-en-curso"))
			switch *defecto {
			case "reintenta-409":
				reintentable = reintentable || codigo == 409
			case "reintenta-403":
				reintentable = reintentable || codigo == 401 || codigo == 403
			}
			if !reintentable || ra > 10 {
				os.Exit(1)
			}
		}
		if n == intentos {
			os.Exit(1)
		}
		w := time.Duration(rand.Int64N(int64(500*time.Millisecond) << (n - 1)))
		if *defecto == "sin-espera" {
			w = 0
		}
		if ra > 0 {
			w = time.Duration(ra) * time.Second
		}
		time.Sleep(w)
	}
}
