package examen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"cursohttp/pkg/resultados"
)

// RutaResultados is where the panel takes a grading (pkg/pizarra's RutaResultados; the panel is not
// linked here). A GET there with the same token answers 204 and changes nothing: ComprobarPanel.
const RutaResultados = "/clase/resultados"

// esperaPanel bounds each request to the panel: a panel that does not answer in it is not there.
const esperaPanel = 10 * time.Second

// ComprobarPanel asks the panel at base, before a grading, whether it would take the results with
// this token (GET /clase/resultados: 204, nothing changed), so that a wrong token, a wrong address
// or a panel that is not running is said at once, not after the client was graded. Its error is
// the one Enviar would give.
func ComprobarPanel(ctx context.Context, base, token string) error {
	return pedirAlPanel(ctx, http.MethodGet, base, token, nil)
}

// Enviar posts the run's results to the panel at base as alumno's, with the class token (or the
// lab's): each check's id, whether it passed and its state (a check not judged is neither), as
// pkg/resultados writes them.
func Enviar(ctx context.Context, base, token, alumno string, cs []Comprobacion) error {
	v := resultados.Envio{Alumno: alumno}
	for _, c := range cs {
		v.Comprobaciones = append(v.Comprobaciones, resultados.Comprobacion{ID: c.ID, Paso: c.Paso, Estado: c.Estado})
	}
	b, _ := json.Marshal(v)
	return pedirAlPanel(ctx, http.MethodPost, base, token, b)
}

// pedirAlPanel sends one request to the panel's RutaResultados; nil on a 2xx, else one line: the
// panel's own reason for a refusal, or why it could not be reached.
func pedirAlPanel(ctx context.Context, metodo, base, token string, cuerpo []byte) error {
	ctx, cancelar := context.WithTimeout(ctx, esperaPanel)
	defer cancelar()
	base = strings.TrimRight(base, "/")
	var cuerpoR io.Reader
	if cuerpo != nil {
		cuerpoR = bytes.NewReader(cuerpo)
	}
	req, err := http.NewRequestWithContext(ctx, metodo, base+RutaResultados, cuerpoR)
	if err != nil {
		return err
	}
	if cuerpo != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		// url.Error repeats the method and the whole address; the panel's address and the cause
		// are what a student needs.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("el panel en %s no respondió en %s", base, esperaPanel)
		}
		return fmt.Errorf("no llego al panel en %s (%v): ¿está en marcha laboratorio panel y es esa su URL?", base, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		motivo, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		linea := strings.Join(strings.Fields(strings.ToValidUTF8(string(motivo), "")), " ")
		return fmt.Errorf("el panel respondió %d: %s", resp.StatusCode, linea)
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	return nil
}
