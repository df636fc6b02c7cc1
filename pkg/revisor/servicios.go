package revisor

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cursohttp/internal/nodejs"
	"cursohttp/pkg/almacen"
	"cursohttp/pkg/etiquetas"
	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/observacion"
	"cursohttp/pkg/problema"
	"cursohttp/pkg/respuesta"
	"cursohttp/pkg/sonda"
	"cursohttp/pkg/topes"
	"cursohttp/pkg/traza"
)

func representar(s almacen.Servicio) nodejs.Objeto {
	return nodejs.Objeto{
		{Nombre: "id", Valor: s.ID},
		{Nombre: "nombre", Valor: s.Nombre},
		{Nombre: "url", Valor: s.URL},
		{Nombre: "limite_ms", Valor: s.LimiteMs},
	}
}

func nulo(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func representarRevision(r almacen.Revision) nodejs.Objeto {
	var resultado any
	if r.Resultado != nil {
		resultado = nodejs.Objeto{
			{Nombre: "estado", Valor: r.Resultado.Estado},
			{Nombre: "codigo", Valor: nulo(r.Resultado.Codigo)},
			{Nombre: "ms", Valor: nulo(r.Resultado.Ms)},
			{Nombre: "detalle", Valor: r.Resultado.Detalle},
		}
	}
	return nodejs.Objeto{
		{Nombre: "id", Valor: r.ID},
		{Nombre: "servicio", Valor: r.Servicio},
		{Nombre: "estado", Valor: r.Estado},
		{Nombre: "resultado", Valor: resultado},
	}
}

// numero reads a route parameter (\d+) as JavaScript's Number does for the lookup; one too large
// for an int names nothing.
func numero(texto string) int {
	n, err := strconv.Atoi(texto)
	if err != nil {
		return -1
	}
	return n
}

// encontrar returns a service the credential may see. Otherwise it has already answered: 410 if it
// existed in the credential's team and was retired, 404 if it never existed or belongs to another
// team (the 404 hides it on purpose).
func (rv *Revisor) encontrar(c *contexto, id string) (almacen.Servicio, bool) {
	n := numero(id)
	ctx := c.r.Context()
	s, vivo, err := rv.almacen.Buscar(ctx, n)
	if err != nil {
		rv.averia(c.w, c.r, err)
		return almacen.Servicio{}, false
	}
	if vivo && c.credencial.delEquipo(s.Equipo) {
		return s, true
	}
	retirado, equipo := false, ""
	if !vivo {
		if equipo, retirado, err = rv.almacen.EquipoDeRetirado(ctx, n); err != nil {
			rv.averia(c.w, c.r, err)
			return almacen.Servicio{}, false
		}
	}
	if retirado && c.credencial.delEquipo(equipo) {
		rv.fallar(c.w, c.r, problema.ServicioRetirado, "el servicio "+id+" se retiró y no va a volver")
	} else {
		rv.fallar(c.w, c.r, problema.ServicioInexistente, "no existe el servicio "+id)
	}
	return almacen.Servicio{}, false
}

// rechazarDatos answers 422 with every field that cannot be fulfilled: in Lesson 4, one
// "campo: detalle" line each; from Lesson 5, the errors extension.
func (rv *Revisor) rechazarDatos(c *contexto, fallas []CampoInvalido) {
	if rv.programa.EnLeccion4() {
		lineas := make([]string, len(fallas))
		for i, f := range fallas {
			lineas[i] = f.Campo + ": " + f.Detalle
		}
		rv.fallar(c.w, c.r, problema.DatosInvalidos, strings.Join(lineas, "\n"))
		return
	}
	errores := make([]nodejs.Objeto, len(fallas))
	for i, f := range fallas {
		errores[i] = nodejs.Objeto{{Nombre: "detail", Valor: f.Detalle}, {Nombre: "pointer", Valor: "#/" + f.Campo}}
	}
	// Several problems of one type in one answer: the errors extension, as in RFC 9457.
	rv.fallar(c.w, c.r, problema.DatosInvalidos, strconv.Itoa(len(fallas))+" dato(s) no se pueden cumplir",
		problema.ConExtension("errors", errores))
}

// destinoPermitido: SSRF. The revisor connects to URLs someone typed, so a URL is checked when it is
// registered and again before every connection (pkg/sonda).
func (rv *Revisor) destinoPermitido(c *contexto, url string) bool {
	v := rv.verificador.Revisar(c.r.Context(), url)
	if v.Permitido {
		return true
	}
	rv.fallar(c.w, c.r, problema.DestinoProhibido, "destino prohibido: "+v.Motivo)
	return false
}

// nombreRepetido answers 409: Lesson 4 names the existing service in the detail; from Lesson 6 it
// goes in the extension existente. Lesson 7's exercise 3 writes the detail in English (for a
// foreign client): a client that decides by the type must not notice.
func (rv *Revisor) nombreRepetido(c *contexto, nombre string, existente int) {
	if rv.programa.EnLeccion4() {
		rv.fallar(c.w, c.r, problema.NombreRepetido, "ya existe un servicio llamado "+nombre+": /servicios/"+strconv.Itoa(existente))
		return
	}
	detalle := "ya existe un servicio llamado " + nombre
	if rv.programa.EsEjercicio(7, 3) {
		detalle = "a service named " + nombre + " already exists"
	}
	rv.fallar(c.w, c.r, problema.NombreRepetido, detalle,
		problema.ConExtension("existente", "/servicios/"+strconv.Itoa(existente)))
}

// GET /servicios
func (rv *Revisor) listar(c *contexto) {
	rv.escribirLista(c, formaActual)
}

// escribirLista answers {"servicios":[…]} with the credential's services in form f. The listing is
// built once for as long as the team's list stays the same (listados); one that does not fit in
// their budget is streamed and never held whole (respuesta.ListaJSON), so a team's long list costs
// the revisor no more memory than a short one.
func (rv *Revisor) escribirLista(c *contexto, f *formaLista) {
	propios, err := rv.almacen.Listar(c.r.Context(), c.credencial.Equipo)
	if err != nil {
		rv.averia(c.w, c.r, err)
		return
	}
	if l := rv.listados.tomar(c.credencial.Equipo, f, propios); l != nil {
		defer l.soltar()
		l.enviar.Enviar(c.w, c.r)
		return
	}
	respuesta.ListaJSON(c.w, c.r, http.StatusOK, "servicios", len(propios), func(i int) any { return f.representar(propios[i]) }, f.cabeceras...)
}

// POST /servicios
func (rv *Revisor) darDeAlta(c *contexto) {
	datos, ok := rv.leerJSON(c)
	if !ok {
		return
	}

	// With Idempotency-Key the same request repeated gets the same response and creates nothing
	// more. The key is looked at only once the body could be read (415, 413 and 400 never reserve
	// it) and before anything that could be done twice.
	// Lesson 4's program predates the key: it does not look at the header.
	llave := ""
	if rv.leccion6 {
		llave = strings.Join(c.r.Header.Values("Idempotency-Key"), ", ")
	}
	// The key as text in a detail or a log line; the key itself stays the bytes that came.
	mostrada := nodejs.Cabecera(llave)
	nombre := c.credencial.Nombre
	// From here on the registration is the revisor's work, not the client's: a client that hangs
	// up does not stop it (as the save pause already did not), so it ends as it would have — its
	// service and its key's response written, or its key given back — and the client's retry finds
	// that. It is bounded instead by its reservation's Plazo, which it must not outlive.
	sinCliente := context.WithoutCancel(c.r.Context())
	plazo := topes.PlazoLlave
	var reserva idempotencia.Reserva
	if llave != "" {
		tomar, listo := context.WithTimeout(sinCliente, topes.EsperaLlave)
		turno, err := rv.llaves.Tomar(tomar, nombre, llave, rv.huella(datos))
		listo()
		if err != nil {
			rv.averia(c.w, c.r, err)
			return
		}
		switch turno.Tipo {
		case idempotencia.Repetir:
			if reg := observacion.RegistroDe(c.r.Context()); reg != nil {
				reg.Resultado = "respuesta repetida"
			}
			rv.log.Info().Ctx(c.r.Context()).Str("llave", mostrada).Msg("idempotencia: la llave " + mostrada + " ya se atendió; repito su respuesta")
			g := turno.Grabada
			respuesta.Bytes(c.w, c.r, g.Codigo, "application/json", g.Cuerpo, g.Cabeceras...)
			return
		case idempotencia.OtraPeticion:
			rv.fallar(c.w, c.r, problema.LlaveReutilizada, "la llave "+mostrada+" ya se usó con un cuerpo distinto")
			return
		case idempotencia.EnCurso, idempotencia.Lleno:
			// Lleno (the store is at a bound with nothing of this credential's to give up) is beyond
			// the course; it is answered as the in-progress case, which a client already knows to
			// retry after a while.
			rv.fallar(c.w, c.r, problema.LlaveEnCurso, "la petición original con la llave "+mostrada+" todavía no termina")
			return
		case idempotencia.DemasiadasEnCurso:
			// Beyond the course: a bound on what one credential can hold reserved at once.
			rv.fallar(c.w, c.r, problema.AltasEnCurso, "tu credencial tiene demasiadas altas con Idempotency-Key en curso; espera a que termine alguna y repite",
				problema.ConCabecera("Retry-After", "1"))
			return
		}
		reserva, plazo = turno.Reserva, turno.Reserva.Plazo
	}
	ctx, terminar := context.WithTimeout(sinCliente, plazo)
	defer terminar()
	// Whatever stops the registration before it creates anything gives the key back, with time of
	// its own: the work's may be what ran out. A store that fails to is no worse than a crash: the
	// reservation lapses at the end of its Plazo.
	soltar := func() {
		if llave == "" {
			return
		}
		soltarla, listo := context.WithTimeout(sinCliente, topes.EsperaLlave)
		defer listo()
		if err := rv.llaves.Soltar(soltarla, reserva); err != nil {
			rv.log.Error().Ctx(ctx).Err(err).Msg("idempotencia: no se pudo soltar la llave " + mostrada)
		}
	}

	validos, fallas := Validar(datos)
	if fallas != nil {
		soltar()
		rv.rechazarDatos(c, fallas)
		return
	}
	if !rv.destinoPermitido(c, validos.URL) {
		soltar()
		return
	}
	if rv.leccion6 {
		rv.esperar(rv.guardar)
	}
	// The name check and the creation are one step of the store: two registrations of one name
	// cannot both win.
	respuestaDe := func(s almacen.Servicio) idempotencia.Grabada {
		return idempotencia.Grabada{
			Codigo: http.StatusCreated,
			Cabeceras: []respuesta.Cabecera{
				{Nombre: "Location", Valor: "/servicios/" + strconv.Itoa(s.ID)},
				{Nombre: "ETag", Valor: almacen.Etiqueta(rv.arranque, s)},
			},
			Cuerpo: append(nodejs.CodificarJSON(representar(s)), '\n'),
		}
	}
	// With the store's own key records, the service and its key's response are written in one
	// step: a crash leaves either both or neither.
	var alta *almacen.Alta
	if llave != "" && rv.llavesPropias {
		alta = &almacen.Alta{Reserva: reserva, Respuesta: respuestaDe}
	}
	s, err := rv.almacen.Crear(ctx, c.credencial.Equipo, validos, rv.topeServicios, alta)
	var repetido *almacen.NombreRepetido
	var lleno *almacen.TopeAlcanzado
	switch {
	case errors.As(err, &repetido):
		soltar()
		rv.nombreRepetido(c, validos.Nombre, repetido.Existente)
		return
	case errors.As(err, &lleno):
		soltar()
		rv.fallar(c.w, c.r, problema.DemasiadosServicios, "tu equipo ya tiene "+strconv.Itoa(lleno.Tope)+
			" servicios, el tope; retira alguno antes de dar de alta otro")
		return
	case errors.Is(err, almacen.ErrReservaPerdida):
		// Beyond the course: this request outlived its reservation and another with the same key
		// took it. Nothing was created here; the retry finds the other's answer.
		rv.fallar(c.w, c.r, problema.LlaveEnCurso, "la petición con la llave "+mostrada+" tardó más que su plazo y otra petición con esa llave la tomó")
		return
	case err != nil:
		soltar()
		rv.averia(c.w, c.r, err)
		return
	}
	g := respuestaDe(s)
	if llave != "" && !rv.llavesPropias {
		// Two steps: a crash between them keeps the service and forgets the key.
		if err := rv.llaves.Grabar(ctx, reserva, g); err != nil {
			rv.averia(c.w, c.r, err)
			return
		}
	}
	respuesta.Bytes(c.w, c.r, g.Codigo, "application/json", g.Cuerpo, g.Cabeceras...)
}

// esperar pauses the way the course's simulated save does. It ends early only when the revisor
// shuts down; a client that hangs up does not stop work it started (the write still happens).
func (rv *Revisor) esperar(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-rv.vida.Done():
	}
}

// GET /servicios/{id}
func (rv *Revisor) consultar(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	vi := rv.vistas.de(s)
	// If-None-Match brings "*" or a list and is compared weakly (RFC 9110 §13.1.2, §8.8.3.2).
	if valores, hay := c.r.Header["If-None-Match"]; hay &&
		etiquetas.HayCoincidencia(strings.Join(valores, ", "), vi.etiqueta, etiquetas.CoincideDebil) {
		vi.noModifico.Enviar(c.w, c.r)
		return
	}
	vi.ok.Enviar(c.w, c.r)
}

// PUT /servicios/{id}: change without overwriting someone else's change. It requires If-Match with
// the current tag.
func (rv *Revisor) cambiar(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	// First the format (415), then the condition (428 and 412), then the reading (400).
	if !rv.esJSON(c) {
		return
	}
	valores, hay := c.r.Header["If-Match"]
	if !hay {
		rv.fallar(c.w, c.r, problema.FaltaCondicion, "para cambiar un servicio manda If-Match con su ETag")
		return
	}
	condicion := strings.Join(valores, ", ")
	vigente := almacen.Etiqueta(rv.arranque, s)
	// If-Match is compared strongly (RFC 9110 §13.1.1): a W/ tag never matches. The detail says
	// what happened and what to do, without echoing the header.
	if !etiquetas.HayCoincidencia(condicion, vigente, etiquetas.CoincideFuerte) {
		detalle := "tu etiqueta ya no es la vigente: el servicio cambió o el revisor se reinició; vuelve a leerlo antes de cambiarlo"
		if etiquetas.HayCoincidencia(condicion, vigente, etiquetas.CoincideDebil) {
			detalle = "If-Match se compara en fuerte: una etiqueta débil (W/) no sirve para cambiar; manda la ETag tal como llegó"
		}
		rv.fallar(c.w, c.r, problema.EtiquetaVencida, detalle)
		return
	}
	// The version that matched. Reading the body and resolving the URL take time, and another
	// request may change the service meanwhile: the store compares again when it writes.
	var versionLeida *int
	if _, comodin := etiquetas.Interpretar(condicion); !comodin {
		v := s.Version
		versionLeida = &v
	}
	datos, ok := rv.leerJSON(c)
	if !ok {
		return
	}
	validos, fallas := Validar(datos)
	if fallas != nil {
		rv.rechazarDatos(c, fallas)
		return
	}
	if !rv.destinoPermitido(c, validos.URL) {
		return
	}
	cambiado, err := rv.almacen.Cambiar(c.r.Context(), s.ID, versionLeida, validos)
	var repetido *almacen.NombreRepetido
	switch {
	case errors.As(err, &repetido):
		rv.nombreRepetido(c, validos.Nombre, repetido.Existente)
		return
	case errors.Is(err, almacen.ErrRetirado):
		// Retired while this request waited: 410, as if it had arrived after the retirement.
		rv.fallar(c.w, c.r, problema.ServicioRetirado, "el servicio "+strconv.Itoa(s.ID)+" se retiró y no va a volver")
		return
	case errors.Is(err, almacen.ErrConflicto):
		rv.fallar(c.w, c.r, problema.EtiquetaVencida, "el servicio cambió mientras se atendía tu petición; vuelve a leerlo antes de cambiarlo")
		return
	case err != nil:
		rv.averia(c.w, c.r, err)
		return
	}
	respuesta.JSON(c.w, c.r, http.StatusOK, representar(cambiado), respuesta.Cabecera{Nombre: "ETag", Valor: almacen.Etiqueta(rv.arranque, cambiado)})
}

// DELETE /servicios/{id}
func (rv *Revisor) retirar(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	if _, err := rv.almacen.Retirar(c.r.Context(), s.ID); err != nil {
		rv.averia(c.w, c.r, err)
		return
	}
	respuesta.Vacio(c.w, c.r, http.StatusNoContent)
}

// POST /servicios/{id}/revisiones, limited (see rutas)
func (rv *Revisor) pedirRevision(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	// Lesson 4 exercise 3's broken variant counts here, per service and after the lookup: the 404s
	// of an enumerator never reach the limit, and admin pays for what escritura-a asked.
	if c.limite != nil && !rv.dentroDelLimite(c.w, c.r, c.limite, strconv.Itoa(s.ID)) {
		return
	}
	revision, err := rv.almacen.CrearRevision(c.r.Context(), s.ID)
	if err != nil {
		rv.averia(c.w, c.r, err)
		return
	}
	rv.programar(revision.ID, s, trazaDe(c.r))
	respuesta.JSON(c.w, c.r, http.StatusAccepted, representarRevision(revision),
		respuesta.Cabecera{Nombre: "Location", Valor: "/revisiones/" + strconv.Itoa(revision.ID)})
}

// programar runs check id EsperaEnCola later, for as long as the revisor lives, with Lesson 6's
// retries (Lesson 4's program probes once). The
// check probes the service as it is when it runs, as in the course: a PUT in the meantime changes
// the URL and the limit it uses. A service retired meanwhile is probed as it was last seen here.
func (rv *Revisor) programar(id int, s almacen.Servicio, tc *traza.Contexto) {
	rv.tareas.Add(1)
	go func() {
		defer rv.tareas.Done()
		// The check's probes continue the trace of the request that asked for it.
		vida := rv.vida
		if tc != nil {
			vida = traza.EnContexto(vida, tc)
		}
		t := time.NewTimer(rv.enCola)
		defer t.Stop()
		select {
		case <-t.C:
		case <-rv.vida.Done():
			return
		}
		if actual, vivo, err := rv.almacen.Buscar(rv.vida, s.ID); err == nil && vivo {
			s = actual
		}
		var res almacen.Resultado
		if !rv.leccion6 {
			res = rv.sonda.Revisar(vida, s.URL, s.LimiteMs)
			if rv.vida.Err() != nil {
				return
			}
		} else if r, ok := rv.sonda.RevisarConReintentos(vida, s.URL, s.LimiteMs); ok {
			res = r
		} else {
			return
		}
		if err := rv.almacen.TerminarRevision(rv.vida, id, res); err != nil {
			// It stays pending, and a revisor that starts on the store later runs it again.
			rv.log.Error().Err(err).Int("revision", id).Msg("revisión " + strconv.Itoa(id) + ": no se pudo guardar el resultado")
		}
	}()
}

// rescatar runs the pending checks of revisors that are gone (Almacen.Huerfanas): once at start-up
// and then every cada, until the revisor closes; cada 0 looks only once.
func (rv *Revisor) rescatar(cada time.Duration) {
	rv.tareas.Add(1)
	go func() {
		defer rv.tareas.Done()
		for {
			huerfanas, err := rv.almacen.Huerfanas(rv.vida)
			if err != nil && rv.vida.Err() == nil {
				rv.log.Error().Err(err).Msg("revisiones: no se pudieron buscar las pendientes de otro revisor")
			}
			for _, h := range huerfanas {
				rv.programar(h.Revision.ID, h.Servicio, nil)
			}
			if cada <= 0 {
				return
			}
			t := time.NewTimer(cada)
			select {
			case <-t.C:
			case <-rv.vida.Done():
				t.Stop()
				return
			}
		}
	}()
}

// GET /revisiones/{id}
func (rv *Revisor) consultarRevision(c *contexto) {
	ctx := c.r.Context()
	revision, hay, err := rv.almacen.BuscarRevision(ctx, numero(c.parametro))
	equipo, conEquipo := "", false
	if err == nil && hay {
		var s almacen.Servicio
		if s, conEquipo, err = rv.almacen.Buscar(ctx, revision.Servicio); conEquipo {
			equipo = s.Equipo
		} else if err == nil {
			equipo, conEquipo, err = rv.almacen.EquipoDeRetirado(ctx, revision.Servicio)
		}
	}
	if err != nil {
		rv.averia(c.w, c.r, err)
		return
	}
	if !hay || !conEquipo || !c.credencial.delEquipo(equipo) {
		rv.fallar(c.w, c.r, problema.RevisionInexistente, "no existe la revisión "+c.parametro)
		return
	}
	var cabeceras []respuesta.Cabecera
	if revision.Estado == almacen.Pendiente {
		cabeceras = append(cabeceras, respuesta.Cabecera{Nombre: "Retry-After", Valor: "1"})
	}
	respuesta.JSON(c.w, c.r, http.StatusOK, representarRevision(revision), cabeceras...)
}

// GET /servicios/{id}/salud: the revisor asks the service now and acts as a gateway. Any HTTP
// response is reported with 200, whatever its code; without one, the fault is behind the revisor:
// 504 if it did not answer in time, 502 if what came back is not HTTP or nobody answered. It goes
// out to the network like a check, so it is limited too, in its own window (see rutas).
func (rv *Revisor) salud(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	id := strconv.Itoa(s.ID)
	consulta := rv.sonda.Consultar(saliente(c.r), s.URL, s.LimiteMs)
	switch consulta.Tipo {
	case sonda.Respuesta:
		respuesta.JSON(c.w, c.r, http.StatusOK, nodejs.Objeto{
			{Nombre: "servicio", Valor: s.ID}, {Nombre: "codigo", Valor: consulta.Codigo}, {Nombre: "ms", Valor: consulta.Ms},
		})
	case sonda.TiempoAgotado:
		rv.fallar(c.w, c.r, problema.ServicioLento, "el servicio "+id+" no respondió en "+strconv.Itoa(s.LimiteMs)+" ms")
	case sonda.SinConexion:
		rv.fallar(c.w, c.r, problema.RespuestaInvalida, "no se pudo conectar con el servicio "+id)
	case sonda.DestinoProhibido:
		rv.fallar(c.w, c.r, problema.DestinoProhibido, "destino prohibido: "+consulta.Motivo)
	default:
		rv.fallar(c.w, c.r, problema.RespuestaInvalida, "el servicio "+id+" no dio una respuesta HTTP válida: cortó la conexión o respondió algo que no es HTTP")
	}
}

// saludSinPasarela is GET /servicios/{id}/salud as Lesson 4's broken version writes it
// (--defecto sin-pasarela, Series J), wrong on purpose: it asks the service and reports any
// response, but does not classify the ways of not answering. A timeout or garbage is left to the
// safety net, so a fault behind the revisor comes out as a polite 500 of its own instead of 504 or
// 502, and the terminal shows the HTTP client's error, as fetch's, with no frame of the project.
func (rv *Revisor) saludSinPasarela(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok || !rv.destinoPermitido(c, s.URL) {
		return
	}
	consulta := rv.sonda.Consultar(saliente(c.r), s.URL, s.LimiteMs)
	switch consulta.Tipo {
	case sonda.Respuesta:
		respuesta.JSON(c.w, c.r, http.StatusOK, nodejs.Objeto{
			{Nombre: "servicio", Valor: s.ID}, {Nombre: "codigo", Valor: consulta.Codigo}, {Nombre: "ms", Valor: consulta.Ms},
		})
	case sonda.TiempoAgotado:
		panic(fallaDelCliente("TimeoutError: The operation was aborted due to timeout"))
	default:
		panic(fallaDelCliente("TypeError: fetch failed"))
	}
}

// GET /servicios/{id}/informe: the summary of a service's checks.
//
// PLANTED DEFECT (lesson 4), kept on purpose for the rest of the course so there is a 500 to
// provoke: it does not consider a service without a finished last check. With no checks the index
// is out of range; with the last one pending its result is nil. Either way it panics, and the
// recovery in ServeHTTP turns that into 500 error-interno with a reference.
func (rv *Revisor) informe(c *contexto) {
	s, ok := rv.encontrar(c, c.parametro)
	if !ok {
		return
	}
	revisiones, err := rv.almacen.RevisionesDe(c.r.Context(), s.ID)
	if err != nil {
		rv.averia(c.w, c.r, err)
		return
	}
	ultima := revisiones[len(revisiones)-1]
	respuesta.JSON(c.w, c.r, http.StatusOK, nodejs.Objeto{
		{Nombre: "servicio", Valor: s.ID},
		{Nombre: "revisiones", Valor: len(revisiones)},
		{Nombre: "ultimo_estado", Valor: ultima.Resultado.Estado},
	})
}

// PUT /mantenimiento with {"activo": true} or {"activo": false}. Only the admin credential.
func (rv *Revisor) cambiarMantenimiento(c *contexto) {
	if c.credencial.Rol != Admin {
		rv.fallar(c.w, c.r, problema.PermisoInsuficiente, "solo quien opera el revisor puede cambiar el mantenimiento")
		return
	}
	datos, ok := rv.leerJSON(c)
	if !ok {
		return
	}
	activo, esBool := valor(datos, "activo").(bool)
	if !esBool {
		rv.rechazarDatos(c, []CampoInvalido{{"activo", "debe ser true o false"}})
		return
	}
	if err := rv.almacen.PonerMantenimiento(c.r.Context(), activo); err != nil {
		rv.averia(c.w, c.r, err)
		return
	}
	estado := "apagado"
	if activo {
		estado = "encendido"
	}
	rv.log.Info().Ctx(c.r.Context()).Bool("mantenimiento", activo).Msg("operación: mantenimiento " + estado)
	respuesta.Vacio(c.w, c.r, http.StatusNoContent)
}
