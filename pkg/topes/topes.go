// Package topes is the one table of the suite's limits: every bound on what a client can make a
// server hold — time, bytes, connections, records — with its value, its unit and what it bounds.
// The code and the flags' defaults take their values from here, and a test compares the table
// with docs/seguridad.md's, so the page says what the programs do.
package topes

import (
	"strconv"
	"time"
)

// The limits, as constants for the code that applies them. Tabla lists each with its unit and what
// it bounds.
const (
	// Every server: connections and time (pkg/servidor).
	Cabeceras            = 16 << 10         // bytes of the request line and headers together, about what Node allows
	EsperaCabeceras      = 10 * time.Second // to send the request line and headers
	EsperaLectura        = 30 * time.Second // to send the whole request, body included
	EsperaOciosa         = 5 * time.Second  // an idle keep-alive connection: Node's keepAliveTimeout, which every answer's «Keep-Alive: timeout=5» promises
	EsperaApurada        = time.Second      // the same, once a server holds three quarters of a cap
	EsperaEscritura      = 10 * time.Second // each write of up to 64 KiB of an answer
	EsperaCierre         = 2 * time.Second  // reading the rest of an upload after an early answer (the course's)
	Conexiones           = 1024             // connections open at once, per server
	ConexionesPorCliente = 256              // connections open at once from one other machine
	RitmoCuerpo          = 1 << 10          // bytes per second a request body must keep to at a cap, after its first second

	// The revisor (pkg/revisor, pkg/idempotencia).
	Cuerpo              = 16 << 10 // bytes of a request's body
	URL                 = 2048     // a service's URL: characters (UTF-16, as JavaScript counts) and bytes (UTF-8)
	ServiciosPorEquipo  = 10_000   // live services per team (--tope-servicios)
	Listado             = 64 << 10 // bytes of a listing built in memory before it is streamed
	Listados            = 32 << 20 // bytes of the listings kept to be sent again, all together
	Llaves              = 10_000   // Idempotency-Key records in all (--tope-llaves)
	LlavesPorCredencial = 2_000    // the same, per credential (--tope-llaves-credencial)
	LlavesEnCurso       = 32       // keys in progress per credential (--tope-llaves-en-curso)
	VigenciaLlaves      = 24 * time.Hour
	Revisiones          = 3 // checks per minute and credential; live queries the same (--limitador)

	// The gateway (pkg/pasarela).
	Retenido         = 64 << 10          // bytes of a request's body read before forwarding
	Respuesta        = 8 << 20           // bytes of one answer held before answering
	Respuestas       = 32 << 20          // bytes of answers held at once, every request together
	EsperaRevisor    = 300 * time.Second // for the revisor's headers (Node's fetch waits as long)
	Vistas           = 100_000           // identities remembered for perder-primera and perder:N
	Libro            = 1000              // requests the ledger keeps
	CampoLibro       = 512               // bytes of a ledger entry's path, and of its key
	Lento            = 99_999            // milliseconds of lento:MS and of the bench's /lento/MS
	UbicacionesLibro = 100_000           // Locations remembered to tell a replayed 201 from a new write

	// A registration's Idempotency-Key (pkg/idempotencia, pkg/revisor).
	PlazoLlave  = 10 * time.Second // a key held by a request in progress: a lease, past which it is free
	EsperaLlave = 5 * time.Second  // each step on the key (reserving, giving back), apart from the lease

	// The panel (pkg/panel): the timeline page.
	Historia      = 20_000   // events kept for a page that opens later
	HistoriaBytes = 16 << 20 // and their bytes
	LoteDeEventos = 4 << 20  // bytes of one POST of events
	Evento        = 64 << 10 // bytes of one event's line
	CampoDeEvento = 2 << 10  // bytes of one text field of an event kept
	Flujos        = 256      // pages reading the stream at once

	// revisor agente mcp (pkg/agentemcp).
	LineaMCP           = 64 << 10 // bytes of one JSON-RPC line
	LlamadasMCP        = 64       // calls read and not yet answered
	LlamadasMCPBytes   = 1 << 20  // and their bytes
	IntencionesMCP     = 1024     // registrations of unknown outcome whose key it keeps
	IntencionesMCPByte = 1 << 20  // and their bytes
	NombreMCP          = 1000     // characters of alta_de_servicio's nombre
	URLMCP             = 2048     // characters of its url

	// revisor comprobar cliente (pkg/examen).
	SalidaCliente  = 4 << 10          // bytes of a graded client's output kept; the rest is read and dropped
	LimiteCliente  = 30 * time.Second // one run of a graded client (--limite)
	IntentosMaximo = 10               // attempts of one intent before a client counts as not giving up

	// Classroom mode (pkg/clase, pkg/matricula, the board of pkg/pizarra).
	Alumnos         = 500              // students on a class's roster, and rows of its board
	NombreAlumno    = 60               // characters of a student's name
	Comprobaciones  = 16               // checks of one class grading kept
	IntentosPorAlta = 200              // attempts written down per intent of a class grading
	VidaCorrida     = 10 * time.Minute // a class grading nobody reports on is forgotten, unjudged
	HistorialClase  = 50               // gradings kept per student
	InformeClase    = 16 << 10         // bytes of one grading's report kept
	IDCalificacion  = 64               // bytes of a grading's id, of a check's id and of its state
	RespuestaClase  = 256              // bytes of one answer to a prediction asked in class
	PreguntasClase  = 64               // answers of one student to one prediction, sent at once
	RondasClase     = 100              // predictions asked in class kept, each with its answers
)

// Unidad is how a limit's value reads.
type Unidad int

const (
	Cantidad Unidad = iota // a count
	Bytes
	Tiempo
)

// Tope is one row of the table.
type Tope struct {
	Nombre string // its name in docs/seguridad.md's table
	Valor  int64  // in Unidad: a count, bytes, or nanoseconds
	Unidad Unidad
	Limita string // what it bounds
}

// Texto is the value as docs/seguridad.md writes it: «16 KiB», «10 s», «24 h», «1,024».
func (t Tope) Texto() string {
	switch t.Unidad {
	case Bytes:
		switch {
		case t.Valor >= 1<<20 && t.Valor%(1<<20) == 0:
			return miles(t.Valor>>20) + " MiB"
		case t.Valor >= 1<<10 && t.Valor%(1<<10) == 0:
			return miles(t.Valor>>10) + " KiB"
		}
		return miles(t.Valor) + " bytes"
	case Tiempo:
		d := time.Duration(t.Valor)
		switch {
		case d >= time.Hour && d%time.Hour == 0:
			return miles(int64(d/time.Hour)) + " h"
		case d >= time.Second && d%time.Second == 0:
			return miles(int64(d/time.Second)) + " s"
		}
		return miles(d.Milliseconds()) + " ms"
	}
	return miles(t.Valor)
}

// miles writes n with a comma between thousands, as the page does.
func miles(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Tabla is every limit, in docs/seguridad.md's order.
func Tabla() []Tope {
	t := func(d time.Duration) int64 { return int64(d) }
	return []Tope{
		{"cabeceras", Cabeceras, Bytes, "la línea de petición y las cabeceras juntas"},
		{"espera-cabeceras", t(EsperaCabeceras), Tiempo, "el tiempo para mandar la línea de petición y las cabeceras"},
		{"espera-lectura", t(EsperaLectura), Tiempo, "el tiempo para mandar la petición entera, con su cuerpo"},
		{"espera-ociosa", t(EsperaOciosa), Tiempo, "una conexión keep-alive sin peticiones"},
		{"espera-apurada", t(EsperaApurada), Tiempo, "lo mismo con un tope a tres cuartos, y lo que lleva quieta una conexión que deja su lugar"},
		{"espera-escritura", t(EsperaEscritura), Tiempo, "cada escritura de hasta 64 KiB de una respuesta"},
		{"espera-cierre", t(EsperaCierre), Tiempo, "lo que se lee del resto de una subida tras responder antes de su fin"},
		{"conexiones", Conexiones, Cantidad, "las conexiones abiertas a la vez en un servidor (--tope-conexiones)"},
		{"conexiones-por-cliente", ConexionesPorCliente, Cantidad, "las conexiones abiertas a la vez desde otra máquina (--tope-por-cliente)"},
		{"ritmo-cuerpo", RitmoCuerpo, Bytes, "lo que un cuerpo debe traer por segundo, tras el primero, para no dejar su lugar en un tope"},
		{"cuerpo", Cuerpo, Bytes, "el cuerpo de una petición al revisor"},
		{"url", URL, Cantidad, "la URL de un servicio, en caracteres y en bytes"},
		{"servicios-por-equipo", ServiciosPorEquipo, Cantidad, "los servicios vivos de un equipo (--tope-servicios)"},
		{"listado", Listado, Bytes, "lo que un listado arma en memoria antes de mandarse por partes"},
		{"listados", Listados, Bytes, "los listados que el revisor guarda para mandarlos otra vez, todos juntos"},
		{"llaves", Llaves, Cantidad, "los registros de Idempotency-Key (--tope-llaves)"},
		{"llaves-por-credencial", LlavesPorCredencial, Cantidad, "los de una credencial (--tope-llaves-credencial)"},
		{"llaves-en-curso", LlavesEnCurso, Cantidad, "las llaves en curso de una credencial (--tope-llaves-en-curso)"},
		{"vigencia-llaves", t(VigenciaLlaves), Tiempo, "cuánto se recuerda una llave (--vigencia-llaves)"},
		{"revisiones", Revisiones, Cantidad, "revisiones y consultas en vivo por minuto y credencial (--limitador)"},
		{"retenido", Retenido, Bytes, "el cuerpo que la pasarela lee antes de reenviar"},
		{"respuesta", Respuesta, Bytes, "una respuesta que la pasarela retiene entera"},
		{"respuestas", Respuestas, Bytes, "las respuestas que la pasarela retiene a la vez, todas juntas"},
		{"espera-revisor", t(EsperaRevisor), Tiempo, "la espera de la pasarela por las cabeceras del revisor"},
		{"vistas", Vistas, Cantidad, "las identidades que la pasarela recuerda para perder-primera y perder:N"},
		{"libro", Libro, Cantidad, "las peticiones que guarda el libro de la pasarela"},
		{"campo-libro", CampoLibro, Bytes, "la ruta y la llave de cada asiento del libro"},
		{"ubicaciones-libro", UbicacionesLibro, Cantidad, "las Location que el libro recuerda para reconocer un 201 repetido"},
		{"lento", Lento, Cantidad, "los milisegundos de lento:MS y de /lento/MS"},
		{"plazo-llave", t(PlazoLlave), Tiempo, "cuánto retiene una llave la petición que la tomó"},
		{"espera-llave", t(EsperaLlave), Tiempo, "cada paso sobre la llave de un alta: tomarla, soltarla"},
		{"historia", Historia, Cantidad, "los eventos que guarda el panel para una página que se abre luego"},
		{"historia-bytes", HistoriaBytes, Bytes, "sus bytes"},
		{"lote-de-eventos", LoteDeEventos, Bytes, "un POST de eventos al panel"},
		{"evento", Evento, Bytes, "la línea de un evento"},
		{"campo-de-evento", CampoDeEvento, Bytes, "cada texto de un evento que se guarda"},
		{"flujos", Flujos, Cantidad, "las páginas que leen el flujo del panel a la vez"},
		{"linea-mcp", LineaMCP, Bytes, "una línea JSON-RPC de revisor agente mcp"},
		{"llamadas-mcp", LlamadasMCP, Cantidad, "las llamadas leídas y aún sin respuesta"},
		{"llamadas-mcp-bytes", LlamadasMCPBytes, Bytes, "sus bytes"},
		{"intenciones-mcp", IntencionesMCP, Cantidad, "las altas de resultado desconocido cuya llave guarda"},
		{"intenciones-mcp-bytes", IntencionesMCPByte, Bytes, "sus bytes"},
		{"nombre-mcp", NombreMCP, Cantidad, "los caracteres del nombre de alta_de_servicio"},
		{"url-mcp", URLMCP, Cantidad, "los caracteres de su url"},
		{"salida-cliente", SalidaCliente, Bytes, "lo que se guarda de la salida de un cliente calificado"},
		{"limite-cliente", t(LimiteCliente), Tiempo, "cada corrida de un cliente calificado (--limite)"},
		{"intentos-maximo", IntentosMaximo, Cantidad, "los intentos de un alta antes de contar como que no se rinde"},
		{"alumnos", Alumnos, Cantidad, "los alumnos de la lista de una clase, y las filas de su pizarra"},
		{"nombre-alumno", NombreAlumno, Cantidad, "los caracteres del nombre de un alumno"},
		{"comprobaciones", Comprobaciones, Cantidad, "las comprobaciones que se guardan de una calificación en clase"},
		{"intentos-por-alta", IntentosPorAlta, Cantidad, "los intentos que se anotan de cada alta de una calificación en clase"},
		{"vida-corrida", t(VidaCorrida), Tiempo, "una calificación en clase de la que nadie dice nada"},
		{"historial-clase", HistorialClase, Cantidad, "las calificaciones que se guardan de cada alumno"},
		{"informe-clase", InformeClase, Bytes, "el informe que se guarda de cada calificación"},
		{"id-calificacion", IDCalificacion, Bytes, "el id de una calificación, y el id y el estado de cada comprobación"},
		{"respuesta-clase", RespuestaClase, Bytes, "una respuesta a una predicción en clase"},
		{"preguntas-clase", PreguntasClase, Cantidad, "las respuestas de un alumno a una predicción, de una vez"},
		{"rondas-clase", RondasClase, Cantidad, "las predicciones en clase que se guardan, con sus respuestas"},
	}
}
