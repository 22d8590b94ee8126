"""The README and the manual in docs/: every relative link leads somewhere, and the README stays short."""
import os
import pathlib
import subprocess
import re

import pytest

from conftest import BIN

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(markdown):
    """The anchors GitHub makes of a document's headings: lower case, punctuation dropped, spaces as dashes."""
    made = set()
    for line in markdown.splitlines():
        if line.startswith("#") and " " in line and not line.startswith("#!"):
            text = line.lstrip("#").strip().lower()
            made.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return made


def test_every_relative_link_in_the_readme_and_the_manual_resolves():
    broken = []
    for document in DOCUMENTS:
        text = document.read_text()
        # Code blocks hold shell and config text, not links.
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(prose):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            resolved = (document.parent / path).resolve() if path else document
            if not resolved.exists():
                broken.append(f"{document.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved.read_text()):
                broken.append(f"{document.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_the_readme_is_read_in_five_minutes_and_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) < 250
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [line.split()[:2] for line in first_block] == [["make", "run"], ["make", "test"]], first_block
    # Every chapter of the manual is linked from the README.
    for chapter in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{chapter.name})" in text, chapter.name


def setup_blocks(document):
    """The blocks a document marks `<!-- set-up: NAME -->`: NAME -> the block's text, its indentation removed."""
    blocks = {}
    pattern = re.compile(r"<!-- set-up: ([\w-]+) -->\n( *)```\w*\n(.*?)\n\2```", re.S)
    for name, indent, body in pattern.findall((ROOT / document).read_text()):
        blocks[name] = "\n".join(line[len(indent):] for line in body.splitlines()) + "\n"
    return blocks


def console_commands(block):
    """A console block's commands: its `$ ` lines with their continuation lines, trailing comments off."""
    commands, current = [], None
    for line in block.splitlines():
        if line.startswith("$ "):
            current = line[2:]
        elif current is not None and line.startswith(" "):
            current += " " + line.strip()
        else:
            current = None
            continue
        if current.endswith("\\"):
            current = current[:-1].rstrip()
            continue
        commands.append(re.sub(r"\s+# .*$", "", current))
        current = None
    return commands


@pytest.mark.parametrize("server_kind", ["radicale", "xandikos"])
def test_the_device_set_up_works_as_written_in_a_fresh_home(journald, tmp_path, unique_name, server_kind):
    """Calendars and devices' set-up, block by block as docs/devices.md writes it, in a new home: Radicale with
    its own folder (or Xandikos, and vdirsyncer's storage for it), vdirsyncer with its password file, remindd
    linked to the collection, todoman and khal with their configs. Only the port (a free one instead of 5232 or
    5233) and the last steps that need a user manager (`systemctl --user ...`, checked to name units that exist)
    differ; the daemon is started by hand instead."""
    from conftest import Daemon, wait_until
    from caldav_servers import free_port
    blocks = setup_blocks("docs/devices.md")
    assert set(blocks) == {"khal", "radicale", "xandikos", "vdirsyncer", "vdirsyncer-xandikos", "vdirsyncer-run", "remindd", "todoman"}, set(blocks)
    port = str(free_port())
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    daemon = Daemon(tmp_path / "daemon")
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(daemon.runtime), TZ="UTC", PATH=f"{BIN}:{os.environ['PATH']}")
    for unset in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        env.pop(unset, None)
    daemon.env = dict(env, NOTIFY_SOCKET=daemon.notify_path)

    def shell(command):
        result = subprocess.run(["sh", "-c", command.replace("5232", port).replace("5233", port)], cwd=home, env=env, capture_output=True,
                                text=True, timeout=120)
        assert result.returncode == 0, f"{command}\n{result.stdout}{result.stderr}"
        return result.stdout

    def write(path, text):
        target = home / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text.replace("5232", port).replace("5233", port))

    server = None
    try:
        # 1. Radicale, its users file and its own storage folder (or Xandikos); the calendar made with curl.
        commands = console_commands(blocks[server_kind])
        expected = ["printf", "radicale", "curl"] if server_kind == "radicale" else ["xandikos", "curl"]
        assert [c.split()[0] for c in commands] == expected, commands
        for command in commands[:-2]:
            shell(command)
        assert commands[-2].endswith(" &")
        server = subprocess.Popen(["sh", "-c", "exec " + commands[-2][:-2].replace("5232", port).replace("5233", port)], cwd=home, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def listening():
            return subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/"], env=env).returncode == 0
        assert wait_until(listening, timeout=20)
        shell(commands[-1])
        calendar_url = re.search(r"http://127\.0\.0\.1:\d+/\S+/", commands[-1].replace("5232", port).replace("5233", port)).group(0)

        # 2. vdirsyncer: its config (for Xandikos, with its storage in place of Radicale's), the password file,
        # discover and a first sync.
        vdirsyncer = blocks["vdirsyncer"]
        if server_kind == "xandikos":
            radicale_storage = vdirsyncer[vdirsyncer.index("[storage remindd_server]"):]
            vdirsyncer = vdirsyncer.replace(radicale_storage, blocks["vdirsyncer-xandikos"])
            assert "5233" in vdirsyncer and "alice/remindd" not in vdirsyncer, vdirsyncer
        write(".config/vdirsyncer/config", vdirsyncer)
        commands = console_commands(blocks["vdirsyncer-run"])
        assert commands[-1] == "systemctl --user enable --now vdirsyncer.timer", commands
        assert pathlib.Path("/usr/lib/systemd/user/vdirsyncer.timer").exists()
        for command in commands[:-1]:
            shell(command)

        # 3. remindd linked to the collection, with the sync command; a reminder added reaches the server.
        write(".config/remindd/config.toml", blocks["remindd"])
        daemon.start()
        shell(f'remindctl add "{unique_name}" --daily --at 09:00')

        def on_the_server():
            listing = subprocess.run(["curl", "-s", "-u", "alice:secret", "-X", "PROPFIND", "-H", "Depth: 1", "-H", "Content-Type: application/xml",
                                      "--data", '<propfind xmlns="DAV:"><prop><getetag/></prop></propfind>',
                                      calendar_url], env=env, capture_output=True, text=True)
            return listing.stdout.count(".ics</") >= 1
        assert wait_until(on_the_server, timeout=30), "the reminder never reached the server"

        # todoman reads the same folder with the documented config.
        write(".config/todoman/config.py", blocks["todoman"])
        assert unique_name in shell("todoman list")

        # khal, with its documented config, writes an event that remindd could read as a calendar.
        write(".config/khal/config", blocks["khal"])
        shell("mkdir -p ~/.calendars/personal")
        shell("khal new -m 15m 2026-11-26 10:00 11:00 Dentist")
        assert "Dentist" in shell("khal list 2026-11-26 1d")
    finally:
        if daemon.process:
            daemon.stop()
        if server:
            server.terminate()
            server.wait(timeout=10)


def readme_commands(section):
    """The remindctl commands a README section gives, in its order: its shell blocks' lines and its inline code."""
    text = (ROOT / "README.md").read_text().split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block, inline in re.findall(r"```sh\n(.*?)```|`(remindctl [^`]+)`", text, flags=re.S):
        lines = block.splitlines() if block else [inline]
        commands += [line.split("  #", 1)[0].strip() for line in lines if line.startswith("remindctl ")]
    return commands


def test_what_people_do_most_works_as_the_readme_writes_it(daemon, tmp_path):
    """Each remindctl command of the README's "What people do most", run as written, in its order, against a
    daemon: none is refused (but `done` when nothing is due, which says what to run instead), the dose is logged,
    and the PDF report is a PDF."""
    from conftest import DAY_ZONE
    commands = readme_commands("What people do most")
    assert len(commands) >= 8 and commands[0].startswith("remindctl add Metformin"), commands
    # In a zone where it is now between 10:00 and 12:00, so that `log ... --at 07:40` is in the past (a time in the
    # future is refused) wherever in the UTC day the test runs.
    daemon.env["TZ"] = DAY_ZONE
    daemon.start()
    for command in commands:
        result = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=dict(daemon.env, PATH=f"{BIN}:{os.environ['PATH']}"),
                                capture_output=True, text=True, timeout=60)
        if command.startswith("remindctl done ") and result.returncode == 1:
            # `done` takes the occurrence that is due; at any other time it says what to run instead.
            assert "is due now" in result.stderr and "remindctl log" in result.stderr, result.stderr
            continue
        assert result.returncode == 0, f"{command}: {result.stderr}"
    history = daemon.ctl_json("history", "--since", "1d")
    # The two `remindctl log` lines: logged ahead of a dose, or taking one, depending on the hour it runs.
    kinds = [entry["kind"] for entry in history if entry["reminderName"] == "Metformin" and entry["kind"] != "fired"]
    assert len(kinds) == 2 and set(kinds) <= {"logged", "logged-ahead", "taken", "taken-late"}, history
    assert (tmp_path / "adherence.pdf").read_bytes().startswith(b"%PDF")
