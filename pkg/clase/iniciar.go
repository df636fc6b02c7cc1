package clase

import (
	"context"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"cursohttp/pkg/almacen"
	"cursohttp/pkg/basesql"
	"cursohttp/pkg/bitacora"
	"cursohttp/pkg/datos"
	"cursohttp/pkg/datosclase"
	"cursohttp/pkg/examen"
	"cursohttp/pkg/matricula"
	"cursohttp/pkg/pizarra"
	"cursohttp/pkg/servidor"
	"cursohttp/pkg/token"
)

// OpcionesIniciar are «revisor clase»'s (and so «laboratorio clase iniciar»'s) inputs.
type OpcionesIniciar struct {
	Dir            string            // the class's folder
	Servidor       servidor.Opciones // the board's address and port, the log, the token, the caps
	Nombres        []string          // names to add to the roster, when not there yet
	Datos          string            // SQLite file or postgres:// URL; "" is Dir/clase.db
	Pasarela       string            // the gateway's URL as students reach it; "" derives it
	PuertoPasarela int
	Revisores      int
	Limite         time.Duration
	Out, Err       io.Writer
}

// Iniciar runs the class lab until ctx ends: its store and roster, its gateway, revisors and board.
func Iniciar(ctx context.Context, o OpcionesIniciar) error {
	so := o.Servidor
	log := bitacora.NuevoLogger(o.Out, o.Err, so.LogJSON)
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return err
	}
	// The instructor's token: given, else the folder's, else a new one kept there (0600).
	tok, err := token.Buscar(so.Token, so.TokenArchivo, func(string) (string, bool) { return "", false })
	if err != nil {
		return err
	}
	rutaToken := filepath.Join(o.Dir, pizarra.ArchivoTokenClase)
	if tok == "" {
		tok, _ = token.LeerArchivo(rutaToken)
	}
	if tok == "" {
		tok = token.Nuevo()
	}
	if err := os.WriteFile(rutaToken, []byte(tok+"\n"), 0o600); err != nil {
		return err
	}
	donde := o.Datos
	if donde == "" {
		donde = filepath.Join(o.Dir, pizarra.ArchivoMatricula)
	}
	mat, err := datosclase.Abrir(ctx, donde)
	if err != nil {
		return err
	}
	defer mat.Cerrar()
	if err := agregarLista(ctx, mat, o); err != nil {
		return err
	}
	var servicios almacen.Almacen
	if basesql.EsPostgres(donde) {
		if servicios, err = datos.Abrir(ctx, donde, almacen.Opciones{}); err != nil {
			return err
		}
		defer servicios.Cerrar()
	}
	op := so
	op.Puerto = o.PuertoPasarela
	cl, err := Nueva(Opciones{Matricula: mat, Servicios: servicios, Revisores: o.Revisores, Token: tok,
		Pasarela: o.Pasarela, Escucha: op, Limite: o.Limite, Log: log, EsperaApagado: servidor.EsperaApagado})
	if err != nil {
		return err
	}
	defer cl.Cerrar()
	var columnas []pizarra.Columna
	for _, c := range examen.Checks {
		columnas = append(columnas, pizarra.Columna{ID: c.ID, Premisa: c.Premisa, Autodeclarada: Autodeclarada(c.ID)})
	}
	tablero := pizarra.NuevoTablero(pizarra.OpcionesTablero{Almacen: mat, Columnas: columnas, Instructor: cl.Instructor, Dir: o.Dir})
	sitio, err := cl.Servir(so, cl.Sitio(tablero))
	if err != nil {
		return err
	}
	for _, l := range LineasDeInicio(Inicio{Pasarela: cl.Pasarela(), Sitio: sitio, Revisores: o.Revisores, Datos: donde,
		Dir: o.Dir, Postgres: basesql.EsPostgres(donde)}) {
		log.Info().Msg(l)
	}
	return cl.Esperar(ctx)
}

// Inicio is what the class lab's start-up lines say.
type Inicio struct {
	Pasarela, Sitio string // where the gateway and the board listen, as URLs
	Revisores       int
	Datos, Dir      string
	Postgres        bool
}

// LineasDeInicio are the class lab's start-up lines: where it listens and how many revisors run,
// where its data lives, and the addresses the students can reach it at (each of this machine's
// when it listens on all of them). The instructor's one-time link is never among them: it is
// «laboratorio clase entrar»'s, asked by the instructor alone.
func LineasDeInicio(i Inicio) []string {
	revisores := "1 revisor"
	if i.Revisores > 1 {
		revisores = strconv.Itoa(i.Revisores) + " revisores"
	}
	sitio := strings.TrimPrefix(i.Sitio, "http://")
	puerto := i.Pasarela[strings.LastIndex(i.Pasarela, ":")+1:]
	aqui := "http://" + servidor.DondeAbrir(sitio)
	datos := "los datos de la clase en " + i.Datos + " (SQLite); los servicios de los revisores, en memoria"
	if i.Postgres {
		datos = "los datos de la clase y los servicios de sus revisores en PostgreSQL (" + sinClave(i.Datos) + ")"
	}
	l := []string{
		"clase: la pizarra en " + aqui + pizarra.RutaClase + " (para el proyector, en esta máquina) y la pasarela de la clase en el puerto " +
			puerto + "; " + revisores + " detrás de ella, solo en 127.0.0.1",
		"clase: " + datos + "; las credenciales, en " + filepath.Join(i.Dir, pizarra.ArchivoCredenciales) + " (0600)",
	}
	alcanzables := servidor.Alcanzables(sitio)
	for _, a := range alcanzables {
		l = append(l, "clase: los alumnos califican con «revisor comprobar cliente --clase http://"+a+" --credencial SU-CREDENCIAL -- ORDEN…»")
	}
	a := "http://" + alcanzables[0]
	l = append(l,
		"clase: las predicciones en clase («laboratorio clase predecir EJERCICIO»): el proyector en "+aqui+pizarra.RutaProyector+
			"; los alumnos responden en "+a+pizarra.RutaPredecir+" o con «revisor predecir --clase "+a+" --credencial SU-CREDENCIAL»",
		"clase: para quitar filas o limpiar la pizarra desde el navegador, «laboratorio clase entrar» abre tu sesión de profesor")
	return l
}

// sinClave is a postgres:// URL without its password, to print.
func sinClave(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Redacted()
	}
	return "postgres://…"
}

// agregarLista adds the names not in the roster yet, and says their credentials once.
func agregarLista(ctx context.Context, mat matricula.Almacen, o OpcionesIniciar) error {
	if len(o.Nombres) == 0 {
		return nil
	}
	ya, err := mat.Alumnos(ctx)
	if err != nil {
		return err
	}
	esta := map[string]bool{}
	for _, a := range ya {
		esta[a.Nombre] = true
	}
	var nuevos []string
	for _, n := range o.Nombres {
		if norm, err := matricula.Normalizar(n); err == nil && esta[norm] {
			continue
		}
		nuevos = append(nuevos, n)
	}
	if len(nuevos) == 0 {
		return nil
	}
	creds, err := mat.Agregar(ctx, nuevos)
	if err != nil {
		return err
	}
	// credenciales.txt holds each current student's current credential once, rewritten whole.
	lista := make([]string, 0, len(ya)+len(creds))
	for _, a := range ya {
		lista = append(lista, a.Nombre)
	}
	for _, c := range creds {
		lista = append(lista, c.Alumno)
	}
	ruta, err := pizarra.ActualizarCredenciales(o.Dir, pizarra.CambioDeCredenciales{Nuevas: creds, Lista: lista})
	pizarra.DecirCredenciales(o.Out, creds, ruta)
	return err
}
