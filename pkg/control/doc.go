// Package control is the lab controller behind «laboratorio lab» (the order keeps the lab's name;
// the package is named for what it does, so that it reads apart from pkg/laboratorio, the bench
// server, and from the lab itself): it starts the course's three servers
// in the background or in the foreground, says which are up, restarts and stops them, checks the
// course's ports and opens the tmux layout. It works wherever the programs do: it needs no /proc,
// no shell and no pid it cannot prove.
//
// How it knows its own servers: each one is started with --estado-lab FILE and keeps that state
// file, locked, for as long as it listens (pkg/anuncio: anuncio.Anunciar, anuncio.Leer).
package control
