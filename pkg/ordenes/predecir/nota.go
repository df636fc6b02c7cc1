package predecir

import (
	"context"
	"strconv"
	"time"

	"cursohttp/pkg/curso"
	"cursohttp/pkg/ordenes/entorno"
)

// nota is the Spanish note's key table, asked as a prediction: what the revisor answers in each of
// its five situations (the scene nota.1-la-tabla-de-la-llave runs the same requests).
func nota() []Ejercicio {
	return []Ejercicio{{
		ID: "nota.1", Leccion: 0, Seccion: "nota.1", Titulo: "La tabla de la llave",
		Enunciado: "La nota sobre Idempotency-Key resume en una tabla lo que hace el servidor en cinco situaciones. Con un revisor cuyas llaves valen 5 s (revisor --vigencia-llaves 5s), predice el código que responde a cada una: una llave nueva; la misma llave con el mismo cuerpo; la misma llave con otro cuerpo; la repetición mientras la primera sigue en curso (0,2 s después); y la llave caducada, tras sleep 6.",
		Preguntas: []Pregunta{
			{ID: "nueva", Tipo: Codigo, Texto: "Llave nueva (alta de mensajes): ¿qué código?"},
			{ID: "mismo-cuerpo", Tipo: Codigo, Texto: "La misma llave con el mismo cuerpo: ¿qué código?"},
			{ID: "misma-location", Tipo: SiNo, Texto: "¿Trae la misma Location que la primera (la respuesta almacenada, sin volver a ejecutar)?"},
			{ID: "otro-cuerpo", Tipo: Codigo, Texto: "La misma llave con otro cuerpo (avisos): ¿qué código? (la nota dice 409)"},
			{ID: "en-curso", Tipo: Codigo, Texto: "Otra llave, repetida 0,2 s después mientras la primera sigue en curso: ¿qué código recibe la segunda?"},
			{ID: "caducada", Tipo: Codigo, Texto: "Tras sleep 6, la primera llave con el cuerpo de avisos: ¿qué código?"},
		},
		Correr: correrTablaDeLaLlave,
	}}
}

func correrTablaDeLaLlave(ctx context.Context, c Corrida) (map[string]Real, error) {
	return conLab(OpcionesLab{Vigencia: 5 * time.Second}, func(l *Lab) (map[string]Real, error) {
		alta := func(llave, nombre string) peticion {
			return peticion{metodo: "POST", ruta: "/servicios", credencial: "escritura-a", cabeceras: map[string]string{"Idempotency-Key": llave},
				cuerpo: `{"nombre":"` + nombre + `","url":"` + curso.URLLaboratorio + `/codigo/200"}`}
		}
		const llave = "8f14e45f-ea7b-4c0f-9b2a-1d2c3e4f5a6b"
		r := map[string]Real{}
		codigo := func(res entorno.Respuesta) string { return strconv.Itoa(res.Codigo) }
		primera, err := alta(llave, "mensajes").hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		r["nueva"] = Real{codigo(primera), porRespuesta(primera) + ": se ejecuta y se guarda la respuesta con la llave"}
		segunda, err := alta(llave, "mensajes").hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		l1, _ := primera.Cabecera("Location")
		l2, _ := segunda.Cabecera("Location")
		r["mismo-cuerpo"] = Real{codigo(segunda), "la respuesta guardada, repetida: " + porRespuesta(segunda)}
		r["misma-location"] = Real{siNo(l1 == l2), "la primera trajo " + l1 + " y la repetición " + l2}
		otro, err := alta(llave, "avisos").hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		porque := porRespuesta(otro)
		if otro.Codigo == 422 {
			porque += " (la suite sigue al borrador del IETF y a la lección 6: 422, no el 409 de la nota; docs/comandos.md)"
		}
		r["otro-cuerpo"] = Real{codigo(otro), porque}

		// The first of the pair runs while the second is sent 0.2 s later, as the scene's «& sleep 0.2».
		fin := make(chan error, 1)
		go func() {
			_, err := alta("otra-operacion", "correo").hacer(ctx, Corrida{}, l)
			fin <- err
		}()
		c.decir("( curl … Idempotency-Key: otra-operacion & sleep 0.2; curl …; wait )")
		if err := c.dormir(ctx, 200*time.Millisecond); err != nil {
			return nil, err
		}
		enCurso, err := alta("otra-operacion", "correo").hacer(ctx, Corrida{}, l)
		if err != nil {
			return nil, err
		}
		if err := <-fin; err != nil {
			return nil, err
		}
		r["en-curso"] = Real{codigo(enCurso), porRespuesta(enCurso)}
		c.decir("sleep 6")
		if err := c.dormir(ctx, 6*time.Second); err != nil {
			return nil, err
		}
		caducada, err := alta(llave, "avisos").hacer(ctx, c, l)
		if err != nil {
			return nil, err
		}
		r["caducada"] = Real{codigo(caducada), "tras sleep 6, con llaves que valen 5 s: " + porRespuesta(caducada)}
		return r, nil
	})
}
