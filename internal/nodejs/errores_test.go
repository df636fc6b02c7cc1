package nodejs

import (
	"cursohttp/internal/prueba"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"syscall"
	"testing"
)

// The code Node's fetch gives for each way a request fails, from the error Go's client returns.
// (altasegura's tests provoke each failure over real sockets.)
func TestCodigoDeError(t *testing.T) {
	t.Parallel()
	envuelto := func(err error) error {
		return &url.Error{Op: "Post", URL: "http://127.0.0.1:1/x", Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", err)}}
	}
	casos := []struct {
		err  error
		want string
	}{
		{envuelto(syscall.ECONNREFUSED), "ECONNREFUSED"},
		{envuelto(syscall.ECONNRESET), "ECONNRESET"},
		{envuelto(syscall.EPIPE), "EPIPE"},
		{envuelto(syscall.ETIMEDOUT), "ETIMEDOUT"},
		{envuelto(syscall.EHOSTUNREACH), "EHOSTUNREACH"},
		{envuelto(syscall.ENETUNREACH), "ENETUNREACH"},
		{envuelto(syscall.EADDRNOTAVAIL), "EADDRNOTAVAIL"},
		{envuelto(syscall.ECONNABORTED), "ECONNABORTED"},
		{envuelto(syscall.EACCES), "EACCES"},
		{&url.Error{Err: &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}}, "ENOTFOUND"},
		{&url.Error{Err: &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}}, "EAI_AGAIN"},
		{&url.Error{Err: io.EOF}, "UND_ERR_SOCKET"},
		{fmt.Errorf("leyendo: %w", io.ErrUnexpectedEOF), "UND_ERR_SOCKET"},
		{errors.New(`net/http: HTTP/1.x transport connection broken: malformed HTTP response "esto no es HTTP"`), "HPE_INVALID_CONSTANT"},
		{errors.New("malformed chunked encoding"), "HPE_INVALID_CHUNK_SIZE"},
		{errors.New("http chunk length too large"), "HPE_INVALID_CHUNK_SIZE"},
		{errors.New("algo más"), "TypeError: fetch failed"},
	}
	for _, c := range casos {
		if got := CodigoDeError(c.err); got != c.want {
			t.Errorf("CodigoDeError(%v) = %q, se esperaba %q", c.err, got, c.want)
		}
	}
}

// A real refused connection on this system, whatever number it reports it with, is ECONNREFUSED.
func TestRechazadaDeVerdad(t *testing.T) {
	t.Parallel()
	addr := "127.0.0.1:" + strconv.Itoa(prueba.PuertosLibres(t, 1)[0]) // nobody listens, nor may
	_, err := net.Dial("tcp", addr)
	if err == nil {
		t.Fatal("alguien escucha en un puerto reservado")
	}
	if !Rechazada(err) || CodigoDeError(err) != "ECONNREFUSED" {
		t.Errorf("%v: Rechazada %v, código %s", err, Rechazada(err), CodigoDeError(err))
	}
}
