// Command laboratorio runs the course's failing servers: the bench (18081), the fake gateway
// (laboratorio mentira, 18082) and the hostile service (laboratorio hostil, 18083).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	codigo := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(codigo)
}
