//go:build !windows

package nodejs

import "syscall"

// errnosDeNode are the system errors Node names by code, as this system reports them.
func errnosDeNode() []errnoDeNode {
	return []errnoDeNode{
		{syscall.ECONNREFUSED, "ECONNREFUSED"},
		{syscall.ECONNRESET, "ECONNRESET"},
		{syscall.EPIPE, "EPIPE"},
		{syscall.ETIMEDOUT, "ETIMEDOUT"},
		{syscall.EHOSTUNREACH, "EHOSTUNREACH"},
		{syscall.ENETUNREACH, "ENETUNREACH"},
		{syscall.EADDRNOTAVAIL, "EADDRNOTAVAIL"},
		{syscall.ECONNABORTED, "ECONNABORTED"},
		{syscall.EACCES, "EACCES"},
	}
}
