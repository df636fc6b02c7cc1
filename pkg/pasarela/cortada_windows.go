package pasarela

import (
	"errors"
	"syscall"
)

// cortadaPorElSistema is a connection the peer reset or the system aborted. Winsock reports them
// with its own numbers (WSAECONNRESET, WSAECONNABORTED), not the syscall.ECONNRESET that Go
// defines on Windows, which no socket call ever returns.
func cortadaPorElSistema(err error) bool {
	return errors.Is(err, syscall.Errno(10054)) || errors.Is(err, syscall.Errno(10053))
}
