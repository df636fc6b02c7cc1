package token

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Issue 34, item 2: a token given on a command line (--token TOKEN, or curl's -H "Authorization:
// Bearer $(laboratorio lab token)", which the shell expands) is readable by every user of the
// machine in ps. Every program that takes the lab's token also takes the file that holds it.
const (
	// VariableArchivo names a file holding the lab's token, read when CURSOHTTP_TOKEN is not set.
	VariableArchivo = "CURSOHTTP_TOKEN_ARCHIVO"
	// topeArchivo bounds what is read of a token's file: a token is 22 characters.
	topeArchivo = 4 << 10
)

// LeerArchivo is the token in the file at ruta: its first line, trimmed. An empty file, or one
// longer than a token's file can be, is an error that names the file.
func LeerArchivo(ruta string) (string, error) {
	f, err := os.Open(ruta)
	if err != nil {
		return "", fmt.Errorf("no pude leer el token de %s: %w", ruta, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, topeArchivo+1))
	if err != nil {
		return "", fmt.Errorf("no pude leer el token de %s: %w", ruta, err)
	}
	if len(b) > topeArchivo {
		return "", fmt.Errorf("%s no es un archivo de token: pasa de %d bytes", ruta, topeArchivo)
	}
	linea, _, _ := strings.Cut(string(b), "\n")
	if linea = strings.TrimSpace(linea); linea == "" {
		return "", fmt.Errorf("%s está vacío: no tiene un token", ruta)
	}
	return linea, nil
}

// ErrDosTokens: both --token and --token-archivo were given.
var ErrDosTokens = errors.New("--token y --token-archivo dicen lo mismo: da solo uno (mejor --token-archivo, que no queda a la vista en ps)")

// Buscar is the lab's token a program was given, in this order: --token (bandera), the file of
// --token-archivo (archivo), CURSOHTTP_TOKEN, the file CURSOHTTP_TOKEN_ARCHIVO names; "" when
// none. entorno is os.LookupEnv, or a test's own.
func Buscar(bandera, archivo string, entorno func(string) (string, bool)) (string, error) {
	bandera, archivo = strings.TrimSpace(bandera), strings.TrimSpace(archivo)
	switch {
	case bandera != "" && archivo != "":
		return "", ErrDosTokens
	case bandera != "":
		return bandera, nil
	case archivo != "":
		return LeerArchivo(archivo)
	}
	if entorno == nil {
		return "", nil
	}
	if v, ok := entorno(Variable); ok && strings.TrimSpace(v) != "" {
		return strings.TrimSpace(v), nil
	}
	if v, ok := entorno(VariableArchivo); ok && strings.TrimSpace(v) != "" {
		return LeerArchivo(strings.TrimSpace(v))
	}
	return "", nil
}

// AyudaArchivo is the help of every program's --token-archivo.
const AyudaArchivo = "el archivo con el token del laboratorio (lab/token): no queda a la vista en ps como --token (si no se dice: el de " + VariableArchivo + ")"
