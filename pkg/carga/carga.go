// Package carga is the suite's own load generator: keep-alive connections, a fixed number of
// workers, a fixed duration, and the latency percentiles a benchmark table needs. It exists so that
// `make bench` needs no external tool.
package carga

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Peticion is the one request every worker repeats.
type Peticion struct {
	Metodo    string
	URL       string
	Cabeceras http.Header
	Cuerpo    []byte
}

// Resultado summarises a run.
type Resultado struct {
	Peticiones int
	Errores    int
	Codigos    map[int]int
	Duracion   time.Duration
	P50, P99   time.Duration
}

// PorSegundo is the throughput of the run.
func (r Resultado) PorSegundo() float64 {
	if r.Duracion <= 0 {
		return 0
	}
	return float64(r.Peticiones) / r.Duracion.Seconds()
}

// NuevoCliente returns a keep-alive client sized for n workers that never follows redirects.
func NuevoCliente(n int) *http.Client {
	t := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConns:        n * 2,
		MaxIdleConnsPerHost: n * 2,
		IdleConnTimeout:     30 * time.Second,
		DisableCompression:  true,
	}
	return &http.Client{
		Transport:     t,
		Timeout:       10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// Medir sends p from trabajadores goroutines for duracion and measures every answer.
func Medir(ctx context.Context, cliente *http.Client, p Peticion, trabajadores int, duracion time.Duration) Resultado {
	ctx, cancelar := context.WithTimeout(ctx, duracion)
	defer cancelar()
	var (
		mu        sync.Mutex
		latencias []time.Duration
		errores   int
		codigos   = map[int]int{}
		wg        sync.WaitGroup
		inicio    = time.Now()
	)
	for i := 0; i < trabajadores; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			propias := make([]time.Duration, 0, 4096)
			propiosCodigos := map[int]int{}
			fallos := 0
			for ctx.Err() == nil {
				req, err := http.NewRequestWithContext(ctx, p.Metodo, p.URL, bytes.NewReader(p.Cuerpo))
				if err != nil {
					fallos++
					break
				}
				for k, v := range p.Cabeceras {
					req.Header[k] = v
				}
				t0 := time.Now()
				res, err := cliente.Do(req)
				if err != nil {
					if ctx.Err() == nil {
						fallos++
					}
					continue
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				propias = append(propias, time.Since(t0))
				propiosCodigos[res.StatusCode]++
			}
			mu.Lock()
			latencias = append(latencias, propias...)
			for c, n := range propiosCodigos {
				codigos[c] += n
			}
			errores += fallos
			mu.Unlock()
		}()
	}
	wg.Wait()
	r := Resultado{Peticiones: len(latencias), Errores: errores, Codigos: codigos, Duracion: time.Since(inicio)}
	if len(latencias) > 0 {
		slices.Sort(latencias)
		r.P50 = latencias[len(latencias)*50/100]
		r.P99 = latencias[min(len(latencias)-1, len(latencias)*99/100)]
	}
	return r
}
