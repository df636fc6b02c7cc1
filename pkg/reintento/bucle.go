package reintento

import "context"

// Fin says why Correr stopped making attempts.
type Fin int

const (
	// Definitivo: the last outcome will not change by repeating it (a success is one).
	Definitivo Fin = iota + 1
	// Agotado: no attempts were left, and the last outcome could still have fixed itself.
	Agotado
	// SinInsistir: Retry-After asked for more than the policy's TopeRetryAfter.
	SinInsistir
)

// Desenlace is how a run of attempts ended: the last attempt, as the caller's own value and as the
// policy saw it, how many attempts were made and why there was no other.
type Desenlace[T any] struct {
	Ultimo    T
	Resultado Resultado
	Intentos  int
	Fin       Fin
}

// Avisos are optional hooks for a client that tells what it is doing (go-retryablehttp's
// ResponseLogHook): Intento after each attempt, Espera before each wait. Neither is called for an
// attempt or a wait that ctx cut short.
type Avisos[T any] struct {
	Intento func(n int, ultimo T)
	Espera  func(n int, e Espera)
}

// Correr is the one retry loop: it makes attempts with intentar until one is final, no attempt is
// left (no wait follows the last one) or Retry-After asks for too long. If ctx ends during an
// attempt or a wait it returns ctx's error at once, as a program stopped by Ctrl+C or a server
// shutting down must.
func Correr[T any](ctx context.Context, p Politica, intentar func(context.Context) (T, Resultado), avisos Avisos[T]) (Desenlace[T], error) {
	dormir := p.Dormir
	if dormir == nil {
		dormir = Dormir
	}
	var d Desenlace[T]
	for n := 1; ; n++ {
		d.Ultimo, d.Resultado = intentar(ctx)
		d.Intentos = n
		if err := ctx.Err(); err != nil {
			return d, err
		}
		if avisos.Intento != nil {
			avisos.Intento(n, d.Ultimo)
		}
		if !p.Reintentable(d.Resultado) {
			d.Fin = Definitivo
			return d, nil
		}
		if !p.QuedanIntentos(n) {
			d.Fin = Agotado
			return d, nil
		}
		e, insistir := p.Espera(n, d.Resultado)
		if !insistir {
			d.Fin = SinInsistir
			return d, nil
		}
		if avisos.Espera != nil {
			avisos.Espera(n, e)
		}
		if err := dormir(ctx, e.Duracion); err != nil {
			return d, err
		}
	}
}
