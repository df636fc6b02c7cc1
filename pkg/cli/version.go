package cli

import (
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version is the release the programs were built as: `make dist` stamps it from git describe
// (-ldflags "-X cursohttp/pkg/cli.version=…"). It is set at link time and never written after.
var version string

// Version is what --version prints after the program's name: the stamped release, or for a plain
// go build the commit Go recorded ("desarrollo 1a2b3c4d5e6f, con cambios" when the tree had
// uncommitted changes), or just "desarrollo".
func Version() string {
	if version != "" {
		return version
	}
	v := "desarrollo"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	ajustes := map[string]string{}
	for _, s := range info.Settings {
		ajustes[s.Key] = s.Value
	}
	if rev := ajustes["vcs.revision"]; rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if ajustes["vcs.modified"] == "true" {
			v += ", con cambios"
		}
	} else if mv := info.Main.Version; mv != "" && mv != "(devel)" {
		v = strings.TrimPrefix(mv, "v")
	}
	return v
}

// ponerVersion gives the root command --version, in Spanish: «revisor 1.2.0».
func ponerVersion(raiz *cobra.Command) {
	raiz.Version = Version()
	raiz.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	if raiz.Flags().Lookup("version") == nil {
		raiz.Flags().Bool("version", false, "muestra la versión y sale")
	}
}
