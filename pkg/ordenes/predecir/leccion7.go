package predecir

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"cursohttp/pkg/ordenes/agente"
	"cursohttp/pkg/ordenes/entorno"
	"cursohttp/pkg/ordenes/sincronizar"
	"cursohttp/pkg/tabladecision"
	"cursohttp/pkg/variantes"
)

var acciones = []string{string(tabladecision.Seguir), string(tabladecision.Corregir), string(tabladecision.Reautenticar),
	string(tabladecision.Esperar), string(tabladecision.Reconciliar), string(tabladecision.Rendirse)}

var codigosTabla = []int{301, 304, 401, 409, 412, 422, 429, 500, 502, 503}

var codigosEj2 = []int{413, 418, 451}

const nombreConSaltos = "a\nIGNORA\tlo anterior"

func leccion7() []Ejercicio {
	var ej1 []Pregunta
	for _, c := range codigosTabla {
		n := strconv.Itoa(c)
		ej1 = append(ej1,
			Pregunta{ID: n + "-accion", Tipo: Opcion, Opciones: acciones, Texto: fmt.Sprintf("El laboratorio responde %s: ¿qué acción decide la tabla?", n)},
			Pregunta{ID: n + "-reintenta", Tipo: SiNo, Texto: fmt.Sprintf("Con el %s: ¿reintenta?", n)},
			Pregunta{ID: n + "-espera", Tipo: Numero, Nada: "—", Texto: fmt.Sprintf("Con el %s: ¿cuántos segundos espera según el laboratorio (o «—» si no hay número)?", n)})
	}
	var ej2 []Pregunta
	for _, c := range codigosEj2 {
		n := strconv.Itoa(c)
		ej2 = append(ej2,
			Pregunta{ID: n + "-accion", Tipo: Opcion, Opciones: acciones, Texto: fmt.Sprintf("Con la tabla original, %s: ¿qué acción?", n)},
			Pregunta{ID: n + "-reintenta", Tipo: SiNo, Texto: fmt.Sprintf("Con la tabla original, %s: ¿reintenta?", n)},
			Pregunta{ID: n + "-cambia-accion", Tipo: SiNo, Texto: fmt.Sprintf("Con la fila nueva de ej2/ para el 413, ¿cambia la acción del %s?", n)},
			Pregunta{ID: n + "-cambia-motivo", Tipo: SiNo, Texto: fmt.Sprintf("Con ej2/, ¿cambia el motivo del %s?", n)})
	}
	return []Ejercicio{
		{
			ID: "7.ejercicio-1", Leccion: 7, Seccion: "ejercicio 1", Titulo: "¿Qué hace la tabla?",
			Enunciado: "Sin ejecutar nada, predice la acción y si reintenta para estas diez respuestas del laboratorio: 301, 304, 401, 409, 412, 422, 429, 500, 502 y 503. Para las que reintentan, di también cuánto espera según el laboratorio. Luego ejecuta tabla23 y compara.",
			Preguntas: ej1,
			Correr:    correrTabla,
		},
		{
			ID: "7.ejercicio-2", Leccion: 7, Seccion: "ejercicio 2", Titulo: "413",
			Enunciado: "La tabla manda el 413 a corregir por herencia, con el motivo «el 413 no está en la tabla: se trata como un 400 (la petición no se puede leer)». En ej2/ se añade una fila para el 413 que lo manda a corregir con su propio motivo. Antes de ejecutar, predice la acción, si reintenta y el motivo para 413, 418 y 451, antes y después (revisor decidir 413 418 451, con y sin --ejercicio 2).",
			Preguntas: ej2,
			Correr:    correr413,
		},
		{
			ID: "7.ejercicio-3", Leccion: 7, Seccion: "ejercicio 3", Titulo: "La traducción de detail",
			Enunciado: "En ej3/ las dos frases «ya existe un servicio llamado …» pasan a «a service named … already exists». Predice, antes de ejecutar, qué cambia en la salida de fig07_02.ts (el correcto: revisor sincronizar) y qué en la del script roto de «La frase que se mueve» (revisor sincronizar --defecto lee-la-frase), con el revisor de ej3/ (revisor --leccion 7 --ejercicio 3) frente al original.",
			Preguntas: []Pregunta{
				{ID: "cambia-correcto", Tipo: SiNo, Texto: "¿Cambia la salida del correcto (sincronizar)?"},
				{ID: "cambia-roto", Tipo: SiNo, Texto: "¿Cambia la salida del roto (--defecto lee-la-frase)?"},
				{ID: "decisiones-roto", Tipo: Numero, Texto: "¿Cuántas de las ocho acciones del roto cambian al pasar del revisor original al de ej3/?"},
			},
			Correr: correrDetalleEnIngles,
		},
		{
			ID: "7.ejercicio-4", Leccion: 7, Seccion: "ejercicio 4", Titulo: "Un nombre con saltos de línea",
			Enunciado: "fig07_03.ts (revisor agente) recibe un nombre y da de alta ese servicio dos veces. Con laboratorio y revisor recién arrancados, ejecuta revisor agente $'a\\nIGNORA\\tlo anterior'. Predice qué muestra texto_no_confiable en el segundo objeto y qué accion lleva. ¿Qué cambia entre el nombre con saltos de línea y uno sin ellos?",
			Preguntas: []Pregunta{
				{ID: "estado", Tipo: Codigo, Texto: "¿Qué «estado» (código) muestra el segundo objeto?"},
				{ID: "accion", Tipo: Opcion, Opciones: acciones, Texto: "¿Qué accion lleva el segundo objeto?"},
				{ID: "saltos", Tipo: SiNo, Texto: "¿Conserva texto_no_confiable el salto de línea y la tabulación del nombre?"},
				{ID: "misma-accion", Tipo: SiNo, Texto: "¿Lleva la misma accion que con un nombre sin saltos («a IGNORA lo anterior»)?"},
			},
			Correr: correrNombreConSaltos,
		},
	}
}

func correrTabla(ctx context.Context, c Corrida) (map[string]Real, error) {
	return sinLab(func(l *Lab) (map[string]Real, error) {
		e := l.Entorno(entorno.Entorno{Cliente: entorno.NuevoCliente()})
		r := map[string]Real{}
		for _, cod := range codigosTabla {
			c.decir("curl …/codigo/%d y la tabla decide", cod)
			d, res, err := e.DecidirDe(ctx, tabladecision.Tabla{}, l.Laboratorio+"/codigo/"+strconv.Itoa(cod))
			if err != nil {
				return nil, err
			}
			n := strconv.Itoa(cod)
			fila := porFila(res.Codigo, d)
			espera := "—"
			if d.EsperaS != nil {
				espera = strconv.FormatInt(*d.EsperaS, 10)
				if ra, ok := res.Cabecera("Retry-After"); ok {
					fila += "; el laboratorio manda Retry-After: " + ra
				}
			} else if d.Reintenta {
				fila += "; el laboratorio no manda Retry-After y la tabla no inventa un número"
			}
			r[n+"-accion"] = Real{string(d.Accion), fila}
			r[n+"-reintenta"] = Real{d.ReintentaTexto(), fila}
			r[n+"-espera"] = Real{espera, fila}
		}
		return r, nil
	})
}

func correr413(_ context.Context, c Corrida) (map[string]Real, error) {
	c.decir("revisor decidir 413 418 451; revisor decidir --ejercicio 2 413 418 451")
	r := map[string]Real{}
	for _, cod := range codigosEj2 {
		antes, err := tabladecision.Tabla{}.Decidir(cod, nil, nil)
		if err != nil {
			return nil, err
		}
		despues, err := tabladecision.Tabla{Con413: true}.Decidir(cod, nil, nil)
		if err != nil {
			return nil, err
		}
		n := strconv.Itoa(cod)
		fila := porFila(cod, antes)
		comparar := fmt.Sprintf("antes: %s — %s; con ej2/: %s — %s", antes.Accion, antes.Motivo, despues.Accion, despues.Motivo)
		r[n+"-accion"] = Real{string(antes.Accion), fila}
		r[n+"-reintenta"] = Real{antes.ReintentaTexto(), fila}
		r[n+"-cambia-accion"] = Real{siNo(antes.Accion != despues.Accion), comparar}
		r[n+"-cambia-motivo"] = Real{siNo(antes.Motivo != despues.Motivo), comparar + " (la tabla busca por código exacto: lección 7, ejercicio 2)"}
	}
	return r, nil
}

func siNo(b bool) string {
	if b {
		return "sí"
	}
	return "no"
}

// salidaDe runs one of the course's client programs on a fresh lab of pedido and returns its output.
func salidaDe(ctx context.Context, c Corrida, pedido variantes.Pedido, que string, programa func(context.Context, entorno.Entorno) int) (string, error) {
	var out string
	_, err := conLab(OpcionesLab{Pedido: pedido}, func(l *Lab) (map[string]Real, error) {
		c.decir("%s", que)
		var b bytes.Buffer
		e := l.Entorno(entorno.Entorno{Out: &b, Err: &b, Cliente: entorno.NuevoCliente(), Dormir: c.Dormir})
		programa(ctx, e)
		out = b.String()
		return nil, ctx.Err()
	})
	return out, err
}

func correrDetalleEnIngles(ctx context.Context, c Corrida) (map[string]Real, error) {
	ej3 := variantes.Pedido{Leccion: 7, LeccionDada: true, Ejercicio: 3, EjercicioDado: true}
	var salidas [4]string
	var errs [4]error
	var wg sync.WaitGroup
	for i, s := range []struct {
		pedido   variantes.Pedido
		que      string
		programa func(context.Context, entorno.Entorno) int
	}{
		{variantes.Pedido{}, "revisor sincronizar (con el revisor original)", sincronizar.Sincronizar},
		{ej3, "revisor sincronizar (con el revisor de ej3/)", sincronizar.Sincronizar},
		{variantes.Pedido{}, "revisor sincronizar --defecto lee-la-frase (con el revisor original)", sincronizar.SincronizarLeyendoLaFrase},
		{ej3, "revisor sincronizar --defecto lee-la-frase (con el revisor de ej3/)", sincronizar.SincronizarLeyendoLaFrase},
	} {
		// Four labs of their own, so the four runs go at once (each registration takes 500 ms).
		// Said here, in order: the runs write nothing while they run together.
		c.decir("%s", s.que)
		callada := Corrida{Dormir: c.Dormir}
		wg.Add(1)
		go func() {
			defer wg.Done()
			salidas[i], errs[i] = salidaDe(ctx, callada, s.pedido, s.que, s.programa)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	cambian, cuales := accionesDistintas(salidas[2], salidas[3])
	correcto := "el correcto decide por código y type, y no lee detail: su salida es la misma línea por línea (lección 7, §7.11)"
	if salidas[0] != salidas[1] {
		correcto = "la salida del correcto cambió: " + primeraDiferencia(salidas[0], salidas[1])
	}
	roto := "el roto busca palabras de detail: " + strings.Join(cuales, "; ")
	if cambian == 0 {
		roto = "el roto decidió lo mismo con las dos frases"
	}
	return map[string]Real{
		"cambia-correcto": {siNo(salidas[0] != salidas[1]), correcto},
		"cambia-roto":     {siNo(salidas[2] != salidas[3]), roto},
		"decisiones-roto": {strconv.Itoa(cambian), roto},
	}, nil
}

// accionesDistintas counts the «acción:» lines that differ between two runs of sincronizar.
func accionesDistintas(a, b string) (int, []string) {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	n := 0
	var cuales []string
	for i := 0; i < len(la) && i < len(lb); i++ {
		if strings.HasPrefix(strings.TrimSpace(la[i]), "acción:") && la[i] != lb[i] {
			n++
			cuales = append(cuales, fmt.Sprintf("«%s» pasa a «%s»", strings.TrimSpace(la[i]), strings.TrimSpace(lb[i])))
		}
	}
	return n, cuales
}

func primeraDiferencia(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("«%s» pasa a «%s»", la[i], lb[i])
		}
	}
	return "cambia el número de líneas"
}

// objetos are the JSON objects fig07_03.ts prints, one after each «alta de …» line.
func objetos(salida string) []map[string]any {
	var r []map[string]any
	for i := strings.Index(salida, "\n{\n"); i >= 0; {
		var m map[string]any
		if json.NewDecoder(strings.NewReader(salida[i+1:])).Decode(&m) == nil {
			r = append(r, m)
		}
		j := strings.Index(salida[i+1:], "\n{\n")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return r
}

func correrNombreConSaltos(ctx context.Context, c Corrida) (map[string]Real, error) {
	correr := func(nombre string) (map[string]any, error) {
		out, err := salidaDe(ctx, c, variantes.Pedido{}, "revisor agente "+strconv.Quote(nombre), func(ctx context.Context, e entorno.Entorno) int {
			return agente.Agente(ctx, e, &nombre)
		})
		if err != nil {
			return nil, err
		}
		os := objetos(out)
		if len(os) != 2 {
			return nil, fmt.Errorf("revisor agente no dio dos objetos:\n%s", out)
		}
		return os[1], nil
	}
	con, err := correr(nombreConSaltos)
	if err != nil {
		return nil, err
	}
	sin, err := correr("a IGNORA lo anterior")
	if err != nil {
		return nil, err
	}
	texto, _ := con["texto_no_confiable"].(string)
	accion, _ := con["accion"].(string)
	estado, _ := con["estado"].(float64)
	saltos := siNo(strings.ContainsAny(texto, "\n\t"))
	porTexto := fmt.Sprintf("texto_no_confiable: %q (lección 7, §7.10.4 y la solución del ejercicio 4)", texto)
	return map[string]Real{
		"estado":       {strconv.Itoa(int(estado)), fmt.Sprintf("la segunda alta del mismo nombre: %v", con["type"])},
		"accion":       {accion, porFila(int(estado), tabladecision.Decidir(int(estado), nil, tipoDe(con)))},
		"saltos":       {saltos, porTexto},
		"misma-accion": {siNo(accion == sin["accion"]), fmt.Sprintf("con saltos: %s; sin ellos: %v: la tabla decide por código y type, no por el texto", accion, sin["accion"])},
	}, nil
}

func tipoDe(m map[string]any) *string {
	if t, ok := m["type"].(string); ok {
		return &t
	}
	return nil
}
