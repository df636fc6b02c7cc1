//go:build unix && !linux

package control

import (
	"context"
	"time"
)

// esperarProceso waits for a process that is not this controller's child to end, asking every
// moment whether it still exists. (On macOS a server's parent is launchd, which reaps at once.)
func esperarProceso(ctx context.Context, pid int, espera time.Duration) bool {
	return esperarSondeando(ctx, pid, espera)
}
