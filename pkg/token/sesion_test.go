package token

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A one-time link opens one session, once; sessions and remembered links are bounded, and a
// session pushed out by newer ones no longer counts.
func TestSesionesAcotadas(t *testing.T) {
	t.Parallel()
	ahora := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	s := NuevasSesiones("lab", func() time.Time { return ahora })
	conGalleta := func(v string) bool {
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(GalletaDeSesion(v))
		return s.Valida(r)
	}
	var valores []string
	for range TopeSesiones + 1 {
		codigo := NuevoEnlace("lab", ahora)
		v, ok := s.Canjear(codigo)
		if !ok || strings.Contains(v, "lab") {
			t.Fatalf("canje %d: %q %v", len(valores), v, ok)
		}
		if _, otra := s.Canjear(codigo); otra {
			t.Fatal("un enlace sirvió dos veces")
		}
		valores = append(valores, v)
	}
	if conGalleta(valores[0]) || !conGalleta(valores[1]) || !conGalleta(valores[TopeSesiones]) {
		t.Error("la sesión más vieja debía irse, y quedar las demás")
	}
	for len(s.canjeados) < TopeCanjes {
		s.Canjear(NuevoEnlace("lab", ahora))
	}
	if _, ok := s.Canjear(NuevoEnlace("lab", ahora)); ok {
		t.Error("pasado el tope de enlaces recordados, uno nuevo se tomó")
	}
	// Once the remembered links lapse, there is room again.
	ahora = ahora.Add(VigenciaEnlace + time.Second)
	if _, ok := s.Canjear(NuevoEnlace("lab", ahora)); !ok || len(s.canjeados) != 1 {
		t.Errorf("los enlaces vencidos no dejaron lugar: %d recordados", len(s.canjeados))
	}
	if _, ok := s.Canjear(NuevoEnlace("lab", ahora.Add(2*time.Minute))); ok {
		t.Error("un enlace del futuro se tomó")
	}
	if _, ok := NuevasSesiones("", nil).Canjear(NuevoEnlace("", ahora)); ok {
		t.Error("un panel sin token tomó un enlace")
	}
}
