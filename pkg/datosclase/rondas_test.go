package datosclase

import (
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/topes"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"
)

// respuestasDe is a round's answers as alumno → pregunta → valor, and the round.
func respuestasDe(t *testing.T, a matricula.Almacen, ronda string) (matricula.Ronda, map[string]map[string]string) {
	t.Helper()
	r, l, err := a.Respuestas(ctx, ronda)
	debe(t, err)
	m := map[string]map[string]string{}
	for _, x := range l {
		if m[x.Alumno] == nil {
			m[x.Alumno] = map[string]string{}
		}
		if _, ya := m[x.Alumno][x.Pregunta]; ya {
			t.Errorf("%s respondió %s dos veces en la misma ronda", x.Alumno, x.Pregunta)
		}
		m[x.Alumno][x.Pregunta] = x.Valor
		if x.Cuando.IsZero() || x.Cuando.After(time.Now()) {
			t.Errorf("la respuesta de %s a %s tiene la hora %v", x.Alumno, x.Pregunta, x.Cuando)
		}
	}
	return r, m
}

func probarRondas(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana", "Bea", "Carla")
	abierta := time.Date(2026, 3, 9, 10, 0, 0, 123456000, time.UTC)
	ronda := matricula.Ronda{ID: "ronda-1", Ejercicio: "6.5.4-4xx", Abierta: abierta}
	debe(t, a.AbrirRonda(ctx, ronda))
	// Again (a retry that may have committed): still one round, as it was.
	debe(t, a.AbrirRonda(ctx, matricula.Ronda{ID: "ronda-1", Ejercicio: "otro", Abierta: time.Now()}))
	r, m := respuestasDe(t, a, "ronda-1")
	if r.ID != "ronda-1" || r.Ejercicio != "6.5.4-4xx" || !r.Abierta.Equal(abierta) || r.Reales != nil || len(m) != 0 {
		t.Fatalf("la ronda recién abierta: %+v, %v", r, m)
	}

	// The last answer to each question counts; a question not answered again keeps its answer.
	debe(t, a.Responder(ctx, "ronda-1", "Bea", map[string]string{"intentos": "4", "final": "agotados"}))
	debe(t, a.Responder(ctx, "ronda-1", "Ana", map[string]string{"intentos": "1", "final": "no-lo-arregla", "salida": "1"}))
	debe(t, a.Responder(ctx, "ronda-1", " Bea ", map[string]string{"intentos": "1"}))
	r, m = respuestasDe(t, a, "ronda-1")
	quiere := map[string]map[string]string{
		"Ana": {"intentos": "1", "final": "no-lo-arregla", "salida": "1"},
		"Bea": {"intentos": "1", "final": "agotados"},
	}
	if !maps.EqualFunc(m, quiere, maps.Equal) {
		t.Fatalf("Respuestas = %v; se esperaba %v", m, quiere)
	}
	// In the roster's order, then by question.
	_, l, err := a.Respuestas(ctx, "ronda-1")
	debe(t, err)
	var orden []string
	for _, x := range l {
		orden = append(orden, x.Alumno+":"+x.Pregunta)
	}
	if got := strings.Join(orden, " "); got != "Ana:final Ana:intentos Ana:salida Bea:final Bea:intentos" {
		t.Errorf("el orden de las respuestas: %s", got)
	}

	// Refused, and nothing of it kept.
	for _, c := range []struct {
		caso          string
		ronda, alumno string
		respuestas    map[string]string
		quiere        error
	}{
		{"quien no está", "ronda-1", "Dani", map[string]string{"intentos": "1"}, matricula.ErrNoEsta},
		{"una ronda que no hay", "ronda-9", "Carla", map[string]string{"intentos": "1"}, matricula.ErrSinRonda},
		{"una respuesta larga", "ronda-1", "Carla", map[string]string{"intentos": strings.Repeat("4", topes.RespuestaClase+1)}, matricula.ErrDemasiado},
		{"demasiadas preguntas", "ronda-1", "Carla", muchasRespuestas(topes.PreguntasClase + 1), matricula.ErrDemasiado},
		{"un id de pregunta largo", "ronda-1", "Carla", map[string]string{strings.Repeat("p", topes.IDCalificacion+1): "1"}, matricula.ErrDemasiado},
		{"UTF-8 roto", "ronda-1", "Carla", map[string]string{"intentos": "a\xffb"}, errOtro},
		{"NUL", "ronda-1", "Carla", map[string]string{"intentos": "a\x00b"}, errOtro},
		{"sin pregunta", "ronda-1", "Carla", map[string]string{"": "1"}, errOtro},
	} {
		err := a.Responder(ctx, c.ronda, c.alumno, c.respuestas)
		if err == nil || (c.quiere != errOtro && !errors.Is(err, c.quiere)) || (c.quiere == errOtro && errors.Is(err, matricula.ErrDemasiado)) {
			t.Errorf("%s: Responder = %v; se esperaba %v", c.caso, err, c.quiere)
		}
	}
	if _, m := respuestasDe(t, a, "ronda-1"); m["Carla"] != nil {
		t.Errorf("quedaron respuestas de Carla rechazadas: %v", m["Carla"])
	}
	// At the bounds, kept.
	debe(t, a.Responder(ctx, "ronda-1", "Carla", muchasRespuestas(topes.PreguntasClase)))
	debe(t, a.Responder(ctx, "ronda-1", "Carla", map[string]string{"intentos": strings.Repeat("4", topes.RespuestaClase)}))

	// Revealed: the run's answers are kept, and no answer is taken any more.
	reales := map[string]string{"intentos": "1", "final": "no-lo-arregla", "salida": "1"}
	debe(t, a.Revelar(ctx, "ronda-1", reales))
	if err := a.Responder(ctx, "ronda-1", "Bea", map[string]string{"final": "no-lo-arregla"}); !errors.Is(err, matricula.ErrRevelada) {
		t.Errorf("responder tras revelar: %v; se esperaba matricula.ErrRevelada", err)
	}
	r, m = respuestasDe(t, a, "ronda-1")
	if !maps.Equal(r.Reales, reales) || m["Bea"]["final"] != "agotados" {
		t.Errorf("tras revelar: reales %v, Bea %v", r.Reales, m["Bea"])
	}
	// Listed, the oldest first, each with its reveal.
	debe(t, a.AbrirRonda(ctx, matricula.Ronda{ID: "ronda-2", Ejercicio: "6.5.4-409", Abierta: abierta.Add(time.Hour)}))
	rondas, err := a.Rondas(ctx)
	debe(t, err)
	if len(rondas) != 2 || rondas[0].ID != "ronda-1" || rondas[0].Ejercicio != "6.5.4-4xx" || !rondas[0].Abierta.Equal(abierta) ||
		!maps.Equal(rondas[0].Reales, reales) || rondas[1].ID != "ronda-2" || rondas[1].Reales != nil {
		t.Errorf("Rondas = %+v", rondas)
	}
	if err := a.Revelar(ctx, "ronda-9", reales); !errors.Is(err, matricula.ErrSinRonda) {
		t.Errorf("revelar una ronda que no hay: %v", err)
	}
	if _, _, err := a.Respuestas(ctx, "ronda-9"); !errors.Is(err, matricula.ErrSinRonda) {
		t.Errorf("las respuestas de una ronda que no hay: %v", err)
	}

	// Clearing the board leaves the answers; removing a student takes hers.
	debe(t, a.Limpiar(ctx, ""))
	debe(t, a.Quitar(ctx, "Ana"))
	if _, m := respuestasDe(t, a, "ronda-1"); m["Ana"] != nil || m["Bea"] == nil || m["Carla"] == nil {
		t.Errorf("tras limpiar y quitar a Ana: %v", m)
	}
}

func muchasRespuestas(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[fmt.Sprint("pregunta-", i)] = "1"
	}
	return m
}

// The store keeps the last topes.RondasClase rounds: an older one goes with its answers.
func probarTopeDeRondas(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	agregar(t, a, "Ana")
	const n = topes.RondasClase + 3
	for i := range n {
		id := fmt.Sprint("ronda-", i)
		debe(t, a.AbrirRonda(ctx, matricula.Ronda{ID: id, Ejercicio: "6.5.4-4xx", Abierta: time.Now()}))
		debe(t, a.Responder(ctx, id, "Ana", map[string]string{"intentos": fmt.Sprint(i)}))
	}
	for i := range n {
		id := fmt.Sprint("ronda-", i)
		if i < n-topes.RondasClase {
			if _, _, err := a.Respuestas(ctx, id); !errors.Is(err, matricula.ErrSinRonda) {
				t.Errorf("la ronda %d sigue: %v", i, err)
			}
			continue
		}
		if _, m := respuestasDe(t, a, id); m["Ana"]["intentos"] != fmt.Sprint(i) {
			t.Errorf("la ronda %d: %v", i, m)
		}
	}
	if rondas, err := a.Rondas(ctx); err != nil || len(rondas) != topes.RondasClase || rondas[0].ID != fmt.Sprint("ronda-", n-topes.RondasClase) {
		t.Errorf("Rondas: %d, la primera %+v (%v)", len(rondas), rondas[:min(1, len(rondas))], err)
	}
	var filas int
	debe(t, a.(*almacenSQL).db.QueryRowContext(ctx, `SELECT count(*) FROM clase_respuestas`).Scan(&filas))
	if filas != topes.RondasClase {
		t.Errorf("quedan %d respuestas; las de las rondas olvidadas debían irse con ellas", filas)
	}
}

// Thirty students answer while the round is revealed: each answer is kept and returned nil, or
// refused with matricula.ErrRevelada and not kept; none is kept after the reveal nor lost before it.
func probarResponderMientrasSeRevela(t *testing.T, abrir abridor) {
	a, _ := abrir(t)
	nombres := muchos(0, 30)
	agregar(t, a, nombres...)
	debe(t, a.AbrirRonda(ctx, matricula.Ronda{ID: "r", Ejercicio: "6.5.4-4xx", Abierta: time.Now()}))
	var wg sync.WaitGroup
	var mu sync.Mutex
	guardadas := map[string]bool{}
	empezar := make(chan struct{})
	for i, nombre := range nombres {
		wg.Go(func() {
			<-empezar
			err := a.Responder(ctx, "r", nombre, map[string]string{"intentos": fmt.Sprint(i)})
			switch {
			case err == nil:
				mu.Lock()
				guardadas[nombre] = true
				mu.Unlock()
			case !errors.Is(err, matricula.ErrRevelada):
				t.Errorf("%s: %v", nombre, err)
			}
		})
	}
	wg.Go(func() {
		<-empezar
		if err := a.Revelar(ctx, "r", map[string]string{"intentos": "1"}); err != nil {
			t.Error(err)
		}
	})
	close(empezar)
	wg.Wait()
	_, m := respuestasDe(t, a, "r")
	for _, nombre := range nombres {
		if guardadas[nombre] != (m[nombre] != nil) {
			t.Errorf("%s: Responder dijo guardada=%v, y la ronda tiene %v", nombre, guardadas[nombre], m[nombre])
		}
	}
	t.Logf("%d de %d respuestas llegaron antes de revelar", len(guardadas), len(nombres))
}
