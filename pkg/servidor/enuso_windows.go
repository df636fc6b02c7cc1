package servidor

import "syscall"

// enUso is Winsock's WSAEADDRINUSE: on Windows a busy port is reported with it, not with the
// syscall.EADDRINUSE that Go defines there and no socket call returns.
const enUso = syscall.Errno(10048)
