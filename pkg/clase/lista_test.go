package clase

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/token"
)

// sesion opens the instructor's one-time link as a browser would, and returns its session cookie.
func (e *enMarcha) sesion(t *testing.T) *http.Cookie {
	t.Helper()
	sinSeguir := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := sinSeguir.Get(token.Enlace(e.pizarra, tokenDePrueba, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == token.Galleta {
			return c
		}
	}
	t.Fatalf("el enlace de una vez no dio sesión: %d", resp.StatusCode)
	return nil
}

// Credentials are made and shown only to the instructor's token (the terminal's orders), never to
// a page's session: a one-time link opened from a student's laptop adds no name with its
// credential, renews, rotates or revokes nobody's; what the session is for (the board, the
// predictions) it still does.
func TestLasCredencialesSonDelTerminal(t *testing.T) {
	t.Parallel()
	e := arrancar(t, "Ana", "Luis")
	galleta := e.sesion(t)
	pedir := func(metodo, ruta, cuerpo string, conGalleta bool, tok string) (int, string) {
		req, _ := http.NewRequest(metodo, e.pizarra+ruta, strings.NewReader(cuerpo))
		if conGalleta {
			req.AddCookie(galleta)
		}
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	ana := strings.Replace(pizarra.RutaCredencial, "{nombre}", url.PathEscape("Ana"), 1)
	for _, c := range []struct {
		que, metodo, ruta, cuerpo string
	}{
		{"agregar", http.MethodPost, pizarra.RutaLista, "Intrusa\n"},
		{"renovar a Ana", http.MethodPost, ana, ""},
		{"revocar a Ana", http.MethodDelete, ana, ""},
		{"rotar", http.MethodPost, pizarra.RutaCredenciales, ""},
	} {
		codigo, cuerpo := pedir(c.metodo, c.ruta, c.cuerpo, true, "")
		if codigo != http.StatusUnauthorized || strings.Contains(cuerpo, "cl-") || !strings.Contains(cuerpo, "en su terminal") {
			t.Errorf("%s con la sesión de la página: %d %q; se esperaba 401 y ninguna credencial", c.que, codigo, cuerpo)
		}
	}
	if quien, ok, _ := e.mat.Identificar(t.Context(), e.creds["Ana"]); !ok || quien != "Ana" {
		t.Error("la credencial de Ana cambió desde la página")
	}
	// The session still does what it is for: the instructor's view of a prediction.
	if codigo, cuerpo := pedir(http.MethodPost, pizarra.RutaPrediccion, `{"ejercicio":"`+ejercicioDePrueba+`"}`, true, ""); codigo != http.StatusCreated {
		t.Errorf("abrir una predicción con la sesión: %d %s", codigo, cuerpo)
	}
	// The token, from the terminal, renews.
	if codigo, cuerpo := pedir(http.MethodPost, ana, "", false, tokenDePrueba); codigo != http.StatusOK || !strings.Contains(cuerpo, `"credencial":"cl-`) {
		t.Errorf("renovar con el token: %d %s", codigo, cuerpo)
	}
}
