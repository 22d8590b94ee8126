# remindd: build, test, benchmark, install.
#   make run           the daemon in the foreground with its default state dir (~/.local/state/remindd)
#   make test          install missing build deps (apt), build, run every test
#   make bench         release build, benchmarks with ratios against baselines measured in the same run
#   make install-user  binaries to ~/.local/bin, units to ~/.config/systemd/user
#   make uninstall-user  removes exactly that (PURGE=1: also the state and config)

SWIFT        ?= swift
PREFIX       ?= $(HOME)/.local
APT_PACKAGES := pkg-config libsystemd-dev libsqlite3-dev sqlite3 systemd tzdata python3 python3-venv dbus-daemon dbus-bin libglib2.0-bin xvfb notification-daemon man-db khal todoman zsh fish curl vdirsyncer radicale librsvg2-bin poppler-utils pulseaudio pulseaudio-utils sox sound-theme-freedesktop desktop-file-utils xdotool speech-dispatcher speech-dispatcher-espeak-ng espeak-ng
# remindctl links the Swift runtime statically (3 ms start-up instead of 6). remindd links it dynamically:
# only then can NIO take over Swift concurrency's global executor (the hook is a local symbol in the static
# runtime), and without that libdispatch's workqueue monitor wakes the idle daemon every second.
CLI_RELEASE_FLAGS := -c release --static-swift-stdlib

.PHONY: all build release deps test test-swift test-e2e bench run install-user uninstall-user install-catalog clean

all: build

# Installs the Debian packages the build and the tests need, only when one is missing.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product remindd
	$(SWIFT) build $(CLI_RELEASE_FLAGS) --product remindctl

test-swift: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Python tools for the end-to-end tests (pytest, the reference Varlink client), in a venv under .build.
VENV := .build/venv
$(VENV)/.ready: deps Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check pytest pexpect varlink dbus-next pillow icalendar python-dateutil recurring-ical-events caldav==1.4.0
	touch $@

test-e2e: $(VENV)/.ready
	$(SWIFT) build
	$(VENV)/bin/python -m pytest -q --durations=30 Tests/e2e

test: test-swift test-e2e

bench: release $(VENV)/.ready
	@command -v strace >/dev/null || { SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace; }
	@pkg-config --exists libical || { SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libical-dev; }
	$(SWIFT) build $(CLI_RELEASE_FLAGS) --product NextFireBenchmark
	$$(command -v cc || command -v clang) -O2 -o .build/release/rrule_libical Benchmarks/rrule_libical.c $$(pkg-config --cflags --libs libical)
	.build/release/NextFireBenchmark --remindctl .build/release/remindctl
	$(VENV)/bin/python Benchmarks/rrule_baselines.py .build/release
	python3 Benchmarks/daemon_scale.py .build/release
	python3 Benchmarks/habit_history.py .build/release
	python3 Benchmarks/burst.py .build/release
	python3 Benchmarks/burst.py .build/release 10000 --alone
	python3 Benchmarks/calendar_scale.py .build/release
	python3 Benchmarks/collection_history.py .build/release
	python3 Benchmarks/collection_scale.py .build/release
	ALL=1 python3 Benchmarks/collection_scale.py .build/release
	python3 Benchmarks/report_speed.py .build/release

BINDIR  := $(PREFIX)/bin
UNITDIR ?= $(HOME)/.config/systemd/user
SHAREDIR := $(PREFIX)/share/remindd
# The desktop entry notifications name (desktop-entry hint): GNOME's and KDE's notification settings list it.
APPDIR   := $(PREFIX)/share/applications
# man finds ~/.local/share/man from ~/.local/bin on PATH; bash-completion loads ~/.local/share/bash-completion
# on demand; zsh needs ~/.local/share/zsh/site-functions in $fpath; fish reads ~/.config/fish/completions.
MANDIR  := $(PREFIX)/share/man
BASH_COMPLETIONS := $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS  := $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS ?= $(HOME)/.config/fish/completions

# The daemon in the foreground with its built-in defaults (state in ~/.local/state/remindd). Ctrl-C stops it.
run: build
	.build/debug/remindd

# CONFIG=debug installs the debug build (the end-to-end test does, to avoid a second, release build).
CONFIG ?= release
install-user: $(if $(filter debug,$(CONFIG)),build,release)
	install -d $(BINDIR) $(UNITDIR) $(SHAREDIR)/routines
	install -m 0755 .build/$(CONFIG)/remindd .build/$(CONFIG)/remindctl $(BINDIR)/
	sed 's|%h/.local/bin|$(BINDIR)|' systemd/remindd.service > $(UNITDIR)/remindd.service
	install -m 0644 systemd/remindd.socket $(UNITDIR)/remindd.socket
	install -m 0644 Sources/ReminderInterface/IDL/*.varlink catalog/remindd.catalog etc/remindd/config.toml share/remindd/exercises.csv $(SHAREDIR)/
	install -m 0644 share/remindd/routines/*.toml $(SHAREDIR)/routines/
	install -d $(APPDIR)
	install -m 0644 share/applications/remindd.desktop $(APPDIR)/
	# Man pages remindctl(1) and remindd(8), from the commands' own help (argument-parser's generate-manual),
	# finished with the sections help cannot hold (man/*.sections); remindd.toml(5), the config keys.
	$(SWIFT) build --product generate-manual
	install -d $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man8 $(BASH_COMPLETIONS) $(ZSH_COMPLETIONS) $(FISH_COMPLETIONS)
	.build/debug/generate-manual $(BINDIR)/remindctl --section 1 --output-directory $(MANDIR)/man1
	.build/debug/generate-manual $(BINDIR)/remindd --section 8 --output-directory $(MANDIR)/man8
	sh man/finish-manual $(MANDIR)/man1/remindctl.1 man/remindctl.1.sections
	sh man/finish-manual $(MANDIR)/man8/remindd.8 man/remindd.8.sections
	install -m 0644 man/remindd.toml.5 $(MANDIR)/man5/
	# Completions that ask the running daemon for reminder names, exercise ids and routine ids.
	$(BINDIR)/remindctl --generate-completion-script bash > $(BASH_COMPLETIONS)/remindctl
	$(BINDIR)/remindctl --generate-completion-script zsh > $(ZSH_COMPLETIONS)/_remindctl
	$(BINDIR)/remindctl --generate-completion-script fish > $(FISH_COMPLETIONS)/remindctl.fish
	@echo
	@echo "Installed remindd and remindctl to $(BINDIR), units to $(UNITDIR), man pages to $(MANDIR), completions. Now run:"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now remindd.socket remindd.service"
	@echo "Optional, as root, for 'journalctl -x' explanations: make install-catalog"

# Removes exactly what install-user installed (the service is stopped and disabled first). Your reminders,
# logs and config stay (~/.local/state/remindd, ~/.config/remindd) unless PURGE=1.
uninstall-user:
	-systemctl --user disable --now remindd.socket remindd.service 2>/dev/null
	rm -f $(BINDIR)/remindd $(BINDIR)/remindctl $(UNITDIR)/remindd.service $(UNITDIR)/remindd.socket
	rm -f $(addprefix $(SHAREDIR)/,$(notdir $(wildcard Sources/ReminderInterface/IDL/*.varlink)) remindd.catalog config.toml exercises.csv)
	rm -f $(addprefix $(SHAREDIR)/routines/,$(notdir $(wildcard share/remindd/routines/*.toml)))
	@# Folders only when empty: a linked collection (~/.local/share/remindd/collection) is yours, and stays.
	@rmdir $(SHAREDIR)/routines 2>/dev/null || true
	@rmdir $(SHAREDIR) 2>/dev/null || echo "Kept $(SHAREDIR): it holds more than remindd installed (your linked collection?)."
	rm -f $(MANDIR)/man1/remindctl.1 $(MANDIR)/man5/remindd.toml.5 $(MANDIR)/man8/remindd.8 $(APPDIR)/remindd.desktop
	rm -f $(BASH_COMPLETIONS)/remindctl $(ZSH_COMPLETIONS)/_remindctl $(FISH_COMPLETIONS)/remindctl.fish
	-systemctl --user daemon-reload 2>/dev/null
	$(if $(PURGE),rm -rf $(HOME)/.local/state/remindd $(HOME)/.config/remindd)
	@echo "Removed remindd. $(if $(PURGE),Its state and config are gone too.,Your reminders and logs stay in ~/.local/state/remindd (make uninstall-user PURGE=1 removes them).)"

install-catalog:
	install -D -m 0644 catalog/remindd.catalog /usr/lib/systemd/catalog/remindd.catalog
	journalctl --update-catalog

clean:
	rm -rf .build
