package limitador

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// claves counts the states a limiter holds; only tests need it.
func claves(l Limitador) int {
	switch l := l.(type) {
	case *VentanaFija:
		return l.almacen.claves()
	case *VentanaDeslizante:
		return l.almacen.claves()
	case *Cubeta:
		return l.almacen.claves()
	}
	panic("limitador desconocido")
}

func todos(t *testing.T, cuota int, ventana time.Duration) map[string]Limitador {
	t.Helper()
	ls := map[string]Limitador{}
	for _, nombre := range []string{AlgoritmoVentana, AlgoritmoDeslizante, AlgoritmoCubeta} {
		l, err := Nuevo(nombre, cuota, ventana)
		if err != nil {
			t.Fatal(err)
		}
		ls[nombre] = l
	}
	return ls
}

// Many goroutines at the same instant: each key gets exactly its quota, no more (run with -race).
func TestConcurrencia(t *testing.T) {
	t.Parallel()
	const cuota, claves, porClave = 5, 8, 50
	for nombre, l := range todos(t, cuota, time.Minute) {
		t.Run(nombre, func(t *testing.T) {
			t.Parallel()
			var permitidas [claves]atomic.Int64
			var wg sync.WaitGroup
			for g := range claves * porClave {
				wg.Go(func() {
					k := g % claves
					if l.Permitir(fmt.Sprintf("salud:cred-%d", k), origen).Permitido {
						permitidas[k].Add(1)
					}
				})
			}
			wg.Wait()
			// The bucket's burst is ⌈5/2⌉ = 3; the windows give the whole quota at once.
			quiere := int64(cuota)
			if nombre == AlgoritmoCubeta {
				quiere = 3
			}
			for k := range permitidas {
				if n := permitidas[k].Load(); n != quiere {
					t.Errorf("clave %d: %d permitidas, quiere %d", k, n, quiere)
				}
			}
		})
	}
}

// A stream of distinct keys must not grow memory forever: once their quota is back, states go.
func TestMemoriaAcotada(t *testing.T) {
	t.Parallel()
	const ventana = time.Minute
	for nombre, l := range todos(t, 3, ventana) {
		t.Run(nombre, func(t *testing.T) {
			t.Parallel()
			for i := range 10000 {
				l.Permitir(fmt.Sprintf("salud:intruso-%d", i), origen.Add(time.Duration(i)*time.Millisecond))
			}
			if n := claves(l); n != 10000 {
				t.Fatalf("antes de vencer: %d claves, quiere 10000", n)
			}
			// The bucket of the last key is full again after 3 tokens·20 s at most; the
			// windows after one window. Any later request sweeps everything expired.
			despues := origen.Add(10*time.Second + 3*ventana)
			l.Permitir("salud:otra", despues)
			if n := claves(l); n != 1 {
				t.Fatalf("después de vencer: %d claves, quiere 1", n)
			}
			// A steady stream, one new key every 10 ms for 10 windows, stays within about two
			// windows' worth of keys.
			porVentana := int(ventana / (10 * time.Millisecond))
			maximo := 0
			for i := range 10 * porVentana {
				l.Permitir(fmt.Sprintf("flujo-%d", i), despues.Add(time.Duration(i)*10*time.Millisecond))
				maximo = max(maximo, claves(l))
			}
			if tope := 2*porVentana + 2; maximo > tope {
				t.Fatalf("con un flujo constante llegó a %d claves, más de %d", maximo, tope)
			}
		})
	}
}

// A key that comes back after its state expired starts fresh, as if it had never been seen.
func TestClaveQueVuelve(t *testing.T) {
	t.Parallel()
	for nombre, l := range todos(t, 2, time.Second) {
		for l.Permitir("k", origen).Permitido {
		}
		v := l.Permitir("k", origen.Add(10*time.Second))
		nuevo, _ := Nuevo(nombre, 2, time.Second)
		if w := nuevo.Permitir("k", origen.Add(10*time.Second)); v != w {
			t.Errorf("%s: al volver %+v, una clave nueva %+v", nombre, v, w)
		}
	}
}

// claves is how many keys the store holds now.
func (a *almacen[E]) claves() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.estados)
}
