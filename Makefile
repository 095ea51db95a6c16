# Two commands for a fresh machine: `make play` and `make test`.
# Everything else they need (the virtual environment, the package, numba's cache) is built on the way.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup play test bench match clean

# The stamp is remade whenever pyproject.toml changes, so a new dependency is installed without ceremony.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# Set-up alone: install, then `shuai setup` (what a user without make runs after `pip install`): compile every
# numba kernel once so that no GUI ever waits for the compiler, and build each game's quick endgame tables (every
# one-attacker xiangqi ending: 45 tables, about 15 s; the chess KQK, KRK, KPK, KBBK and KBNK, about 10 s; present
# ones are kept).
setup: $(STAMP)
	$(BIN)/shuai setup --dir tablebases

play: setup
	$(BIN)/shuai play

# The tests also need the cluster extra (Ray: tests/test_cluster.py starts a local instance with 2 CPUs).
CLUSTER_STAMP := $(VENV)/.cluster-stamp
$(CLUSTER_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,cluster]'
	touch $(CLUSTER_STAMP)

test: setup $(CLUSTER_STAMP)
	$(BIN)/python -m pytest -n 2 -q tests

# The quick benchmarks (about 6 minutes on 2 quiet cores), ours beside Fairy-Stockfish's in the same run:
# move generation (perft), mate puzzles at 1 s (and ours within node budgets, alone), search speed at 2 s a
# position and the `shuai bench` signature,
# and start-up (seconds to ucciok and readyok, numba's cache warm and cold).
# (`shuai bench --help` lists every benchmark.)
bench: setup
	$(BIN)/shuai bench perft --startup
	$(BIN)/shuai bench perft --game chess
	$(BIN)/shuai bench mates --movetime 1000
	$(BIN)/shuai bench mates-nodes
	$(BIN)/shuai bench search --movetime 2000
	$(BIN)/shuai bench startup

# Issue 16's benchmark (about 25 minutes on 2 cores): the default table set built on one machine, on a local
# Ray instance and on Ray with its larger tables sliced (wall times, files compared), and the largest table
# this machine builds in reasonable time with its peak memory.
.PHONY: bench-cluster
bench-cluster: setup $(CLUSTER_STAMP)
	$(BIN)/shuai bench cluster --sliced --largest KRvKNAABB

# The long matches (hours): Shuai vs MaxQi, vs Fairy-Stockfish, and a 100-game time-forfeit check;
# PGN, engine logs and summaries under $(MATCH_OUT).  See scripts/match.sh for the knobs (games, time controls).
MATCH_OUT ?= /tmp/shuai-match
match: setup
	OUT=$(MATCH_OUT) scripts/match.sh all

# The playing levels' calibration (issue 30; about 40 minutes of chess against Stockfish's UCI_Elo, then at most
# 1.5 hours of the xiangqi skill ladder against MaxQi): prints the README's tables.  Needs apt-get install stockfish.
.PHONY: levels book
levels: setup
	$(BIN)/python scripts/calibrate_levels.py

# The default xiangqi opening book, remade from the engine's own self-play (about 2 minutes of CPU; reproducible).
book: setup
	$(BIN)/shuai book build --selfplay 300 --plies 12 --nodes 20000 --randomness medium --seed 1 --min-games 2 \
		--out engine/book/xiangqi.book

# SPRT of the working tree against an earlier commit (every search or evaluation change must pass one); the
# result is appended to docs/results/sprt.tsv.  Each knob left empty keeps `shuai sprt --help`'s default:
#   make sprt BASE=<commit> [TC=2+0.02] [ELO0=0 ELO1=5] [GAME=chess] [GAMES=] [CONCURRENCY=] [OUT=]
#             [NEW_OPTIONS=] [BASE_OPTIONS=] [RESUME=W,D,L/...] [NOTE=]
.PHONY: sprt
sprt: setup
	@test -n "$(BASE)" || { echo "usage: make sprt BASE=<commit> [TC=2+0.02] [ELO0=0 ELO1=5]"; exit 2; }
	$(BIN)/shuai sprt $(BASE) $(if $(GAME),--game $(GAME)) $(if $(TC),--tc $(TC)) $(if $(ELO0),--elo0 $(ELO0)) \
		$(if $(ELO1),--elo1 $(ELO1)) $(if $(GAMES),--games $(GAMES)) $(if $(CONCURRENCY),--concurrency $(CONCURRENCY)) \
		$(if $(OUT),--out $(OUT)) $(if $(NEW_OPTIONS),--new-options '$(NEW_OPTIONS)') \
		$(if $(BASE_OPTIONS),--base-options '$(BASE_OPTIONS)') $(if $(RESUME),--resume '$(RESUME)') \
		$(if $(NOTE),--note '$(NOTE)')

# The evaluation tuner's training data (issue 13): quiet positions from self-play at a fixed node count,
# reproducible from the seed (about 47 minutes on 2 cores for the default 9,500 games, 1.06 million positions).
# GAME=chess: chess self-play into tune/chess-positions.txt.gz (4,000 games at 3,000 nodes a move, 350,215
# positions, 23 minutes).
GAME ?= xiangqi
TUNE_GAME := $(if $(filter-out xiangqi,$(GAME)),--game $(GAME))
TUNE_DATA ?= $(if $(filter chess,$(GAME)),tune/chess-positions.txt.gz,tune/positions.txt.gz)
.PHONY: tune-data
tune-data: setup
	$(BIN)/python -m engine.tune data $(TUNE_GAME) --out $(TUNE_DATA)

# The tuner: fits the evaluation's parameters to $(TUNE_DATA) and rewrites engine/xiangqi/eval_params.py (its
# header records how); keep the result only if `make sprt` says it wins.  GAME=chess: engine/chess/eval_params.py.
.PHONY: tune
tune: setup
	$(BIN)/python -m engine.tune fit $(TUNE_GAME) --data $(TUNE_DATA)

# The win/draw/loss model (UCI_ShowWDL, engine/wdl.py): self-play games (1,000 by default, played into
# tune/wdl-<settings>.txt.gz unless there already) fitted into engine/$(GAME)/wdl.json, whose provenance records how.
.PHONY: wdl
wdl: setup
	$(BIN)/python -m engine.tune wdl --game $(GAME)

# SPSA tuning of the search's parameters (engine/search_params.py) by game pairs between perturbed engines
# (issue 31): the state in tune/spsa-state.json goes on across sittings (ITERATIONS planned; STOP_AFTER more
# this sitting); the end prints each parameter's start and tuned value and the SPRT that decides them.
ITERATIONS ?= 2000
.PHONY: spsa
spsa: setup
	$(BIN)/python -m engine.tune spsa --game $(GAME) --iterations $(ITERATIONS) $(if $(STOP_AFTER),--stop-after $(STOP_AFTER))

# The network's training positions (issue 33): the same self-play as tune-data, written as a binary positions
# file (engine/tune/nnue_data.py) into tune/nnue-$(GAME)-seed$(SEED).bin; reproducible from the seed.
# CLUSTER=auto|HOST:PORT plays the games as Ray tasks (the same file); NETWORK=FILE searches with that network
# (default: the game's own, its default evaluation, where it has one; NETWORK= with nothing: the hand-written one).
SEED ?= 11
NNUE_GAMES ?= 3000
NETWORK ?= $(wildcard engine/$(GAME)/network.nnue)
.PHONY: nnue-data
nnue-data: setup
	$(BIN)/python -m engine.tune data --nnue --game $(GAME) --seed $(SEED) --games $(NNUE_GAMES) \
		$(if $(CLUSTER),--cluster $(CLUSTER)) $(if $(NETWORK),--network $(NETWORK))

# The network's trainer (issue 33; PyTorch: pip install '.[nnue]', done here): every positions file of the game in
# tune/ into tune/network-$(GAME).nnue; `cp` it to engine/$(GAME)/network.nnue to make it the game's own.
# NNUE_HIDDEN= / NNUE_EPOCHS= override the trainer's Settings.
NNUE_STAMP := $(VENV)/.nnue-stamp
$(NNUE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,nnue]'
	touch $(NNUE_STAMP)

.PHONY: nnue-train
nnue-train: setup $(NNUE_STAMP)
	$(BIN)/python -m engine.tune nnue-train $(foreach f,$(wildcard tune/nnue-$(GAME)-seed*.bin),--data $(f)) \
		--out tune/network-$(GAME).nnue \
		$(if $(NNUE_HIDDEN),--hidden $(NNUE_HIDDEN)) $(if $(NNUE_EPOCHS),--epochs $(NNUE_EPOCHS))

# One generation of the network (issue 79): the game's network plays POSITIONS positions of self-play into
# $(SHUAI_SELFPLAY) or ~/.cache/shuai/selfplay (outside the work tree: it survives a fresh clone), its child trains
# from its weights, an SPRT against it decides, and with H1 the child becomes engine/$(GAME)/network.nnue.
# Resumable: the same command goes on after an interruption. CLUSTER=auto|HOST:PORT plays the games on Ray;
# STOP_AFTER=play|train stops there. A game with no network yet banks its child as engine/$(GAME)/candidate.nnue.
POSITIONS ?= 3000000
.PHONY: nnue-generation
nnue-generation: setup $(NNUE_STAMP)
	$(BIN)/python -m engine.tune generation --game $(GAME) --positions $(POSITIONS) $(if $(CLUSTER),--cluster $(CLUSTER)) \
		$(if $(STOP_AFTER),--stop-after $(STOP_AFTER))

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# Endgame tables: the whole default set, every one-attacker ending and the two-attacker endings listed in
# tablebases/README.md (about 5 minutes on 2 cores).
# Tables already present are kept; an interrupted build leaves no broken file (each file is renamed into place).
.PHONY: tablebases
tablebases: $(STAMP)
	$(BIN)/python -m engine.egtb.cli build --default --dir tablebases
	$(BIN)/python -m engine.egtb.cli build --game chess --default --dir tablebases
