package clase

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"cursohttp/pkg/matricula"
	"cursohttp/pkg/token"
)

// MotivoInstructor answers a change of the class without the instructor's token.
const MotivoInstructor = "cambiar la lista de la clase pide el token del laboratorio (Authorization: Bearer …): solo el profesor lo tiene"

// instructor answers the refusal itself when r is not the instructor's.
func (c *Clase) instructor(w http.ResponseWriter, r *http.Request) bool {
	if !token.MismoSitio(r) {
		linea(w, token.DeOtroSitio, token.MotivoSitio)
		return false
	}
	if !c.Instructor(r) {
		w.Header().Set("WWW-Authenticate", token.Desafio)
		linea(w, token.SinPermiso, MotivoInstructor)
		return false
	}
	return true
}

// MotivoCredenciales answers a change of the credentials from anything but the instructor's token.
const MotivoCredenciales = "las credenciales de los alumnos las da el token del profesor, en su terminal " +
	"(«laboratorio clase agregar», «renovar», «rotar», «revocar»): ninguna página las pide ni las muestra"

// delTerminal answers the refusal itself when r does not carry the instructor's token. Making,
// showing and revoking credentials is for the token only, never for a page's session (the
// one-time link): a credential is shown to whoever ran the order, in the instructor's terminal,
// and a link opened by somebody else cannot add a name and get its credential, nor renew a
// student's and lock them out.
func (c *Clase) delTerminal(w http.ResponseWriter, r *http.Request) bool {
	if !token.MismoSitio(r) {
		linea(w, token.DeOtroSitio, token.MotivoSitio)
		return false
	}
	if !token.Iguales(token.Portador(r), c.o.Token) {
		w.Header().Set("WWW-Authenticate", token.Desafio)
		linea(w, token.SinPermiso, MotivoCredenciales)
		return false
	}
	return true
}

// LeerLista reads a roster: one name a line; blank lines and lines starting with # are skipped.
func LeerLista(r io.Reader) ([]string, error) {
	var l []string
	s := bufio.NewScanner(r)
	for s.Scan() {
		t := strings.TrimSpace(s.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		l = append(l, t)
	}
	return l, s.Err()
}

func (c *Clase) agregar(w http.ResponseWriter, r *http.Request) {
	if !c.delTerminal(w, r) {
		return
	}
	nombres, err := LeerLista(io.LimitReader(r.Body, topePedido))
	if err != nil {
		linea(w, http.StatusBadRequest, "no pude leer la lista: "+err.Error())
		return
	}
	creds, err := c.o.Matricula.Agregar(r.Context(), nombres)
	if err != nil {
		linea(w, codigoDe(err), err.Error())
		return
	}
	c.o.Log.Info().Msg("clase: " + strconv.Itoa(len(creds)) + " alumnos nuevos en la lista")
	escribirJSON(w, http.StatusCreated, creds)
}

func (c *Clase) renovar(w http.ResponseWriter, r *http.Request) {
	if !c.delTerminal(w, r) {
		return
	}
	cred, err := c.o.Matricula.Renovar(r.Context(), r.PathValue("nombre"))
	if err != nil {
		linea(w, codigoDe(err), err.Error())
		return
	}
	escribirJSON(w, http.StatusOK, []matricula.Credencial{cred})
}

func (c *Clase) revocar(w http.ResponseWriter, r *http.Request) {
	if !c.delTerminal(w, r) {
		return
	}
	if err := c.o.Matricula.Revocar(r.Context(), r.PathValue("nombre")); err != nil {
		linea(w, codigoDe(err), err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (c *Clase) rotar(w http.ResponseWriter, r *http.Request) {
	if !c.delTerminal(w, r) {
		return
	}
	creds, err := c.o.Matricula.Rotar(r.Context())
	if err != nil {
		linea(w, codigoDe(err), err.Error())
		return
	}
	escribirJSON(w, http.StatusOK, creds)
}

// codigoDe is the status of a store's refusal.
func codigoDe(err error) int {
	var inv *matricula.NombreInvalido
	switch {
	case errors.As(err, &inv):
		return http.StatusUnprocessableEntity
	case errors.Is(err, matricula.ErrNoEsta):
		return http.StatusNotFound
	case errors.Is(err, matricula.ErrYaEsta):
		return http.StatusConflict
	case errors.Is(err, matricula.ErrClaseLlena), errors.Is(err, matricula.ErrDemasiado):
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusServiceUnavailable
}

// entrar takes the instructor's one-time link («laboratorio clase entrar») and gives the page a
// session.
func (c *Clase) entrar(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Referrer-Policy", "no-referrer")
	valor, ok := "", false
	if token.MismoSitio(r) {
		valor, ok = c.sesiones.Canjear(r.URL.Query().Get("codigo"))
	}
	if !ok {
		linea(w, http.StatusForbidden, "ese enlace ya se usó, venció o no es de esta clase: «laboratorio clase entrar» da otro")
		return
	}
	http.SetCookie(w, token.GalletaDeSesion(valor))
	http.Redirect(w, r, "/clase", http.StatusSeeOther)
}
