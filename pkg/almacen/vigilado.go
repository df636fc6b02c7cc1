package almacen

import (
	"context"
	"errors"
	"time"

	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/limitador"
)

// Vigilado is a store that tells fallo of every error of a that is the store failing (a database
// that restarted, a lost connection), not one of the answers the course gives (a repeated name, a
// version that changed, a key whose reservation lapsed) nor a request given up on: the class lab
// knows from it that a grading in progress met a fault of the lab's own, and throws it away
// instead of recording it as the student's failure.
func Vigilado(a Almacen, fallo func(error)) Almacen { return &vigilado{Almacen: a, fallo: fallo} }

type vigilado struct {
	Almacen
	fallo func(error)
}

// ver tells fallo of err when it is the store failing, and returns it as it came.
func (v *vigilado) ver(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var repetido *NombreRepetido
	var tope *TopeAlcanzado
	if errors.As(err, &repetido) || errors.As(err, &tope) ||
		errors.Is(err, ErrConflicto) || errors.Is(err, ErrRetirado) || errors.Is(err, ErrReservaPerdida) {
		return err
	}
	v.fallo(err)
	return err
}

func (v *vigilado) Tomar(ctx context.Context, credencial, llave, huella string) (idempotencia.Turno, error) {
	t, err := v.Almacen.Tomar(ctx, credencial, llave, huella)
	return t, v.ver(ctx, err)
}

func (v *vigilado) Grabar(ctx context.Context, r idempotencia.Reserva, g idempotencia.Grabada) error {
	return v.ver(ctx, v.Almacen.Grabar(ctx, r, g))
}

func (v *vigilado) Soltar(ctx context.Context, r idempotencia.Reserva) error {
	return v.ver(ctx, v.Almacen.Soltar(ctx, r))
}

func (v *vigilado) Crear(ctx context.Context, equipo string, d Datos, tope int, alta *Alta) (Servicio, error) {
	s, err := v.Almacen.Crear(ctx, equipo, d, tope, alta)
	return s, v.ver(ctx, err)
}

func (v *vigilado) Buscar(ctx context.Context, id int) (Servicio, bool, error) {
	s, ok, err := v.Almacen.Buscar(ctx, id)
	return s, ok, v.ver(ctx, err)
}

func (v *vigilado) Listar(ctx context.Context, equipo string) ([]Servicio, error) {
	l, err := v.Almacen.Listar(ctx, equipo)
	return l, v.ver(ctx, err)
}

func (v *vigilado) Retirar(ctx context.Context, id int) (bool, error) {
	ok, err := v.Almacen.Retirar(ctx, id)
	return ok, v.ver(ctx, err)
}

func (v *vigilado) EquipoDeRetirado(ctx context.Context, id int) (string, bool, error) {
	e, ok, err := v.Almacen.EquipoDeRetirado(ctx, id)
	return e, ok, v.ver(ctx, err)
}

func (v *vigilado) Cambiar(ctx context.Context, id int, versionLeida *int, d Datos) (Servicio, error) {
	s, err := v.Almacen.Cambiar(ctx, id, versionLeida, d)
	return s, v.ver(ctx, err)
}

func (v *vigilado) CrearRevision(ctx context.Context, servicio int) (Revision, error) {
	r, err := v.Almacen.CrearRevision(ctx, servicio)
	return r, v.ver(ctx, err)
}

func (v *vigilado) BuscarRevision(ctx context.Context, id int) (Revision, bool, error) {
	r, ok, err := v.Almacen.BuscarRevision(ctx, id)
	return r, ok, v.ver(ctx, err)
}

func (v *vigilado) RevisionesDe(ctx context.Context, servicio int) ([]Revision, error) {
	l, err := v.Almacen.RevisionesDe(ctx, servicio)
	return l, v.ver(ctx, err)
}

func (v *vigilado) TerminarRevision(ctx context.Context, id int, res Resultado) error {
	return v.ver(ctx, v.Almacen.TerminarRevision(ctx, id, res))
}

func (v *vigilado) Huerfanas(ctx context.Context) ([]Huerfana, error) {
	l, err := v.Almacen.Huerfanas(ctx)
	return l, v.ver(ctx, err)
}

func (v *vigilado) Mantenimiento(ctx context.Context) (bool, error) {
	ok, err := v.Almacen.Mantenimiento(ctx)
	return ok, v.ver(ctx, err)
}

func (v *vigilado) PonerMantenimiento(ctx context.Context, activo bool) error {
	return v.ver(ctx, v.Almacen.PonerMantenimiento(ctx, activo))
}

func (v *vigilado) OlvidarLlaves(ctx context.Context, sufijo string) (int, error) {
	n, err := v.Almacen.OlvidarLlaves(ctx, sufijo)
	return n, v.ver(ctx, err)
}

func (v *vigilado) CuantasLlaves(ctx context.Context) (int, error) {
	n, err := v.Almacen.CuantasLlaves(ctx)
	return n, v.ver(ctx, err)
}

func (v *vigilado) Contador(nombre string, f limitador.Fabrica, cuota int, ventana time.Duration) Contador {
	return contadorVigilado{v.Almacen.Contador(nombre, f, cuota, ventana), v}
}

type contadorVigilado struct {
	Contador
	v *vigilado
}

func (c contadorVigilado) Permitir(ctx context.Context, clave string, ahora time.Time) (limitador.Veredicto, error) {
	ver, err := c.Contador.Permitir(ctx, clave, ahora)
	return ver, c.v.ver(ctx, err)
}
