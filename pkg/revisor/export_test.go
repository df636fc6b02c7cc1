package revisor

import "cursohttp/pkg/variantes"

// RutaLimitada is one method of the route table under a limit, as the tests outside the package
// walk them (TestElLimiteEnElOrdenDeLaPuerta): a route added with .limitado(…) is tested there
// without a row of its own.
type RutaLimitada struct {
	Metodo  string
	Camino  string // with %s where the route takes its number
	Cuota   int
	Escribe bool
	Otros   []string // the route's other methods
}

// RutasLimitadas are the limited methods of p's route table, in its order.
func RutasLimitadas(p variantes.Eleccion) []RutaLimitada {
	rs, _ := rutas(p)
	var l []RutaLimitada
	for _, rt := range rs {
		camino := rt.patron.prefijo
		if rt.patron.conNumero {
			camino += "%s" + rt.patron.sufijo
		}
		for _, m := range rt.metodos {
			if m.limite == nil || m.limite.porServicio {
				continue
			}
			r := RutaLimitada{Metodo: m.nombre, Camino: camino, Cuota: m.limite.cuota, Escribe: m.escribe}
			for _, o := range rt.metodos {
				r.Otros = append(r.Otros, o.nombre)
			}
			l = append(l, r)
		}
	}
	return l
}
