# ICSKit: the two commands README.md names are `make demo` (the main job) and `make test` (all tests).

SHARED ?= ../shared
comma := ,
empty :=
space := $(empty) $(empty)
BENCH_EVENTS ?= 20000
BENCH_INPUT := bench-data/bench-$(BENCH_EVENTS).ics
# SwiftPM's release folder; a plain path, so that `make` does not start SwiftPM just to read its variables.
RELEASE ?= .build/release
# Python tools the tests compare with (python icalendar, recurring-ical-events, python-dateutil) live in a virtual
# environment under the build folder, never in the system's Python.
VENV ?= .build/venv
PYTHON := $(VENV)/bin/python3

.PHONY: deps venv build test demo bench bench-big clean fuzz fuzz-build format lint docs differential peers install \
  uninstall

## Installs the Debian packages ICSKit builds against (and, for the tests, headless Chromium), when one is missing.
PACKAGES ?= libical-dev libsqlite3-dev pkg-config tzdata
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi; \
	fi

## The virtual environment of the Python tools the tests use (scripts/requirements-test.txt), made once.
venv: $(VENV)/.installed
$(VENV)/.installed: scripts/requirements-test.txt
	@python3 -c "import venv, ensurepip" 2>/dev/null || $(MAKE) deps PACKAGES=python3-venv
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r scripts/requirements-test.txt
	@touch $@

## The tools (icskit, the store, sync, the feed server) are built with the package trait Tools; CalendarModel alone
## needs none (Package.swift says why).
TRAITS ?= --traits Tools

build: deps
	swift build $(TRAITS)

## Tests run in TEST_WORKERS processes at once (one per core by default: much of their time is spent waiting on
## servers and Python peers); `make test TEST_WORKERS=1` runs them one after another and prints every test's output.
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
test: PACKAGES += chromium calcurse man-db
test: deps venv
	swift build $(TRAITS) --build-tests
	ICSKIT_PYTHON=$(abspath $(PYTHON)) swift test $(TRAITS) --disable-swift-testing \
	  $(if $(filter 1,$(TEST_WORKERS)),,--parallel --num-workers $(TEST_WORKERS))

## Release builds link the Swift runtime and Foundation into each product (`--static-swift-stdlib`; products only:
## the test support needs XCTest, which does not link so): `icskit` then runs on a Linux machine without a Swift
## toolchain (libical and SQLite come from Debian's packages) and starts in about half the time (7 ms against 12 for
## `icskit --version` on the machine of BENCHMARKS.md).
RELEASE_BUILD ?= swift build -c release --static-swift-stdlib $(TRAITS)

## `make install [PREFIX=/usr/local] [DESTDIR=…]`: the release icskit, stripped (about 84 MB: the Swift runtime and
## Foundation are linked in; at run time it needs only libical3 and libsqlite3 from Debian), its bash, zsh and fish
## completions and icskit(1), a man page made from its --help. `BINARY=PATH` installs an icskit already built instead
## (the tests install their debug build). `make uninstall` with the same PREFIX and DESTDIR takes each file away.
PREFIX ?= /usr/local
DESTDIR ?=
BINARY ?=
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
INSTALLED = $(INSTALL_ROOT)/bin/icskit $(INSTALL_ROOT)/share/man/man1/icskit.1 \
  $(INSTALL_ROOT)/share/bash-completion/completions/icskit $(INSTALL_ROOT)/share/zsh/site-functions/_icskit \
  $(INSTALL_ROOT)/share/fish/vendor_completions.d/icskit.fish
install:
	@if [ -z "$(BINARY)" ]; then $(MAKE) deps && $(RELEASE_BUILD) --product icskit; fi
	install -d $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/share/man/man1 $(INSTALL_ROOT)/share/bash-completion/completions \
	  $(INSTALL_ROOT)/share/zsh/site-functions $(INSTALL_ROOT)/share/fish/vendor_completions.d
	install -m 755 $(or $(BINARY),$(RELEASE)/icskit) $(INSTALL_ROOT)/bin/icskit
	strip $(INSTALL_ROOT)/bin/icskit
	$(INSTALL_ROOT)/bin/icskit --generate-completion-script bash > $(INSTALL_ROOT)/share/bash-completion/completions/icskit
	$(INSTALL_ROOT)/bin/icskit --generate-completion-script zsh > $(INSTALL_ROOT)/share/zsh/site-functions/_icskit
	$(INSTALL_ROOT)/bin/icskit --generate-completion-script fish > $(INSTALL_ROOT)/share/fish/vendor_completions.d/icskit.fish
	scripts/manpage.sh $(INSTALL_ROOT)/bin/icskit > $(INSTALL_ROOT)/share/man/man1/icskit.1
	@echo "installed icskit into $(INSTALL_ROOT)/bin ($$(du -h $(INSTALL_ROOT)/bin/icskit | cut -f1)); man icskit"

## Removes what `make install` put there, and the folders it made that are left empty (never above PREFIX).
uninstall:
	rm -f $(INSTALLED)
	@for dir in $(dir $(INSTALLED)); do \
	  while [ "$$dir" != "$(INSTALL_ROOT)/" ] && [ "$$dir" != "/" ] && rmdir "$$dir" 2>/dev/null; do \
	    dir=$$(dirname "$$dir")/; done; done
	@echo "removed icskit from $(INSTALL_ROOT)"

## The main job: build, then scripts/demo.sh tells the story with the release icskit on PATH: a real Outlook export
## checked; a Google "Work" and an Apple "Family" calendar into a fresh store; their week (2026-W48) as an agenda and
## todos; a todo done by name, an event edited; a changed Work export merged, reported by name; the week as HTML,
## rendered to a PNG by headless Chromium (installed when missing). Its last line is the PNG's path. The store and
## the pages go to DEMO_DIR, never to your own store.
DEMO_DIR ?= .build/demo
demo: PACKAGES += chromium
demo: deps
	$(RELEASE_BUILD) --product icskit
	@PATH="$(abspath $(RELEASE)):$$PATH" DEMO_DIR="$(DEMO_DIR)" scripts/demo.sh

bench-data/bench-%.ics:
	mkdir -p bench-data
	python3 $(SHARED)/tools/gen_ics.py $* > $@

## Release benchmarks against libical alone (C) and python icalendar; results go into BENCHMARKS.md.
bench: deps venv $(BENCH_INPUT) bench-data/bench-200000.ics
	$(RELEASE_BUILD) --product icskit
	$(RELEASE_BUILD) --product ICSKitBench
	cc -O2 Benchmarks/LibicalBaseline/libical_baseline.c $$(pkg-config --cflags --libs libical) \
	  -o $(RELEASE)/libical-baseline
	cc -O2 Benchmarks/LibicalBaseline/libical_recurrence_baseline.c $$(pkg-config --cflags --libs libical) \
	  -o $(RELEASE)/libical-recurrence-baseline
	cc -O2 Benchmarks/LibicalBaseline/libical_week_baseline.c $$(pkg-config --cflags --libs libical sqlite3) \
	  -o $(RELEASE)/libical-week-baseline
	cc -O2 Benchmarks/LibicalBaseline/sqlite_import_floor.c $$(pkg-config --cflags --libs sqlite3) \
	  -o $(RELEASE)/sqlite-import-floor
	PATH=$(abspath $(VENV))/bin:$$PATH $(RELEASE)/ICSKitBench --input $(BENCH_INPUT) --runs 5 --write BENCHMARKS.md

## Big files (issue 14), not part of `make bench`: convert and validate streamed, memory and time against libical
## alone, on a generated 110 MB file and (BIG_EVENTS="200000 1900000") a 1 GB one; results go into BENCHMARKS.md.
BIG_EVENTS ?= 200000
bench-big: deps $(foreach n,$(BIG_EVENTS),bench-data/bench-$(n).ics)
	$(RELEASE_BUILD) --product icskit
	$(RELEASE_BUILD) --product ICSKitBench
	cc -O2 Benchmarks/LibicalBaseline/libical_baseline.c $$(pkg-config --cflags --libs libical) \
	  -o $(RELEASE)/libical-baseline
	$(RELEASE)/ICSKitBench --only big --runs 3 --write BENCHMARKS.md \
	  --big $(subst $(space),$(comma),$(foreach n,$(BIG_EVENTS),bench-data/bench-$(n).ics))

## Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of every reader: `make fuzz FUZZ_TIME=600` runs each of
## the nine targets that long (FUZZ_TARGETS picks some, FUZZ_JOBS=2 uses both cores); see FUZZING.md.
FUZZ_TIME ?= 60
FUZZ_TARGETS ?= ics jcal jscalendar xcal csv rrule store mime serve
## FUZZ_SANITIZE=fuzzer builds without AddressSanitizer into .build-fuzz-plain: about three times the executions.
FUZZ_SANITIZE ?= fuzzer,address
FUZZ_SCRATCH := $(if $(filter fuzzer,$(FUZZ_SANITIZE)),.build-fuzz-plain,.build-fuzz)
## FUZZ_CONFIG=debug builds in a quarter of the time (CI's smoke run): about as many executions for the slow targets,
## fewer for the fast ones.
FUZZ_CONFIG ?= release
fuzz-build:
	swift build $(TRAITS) -c $(FUZZ_CONFIG) --scratch-path $(FUZZ_SCRATCH) --product icskit-fuzz \
	  -Xswiftc -sanitize=$(FUZZ_SANITIZE) -Xswiftc -parse-as-library -Xswiftc -DICSKIT_FUZZ 2>&1 \
	  | grep -v "Cannot export local symbol" || true
	@test -x $(FUZZ_SCRATCH)/$(FUZZ_CONFIG)/icskit-fuzz

fuzz: deps fuzz-build
	swift build $(TRAITS) --product icskit
	FUZZ_BIN=$(FUZZ_SCRATCH)/$(FUZZ_CONFIG)/icskit-fuzz FUZZ_SANITIZERS=$(FUZZ_SANITIZE) \
	  scripts/fuzz.sh $(FUZZ_TIME) $(FUZZ_TARGETS)

## Differential testing of recurrence against recurring-ical-events (docs/DEVIATIONS.md): `make differential
## N=100000 SEED=7`. The tests run 5,000 calendars of one seed.
N ?= 5000
SEED ?= 1
differential: deps venv
	swift build $(TRAITS) --product icskit
	$(PYTHON) scripts/differential.py --icskit .build/debug/icskit --seed $(SEED) --count $(N)

## Which real programs accept the shared corpus, as it is and as `convert --repair` writes it (README's table):
## python icalendar, vobject, recurring-ical-events, khal, calcurse and a Radicale server on 127.0.0.1.
PEERS_OUT ?= .build/peers
peers: deps
	$(MAKE) deps PACKAGES="calcurse python3-venv"
	swift build $(TRAITS) --product icskit
	rm -rf $(PEERS_OUT) && mkdir -p $(PEERS_OUT)/original $(PEERS_OUT)/repaired
	find $(SHARED)/fixtures/corpus -name '*.ics' | while read -r f; do \
	  name=$$(echo "$${f#$(SHARED)/fixtures/corpus/}" | tr '/' '_'); cp "$$f" "$(PEERS_OUT)/original/$$name"; \
	  .build/debug/icskit convert "$$f" --repair -q -o "$(PEERS_OUT)/repaired/$$name" || true; done
	python3 scripts/peers.py --json $(PEERS_OUT)/original.json $(PEERS_OUT)/original
	python3 scripts/peers.py --json $(PEERS_OUT)/repaired.json $(PEERS_OUT)/repaired

## swift-format with the checked-in .swift-format: `make format` rewrites, `make lint` (run by CI) only checks;
## `make lint` also compares CalendarModel's public API with docs/CalendarModel-API.txt (scripts/api.sh), checks
## ARCHITECTURE's map and the CLI's folders, and that every path, command, option and make target the documents name
## exists (scripts/check-docs.py, asking the debug icskit's --help).
FORMATTED := Sources Tests Fuzz Benchmarks Examples Package.swift
format:
	swift format format --in-place --recursive $(FORMATTED)

lint:
	swift format lint --strict --recursive $(FORMATTED)
	scripts/check-architecture-map.sh
	python3 scripts/long-functions.py 60
	scripts/long-files.sh
	scripts/api.sh
	swift build $(TRAITS) --product icskit
	python3 scripts/check-docs.py .build/debug/icskit

## CalendarModel's DocC catalogue: built with no warning, every public symbol documented (CI runs it).
docs: deps
	scripts/docs.sh

clean:
	rm -rf .build .build-fuzz bench-data
