package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"
)

// ErrNadieEscucha is EsperarPuerto's error when the time ran out.
var ErrNadieEscucha = errors.New("nadie escucha")

// EsperarPuerto waits until something accepts a connection on host:puerto, trying again every
// cada, for at most limite: the lesson's esperar_puerto, which a script calls right after starting
// a server in the background. A refused or unanswered connection is not an error, only a reason to
// try again; the result is nil once one is accepted, or ErrNadieEscucha after limite.
func EsperarPuerto(ctx context.Context, host string, puerto int, limite, cada time.Duration) error {
	addr := net.JoinHostPort(host, strconv.Itoa(puerto))
	ctx, cancelar := context.WithTimeout(ctx, limite)
	defer cancelar()
	var d net.Dialer
	for {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			c.Close()
			return nil
		}
		t := time.NewTimer(cada)
		select {
		case <-ctx.Done():
			t.Stop()
			if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				return fmt.Errorf("%w en %s después de %s", ErrNadieEscucha, addr, limite)
			}
			return ctx.Err()
		case <-t.C:
		}
	}
}
