# The verbs a student, an instructor and CI type. `make help` lists them.
GO      ?= go
BIN     := bin
# Every platform a student may have: CI builds them all on every run, `make dist` packs them.
PLATAFORMAS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

# Test binaries run P at a time, not one per core (go test's default): most tests wait on timers,
# servers, browsers and child processes, not on the CPU (the packages that always run, below: 263 s
# with -p 2, 195 with 3, 166 with 4, 144 with 6, on two cores at the same CPU time). The packages
# whose tests take longest (the grader running its test clients, the class lab and the board in a
# browser, the predictions' labs, a 45 s soak) start first, so none of them ends the run alone.
P ?= 4
LENTOS := ./pkg/examen ./cmd/laboratorio ./pkg/pizarra ./e2e ./pkg/ordenes/predecir ./pkg/clase ./pkg/revisor
# The packages whose tests read what go test's cache cannot see run every time (-count=1); why, one
# line each, in the file. The others' results come from the cache when nothing they read changed
# (on a clean clone, or with an empty cache, everything runs; GOFLAGS=-count=1 makes it so).
SIN_CACHE = $(shell sed 's/\#.*//' scripts/pruebas-sin-cache.txt)
CON_CACHE = $(filter-out $(SIN_CACHE:./%=cursohttp/%),$(shell $(GO) list ./...))

.DEFAULT_GOAL := help
.PHONY: help deps build cruzar test rapido check estatico unit escenas escena escenas-lista ataque lab-up lab-down lab-restart lab-reset lab-estado lab lab-tmux puertos dist bench clase-carga fuzz fuzz-largo postgres perfiles clean

help: ## esta lista
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-14s %s\n", $$1, $$2}'

# The fetch step: everything the build, the checks and the tests download (Go modules, the tools
# go.mod tracks with «go get -tool», the npm tools) comes down here, so afterwards make test passes
# with the network cut. tidy -diff fetches what tidy needs to compare (test-only modules of the
# dependencies) without changing a file.
deps: ## descarga todo lo que usan la compilación, las comprobaciones y las pruebas (módulos de Go, herramientas de npm); después make test funciona sin red
	$(GO) mod download
	$(GO) mod tidy -diff >/dev/null
	@if [ ! -f scripts/npm/package.json ]; then :; \
	elif command -v npm >/dev/null; then echo "npm ci --prefix scripts/npm"; npm ci --prefix scripts/npm; \
	else echo "  sin npm: las pruebas que usan las herramientas de npm (scripts/npm) se saltarán"; fi

build: ## compila los cuatro programas en bin/
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

# The fast cycle compiles under -trimpath, as scripts/estatico.sh does: an object that records no
# directory is the same in every clone and worktree, so a fresh clone finds the whole module in the
# build cache instead of compiling it again (for go vet's three platforms too). Its tests are those
# that do not wait on the clock (the others skip under -short and run in make test); what is left
# waits on sockets and child processes, not on the CPU, so more run at once than P.
P_CHECK ?= 8
check: estatico ## el ciclo rápido: make estatico y las pruebas sin las lentas (go test -short)
	$(GO) test -trimpath -short -p $(P_CHECK) ./...

estatico: ## gofmt, go vet (también para windows y darwin, pruebas incluidas), go.mod ordenado, nada de código muerto ni de pruebas dentro de los programas; todo a la vez
	@GO=$(GO) scripts/estatico.sh

# With the release's flags (scripts/dist's construir: -trimpath, no cgo, no VCS stamp): what is
# checked is what is shipped, the compile is the one make dist and scripts/dist's test then find in
# the cache, and under -trimpath the cache does not depend on the clone's directory.
cruzar: ## compila los cuatro programas para cada plataforma (PLATAFORMAS) como make dist, como hace CI siempre
	@for p in $(PLATAFORMAS); do \
	  CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -trimpath -buildvcs=false -o /dev/null ./cmd/... || { echo "no compila para $$p"; exit 1; }; \
	  echo "  compila para $$p"; \
	done

# The race detector needs cgo and so a C compiler; without one: make test RACE=
RACE ?= -race

# What make test skipped (a test without Chromium or PostgreSQL, the attack campaign without node…):
# each part leaves one line «who: why» in this record (scripts/saltos), and make test ends with
# them all in one line. The tests' lines come from go test's own skip events (go test -json).
export CURSOHTTP_SALTOS ?= $(CURDIR)/$(BIN)/.saltos

unit: ## todas las pruebas de Go, con el detector de carreras (necesita un compilador de C; sin él: RACE=); anota las que se saltan
	@mkdir -p $(BIN)
	@echo "$(GO) test $(RACE) -count=1 -p $(P) <scripts/pruebas-sin-cache.txt> y a la vez $(GO) test $(RACE) -p $(P) <los demás paquetes>"
	@$(GO) run ./scripts/saltos go -- $(GO) test -json $(RACE) -count=1 -p $(P) $(LENTOS) $(SIN_CACHE) \
		-- $(GO) test -json $(RACE) -p $(P) $(CON_CACHE)

# The parts run in three lanes at once (scripts/partes.sh: «--» between lanes; in a lane one after
# another), on two cores: most of them mostly wait (the scenes, the attack campaign and the class
# runs on servers and timeouts, many tests on timers and processes), and the CPU-bound ones
# (estatico, the tests' builds) fill those waits. The lanes are balanced by measured time (about
# 4 min each alone): the tests, then bench (it measures CPU, so it goes where the lanes are ending);
# cruzar (first: the tests' scripts/dist finds its compile in the cache), estatico and the attack
# campaign; the programs' users of bin/ in the third (make build once, first). partes.sh prints each
# part as it starts and ends, each line of a part with its name; when one fails no lane starts
# another, and the failing ones and those that never ran are named. The scenes need the course's
# ports only where they cannot have a network of their own (see scripts/escenas), and then say so
# at the first one taken: nothing else here uses them. The record of what was skipped starts
# empty; its line comes last, also when a part failed. The fast implementations
# (CURSOHTTP_RAPIDO=1: the gateway on its own transport, pasarela.Directo) pass the gateway's tests
# and the scenes too: docs/rendimiento.md. Only what gives the same answer every run is here: the
# fuzz targets run their seed corpora and committed crashers as ordinary tests (in unit), and the
# search for new inputs is make fuzz.
PARTES_TEST := unit 'bench CORTO=1' \
	-- cruzar estatico 'ataque CORTO=1' \
	-- $(if $(wildcard scripts/escenas),escenas 'escenas CURSOHTTP_RAPIDO=1',build) rapido \
	'clase-carga ALUMNOS=8' 'clase-carga ALUMNOS=8 PG=1'
test: ## lo determinista, lo que corre CI antes de make fuzz: estatico, cruzar, unit (los corpus de fuzz como pruebas), las escenas de las lecciones (también con CURSOHTTP_RAPIDO=1), la campaña de ataque corta, make bench corto (solo informa) y el modo clase con 8 alumnos en SQLite y en PostgreSQL (make clase-carga ALUMNOS=8); dice cada parte al terminar, cuál falló y cuáles no corrieron, y la última línea qué se saltó y por qué
	@mkdir -p $(BIN) && rm -f "$(CURSOHTTP_SALTOS)"
	@GO=$(GO) MAKE="$(MAKE)" scripts/partes.sh $(PARTES_TEST)

rapido: ## las pruebas de la pasarela con las implementaciones rápidas (CURSOHTTP_RAPIDO=1)
	CURSOHTTP_RAPIDO=1 $(GO) test $(RACE) ./pkg/pasarela/... ./cmd/pasarela/...

escenas: build ## reproduce todas las escenas de las lecciones y las compara con la lección
	$(GO) run ./scripts/escenas $(if $(PASO),--paso) scripts/leccion-*

escena: build ## reproduce una escena o una sección: make escena E=4.4.3-salud [PASO=1], E=7.1
	@test -n "$(E)" || { echo "uso: make escena E=<escena> [PASO=1]  (make escenas-lista las muestra)"; exit 2; }
	$(GO) run ./scripts/escenas $(if $(PASO),--paso) --escena "$(E)" scripts/leccion-*

escenas-lista: ## lista las escenas con su título
	$(GO) run ./scripts/escenas --lista scripts/leccion-*


# PANEL=1: also the timeline page (laboratorio panel, 18084), wired to the three servers.
LAB_PANEL = $(if $(PANEL),--panel)
# DATOS=lab/revisor.db (or a postgres://… URL): the revisor keeps its data there between restarts.
LAB_DATOS = $(if $(DATOS),--datos '$(DATOS)')

lab-up: build ## arranca el laboratorio en segundo plano (bitácoras en lab/); PANEL=1 añade la página del viaje (18084); DATOS=lab/revisor.db guarda los datos del revisor entre arranques; sale con 1 si alguno no arrancó
	@$(BIN)/laboratorio lab arrancar $(LAB_PANEL) $(LAB_DATOS)

lab-down: build ## detiene lo que arrancó lab-up, y nada más
	@$(BIN)/laboratorio lab detener

lab-restart: build ## lo detiene y lo vuelve a arrancar (las lecciones piden servidores recién arrancados en cada serie)
	@$(BIN)/laboratorio lab reiniciar $(LAB_PANEL) $(LAB_DATOS)

lab-reset: build ## lo detiene, borra los datos del revisor (DATOS=…) y lo arranca de cero
	@$(BIN)/laboratorio lab vaciar $(LAB_PANEL) $(LAB_DATOS)

# Its lines say which server is down; make's own «Error 1» after them would only repeat it in
# make's words, so this target ends 0 and a script reads «bin/laboratorio lab estado»'s exit code.
lab-estado: build ## qué servidores corren, con su pid, su dirección y su bitácora (bin/laboratorio lab estado sale con 1 si falta alguno)
	@$(BIN)/laboratorio lab estado || true

lab: build ## el laboratorio en primer plano, cada línea con su programa; Ctrl+C lo detiene (PANEL=1: con la página)
	@$(BIN)/laboratorio lab primer-plano $(LAB_PANEL) $(LAB_DATOS)

lab-tmux: build ## el laboratorio en tmux: un panel por servidor (Ctrl+C lo detiene, ↑ Enter lo arranca) y otro para curl
	@$(BIN)/laboratorio lab tmux $(LAB_DATOS)

puertos: build ## comprueba que los puertos del curso (18080-18083) están libres, como piden las escenas con PASO=1 o fuera de Linux
	@$(BIN)/laboratorio lab puertos

# The version the programs carry: the nearest tag, the commit, and whether the tree had changes.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo desarrollo)

dist: ## los archivos para descargar, en dist/: uno por plataforma (zip para Windows) y SHA256SUMS; reproducibles
	$(GO) run ./scripts/dist --version $(VERSION) --salida dist $(PLATAFORMAS)

clean: ## borra bin/, lab/, dist/ y perfiles/
	rm -rf $(BIN) lab dist perfiles

ataque: build ## la campaña de ataque contra los servidores construidos, con cifras (minutos; CORTO=1: segundos, como en CI)
	$(GO) run ./scripts/ataque --bin $(BIN) $(if $(CORTO),--corto)

# Built and run, not «go run»: after a Ctrl+C go run ends 1 whatever the program did, and make
# said so in its own words («Error 1») after the program's lines.
postgres: ## un PostgreSQL de usar y tirar para --datos postgres://… y sus pruebas (DIR=carpeta lo conserva); Ctrl+C lo detiene
	@$(GO) build -o $(BIN)/postgres-de-usar-y-tirar ./scripts/postgres
	@$(BIN)/postgres-de-usar-y-tirar $(if $(DIR),--dir $(DIR))

clase-carga: build ## el modo clase a escala: ALUMNOS alumnos (200 si no se dice) califican a la vez contra un laboratorio de la clase, en SQLite o, con PG=1, en un PostgreSQL de usar y tirar (REVISORES=2: dos revisores; PROCESOS=1: cada cliente un proceso de verdad); la última línea compara cada veredicto con el mismo cliente a solas
	$(GO) run ./scripts/clase-carga --bin $(BIN) --alumnos $(or $(ALUMNOS),200) $(if $(PG),--pg) $(if $(REVISORES),--revisores $(REVISORES)) $(if $(PROCESOS),--procesos)

bench: build ## CPU por petición y req/s de cada ruta frente a un manejador trivial y un ReverseProxy estándar medidos a la vez, con las razones y los objetivos (CORTO=1: la forma breve de CI, solo informa)
	$(GO) run ./scripts/bench --bin $(BIN) $(if $(DURACION),--duracion $(DURACION)) $(if $(CORTO),--corto)

perfiles: build ## perfiles de CPU (pprof) de los servidores bajo cada escenario de make bench, en DIR (perfiles/ por omisión), con sus funciones más caras
	$(GO) run ./scripts/bench --bin $(BIN) --perfiles $(or $(DIR),perfiles) $(if $(DURACION),--duracion $(DURACION))

# Exploration: what a random search finds depends on the day, so it is not part of make test. A
# finding fails with a one-line command that reproduces it, and the input is kept in $(BIN)/fuzz/,
# outside testdata, so the next make test still passes (scripts/fuzz.sh).
fuzz: ## busca entradas nuevas con cada objetivo de fuzz (FUZZTIME=20000x entradas por objetivo por omisión; SOLO=FuzzX, uno); un hallazgo falla con la orden que lo reproduce y no deja nada en testdata/
	@GO=$(GO) FUZZTIME=$(or $(FUZZTIME),20000x) HALLAZGOS=$(BIN)/fuzz SOLO='$(SOLO)' scripts/fuzz.sh

fuzz-largo: ## lo mismo, más tiempo por objetivo (FUZZTIME=5m por omisión)
	@GO=$(GO) FUZZTIME=$(or $(FUZZTIME),5m) HALLAZGOS=$(BIN)/fuzz SOLO='$(SOLO)' scripts/fuzz.sh
