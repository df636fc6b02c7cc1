// Package resultados is the wire form of one grading of local mode: what «revisor comprobar
// cliente --enviar» posts (pkg/examen's Enviar) and the local class page takes (pkg/pizarra, on
// the panel: POST /clase/resultados). One type for both ends, so they cannot drift apart; a leaf,
// so the panel links nothing of the grader's.
package resultados

// Envio is one grading as the grader posts it.
type Envio struct {
	Alumno         string         `json:"alumno"`
	Comprobaciones []Comprobacion `json:"comprobaciones"`
}

// Comprobacion is one check of an Envio.
type Comprobacion struct {
	ID   string `json:"id"`
	Paso bool   `json:"paso"`
	// Estado is "no-juzgada" for a check whose premise never happened (neither ✔ nor ✘);
	// "", "paso" and "fallo" are what Paso says.
	Estado string `json:"estado,omitempty"`
}
