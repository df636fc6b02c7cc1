package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"

	"github.com/spf13/cobra"

	"cursohttp/pkg/cli"
	"cursohttp/pkg/pizarra"
)

// topeExportar bounds what an export reads from the class lab: 500 students with 16 checks, or
// 100 rounds of 500 students' answers of 256 bytes, are far below it.
const topeExportar = 64 << 20

// nuevaClaseExportar is «laboratorio clase exportar [predicciones]» (issue 40, item 8): the grades
// out of the class lab, as CSV a gradebook imports, from the instructor's routes.
func nuevaClaseExportar(f flujos, pedir func(metodo, ruta string, cuerpo []byte) (*http.Response, error)) *cobra.Command {
	var salida string
	exportar := func(ruta, que string) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			resp, err := pedir(http.MethodGet, ruta, nil)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			datos, err := io.ReadAll(io.LimitReader(resp.Body, topeExportar+1))
			switch {
			case err != nil:
				return fmt.Errorf("el laboratorio de la clase cortó %s: %v", que, err)
			case len(datos) > topeExportar:
				return fmt.Errorf("%s pasa de %d MiB: no la escribo", que, topeExportar>>20)
			}
			// What goes to a gradebook is CSV whole, or nothing.
			filas, err := csv.NewReader(bytes.NewReader(datos)).ReadAll()
			if err != nil || len(filas) == 0 {
				return fmt.Errorf("el laboratorio de la clase no dio CSV en %s (%v): ¿es --clase su pizarra?", ruta, err)
			}
			if salida == "" || salida == "-" {
				_, err := f.out.Write(datos)
				return err
			}
			if err := pizarra.EscribirPrivado(salida, datos); err != nil {
				return fmt.Errorf("no pude escribir %s: %v", salida, err)
			}
			fmt.Fprintf(f.out, "%s: %d filas de %s y la cabecera\n", salida, len(filas)-1, que)
			return nil
		}
	}
	cmd := &cobra.Command{
		Use:   "exportar",
		Short: "saca las notas de la pizarra en CSV para un libro de notas: una fila por alumno de la lista",
		Long: `Saca la pizarra de la clase en CSV (RFC 4180, UTF-8 sin BOM, los nombres tal como están en la
lista), para importarla en un libro de notas o una hoja de cálculo. Una fila por alumno de la
lista, en su orden, con estas columnas:

  alumno                su nombre
  ultima_calificacion   cuándo se calificó por última vez (RFC 3339: 2026-03-09T10:35:02+01:00);
                        vacía si nunca
  pasaron, juzgadas     cuántas comprobaciones pasaron, y cuántas se juzgaron, en esa calificación
  una por comprobación  su estado en esa calificación, como en la pizarra: paso, fallo,
                        no-juzgada, o pendiente si el alumno nunca calificó (vacía: esa
                        calificación no la tuvo)

«exportar predicciones» saca en cambio las respuestas a las predicciones hechas en clase. Pide el
token del profesor (el de --dir/token). Sin --salida, el CSV sale por la salida estándar; con
--salida, se escribe en ese archivo (modo 0600: son notas de personas).`,
		Example: `  laboratorio clase exportar --salida notas.csv
  laboratorio clase exportar predicciones --salida predicciones.csv
  laboratorio clase exportar > notas.csv`,
		Args: cli.SinArgumentos,
		RunE: exportar(pizarra.RutaExportarNotas, "alumnos"),
	}
	cmd.PersistentFlags().StringVar(&salida, "salida", "", "el archivo donde escribirlo (si no se dice: la salida estándar)")
	cmd.AddCommand(&cobra.Command{
		Use:   "predicciones",
		Short: "saca en CSV las respuestas de cada alumno a cada predicción hecha en clase",
		Long: `Saca en CSV (RFC 4180, UTF-8) las respuestas a las predicciones hechas en clase que guarda la
matrícula (las últimas 100), la más antigua primero: una fila por respuesta de un alumno a una
pregunta, con estas columnas:

  ejercicio    el ejercicio de «revisor predecir» (6.5.4-4xx)
  abierta      cuándo se abrió esa vez (RFC 3339)
  pregunta     la pregunta del ejercicio (intentos, final, salida…)
  alumno       quién respondió
  respuesta    lo que respondió (la última que mandó antes de revelar)
  respondida   cuándo
  real         lo que pasó en la corrida, si ya se reveló
  acierto      sí o no, si ya se reveló (un número, con el margen de su pregunta)

Quien no respondió no tiene fila.`,
		Example: `  laboratorio clase exportar predicciones --salida predicciones.csv`,
		Args:    cli.SinArgumentos,
		RunE:    exportar(pizarra.RutaExportarPredicciones, "respuestas"),
	})
	return cmd
}
