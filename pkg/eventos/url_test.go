package eventos

import "testing"

func TestValidarPanel(t *testing.T) {
	t.Parallel()
	for valor, ok := range map[string]bool{"": true, "http://127.0.0.1:18084": true, "https://x": true, "127.0.0.1:18084": false, "ftp://x": false, "http://": false} {
		if err := ValidarPanel(valor); (err == nil) != ok {
			t.Errorf("ValidarPanel(%q) = %v", valor, err)
		}
	}
}
