package nodejs

import "syscall"

// errnosDeNode are the system errors Node names by code, as Winsock reports them: the
// syscall.ECONNREFUSED and company that Go defines on Windows are values no socket call returns.
// Node (libuv) maps these same numbers to the same codes.
func errnosDeNode() []errnoDeNode {
	return []errnoDeNode{
		{syscall.Errno(10061), "ECONNREFUSED"},  // WSAECONNREFUSED
		{syscall.Errno(10054), "ECONNRESET"},    // WSAECONNRESET
		{syscall.ERROR_BROKEN_PIPE, "EPIPE"},    // a write to a closed pipe
		{syscall.Errno(10060), "ETIMEDOUT"},     // WSAETIMEDOUT
		{syscall.Errno(10065), "EHOSTUNREACH"},  // WSAEHOSTUNREACH
		{syscall.Errno(10051), "ENETUNREACH"},   // WSAENETUNREACH
		{syscall.Errno(10049), "EADDRNOTAVAIL"}, // WSAEADDRNOTAVAIL
		{syscall.Errno(10053), "ECONNABORTED"},  // WSAECONNABORTED
		{syscall.Errno(10013), "EACCES"},        // WSAEACCES
	}
}
