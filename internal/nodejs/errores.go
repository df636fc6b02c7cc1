package nodejs

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// errnoDeNode is a system error and the code Node gives it: the same code on every system, though
// Windows reports these with Winsock's own numbers (errno_windows.go).
type errnoDeNode struct {
	errno  syscall.Errno
	codigo string
}

// Rechazada says whether a connection was refused (nobody listens there): ECONNREFUSED in Node,
// on every system.
func Rechazada(err error) bool { return CodigoDeError(err) == "ECONNREFUSED" }

// CodigoDeError names a failed request the way the course's program does: the `cause.code` Node's
// fetch reports (ECONNREFUSED, ECONNRESET, ENOTFOUND, UND_ERR_SOCKET…), or, when there is none,
// the error as Node prints it.
func CodigoDeError(err error) string {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		if dns.IsNotFound {
			return "ENOTFOUND"
		}
		return "EAI_AGAIN"
	}
	for _, par := range errnosDeNode() {
		if errors.Is(err, par.errno) {
			return par.codigo
		}
	}
	// The peer closed without a (complete) answer: undici's "other side closed".
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "UND_ERR_SOCKET"
	}
	// Something that is not HTTP came back: undici's parser error.
	if m := err.Error(); strings.Contains(m, "malformed HTTP") {
		return "HPE_INVALID_CONSTANT"
	}
	// A chunked body whose framing is broken: llhttp's code for it.
	if m := err.Error(); strings.Contains(m, "chunked encoding") || strings.Contains(m, "chunk length") {
		return "HPE_INVALID_CHUNK_SIZE"
	}
	return "TypeError: fetch failed"
}
