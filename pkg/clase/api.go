package clase

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"

	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/revisor"
	"cursohttp/pkg/token"
	"cursohttp/pkg/topes"
)

// topePedido bounds what a grader or the instructor sends in one request.
const topePedido = 64 << 10

// Rutas adds the graders' and the instructor's routes to mux.
func (c *Clase) Rutas(mux *http.ServeMux) {
	mux.HandleFunc("POST "+examen.RutaCorridas, c.nuevaCorrida)
	mux.HandleFunc("POST "+examen.RutaEmpieza, c.aviso)
	mux.HandleFunc("POST "+examen.RutaTermina, c.aviso)
	mux.HandleFunc("POST "+examen.RutaVeredicto, c.veredicto)
	mux.HandleFunc("POST "+pizarra.RutaLista, c.agregar)
	mux.HandleFunc("POST "+pizarra.RutaCredencial, c.renovar)
	mux.HandleFunc("DELETE "+pizarra.RutaCredencial, c.revocar)
	mux.HandleFunc("POST "+pizarra.RutaCredenciales, c.rotar)
	mux.HandleFunc("GET "+token.RutaEnlace, c.entrar)
	c.rutasPrediccion(mux)
}

// Instructor says whether r carries the instructor's token or session, from the lab's own site.
func (c *Clase) Instructor(r *http.Request) bool {
	if !token.MismoSitio(r) {
		return false
	}
	return token.Iguales(token.Portador(r), c.o.Token) || c.sesiones.Valida(r)
}

// repetir answers a grader that its grading is thrown away whole, and why: it repeats it from the
// start (examen.CabeceraRepetir).
func repetir(w http.ResponseWriter, codigo int, texto string) {
	w.Header().Set(examen.CabeceraRepetir, "1")
	linea(w, codigo, texto)
}

func linea(w http.ResponseWriter, codigo int, texto string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(codigo)
	io.WriteString(w, texto+"\n") //nolint:errcheck // the client left
}

func escribirJSON(w http.ResponseWriter, codigo int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(codigo)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client left
}

// alumno is the student whose credential r carries; it answers the refusal itself when none.
func (c *Clase) alumno(w http.ResponseWriter, r *http.Request) (string, bool) {
	dada := token.Portador(r)
	if dada == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="clase"`)
		linea(w, http.StatusUnauthorized, "falta tu credencial de la clase: revisor comprobar cliente --clase URL --credencial LA-TUYA (te la da el profesor)")
		return "", false
	}
	nombre, ok, err := c.o.Matricula.Identificar(r.Context(), dada)
	if err != nil {
		linea(w, http.StatusServiceUnavailable, "la clase no puede leer su lista ahora: repite en unos segundos")
		return "", false
	}
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="clase", error="invalid_token"`)
		linea(w, http.StatusUnauthorized, "esa credencial no es de esta clase (o el profesor la cambió): pídele la tuya")
		return "", false
	}
	return nombre, true
}

func (c *Clase) nuevaCorrida(w http.ResponseWriter, r *http.Request) {
	alumno, ok := c.alumno(w, r)
	if !ok {
		return
	}
	var p examen.PedidoCorrida
	if err := json.NewDecoder(io.LimitReader(r.Body, topePedido)).Decode(&p); err != nil {
		linea(w, http.StatusBadRequest, "el pedido de calificación no es JSON válido")
		return
	}
	semilla := rand.Uint64() % 1_000_000
	if p.Semilla != nil {
		semilla = *p.Semilla
	}
	var escenarios []examen.Escenario
	if c.o.Escenarios != nil {
		escenarios = c.o.Escenarios(semilla)
	}
	ec := examen.NuevaCorrida(semilla, escenarios, c.o.Limite)
	ec.TopeIntentos = topes.IntentosPorAlta
	ahora := c.o.Ahora()
	cr := &corrida{Corrida: ec, id: uuid.NewString(), pase: token.Nuevo(), alumno: alumno, equipo: Equipo(alumno),
		orden: examen.Recortar(p.Orden, 200), inicio: ahora, ultima: ahora, fallos: c.fallos.Load()}
	c.mu.Lock()
	viejas := c.olvidarViejas(ahora)
	if vieja := c.porAlumno[alumno]; vieja != nil {
		// One grading at a time per student: a new one ends the one in progress, unjudged.
		c.quitar(vieja)
		viejas = append(viejas, vieja)
	}
	c.mu.Unlock()
	// What a cut or replaced grading left behind goes before this one starts: its attempts still
	// in flight end (Cerrar waits for them), then the team's services go, so a grading repeated with
	// the same seed (the same names) is judged as it would be alone.
	for _, v := range viejas {
		v.Cerrar()
	}
	if err := c.vaciarEquipo(r.Context(), cr.equipo); err != nil {
		linea(w, http.StatusServiceUnavailable, "la clase no puede preparar tu calificación ahora (su base de datos no responde): repite en unos segundos")
		return
	}
	c.mu.Lock()
	if otra := c.porAlumno[alumno]; otra != nil {
		// Another grading of the same student started meanwhile: this one replaces it too.
		c.quitar(otra)
		go otra.Cerrar()
	}
	c.porPase[cr.pase], c.porID[cr.id], c.porAlumno[alumno] = cr, cr, cr
	c.mu.Unlock()
	c.o.Log.Info().Str("alumno", alumno).Uint64("semilla", semilla).Msg("clase: " + alumno + " empieza una calificación")
	escribirJSON(w, http.StatusCreated, examen.CorridaDeClase{ID: cr.id, Pasarela: c.urlPasarela(r), Pase: cr.pase, Semilla: semilla,
		LimiteMS: c.o.Limite.Milliseconds(), Grupos: ec.Encargos()})
}

// vaciarEquipo retires every live service of a student's team and forgets its keys: the class's
// revisors hold only what the gradings in progress made, and a grading that repeats a cut one
// meets nothing of it.
func (c *Clase) vaciarEquipo(ctx context.Context, equipo string) error {
	ctx, cancelar := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancelar()
	for _, base := range []string{"a", "b"} {
		servicios, err := c.o.Servicios.Listar(ctx, base+revisor.SeparadorClase+equipo)
		if err != nil {
			return err
		}
		for _, s := range servicios {
			if _, err := c.o.Servicios.Retirar(ctx, s.ID); err != nil {
				return err
			}
		}
	}
	_, err := c.o.Servicios.OlvidarLlaves(ctx, revisor.SeparadorClase+equipo)
	return err
}

// quitar forgets a run (c.mu held).
func (c *Clase) quitar(cr *corrida) {
	delete(c.porPase, cr.pase)
	delete(c.porID, cr.id)
	if c.porAlumno[cr.alumno] == cr {
		delete(c.porAlumno, cr.alumno)
	}
}

// olvidarViejas forgets the runs nobody reported on for topes.VidaCorrida (c.mu held) and returns
// them, to be closed: a grader that died leaves nothing behind, and nothing half-judged reaches the
// board.
func (c *Clase) olvidarViejas(ahora time.Time) []*corrida {
	var viejas []*corrida
	for _, cr := range c.porID {
		cr.mu.Lock()
		vieja := ahora.Sub(cr.ultima) > topes.VidaCorrida
		cr.mu.Unlock()
		if vieja {
			c.quitar(cr)
			viejas = append(viejas, cr)
		}
	}
	return viejas
}

// urlPasarela is the gateway's URL as this student reaches the lab.
func (c *Clase) urlPasarela(r *http.Request) string {
	if c.o.Pasarela != "" {
		return c.o.Pasarela
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	puerto := ""
	if u, err := url.Parse(c.mj.Pasarela); err == nil {
		puerto = u.Port()
	}
	return "http://" + host + ":" + puerto
}

// suya is the run {id} of r's student, answering the refusal itself when it is not.
func (c *Clase) suya(w http.ResponseWriter, r *http.Request) (*corrida, bool) {
	alumno, ok := c.alumno(w, r)
	if !ok {
		return nil, false
	}
	c.mu.Lock()
	cr := c.porID[r.PathValue("id")]
	c.mu.Unlock()
	if cr == nil || cr.alumno != alumno {
		// Another student's run reads as one that does not exist: nothing says it does.
		repetir(w, http.StatusNotFound, MotivoCortada)
		return nil, false
	}
	cr.mu.Lock()
	cr.ultima = c.o.Ahora()
	cr.mu.Unlock()
	return cr, true
}

// MotivoCortada answers a grader whose run the lab no longer has: the lab restarted, or another
// grading of the same student replaced it.
const MotivoCortada = "la clase ya no tiene esa calificación (el laboratorio de la clase se reinició, o empezaste otra): se repite entera, nada de ella cuenta"

func (c *Clase) aviso(w http.ResponseWriter, r *http.Request) {
	cr, ok := c.suya(w, r)
	if !ok {
		return
	}
	var a examen.AvisoDeAlta
	if err := json.NewDecoder(io.LimitReader(r.Body, topePedido)).Decode(&a); err != nil {
		linea(w, http.StatusBadRequest, "el aviso no es JSON válido")
		return
	}
	g := cr.Grupos()
	if a.Grupo < 0 || a.Grupo >= len(g) || a.Vez < 0 || a.Vez >= len(g[a.Grupo]) {
		linea(w, http.StatusBadRequest, "esa alta no es de esta calificación")
		return
	}
	in := g[a.Grupo][a.Vez]
	// Reports and the judgement take turns: nothing the student's machine says changes a run
	// being judged.
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.juzgada {
		linea(w, http.StatusConflict, "esa calificación ya se está juzgando")
		return
	}
	empieza := strings.HasSuffix(r.URL.Path, "/empieza")
	if empieza {
		in.Empezar()
	} else {
		res := examen.Resultado{Detenido: true}
		if a.Resultado != nil {
			res = *a.Resultado
		}
		if len(res.Texto) > topes.SalidaCliente {
			res.Texto = res.Texto[:topes.SalidaCliente]
		}
		res.Arranque = examen.Recortar(res.Arranque, 300)
		// The lab's own clock bounds the run: reported as ended long after its limit, it was stopped.
		if inicio, _ := in.Tiempos(); !inicio.IsZero() && c.o.Ahora().Sub(inicio) > cr.Limite+Holgura {
			res.Detenido = true
		}
		in.Terminar(res)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (c *Clase) veredicto(w http.ResponseWriter, r *http.Request) {
	alumno, ok := c.alumno(w, r)
	if !ok {
		return
	}
	// Asked again (its answer was lost on the way): the same verdict, judged once.
	c.mu.Lock()
	h := c.juzgadas[alumno]
	c.mu.Unlock()
	if h != nil && h.id == r.PathValue("id") {
		escribirJSON(w, http.StatusOK, h.v)
		return
	}
	cr, ok := c.suya(w, r)
	if !ok {
		return
	}
	cr.mu.Lock()
	if cr.juzgada {
		cr.mu.Unlock()
		linea(w, http.StatusConflict, "esa calificación ya se juzgó")
		return
	}
	cr.juzgada = true
	cr.mu.Unlock()
	cr.Cerrar()
	for _, g := range cr.Grupos() {
		for _, in := range g {
			// A run that started and never said it ended was stopped; one that never started did
			// not run on the student's machine.
			switch inicio, fin := in.Tiempos(); {
			case fin.IsZero() && !inicio.IsZero():
				in.Terminar(examen.Resultado{Detenido: true})
			case inicio.IsZero():
				in.Terminar(examen.Resultado{Arranque: "la máquina del alumno no lo corrió"})
			}
		}
	}
	ctx, cancelar := context.WithTimeout(context.WithoutCancel(r.Context()), 30*time.Second)
	defer cancelar()
	// A fault of the lab's own during the run (its revisors' store, a revisor that did not answer)
	// is never the student's: the whole grading is thrown away, and the grader repeats it.
	motivo := cr.Fallo()
	if motivo == "" && c.fallos.Load() != cr.fallos {
		motivo = "la base de datos de los revisores de la clase falló mientras se calificaba"
	}
	if motivo != "" {
		c.olvidar(cr)
		c.vaciarEquipo(ctx, cr.equipo) //nolint:errcheck // the next grading of the team tries again
		c.o.Log.Warn().Str("alumno", cr.alumno).Msg("clase: la calificación de " + cr.alumno + " no cuenta (" + motivo + "); se repite")
		repetir(w, http.StatusServiceUnavailable, "la calificación no cuenta: "+motivo+"; se repite entera")
		return
	}
	hechos := map[string]int{}
	for _, base := range []string{"a", "b"} {
		servicios, err := c.o.Servicios.Listar(ctx, base+revisor.SeparadorClase+cr.equipo)
		if err != nil {
			c.olvidar(cr)
			repetir(w, http.StatusServiceUnavailable, "no pude leer los servicios del revisor de la clase ("+err.Error()+"): la calificación no cuenta; se repite entera")
			return
		}
		for _, s := range servicios {
			hechos[s.Nombre] = s.ID
		}
	}
	inf := cr.Juzgar(func(nombre string) bool { return hechos[nombre] != 0 })
	inf.Orden, inf.Pasarela, inf.Duracion = cr.orden, c.urlPasarela(r), c.o.Ahora().Sub(cr.inicio)
	var texto, js bytes.Buffer
	inf.Escribir(&texto)
	inf.JSON(&js) //nolint:errcheck // a buffer
	cal := matricula.Calificacion{ID: cr.id, Alumno: cr.alumno, Inicio: cr.inicio, Fin: c.o.Ahora(), Semilla: cr.Semilla,
		Informe: examen.Recortar(texto.String(), topes.InformeClase-4)}
	for _, ch := range inf.Comprobaciones {
		estado := ch.Estado
		if estado == "" {
			estado = examen.EstadoFallo
			if ch.Paso {
				estado = examen.EstadoPaso
			}
		}
		cal.Comprobaciones = append(cal.Comprobaciones, matricula.Veredicto{ID: ch.ID, Estado: estado, Autodeclarada: Autodeclarada(ch.ID)})
	}
	err := c.o.Matricula.Anotar(ctx, cal)
	c.olvidar(cr)
	// The services of a judged run are of no more use: the class's revisors stay the size of the
	// gradings in progress.
	for _, id := range hechos {
		c.o.Servicios.Retirar(ctx, id) //nolint:errcheck // what stays is only space
	}
	switch {
	case errors.Is(err, matricula.ErrNoEsta):
		linea(w, http.StatusGone, "el profesor te quitó de la lista mientras se calificaba: esta calificación no cuenta")
		return
	case err != nil:
		repetir(w, http.StatusServiceUnavailable, "no pude guardar tu calificación ("+err.Error()+"): no cuenta; se repite entera")
		return
	}
	c.o.Log.Info().Str("alumno", cr.alumno).Int("pasaron", inf.Pasaron()).Int("juzgadas", inf.Juzgadas()).
		Msg("clase: calificación de " + cr.alumno + " anotada")
	v := &examen.VeredictoDeClase{Texto: texto.String(), JSON: js.Bytes(), Codigo: inf.Codigo()}
	c.mu.Lock()
	c.juzgadas[cr.alumno] = &juzgada{id: cr.id, v: v}
	c.mu.Unlock()
	escribirJSON(w, http.StatusOK, v)
}

func (c *Clase) olvidar(cr *corrida) {
	c.mu.Lock()
	c.quitar(cr)
	c.mu.Unlock()
}

// Autodeclarada says whether a check rests on what the student's machine reported (the client's
// exit code) rather than on what the lab saw.
func Autodeclarada(id string) bool { return id == "codigo-de-salida" }
