# ICSKit: the two commands README.md names are `make demo` (the main job) and `make test` (all tests).

SHARED ?= ../shared
BENCH_EVENTS ?= 20000
BENCH_INPUT := bench-data/bench-$(BENCH_EVENTS).ics
RELEASE := $(shell swift build -c release --show-bin-path 2>/dev/null || echo .build/release)

.PHONY: deps build test demo bench clean

## Installs the Debian packages ICSKit builds against, when one is missing.
deps:
	@missing=""; for p in libical-dev libsqlite3-dev pkg-config tzdata; do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi; \
	fi

build: deps
	swift build

test: deps
	swift build --build-tests
	swift test --disable-swift-testing

## The main job: build, then read, check and convert a real Outlook calendar.
demo: deps
	swift build -c release
	@echo "== icskit validate: what is in a real Outlook export, and what is wrong with it"
	-$(RELEASE)/icskit validate Fixtures/corpus-copies/outlook-2010.ics
	@echo "== icskit convert to jCal (RFC 7265)"
	$(RELEASE)/icskit convert Fixtures/corpus-copies/outlook-2010.ics -o /tmp/icskit-demo.json --report json
	@echo "== and back from jCal to iCalendar"
	$(RELEASE)/icskit convert /tmp/icskit-demo.json -o /tmp/icskit-demo.ics
	@head -n 12 /tmp/icskit-demo.ics

$(BENCH_INPUT):
	mkdir -p bench-data
	python3 $(SHARED)/tools/gen_ics.py $(BENCH_EVENTS) > $@

## Release benchmarks against libical alone (C) and python icalendar; results go into BENCHMARKS.md.
bench: deps $(BENCH_INPUT)
	swift build -c release
	cc -O2 Benchmarks/LibicalBaseline/libical_baseline.c $$(pkg-config --cflags --libs libical) \
	  -o $(RELEASE)/libical-baseline
	cc -O2 Benchmarks/LibicalBaseline/libical_recurrence_baseline.c $$(pkg-config --cflags --libs libical) \
	  -o $(RELEASE)/libical-recurrence-baseline
	$(RELEASE)/ICSKitBench --input $(BENCH_INPUT) --runs 5 --write BENCHMARKS.md

clean:
	rm -rf .build bench-data
