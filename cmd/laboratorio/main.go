// Command laboratorio runs the course's failing servers: the bench (18081), the fake gateway
// (laboratorio mentira, 18082) and the hostile service (laboratorio hostil, 18083).
package main

import "cursohttp/pkg/cli"

func main() { cli.Main(run) }
