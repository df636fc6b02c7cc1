package destinos

// Configurados reads, once for every program that needs them, the private destinations a probe
// may reach, as the course does: --destinos when given (bandera, "" when not), else
// REVISOR_DESTINOS when set (read through variable, os.LookupEnv in a program), else nil, the
// course's laboratory alone. An entry that is not ip:port is an error, so a typo does not silently
// leave the laboratory unreachable.
func Configurados(bandera string, variable func(string) (string, bool)) ([]string, error) {
	var lista []string
	if bandera != "" {
		lista = LeerPermitidos(bandera)
	} else if v, hay := variable("REVISOR_DESTINOS"); hay {
		lista = LeerPermitidos(v)
	}
	if err := ValidarPermitidos(lista); err != nil {
		return nil, err
	}
	return lista, nil
}
