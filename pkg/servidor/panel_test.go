package servidor

import (
	"testing"

	"github.com/spf13/pflag"
)

// --panel takes "" (none) or an http address, and refuses the rest as it is read.
func TestValidarPanel(t *testing.T) {
	t.Parallel()
	for valor, ok := range map[string]bool{"": true, "http://127.0.0.1:18084": true, "https://x": true, "127.0.0.1:18084": false, "ftp://x": false, "http://": false} {
		var o Opciones
		fs := pflag.NewFlagSet("prueba", pflag.ContinueOnError)
		o.BanderasDeTraza(fs)
		if err := fs.Set("panel", valor); (err == nil) != ok || (ok && o.Panel != valor) {
			t.Errorf("--panel %q: %v, quedó %q", valor, err, o.Panel)
		}
	}
}
