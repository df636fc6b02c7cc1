package programas

import (
	"context"
	"fmt"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/decision"

	"github.com/spf13/cobra"
)

// consecuencia is what fig07_02.ts's script would do with each action. It only says it.
func consecuencia(a decision.Accion) string {
	switch a {
	case decision.Seguir:
		return "listo, sigue con el siguiente"
	case decision.Corregir:
		return "no repite: corrige la petición"
	case decision.Reautenticar:
		return "no repite: pide una credencial válida"
	case decision.Esperar:
		return "repite más tarde, con la misma llave (cada alta lleva la suya)"
	case decision.Reconciliar:
		return "relee el servicio que ya existe y compara con el que quería crear"
	case decision.Rendirse:
		return "se detiene y avisa a una persona; no vuelve a intentarlo"
	}
	return "undefined"
}

type altaDeLista struct {
	nombre, url, credencial string
}

// Sincronizar is fig07_02.ts: the scene's sync script written right. Each alta carries its own
// Idempotency-Key, and each answer is decided by status, Retry-After and type; the body is read only
// for the type, never for title or detail.
func Sincronizar(ctx context.Context, e Entorno) int {
	lab := e.Laboratorio + urlDelLaboratorio200
	altas := []altaDeLista{
		{"agenda", lab, ""},
		{"agenda", lab, ""},
		{"nomina2 (no existe aún)", lab, ""},
		{"nomina2 (no existe aún)", lab, ""},
		{"cuenta", "ftp://cuentas", ""},
		{"metadatos", "http://169.254.169.254/latest/meta-data/", ""},
		{"sin-permiso", lab, "lectura-a"},
		{"sin-credencial", lab, "inventada"},
	}
	for _, a := range altas {
		credencial := a.credencial
		if credencial == "" {
			credencial = "escritura-a"
		}
		r, err := e.alta(ctx, credencial, e.llave(), a.nombre, a.url)
		if err != nil {
			return e.fallo("sincronizar", err)
		}
		d := e.decidirRespuesta(r)
		tipo, hay := typeDe(r)
		if !hay {
			tipo = "(sin Problem Details)"
		}
		fmt.Fprintln(e.Out, a.nombre)
		fmt.Fprintf(e.Out, "  respondió %d %s\n", r.codigo, tipo)
		fmt.Fprintf(e.Out, "  acción: %s — %s\n", d.Accion, consecuencia(d.Accion))
	}
	return 0
}

// nuevoCmdSincronizar is `revisor sincronizar`; runF nil runs Sincronizar.
func nuevoCmdSincronizar(f *Fabrica, runF func(context.Context, Entorno) int) *cobra.Command {
	return armar(f, &cobra.Command{
		Use:   "sincronizar [opciones]",
		Short: "El guion de sincronización bien escrito: decide con la tabla, no con la frase (fig07_02.ts)",
		Long: `Da de alta ocho servicios, cada uno con su propia Idempotency-Key, y dice qué haría con cada
respuesta. Decide con el código, Retry-After y el type; no lee ni el title ni el detail.
Necesita el revisor y el laboratorio recién arrancados.`,
		Args: cli.SinArgumentos,
	}, runF, Sincronizar, conRevisor, conLaboratorio)
}
