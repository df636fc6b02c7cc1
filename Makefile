# The verbs a student, an instructor and CI type. `make help` lists them.
GO      ?= go
BIN     := bin
# golang.org/x/tools/cmd/deadcode at a fixed version, from the module cache first so that it also
# runs offline once fetched (the landing checks run in a network namespace), else from the proxy.
DEADCODE := GOPROXY="file://$$($(GO) env GOMODCACHE)/cache/download,$$($(GO) env GOPROXY)" \
	$(GO) run golang.org/x/tools/cmd/deadcode@v0.52.0
# Every platform a student may have: CI builds them all on every run, `make dist` packs them.
PLATAFORMAS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

.DEFAULT_GOAL := help
.PHONY: help build cruzar test check unit escenas escena escenas-lista lab-up lab-down lab-restart lab-estado lab lab-tmux puertos dist bench fuzz fuzz-largo clean

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

build: ## build every program into bin/
	@mkdir -p $(BIN)
	$(GO) build -o $(BIN)/ ./cmd/...

check: ## gofmt, go vet (also for windows and darwin, tests included), go.mod tidy, no dead code, nothing test-only linked into the programs
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=windows $(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	$(GO) mod tidy -diff
	@# Dead code: what the programs cannot reach (test helpers belong in internal/prueba, which only
	@# tests import), and what not even the tests reach.
	@out=$$($(DEADCODE) -filter '^cursohttp/(cmd|pkg|scripts)/' ./... && $(DEADCODE) -test ./...); \
	  if [ -n "$$out" ]; then echo "deadcode:"; echo "$$out"; exit 1; fi
	@out=$$($(GO) list -deps ./cmd/... ./scripts/... | grep -E '^(testing|net/http/httptest|cursohttp/internal/prueba)($$|/)'); \
	  if [ -n "$$out" ]; then echo "the programs link test-only packages:"; echo "$$out"; exit 1; fi

cruzar: ## build the four programs for every platform (PLATAFORMAS), as CI does on every run
	@for p in $(PLATAFORMAS); do \
	  GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/... || { echo "no compila para $$p"; exit 1; }; \
	  echo "  compila para $$p"; \
	done

unit: ## every Go test, with the race detector
	$(GO) test -race -count=1 ./...

test: puertos check cruzar unit fuzz ## what CI runs: gofmt, vet, go.mod tidy, the cross-builds, the tests with -race (soak and faults included), every fuzz target briefly, and the lessons' scenes
	@if [ -d scripts/escenas ]; then $(MAKE) --no-print-directory escenas; fi

escenas: build ## replay every lesson scene and compare with the lesson
	$(GO) run ./scripts/escenas $(if $(PASO),--paso) scripts/leccion-*

escena: build ## replay one scene: make escena E=<scene> [PASO=1]
	@test -n "$(E)" || { echo "uso: make escena E=<escena> [PASO=1]  (make escenas-lista las muestra)"; exit 2; }
	$(GO) run ./scripts/escenas $(if $(PASO),--paso) --escena "$(E)" scripts/leccion-*

escenas-lista: ## list every scene with its title
	$(GO) run ./scripts/escenas --lista scripts/leccion-*


lab-up: build ## start the lab in the background (logs in lab/); exits 1 if a server could not start
	@$(BIN)/laboratorio lab arrancar

lab-down: build ## stop what lab-up started, and nothing else
	@$(BIN)/laboratorio lab detener

lab-restart: build ## stop the lab and start it again (the lessons want fresh servers before each series)
	@$(BIN)/laboratorio lab reiniciar

lab-estado: build ## which servers are up, their pids, addresses and logs
	@$(BIN)/laboratorio lab estado

lab: build ## the lab in the foreground, one prefix per program; Ctrl+C stops all
	@$(BIN)/laboratorio lab primer-plano

lab-tmux: build ## the lab in tmux: a pane per server (Ctrl+C stops it, ↑ Enter restarts it) and one for curl
	@$(BIN)/laboratorio lab tmux

puertos: build ## check that the course's ports (18080-18083) are free, as the scenes need
	@$(BIN)/laboratorio lab puertos

# The version the programs carry: the nearest tag, the commit, and whether the tree had changes.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo desarrollo)

dist: ## release archives in dist/: one per platform (zip for Windows) and SHA256SUMS; reproducible
	$(GO) run ./scripts/dist --version $(VERSION) --salida dist $(PLATAFORMAS)

clean: ## remove bin/, lab/ and dist/
	rm -rf $(BIN) lab dist

bench: build ## load benchmark of the built servers against a trivial Go server (targets in the table)
	$(GO) run ./scripts/bench --bin $(BIN) $(if $(DURACION),--duracion $(DURACION))

fuzz: ## every fuzz target briefly, as CI does (FUZZTIME=20000x inputs each by default)
	@GO=$(GO) FUZZTIME=$(or $(FUZZTIME),20000x) scripts/fuzz.sh

fuzz-largo: ## every fuzz target for longer (FUZZTIME=5m each by default)
	@GO=$(GO) FUZZTIME=$(or $(FUZZTIME),5m) scripts/fuzz.sh
