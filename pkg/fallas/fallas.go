// Package fallas names the gateway's fault modes as a student writes them (X-Simular, pasarela
// --simular, alta-segura --simular), each with one line on it, for the shells' completion. It is
// a leaf, so a client (alta-segura) completes the modes without linking the gateway. The list
// (modos.go) is generated from the gateway's one table of modes, pasarela.Modos (go generate
// ./pkg/pasarela), and the gateway's tests fail when it is stale.
package fallas

// Modo is one mode as a shell offers it: a value that works as written (the modes that take a
// number carry an example) and what it does, with where the course has it.
type Modo struct {
	Valor       string
	Descripcion string
}
