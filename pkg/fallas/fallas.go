// Package fallas names the gateway's fault modes as a student writes them (X-Simular, pasarela
// --simular, alta-segura --simular), each with one line on it, for the shells' completion. It is
// a leaf, so a client (alta-segura) completes the modes without linking the gateway; the gateway
// (pkg/pasarela) reads them, and its tests check that this list and its parser agree.
package fallas

// Modo is one mode as a shell offers it: a value that works as written (the modes that take a
// number carry an example) and what it does, with where the course has it.
type Modo struct {
	Valor       string
	Descripcion string
}

// Modos are the gateway's modes, in the order «pasarela --help» lists them.
var Modos = []Modo{
	{"perder-primera", "lección 6, §6.5: el revisor lo hace y el cliente recibe 502 la primera vez (el modo del curso)"},
	{"perder:2", "fuera del curso: como perder-primera, las primeras N veces (perder:N)"},
	{"perder-siempre", "fuera del curso: el revisor lo hace y el cliente recibe siempre 502"},
	{"rechazar", "fuera del curso: el revisor no la ve; el cliente recibe 502, como con el revisor apagado"},
	{"codigo:503", "fuera del curso: el revisor no la ve; el cliente recibe ese código de la pasarela (codigo:NNN)"},
	{"cortar", "fuera del curso: el revisor lo hace; la respuesta llega cortada a la mitad"},
	{"reiniciar", "fuera del curso: el revisor lo hace; la conexión se reinicia (ECONNRESET)"},
	{"lento:1500", "fuera del curso: el revisor lo hace; la respuesta llega MS ms después (lento:MS)"},
}
