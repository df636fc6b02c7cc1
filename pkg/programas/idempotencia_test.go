package programas

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cursohttp/pkg/idempotencia"
	"cursohttp/pkg/jsonjs"
	"cursohttp/pkg/problema"
	idemrespuesta "cursohttp/pkg/respuesta"
)

// idemRevisorDePrueba is a small registration endpoint built on pkg/idempotencia, with the course's
// order of decisions; sinHuella reproduces the lesson's second defect (the fingerprint ignored).
func idemRevisorDePrueba(t *testing.T, sinHuella bool) string {
	var (
		mu        sync.Mutex
		servicios []jsonjs.Objeto
	)
	llaves := idempotencia.Nuevo(idempotencia.Opciones{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			mu.Lock()
			lista := make([]any, len(servicios))
			for i, s := range servicios {
				lista[i] = s
			}
			mu.Unlock()
			idemrespuesta.JSON(w, r, 200, jsonjs.Objeto{{Nombre: "servicios", Valor: lista}})
			return
		}
		b, _ := io.ReadAll(r.Body)
		datos, _ := jsonjs.Decodificar(b)
		o := datos.(jsonjs.Objeto)
		llave := r.Header.Get("Idempotency-Key")
		huella := idempotencia.Huella(datos)
		if sinHuella {
			huella = "la misma"
		}
		switch turno := llaves.Tomar("escritura-a", llave, huella); turno.Tipo {
		case idempotencia.Repetir:
			idemrespuesta.Bytes(w, r, turno.Grabada.Codigo, "application/json", turno.Grabada.Cuerpo, turno.Grabada.Cabeceras...)
			return
		case idempotencia.OtraPeticion:
			problema.Escribir(w, r, problema.LlaveReutilizada, "la llave "+llave+" ya se usó con un cuerpo distinto")
			return
		case idempotencia.EnCurso:
			problema.Escribir(w, r, problema.LlaveEnCurso, "la petición original con la llave "+llave+" todavía no termina")
			return
		}
		nombre, _ := o.Texto("nombre")
		url, _ := o.Texto("url")
		if !strings.HasPrefix(url, "http") {
			llaves.Soltar("escritura-a", llave)
			problema.Escribir(w, r, problema.DatosInvalidos, "1 dato(s) no se pueden cumplir")
			return
		}
		time.Sleep(300 * time.Millisecond)
		mu.Lock()
		for i, s := range servicios {
			if n, _ := s.Texto("nombre"); n == nombre {
				mu.Unlock()
				llaves.Soltar("escritura-a", llave)
				problema.Escribir(w, r, problema.NombreRepetido, "ya existe un servicio llamado "+nombre,
					problema.ConExtension("existente", "/servicios/"+strconv.Itoa(i+1)))
				return
			}
		}
		id := len(servicios) + 1
		s := jsonjs.Objeto{{Nombre: "id", Valor: id}, {Nombre: "nombre", Valor: nombre}, {Nombre: "url", Valor: url}}
		servicios = append(servicios, s)
		mu.Unlock()
		g := idempotencia.Grabada{Codigo: 201, Cabeceras: []idemrespuesta.Cabecera{{Nombre: "Location", Valor: "/servicios/" + strconv.Itoa(id)}},
			Cuerpo: append(jsonjs.Codificar(s), '\n')}
		llaves.Grabar("escritura-a", llave, g)
		idemrespuesta.Bytes(w, r, 201, "application/json", g.Cuerpo, g.Cabeceras...)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// S-J: the correct revisor passes the five checks.
func TestComprobarIdempotencia(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if codigo := ComprobarIdempotencia(context.Background(), idemRevisorDePrueba(t, false), &out); codigo != 0 {
		t.Fatalf("código %d:\n%s", codigo, out.String())
	}
	want := `ok    misma llave y mismo cuerpo: la misma respuesta, un solo servicio
ok    misma llave con otro cuerpo: 422 llave-reutilizada, y no crea nada
ok    misma llave mientras la original sigue en curso: 409 llave-en-curso
ok    un alta que falla libera la llave: corregida, con la misma llave, 201
ok    dos llaves distintas con el mismo cuerpo: la segunda choca con el nombre (409 nombre-repetido)

5 de 5 comprobaciones de idempotencia pasaron
`
	if out.String() != want {
		t.Fatalf("salida:\n%s\nse esperaba:\n%s", out.String(), want)
	}
}

// S-L4: the defect "the fingerprint nobody compares" fails exactly check 2, with the course's text.
func TestComprobarIdempotenciaSinHuella(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if codigo := ComprobarIdempotencia(context.Background(), idemRevisorDePrueba(t, true), &out); codigo != 1 {
		t.Fatalf("código %d, se esperaba 1", codigo)
	}
	want := `ok    misma llave y mismo cuerpo: la misma respuesta, un solo servicio
FALLA misma llave con otro cuerpo: 422 llave-reutilizada, y no crea nada
      dio 201 , se esperaba 422 llave-reutilizada
ok    misma llave mientras la original sigue en curso: 409 llave-en-curso
ok    un alta que falla libera la llave: corregida, con la misma llave, 201
ok    dos llaves distintas con el mismo cuerpo: la segunda choca con el nombre (409 nombre-repetido)

4 de 5 comprobaciones de idempotencia pasaron
`
	if out.String() != want {
		t.Fatalf("salida:\n%s\nse esperaba:\n%s", out.String(), want)
	}
}

// Nobody listening: every check fails with the reason, no crash, exit 1.
func TestComprobarIdempotenciaSinRevisor(t *testing.T) {
	t.Parallel()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	base := "http://" + ln.Addr().String()
	ln.Close()
	var out bytes.Buffer
	if codigo := ComprobarIdempotencia(context.Background(), base, &out); codigo != 1 {
		t.Fatalf("código %d", codigo)
	}
	if n := len(regexp.MustCompile(`(?m)^      sin respuesta \(ECONNREFUSED\)$`).FindAllString(out.String(), -1)); n != 5 ||
		!strings.HasSuffix(out.String(), "\n0 de 5 comprobaciones de idempotencia pasaron\n") {
		t.Fatalf("salida:\n%s", out.String())
	}
}
