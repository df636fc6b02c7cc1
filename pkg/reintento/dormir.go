package reintento

import (
	"context"
	"time"
)

// Dormir waits d, or less if ctx ends first (then it returns ctx's error): every wait of a retry
// loop must end with the program, on Ctrl+C or when a server shuts down.
func Dormir(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
