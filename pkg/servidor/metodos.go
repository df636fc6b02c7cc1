package servidor

import (
	"net/http"
	"strings"
)

// metodosDeNode are the methods Node's HTTP parser (llhttp, Node 20) knows. The course's servers are
// Node servers: any other method, lowercase "get" included, never reaches the program.
var metodosDeNode = conjunto("ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE " +
	"MKACTIVITY MKCALENDAR MKCOL MOVE NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY " +
	"REBIND REPORT SEARCH SOURCE SUBSCRIBE TRACE UNBIND UNLINK UNLOCK UNSUBSCRIBE")

func conjunto(lista string) map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(lista) {
		m[s] = true
	}
	return m
}

// filtrarMetodos answers a method Node's parser does not know as that parser does — a bare
// "400 Bad Request" with "Connection: close" — before the request is logged or routed (lesson 6
// S-I20). Nuevo puts it outside everything else.
func filtrarMetodos(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m := r.Method; m == http.MethodGet || m == http.MethodPost || metodosDeNode[m] {
			h.ServeHTTP(w, r)
			return
		}
		PeticionIlegible(w)
	})
}
