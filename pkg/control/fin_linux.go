package control

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sys/unix"
)

// esperarProceso waits for a process that is not this controller's child to end. A pidfd becomes
// readable the moment the process exits, before its parent reaps it: a server already gone is not
// taken for alive while it lingers as a zombie (a parent such as a container's init may take
// seconds to reap it). Kernels without pidfd_open (before 5.3) are asked every moment instead.
func esperarProceso(ctx context.Context, pid int, espera time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return true
	}
	if err != nil {
		return esperarSondeando(ctx, pid, espera)
	}
	defer unix.Close(fd)
	limite := time.Now().Add(espera)
	for {
		// In slices, so a cancelled context is noticed; the process's end wakes poll at once.
		resto := min(time.Until(limite), 200*time.Millisecond)
		if resto <= 0 || ctx.Err() != nil {
			return false
		}
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(resto.Milliseconds())+1)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return esperarSondeando(ctx, pid, time.Until(limite))
		}
		if n > 0 {
			return true
		}
	}
}
