//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// guionSleep is the sleep a command under "# espera" finds first on its PATH: it waits until the
// replayer says the event happened (the file $ESCENA_EVENTO exists), for 10 s at most, and then
// runs the real sleep with the lesson's arguments, so the order of the lesson's requests is the
// event's and the pause is still the lesson's.
const guionSleep = `#!/bin/sh
# The scene's sleep (# espera): the event first, then the lesson's time.
i=0
while [ ! -e "$ESCENA_EVENTO" ] && [ "$i" -lt 1000 ]; do
  %[1]s 0.01
  i=$((i + 1))
done
exec %[1]s "$@"
`

// esperarEvento prepares a command under "# espera": a folder with the waiting sleep, to put first
// on the command's PATH, the event file to give it as ESCENA_EVENTO, and a watcher that creates
// that file once the server's terminal holds one more line equal to esp.Linea than now. terminar
// stops the watcher and removes the folder.
func esperarEvento(ctx context.Context, esp Espera, t *Terminal) (carpeta, evento string, terminar func(), err error) {
	if t == nil {
		return "", "", nil, fmt.Errorf("«# espera %s»: ese servidor no arrancó en esta escena", esp.Servidor)
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		return "", "", nil, fmt.Errorf("«# espera»: no encuentro sleep: %w", err)
	}
	dir, err := os.MkdirTemp("", "escena-espera-")
	if err != nil {
		return "", "", nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "sleep"), fmt.Appendf(nil, guionSleep, "'"+sleep+"'"), 0o755); err != nil {
		os.RemoveAll(dir)
		return "", "", nil, err
	}
	evento = filepath.Join(dir, "evento")
	antes := contarLineas(t.Texto(), esp.Linea)
	ctx, cancelar := context.WithCancel(ctx)
	hecho := make(chan struct{})
	go func() {
		defer close(hecho)
		tic := time.NewTicker(2 * time.Millisecond)
		defer tic.Stop()
		for contarLineas(t.Texto(), esp.Linea) <= antes {
			select {
			case <-ctx.Done():
				return
			case <-tic.C:
			}
		}
		os.WriteFile(evento, nil, 0o644)
	}()
	return dir, evento, func() { cancelar(); <-hecho; os.RemoveAll(dir) }, nil
}

// contarLineas counts the lines of texto equal to linea.
func contarLineas(texto, linea string) int {
	n := 0
	for _, l := range strings.Split(texto, "\n") {
		if l == linea {
			n++
		}
	}
	return n
}
