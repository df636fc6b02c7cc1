//go:build !windows

package servidor

import "syscall"

// enUso is the error of a busy port (see the Windows file).
const enUso = syscall.EADDRINUSE
