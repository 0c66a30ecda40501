# ICSKit: the two commands README.md names are `make demo` (the main job) and `make test` (all tests).

SHARED ?= ../shared
BENCH_EVENTS ?= 20000
BENCH_INPUT := bench-data/bench-$(BENCH_EVENTS).ics
RELEASE := $(shell swift build -c release --show-bin-path 2>/dev/null || echo .build/release)

.PHONY: deps build test demo bench clean

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
	@# python icalendar checks that exported files read elsewhere; its test says so and skips without it.
	@python3 -c "import icalendar, recurring_ical_events" 2>/dev/null || \
	  python3 -m pip install --quiet icalendar==7.3.0 recurring-ical-events==3.8.2 || \
	  echo "note: python icalendar could not be installed; the export-acceptance test will be skipped"

build: deps
	swift build

test: PACKAGES += chromium
test: deps
	swift build --build-tests
	swift test --disable-swift-testing

## The main job: build, then take real calendars through the embedded store: import, a week's agenda, export.
## DEMO_STORE keeps the demo away from your own store (unset it to use $XDG_DATA_HOME/icskit/store.sqlite).
DEMO_STORE ?= /tmp/icskit-demo/store.sqlite
demo: deps
	swift build -c release
	@rm -f $(DEMO_STORE) $(DEMO_STORE)-wal $(DEMO_STORE)-shm
	@echo "== icskit validate: what is in a real Outlook export, and what is wrong with it"
	-$(RELEASE)/icskit validate Fixtures/corpus-copies/outlook-2010.ics
	@echo "== icskit import: a Google export and an Outlook invitation into the store ($(DEMO_STORE))"
	ICSKIT_STORE=$(DEMO_STORE) $(RELEASE)/icskit import Fixtures/corpus-copies/google-issue52.ics Fixtures/corpus-copies/outlook-2010.ics
	@echo "== importing again changes nothing"
	ICSKIT_STORE=$(DEMO_STORE) $(RELEASE)/icskit import -q Fixtures/corpus-copies/google-issue52.ics
	@echo "== icskit agenda: the week of the Outlook meeting, in Berlin time"
	ICSKIT_STORE=$(DEMO_STORE) $(RELEASE)/icskit agenda --week 2013-W24 --tz Europe/Berlin
	@echo "== icskit export: that week as one file any app accepts (bare IANA TZIDs, a VTIMEZONE each)"
	ICSKIT_STORE=$(DEMO_STORE) $(RELEASE)/icskit export --week 2013-W24 --tz Europe/Berlin -o /tmp/icskit-demo/week.ics
	@grep -E "^(BEGIN|TZID|DTSTART|SUMMARY)" /tmp/icskit-demo/week.ics
	@echo "== the same week as a spreadsheet (Google Calendar's CSV columns) and as one HTML page"
	$(RELEASE)/icskit convert /tmp/icskit-demo/week.ics --to csv --tz Europe/Berlin -o /tmp/icskit-demo/week.csv
	@cut -c1-110 /tmp/icskit-demo/week.csv
	ICSKIT_STORE=$(DEMO_STORE) $(RELEASE)/icskit export --format html --week 2013-W24 --tz Europe/Berlin -o /tmp/icskit-demo/week.html
	@echo "open /tmp/icskit-demo/week.html in a browser"

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
