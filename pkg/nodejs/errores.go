package nodejs

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

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
	for _, par := range []struct {
		errno  syscall.Errno
		codigo string
	}{
		{syscall.ECONNREFUSED, "ECONNREFUSED"},
		{syscall.ECONNRESET, "ECONNRESET"},
		{syscall.EPIPE, "EPIPE"},
		{syscall.ETIMEDOUT, "ETIMEDOUT"},
		{syscall.EHOSTUNREACH, "EHOSTUNREACH"},
		{syscall.ENETUNREACH, "ENETUNREACH"},
		{syscall.EADDRNOTAVAIL, "EADDRNOTAVAIL"},
		{syscall.ECONNABORTED, "ECONNABORTED"},
		{syscall.EACCES, "EACCES"},
	} {
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
