"""The Debian package (make deb), checked as a distribution checks one: lintian on the .deb, then the package
installed with apt into a fresh Debian 12 root (debootstrap --variant=minbase bookworm: Debian's packages, no
Swift toolchain in it), used there, and purged.

The pristine root is made by Tests/package/prepare-root and kept in /var/cache/remindd-tests
(REMINDD_TEST_CACHE) between runs; each test run unpacks a copy. Commands in the root run in a mount namespace of their own (unshare), so the /proc mounted
for them goes away with them."""
import json
import os
import pathlib
import shutil
import subprocess
import tarfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# make test checks the debug build's package (.build/deb-noopt); by hand, the release one is checked the same way.
DEBS = pathlib.Path(os.environ.get("REMINDD_DEB_DIR", ROOT / ".build" / "deb"))
CACHE = pathlib.Path(os.environ.get("REMINDD_TEST_CACHE", "/var/cache/remindd-tests"))
# What the daemon keeps for the user in the root: the one thing a purge must leave.
USER_STATE = "/home/tester"
# The languages the package speaks besides English (po/LANG.po, catalog/remindd.LANG.catalog).
LANGUAGES = sorted(path.stem for path in (ROOT / "po").glob("*.po"))


def package():
    debs = sorted(DEBS.glob("remindd_*_amd64.deb"))
    assert len(debs) == 1, f"expected one package in {DEBS} (make deb), found {debs}"
    return debs[0]


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], check=True, capture_output=True, text=True).stdout.strip()


def pristine_root_archive():
    """A tar of a fresh `debootstrap --variant=minbase bookworm` root with man-db and systemd (Tests/package/prepare-root,
    which `make test` starts early; this waits for it, or makes the root when it was not started)."""
    subprocess.run(["sh", str(ROOT / "Tests" / "package" / "prepare-root")], check=True, timeout=1800,
                   env=dict(os.environ, REMINDD_TEST_CACHE=str(CACHE)))
    return CACHE / "bookworm-minbase+man-db+systemd.tar"


class DebianRoot:
    """A Debian 12 root in a folder: commands run in it as root, with /proc, and Debian's mirror reachable."""

    def __init__(self, path):
        self.path = path

    def run(self, script, check=True, timeout=600, env=None):
        """Runs a shell script in the root; returns the completed process (stdout and stderr as text)."""
        command = ["unshare", "--mount", "--pid", "--fork", "--mount-proc=" + str(self.path / "proc"),
                   "chroot", str(self.path), "/usr/bin/env", "-i", "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
                   "HOME=/root", "LANG=C.UTF-8", "DEBIAN_FRONTEND=noninteractive",
                   *[f"{key}={value}" for key, value in (env or {}).items()], "/bin/sh", "-ec", script]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if check:
            assert result.returncode == 0, f"in the root: {script}\n{result.stdout}\n{result.stderr}"
        return result

    def files(self):
        """Every file, link and folder of the root, but for what apt, dpkg, man-db and logs keep for themselves."""
        kept_by_tools = ("var/lib/apt/", "var/lib/dpkg/", "var/cache/", "var/log/", "tmp/", "proc/", "root/", "run/",
                         "etc/ld.so.cache")
        found = set()
        for folder, folders, names in os.walk(self.path):
            for name in folders + names:
                relative = os.path.relpath(os.path.join(folder, name), self.path)
                if not relative.startswith(kept_by_tools):
                    found.add(relative)
        return found


@pytest.fixture(scope="module")
def debian_root(tmp_path_factory):
    path = tmp_path_factory.mktemp("bookworm")
    with tarfile.open(pristine_root_archive()) as archive:
        archive.extractall(path, filter="fully_trusted")
    root = DebianRoot(path)
    root.run("apt-get update -q", timeout=600)
    yield root
    shutil.rmtree(path, ignore_errors=True)


def test_lintian_finds_no_error_and_no_warning_that_is_not_overridden_with_a_reason():
    deb = package()
    result = subprocess.run(["lintian", "--fail-on", "error,warning", "--display-level", ">=warning",
                             "--show-overrides", str(deb)], capture_output=True, text=True, timeout=600)
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    for line in result.stdout.splitlines():
        assert line.startswith("N: ") or line.startswith("O: "), f"lintian: {line}"
    overrides_file = ROOT / "debian" / "remindd.lintian-overrides"
    overrides = overrides_file.read_text().splitlines() if overrides_file.exists() else []
    # Every override says why, in the comment above it.
    for index, line in enumerate(overrides):
        if line and not line.startswith("#"):
            assert index > 0 and overrides[index - 1].startswith("#"), f"override without a reason: {line}"


def test_the_package_installs_runs_and_purges_in_a_fresh_debian_root_without_swift(debian_root):
    deb = package()
    version = field(deb, "Version")
    assert field(deb, "Package") == "remindd" and field(deb, "Architecture") == "amd64"
    depends = field(deb, "Depends")
    for library in ("libc6", "libsqlite3-0", "libsystemd0", "libstdc++6"):
        assert library in depends, depends
    print(f"{deb.name}: Installed-Size {field(deb, 'Installed-Size')} KiB; Depends: {depends}")

    # A German user: the locale as the package locales would make it (glibc finds it in /usr/lib/locale).
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(debian_root.path / "usr/lib/locale/de_DE.UTF-8")], check=True)
    before = debian_root.files()
    assert not (debian_root.path / "opt" / "swift").exists() and not any(debian_root.path.glob("usr/bin/swift*"))
    shutil.copy(deb, debian_root.path / "tmp" / deb.name)
    # No user session runs in the root: the maintainer scripts must not need one.
    debian_root.run(f"apt-get install -y -q --no-install-recommends ./tmp/{deb.name}", timeout=900)

    # One version, from debian/changelog, for both binaries and the package.
    assert debian_root.run("remindctl --version").stdout.strip() == f"remindctl {version}"
    assert debian_root.run("remindd --version").stdout.strip() == f"remindd {version}"

    # Every library the binaries load is in the root: the Swift runtime from /usr/lib/remindd, the rest Debian's;
    # remindctl carries its own runtime (linked statically, FoundationEssentials only: it starts in half the time).
    for binary in ("/usr/bin/remindd", "/usr/bin/remindctl", "/usr/bin/remindd-web"):
        ldd = debian_root.run(f"ldd {binary}").stdout
        assert "not found" not in ldd, ldd
        loaded = {}
        for line in ldd.splitlines():
            if "=>" in line:
                name, target = line.split("=>")[0].strip(), os.path.normpath(line.split("=>")[1].split("(")[0].strip())
                loaded[name] = target
                assert (debian_root.path / target.lstrip("/")).exists(), line
        if binary == "/usr/bin/remindctl":
            assert not any("swift" in name or "Foundation" in name or "ICU" in name for name in loaded), ldd
            continue
        assert loaded["libswiftCore.so"] == "/usr/lib/remindd/libswiftCore.so", ldd
        runpath = subprocess.run(["readelf", "-d", str(debian_root.path / binary.lstrip("/"))], capture_output=True,
                                 text=True, check=True).stdout
        assert "[$ORIGIN/../lib/remindd]" in runpath and "/opt/swift" not in runpath, runpath

    # Where the system looks for each part.
    for installed in ("usr/lib/systemd/user/remindd.service", "usr/lib/systemd/user/remindd.socket",
                      "usr/lib/systemd/user/remindd-web.service", "usr/lib/systemd/user/remindd-web.socket", "usr/share/man/man1/remindd-web.1.gz",
                      "usr/lib/systemd/catalog/remindd.catalog", "usr/share/bash-completion/completions/remindctl",
                      "usr/share/zsh/vendor-completions/_remindctl", "usr/share/fish/vendor_completions.d/remindctl.fish",
                      "usr/share/remindd/exercises.csv", "usr/share/applications/remindd.desktop",
                      "usr/share/man/man5/remindd.toml.5.gz", "usr/share/man/man7/remindd-rules.7.gz",
                      "usr/share/man/man8/remindd.8.gz", "usr/share/doc/remindd/copyright",
                      *[f"usr/share/locale/{language}/LC_MESSAGES/remindd.mo" for language in LANGUAGES],
                      *[f"usr/lib/systemd/catalog/remindd.{language}.catalog" for language in LANGUAGES]):
        assert (debian_root.path / installed).exists(), installed
    service = (debian_root.path / "usr/lib/systemd/user/remindd.service").read_text()
    assert "ExecStart=/usr/bin/remindd\n" in service and "%h/.local/bin" not in service, service
    # The package enables nothing: each user does (systemctl --user enable --now remindd.socket remindd.service).
    assert not (debian_root.path / "etc/systemd/user/sockets.target.wants").exists()
    verify = debian_root.run("mkdir -p -m 0700 /tmp/verify && XDG_RUNTIME_DIR=/tmp/verify systemd-analyze --user verify "
                             "/usr/lib/systemd/user/remindd.socket /usr/lib/systemd/user/remindd.service "
                             "/usr/lib/systemd/user/remindd-web.socket /usr/lib/systemd/user/remindd-web.service", check=False)
    assert verify.returncode == 0 and verify.stderr.strip() == "", verify.stdout + verify.stderr
    # systemd's dpkg trigger compiled the catalog: journalctl -x explains a firing.
    catalog = debian_root.run("journalctl --list-catalog 4f1c2a7e9b3d4c58a6e0f2b1d7c39a51").stdout
    assert "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51" in catalog, catalog

    # The man pages render, remindctl's with a page per subcommand that `man remindctl add` opens.
    manual = debian_root.run("MANWIDTH=80 man remindctl").stdout
    assert "COMMANDS" in manual and "remindctl-add(1)" in manual, manual[:2000]
    add_page = debian_root.run("MANWIDTH=80 man remindctl add").stdout
    assert "remindctl add" in add_page and "--daily" in add_page, add_page[:2000]
    for page in ("remindd", "remindd.toml", "remindd-rules"):
        assert len(debian_root.run(f"MANWIDTH=80 man {page}").stdout.splitlines()) > 20, page

    # A user's daemon with its own folders, in German: it starts, checks its config, takes a reminder and fires
    # it, in the root's own journal (a journald started for the test), which journalctl -x explains in German.
    user = {"HOME": USER_STATE, "XDG_RUNTIME_DIR": "/tmp/run", "XDG_STATE_HOME": f"{USER_STATE}/.local/state",
            "XDG_CONFIG_HOME": f"{USER_STATE}/.config", "TZ": "UTC"}
    debian_root.run(f"mkdir -p -m 0700 /tmp/run {USER_STATE} && remindd --check-config", env=user)
    session = debian_root.run("""
        # journald wants the cgroup tree (mounted in this namespace only; gone with it).
        mount -t sysfs sysfs /sys && mount -t cgroup2 cgroup2 /sys/fs/cgroup
        /lib/systemd/systemd-journald > /dev/null 2>&1 &
        journald=$!
        for i in $(seq 100); do [ -S /run/systemd/journal/socket ] && break; sleep 0.1; done
        LANG=de_DE.UTF-8 remindd > /tmp/remindd.out 2>&1 &
        daemon=$!
        for i in $(seq 100); do [ -S /tmp/run/remindd/control.sock ] && break; sleep 0.1; done
        remindctl add "Packaged dose" --in 2s --dose 1 --unit tablet > /dev/null
        # Fired: the history says so (an end-to-end wait bounded at 30 s, however slow the machine).
        for i in $(seq 300); do
            remindctl history --json > /tmp/history.json
            grep -q '"kind" : "fired"' /tmp/history.json && break
            sleep 0.1
        done
        cat /tmp/history.json
        kill $daemon; wait $daemon || true
        LANG=de_DE.UTF-8 journalctl -x --no-pager MESSAGE_ID=4f1c2a7e9b3d4c58a6e0f2b1d7c39a51 > /tmp/explained.txt
        kill $journald; wait $journald || true
    """, env=user, timeout=120)
    history = json.loads(session.stdout)
    assert [entry["kind"] for entry in history if entry["reminderName"] == "Packaged dose"] == ["fired"], session.stdout
    explained = (debian_root.path / "tmp/explained.txt").read_text()
    # The daemon's MESSAGE from the installed remindd.mo, and the explanation from the installed German catalog.
    assert "remindd[" in explained and "]: Erinnerung: Packaged dose, 1 Tablette (einmalig, " in explained, explained
    assert "Erinnerung ausgelöst: Packaged dose" in explained, explained

    # Purged: nothing of it is left in the root but the user's own state.
    debian_root.run("apt-get purge -y -q --autoremove remindd")
    after = debian_root.files()
    left = sorted(path for path in after - before if not path.startswith(USER_STATE.lstrip("/")))
    assert left == [], left
    assert (debian_root.path / USER_STATE.lstrip("/") / ".local/state/remindd/remindd.sqlite").exists()


def test_make_deb_without_its_build_packages_says_which_to_install():
    """`make deb` checks its build packages first and names the missing ones with the command that installs them
    (one more, that no machine has, stands for a missing one)."""
    result = subprocess.run(["make", "-s", "--always-make", "deb", "DEB_BUILD_DEPS=debhelper no-such-package-for-remindd"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "make deb needs: no-such-package-for-remindd. Install them: sudo apt install no-such-package-for-remindd" in result.stderr, result.stderr
    assert "debhelper" not in result.stderr.split("needs:")[1].split(".")[0]
