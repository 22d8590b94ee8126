# remindd: build, test, benchmark, install.
#   make run           the daemon in the foreground with its default state dir (~/.local/state/remindd)
#   make test          install missing build deps (apt), build, run every test
#   make bench         release build, benchmarks with ratios against baselines measured in the same run
#   make install-user  binaries to ~/.local/bin, units to ~/.config/systemd/user
#   make uninstall-user  removes exactly that (PURGE=1: also the state and config)

SWIFT        ?= swift
PREFIX       ?= $(HOME)/.local
APT_PACKAGES := gettext locales debhelper dpkg-dev fakeroot patchelf lintian debootstrap pkg-config libsystemd-dev libsqlite3-dev sqlite3 systemd tzdata python3 python3-venv dbus-daemon dbus-bin libglib2.0-bin xvfb notification-daemon man-db khal todoman zsh fish curl vdirsyncer radicale xandikos librsvg2-bin poppler-utils pulseaudio pulseaudio-utils sox sound-theme-freedesktop desktop-file-utils xdotool speech-dispatcher speech-dispatcher-espeak-ng espeak-ng chromium chromium-driver
# One release build for every installed binary (make install-user, make deb, make bench share it, so none
# undoes another): remindd and remindd-web link the Swift runtime as shared libraries, which install copies from
# the toolchain into $(PREFIX)/lib/remindd and the binaries find there ($$ORIGIN/../lib/remindd), so nothing
# needs the toolchain after it. remindd must link them dynamically: only then can NIO take over Swift
# concurrency's global executor (the hook is a local symbol in the static runtime), and without that
# libdispatch's workqueue monitor wakes the idle daemon every second. remindctl, which needs FoundationEssentials
# only (no ICU), links its runtime statically (Package.swift): about 5 ms to start instead of 9 (docs/performance.md).

.PHONY: all build release deps locale pot test test-root test-swift test-e2e test-package deb bench run install install-user uninstall-user install-catalog clean

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

build: deps locale
	$(SWIFT) build

release: deps locale
	$(SWIFT) build -c release --product remindd
	$(SWIFT) build -c release --product remindctl
	$(SWIFT) build -c release --product remindd-web

# The languages: po/LANG.po, compiled where a program run from the checkout finds them (.build/locale, as
# /usr/share/locale for an installed one). msgcmp refuses a language that lacks a message of the template;
# msgfmt --check one whose format strings do not take the template's arguments.
LANGUAGES := $(basename $(notdir $(wildcard po/*.po)))
locale: $(LANGUAGES:%=.build/locale/%/LC_MESSAGES/remindd.mo)

.build/locale/%/LC_MESSAGES/remindd.mo: po/%.po po/remindd.pot
	@mkdir -p $(@D)
	msgcmp po/$*.po po/remindd.pot
	msgfmt --check --statistics -o $@ po/$*.po

# The template, from the message tables in the sources (DaemonMessages, CommandMessages).
pot:
	po/extract-messages

test-swift: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Python tools for the end-to-end tests (pytest, the reference Varlink client), in a venv under .build.
VENV := .build/venv
$(VENV)/.ready: deps Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check pytest pytest-xdist==3.8.0 pexpect varlink dbus-next pillow icalendar python-dateutil recurring-ical-events caldav==1.4.0 selenium==4.51.0 axe-selenium-python==2.1.6
	touch $@

# The end-to-end suite runs on two workers, a file to each at a time (pytest-xdist --dist loadfile: most of
# its time is waiting for real firings and syncs), sharing the journald pytest_configure starts. The files
# that measure lateness under a load of their own run afterwards, alone, as on a quiet machine. The workers'
# folders are short (a socket's path has at most 107 bytes).
E2E_ALONE := test_burst.py test_firing_under_load.py test_crash_announcements.py test_stop_deadline.py \
	test_one_notification_on_screen.py test_sound.py test_notification_screenshot.py
E2E_TMP := /tmp/remindd-e2e-$(shell id -u)

test-e2e: $(VENV)/.ready locale
	$(SWIFT) build
	$(VENV)/bin/python -m pytest -q -rs --durations=30 -n 2 --dist loadfile --basetemp=$(E2E_TMP) Tests/e2e \
	  $(E2E_ALONE:%=--ignore=Tests/e2e/%)
	$(VENV)/bin/python -m pytest -q -rs --durations=10 --basetemp=$(E2E_TMP) $(E2E_ALONE:%=Tests/e2e/%)

# The Debian package (make deb), checked as a distribution checks one: lintian, then installed into a fresh
# Debian 12 root (debootstrap minbase, no Swift in it) where it must work, and purged.
# make test checks the package built from the debug build the tests ran (DEB_BUILD_OPTIONS=noopt, Debian's
# own switch; a release make deb took 8.7 minutes on two cores): the same debian/rules and make install.
test-package: $(VENV)/.ready
	$(MAKE) deb DEB_BUILD_OPTIONS=noopt
	REMINDD_DEB_DIR=.build/deb-noopt $(VENV)/bin/python -m pytest -q Tests/package

# The Debian root the package is tested in is made while the Swift build runs (it waits on the network, the
# build on the processors); Tests/package waits for it.
test-root:
	@mkdir -p .build; sh Tests/package/prepare-root > .build/prepare-root.log 2>&1 &

test: deps test-root test-swift test-e2e test-package

bench: release $(VENV)/.ready
	@command -v strace >/dev/null && command -v remind >/dev/null || { SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace remind; }
	@pkg-config --exists libical || { SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO="sudo"; \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libical-dev; }
	$(SWIFT) build -c release --product NextFireBenchmark
	$$(command -v cc || command -v clang) -O2 -o .build/release/rrule_libical Benchmarks/rrule_libical.c $$(pkg-config --cflags --libs libical)
	$$(command -v cc || command -v clang) -O2 -o .build/release/read_files Benchmarks/read_files.c
	.build/release/NextFireBenchmark --remindctl .build/release/remindctl
	$(VENV)/bin/python Benchmarks/rrule_baselines.py .build/release
	python3 Benchmarks/daemon_scale.py .build/release
	python3 Benchmarks/habit_history.py .build/release
	python3 Benchmarks/burst.py .build/release
	python3 Benchmarks/burst.py .build/release 10000 --alone
	python3 Benchmarks/calendar_scale.py .build/release
	IMPORT=106504 python3 Benchmarks/calendar_scale.py .build/release
	python3 Benchmarks/collection_history.py .build/release
	python3 Benchmarks/collection_scale.py .build/release
	ALL=1 python3 Benchmarks/collection_scale.py .build/release
	FOREIGN=100000 python3 Benchmarks/collection_scale.py .build/release
	python3 Benchmarks/late_log_matching.py .build/release
	python3 Benchmarks/report_speed.py .build/release
	python3 Benchmarks/web_pages.py .build/release
	$(VENV)/bin/python Benchmarks/phone_tick.py .build/release
	python3 Benchmarks/peers.py .build/release

# Where `make install` puts things, under $(DESTDIR)$(PREFIX): install-user uses the home's folders (below),
# the Debian package (debian/rules) the system's.
BINDIR   = $(PREFIX)/bin
# The Swift runtime libraries the binaries load (they look in $ORIGIN/../lib/remindd).
LIBDIR   = $(PREFIX)/lib/remindd
SHAREDIR = $(PREFIX)/share/remindd
# The desktop entry notifications name (desktop-entry hint): GNOME's and KDE's notification settings list it.
APPDIR   = $(PREFIX)/share/applications
MANDIR   = $(PREFIX)/share/man
# The message catalogs (remindd.mo), where the programs look for them: ../share/locale from their bin.
LOCALEDIR = $(PREFIX)/share/locale
UNITDIR ?= $(HOME)/.config/systemd/user
# journalctl reads catalogs from /usr/lib/systemd/catalog only: a home install keeps its copy with the data
# (make install-catalog, as root, copies it there).
CATALOGDIR ?= $(SHAREDIR)
# man finds ~/.local/share/man from ~/.local/bin on PATH; bash-completion loads ~/.local/share/bash-completion
# on demand; zsh needs ~/.local/share/zsh/site-functions in $fpath; fish reads ~/.config/fish/completions.
BASH_COMPLETIONS ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS  ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS ?= $(HOME)/.config/fish/completions
# Binaries are stripped (release: remindd 61.5 MB -> 16.0 MB, remindctl 21.1 MB -> 5.5 MB); the package strips
# them itself, keeping the symbols in remindd-dbgsym, and passes STRIP= .
STRIP ?= -s
D = $(DESTDIR)

# The daemon in the foreground with its built-in defaults (state in ~/.local/state/remindd). Ctrl-C stops it.
run: build
	.build/debug/remindd

# CONFIG=debug installs the debug build (the end-to-end test does, to avoid a second, release build).
CONFIG ?= release
# argument-parser's generate-manual, built once per configuration: it comes from the pinned argument-parser, so
# only a change of Package.swift makes it again (building it at each install made SwiftPM plan the build anew).
.build/%/generate-manual: Package.swift
	$(SWIFT) build -c $* --product generate-manual

install: $(if $(filter debug,$(CONFIG)),build,release) locale .build/$(CONFIG)/generate-manual
	@command -v patchelf >/dev/null || { echo "make install needs patchelf: sudo apt install patchelf" >&2; exit 1; }
	install -d $(D)$(BINDIR) $(D)$(LIBDIR) $(D)$(UNITDIR) $(D)$(CATALOGDIR) $(D)$(SHAREDIR)/routines $(D)$(APPDIR) \
	  $(D)$(MANDIR)/man1 $(D)$(MANDIR)/man5 $(D)$(MANDIR)/man7 $(D)$(MANDIR)/man8 \
	  $(D)$(BASH_COMPLETIONS) $(D)$(ZSH_COMPLETIONS) $(D)$(FISH_COMPLETIONS)
	install -m 0755 $(STRIP) .build/$(CONFIG)/remindd .build/$(CONFIG)/remindctl .build/$(CONFIG)/remindd-web $(D)$(BINDIR)/
	# The Swift runtime libraries the binaries load (ldd names them in the toolchain's folder), and the binaries
	# told to find them there instead of in the toolchain.
	ldd .build/$(CONFIG)/remindd .build/$(CONFIG)/remindctl .build/$(CONFIG)/remindd-web | awk '$$3 ~ "/lib/swift/" { print $$3 }' | sort -u \
	  | xargs -I{} install -m 0644 $(STRIP) {} $(D)$(LIBDIR)/
	patchelf --set-rpath '$$ORIGIN/../lib/remindd' $(D)$(BINDIR)/remindd $(D)$(BINDIR)/remindctl $(D)$(BINDIR)/remindd-web
	for unit in remindd remindd-web; do \
	  sed 's|%h/.local/bin|$(BINDIR)|' systemd/$$unit.service > $(D)$(UNITDIR)/$$unit.service; chmod 0644 $(D)$(UNITDIR)/$$unit.service; done
	install -m 0644 systemd/remindd.socket systemd/remindd-web.socket $(D)$(UNITDIR)/
	install -m 0644 catalog/remindd*.catalog $(D)$(CATALOGDIR)/
	for lang in $(LANGUAGES); do \
	  install -D -m 0644 .build/locale/$$lang/LC_MESSAGES/remindd.mo $(D)$(LOCALEDIR)/$$lang/LC_MESSAGES/remindd.mo; done
	install -m 0644 Sources/ReminderInterface/IDL/*.varlink etc/remindd/config.toml share/remindd/exercises.csv $(D)$(SHAREDIR)/
	install -m 0644 share/remindd/routines/*.toml $(D)$(SHAREDIR)/routines/
	install -m 0644 share/applications/remindd.desktop $(D)$(APPDIR)/
	# Man pages: remindctl(1) with a page per subcommand (remindctl-add(1) ..., `man remindctl add`) and
	# remindd(8), from the commands' own help (argument-parser's generate-manual), finished with the sections
	# help cannot hold; remindd.toml(5), the config keys; remindd-rules(7), the rule languages.
	sh man/write-manuals .build/$(CONFIG)/generate-manual $(D)$(BINDIR) $(D)$(MANDIR)
	install -m 0644 man/remindd.toml.5 $(D)$(MANDIR)/man5/
	install -m 0644 man/remindd-rules.7 $(D)$(MANDIR)/man7/
	# Completions that ask the running daemon for reminder names, exercise ids and routine ids.
	# (bash-completion sources the file: no #! line.)
	$(D)$(BINDIR)/remindctl --generate-completion-script bash | sed '1{/^#!/d}' > $(D)$(BASH_COMPLETIONS)/remindctl
	$(D)$(BINDIR)/remindctl --generate-completion-script zsh > $(D)$(ZSH_COMPLETIONS)/_remindctl
	$(D)$(BINDIR)/remindctl --generate-completion-script fish > $(D)$(FISH_COMPLETIONS)/remindctl.fish

# In the home: binaries in ~/.local/bin, the runtime in ~/.local/lib/remindd, units in ~/.config/systemd/user.
install-user: install
	@echo
	@echo "Installed remindd, remindctl and remindd-web to $(BINDIR), units to $(UNITDIR), man pages to $(MANDIR), completions. Now run:"
	@echo "  systemctl --user daemon-reload && systemctl --user enable --now remindd.socket remindd.service"
	@echo "For the pages in a browser (remindctl ui): systemctl --user enable --now remindd-web.socket"
	@echo "Optional, as root, for 'journalctl -x' explanations: make install-catalog"

# Removes exactly what install-user installed (the service is stopped and disabled first). Your reminders,
# logs and config stay (~/.local/state/remindd, ~/.config/remindd) unless PURGE=1.
uninstall-user:
	-systemctl --user disable --now remindd.socket remindd.service remindd-web.socket remindd-web.service 2>/dev/null
	rm -f $(BINDIR)/remindd $(BINDIR)/remindctl $(BINDIR)/remindd-web $(UNITDIR)/remindd.service $(UNITDIR)/remindd.socket \
	  $(UNITDIR)/remindd-web.service $(UNITDIR)/remindd-web.socket
	rm -rf $(LIBDIR)
	rm -f $(addprefix $(SHAREDIR)/,$(notdir $(wildcard Sources/ReminderInterface/IDL/*.varlink) $(wildcard catalog/*.catalog)) config.toml exercises.csv)
	rm -f $(LANGUAGES:%=$(LOCALEDIR)/%/LC_MESSAGES/remindd.mo)
	rm -f $(addprefix $(SHAREDIR)/routines/,$(notdir $(wildcard share/remindd/routines/*.toml)))
	@# Folders only when empty: a linked collection (~/.local/share/remindd/collection) is yours, and stays.
	@rmdir $(SHAREDIR)/routines 2>/dev/null || true
	@rmdir $(SHAREDIR) 2>/dev/null || echo "Kept $(SHAREDIR): it holds more than remindd installed (your linked collection?)."
	rm -f $(MANDIR)/man1/remindctl.1 $(MANDIR)/man1/remindctl-*.1 $(MANDIR)/man1/remindd-web.1 $(MANDIR)/man5/remindd.toml.5 $(MANDIR)/man7/remindd-rules.7 \
	  $(MANDIR)/man8/remindd.8 $(APPDIR)/remindd.desktop
	rm -f $(BASH_COMPLETIONS)/remindctl $(ZSH_COMPLETIONS)/_remindctl $(FISH_COMPLETIONS)/remindctl.fish
	-systemctl --user daemon-reload 2>/dev/null
	$(if $(PURGE),rm -rf $(HOME)/.local/state/remindd $(HOME)/.config/remindd)
	@echo "Removed remindd. $(if $(PURGE),Its state and config are gone too.,Your reminders and logs stay in ~/.local/state/remindd (make uninstall-user PURGE=1 removes them).)"

# The Debian package, built as Debian builds one (dpkg-buildpackage, debian/), moved from .. to .build/deb
# (DEB_BUILD_OPTIONS=noopt: the debug build, to .build/deb-noopt). Made again only when a file of the source
# changed: a second `make deb` with no change takes a second.
DEB_BUILD_DEPS := gettext debhelper dpkg-dev fakeroot patchelf pkg-config libsqlite3-dev libsystemd-dev
DEB_DIR := .build/deb$(if $(filter noopt,$(DEB_BUILD_OPTIONS)),-noopt)
SOURCE_FILES := $(wildcard $(shell git ls-files 2>/dev/null || find Sources Package.swift Makefile debian man share systemd catalog etc -type f))

deb: $(DEB_DIR)/built

$(DEB_DIR)/built: $(SOURCE_FILES)
	@missing=""; for p in $(DEB_BUILD_DEPS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] || { echo "make deb needs:$$missing. Install them: sudo apt install$$missing" >&2; exit 1; }
	@command -v $(SWIFT) >/dev/null || { echo "make deb needs the Swift toolchain on PATH (https://www.swift.org/install/linux/)" >&2; exit 1; }
	dpkg-buildpackage -b -us -uc
	@version=$$(dpkg-parsechangelog -SVersion); rm -rf $(DEB_DIR); mkdir -p $(DEB_DIR); \
	mv ../remindd_$${version}_* ../remindd-dbgsym_$${version}_* $(DEB_DIR)/; \
	touch $@; \
	echo "Built $(DEB_DIR)/remindd_$${version}_amd64.deb: sudo apt install ./$(DEB_DIR)/remindd_$${version}_amd64.deb"

install-catalog:
	install -D -m 0644 -t /usr/lib/systemd/catalog catalog/remindd*.catalog
	journalctl --update-catalog

clean:
	rm -rf .build
