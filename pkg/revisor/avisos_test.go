package revisor

import "cursohttp/internal/prueba/almacentest"

// avisando is the ajuste that puts a in front of the entorno's store, so a test hears when a
// request reaches a step of it (almacentest.Avisador).
func avisando(a *almacentest.Avisador) ajuste {
	return func(o *Opciones) { a.Almacen, o.Almacen = o.Almacen, a }
}
