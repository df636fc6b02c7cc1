// Package topes is the one table of the suite's limits: every bound on what a client can make a
// server hold — time, bytes, connections, records — with its value, its unit and what it bounds.
// The code and the flags' defaults take their values from here, and a test compares the table
// with docs/seguridad.md's, so the page says what the programs do.
package topes

import "time"

// The limits, as constants for the code that applies them. Tabla lists each with its unit and what
// it bounds.
const (
	// Connections and time (pkg/servidor).
	Cabeceras            = 16 << 10         // bytes of the request line and headers together, about what Node allows
	EsperaCabeceras      = 10 * time.Second // to send the request line and headers
	EsperaLectura        = 30 * time.Second // to send the whole request, body included
	EsperaOciosa         = 5 * time.Second  // an idle keep-alive connection: Node's keepAliveTimeout, which every answer's «Keep-Alive: timeout=5» promises
	EsperaApurada        = time.Second      // the same, once a server holds three quarters of a cap
	EsperaEscritura      = 10 * time.Second // each write of up to 64 KiB of an answer
	Conexiones           = 1024             // connections open at once, per server
	ConexionesPorCliente = 256              // connections open at once from one other machine
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

// Tabla is every limit, in docs/seguridad.md's order.
func Tabla() []Tope {
	return []Tope{
		{"cabeceras", Cabeceras, Bytes, "la línea de petición y las cabeceras juntas"},
		{"espera-cabeceras", int64(EsperaCabeceras), Tiempo, "el tiempo para mandar la línea de petición y las cabeceras"},
		{"espera-lectura", int64(EsperaLectura), Tiempo, "el tiempo para mandar la petición entera, con su cuerpo"},
		{"espera-ociosa", int64(EsperaOciosa), Tiempo, "una conexión keep-alive sin peticiones"},
		{"espera-apurada", int64(EsperaApurada), Tiempo, "lo mismo, con el servidor a tres cuartos de un tope; y cuánto debe llevar quieta una conexión para dejar su lugar"},
		{"espera-escritura", int64(EsperaEscritura), Tiempo, "cada escritura de hasta 64 KiB de una respuesta"},
		{"conexiones", Conexiones, Cantidad, "las conexiones abiertas a la vez en un servidor (--tope-conexiones)"},
		{"conexiones-por-cliente", ConexionesPorCliente, Cantidad, "las conexiones abiertas a la vez desde otra máquina (--tope-por-cliente)"},
	}
}
