//go:build !unix

package pgefimero

import (
	"context"
	"errors"
)

func (s *Servidor) arrancar(context.Context, string) error {
	return errors.New("pgefimero: arrancar un PostgreSQL de usar y tirar solo se hace en Linux y macOS")
}

func carpetaTemporal() string { return "" }
