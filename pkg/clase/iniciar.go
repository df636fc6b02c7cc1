package clase

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
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
	lnP, err := servidor.Escuchar("la pasarela de la clase", op)
	if err != nil {
		return err
	}
	lnT, err := servidor.Escuchar("la pizarra de la clase", so)
	if err != nil {
		lnP.Close()
		return err
	}
	cl, err := Nueva(Opciones{Matricula: mat, Servicios: servicios, Revisores: o.Revisores, Token: tok,
		Pasarela: o.Pasarela, PuertoPasarela: lnP.Addr().(*net.TCPAddr).Port, Limite: o.Limite, Log: log})
	if err != nil {
		lnP.Close()
		lnT.Close()
		return err
	}
	defer cl.Cerrar()
	var columnas []pizarra.Columna
	for _, c := range examen.Checks {
		columnas = append(columnas, pizarra.Columna{ID: c.ID, Premisa: c.Premisa, Autodeclarada: Autodeclarada(c.ID)})
	}
	tablero := pizarra.NuevoTablero(pizarra.OpcionesTablero{Almacen: mat, Columnas: columnas, Instructor: cl.Instructor})
	donde1 := servidor.DondeAbrir(lnT.Addr().String())
	log.Info().Msg("clase: pasarela en http://" + lnP.Addr().String() + " y pizarra en http://" + lnT.Addr().String() + "/clase")
	log.Info().Msg("clase: los alumnos califican con «revisor comprobar cliente --clase http://" + donde1 + " --credencial SU-CREDENCIAL -- ORDEN…»")
	log.Info().Msg("clase: las predicciones en clase («laboratorio clase predecir EJERCICIO»): el proyector en http://" + donde1 + pizarra.RutaProyector +
		"; los alumnos responden en http://" + donde1 + pizarra.RutaPredecir + " o con «revisor predecir --clase http://" + donde1 + " --credencial SU-CREDENCIAL»")
	log.Info().Msg("clase: para quitar filas o limpiar desde la pizarra, ábrela una vez con " +
		token.Enlace("http://"+donde1, tok, time.Now()) + " (sirve una vez)")
	errs := make(chan error, 2)
	go func() { errs <- servidor.Servir(ctx, lnP, servidor.Nuevo(cl.Pasarela()), log) }()
	go func() { errs <- servidor.Servir(ctx, lnT, servidor.Nuevo(cl.Sitio(tablero)), log) }()
	var primero error
	for range 2 {
		if err := <-errs; err != nil && primero == nil && !errors.Is(err, context.Canceled) {
			primero = err
		}
	}
	return primero
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
	return pizarra.ApuntarCredenciales(o.Out, o.Dir, creds, false)
}
