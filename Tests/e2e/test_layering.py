"""The layers stay apart, as the README's Architecture says: the CLI carries neither the daemon's server (NIO)
nor its store (GRDB, SQLite), and links neither libsystemd nor Foundation whole (FoundationEssentials only, no ICU): what it writes to the journal (a sync conflict) goes in
journald's native protocol, from its own small writer."""
import json
import os
import subprocess
import uuid

from conftest import BIN, ROOT, wait_until


def test_remindctl_carries_no_server_no_store_and_no_libsystemd():
    symbols = subprocess.run(["nm", "--defined-only", os.path.join(BIN, "remindctl")], capture_output=True, text=True, check=True).stdout
    # Swift's mangled module names: NIOPosix, NIOCore, GRDB.
    for module in ["8NIOPosix", "7NIOCore", "4GRDB"]:
        assert f"$s{module}" not in symbols, module
    linked = subprocess.run(["ldd", os.path.join(BIN, "remindctl")], capture_output=True, text=True, check=True).stdout
    assert "libsqlite3" not in linked and "libsystemd" not in linked, linked
    # Foundation whole (and with it ICU's 39 MB of data) is remindd's store's need, not the CLI's (#62): neither
    # loaded (remindctl links its runtime statically) nor linked in (Foundation's symbols, ICU's calendar).
    assert "swift" not in linked and "Foundation" not in linked, linked
    # Nor libstdc++ (linked in: loading it resolved 3,261 relocations at every start), and none of its own
    # symbols exported (the runtime's start scanned 9,400 of them): `remindctl --version` in 3.5 ms, not 5.
    assert "libstdc++" not in linked, linked
    exported = subprocess.run(["nm", "-D", "--defined-only", os.path.join(BIN, "remindctl")], capture_output=True, text=True, check=True).stdout
    assert "$s14RemindCommands" not in exported and len(exported.splitlines()) < 1000, len(exported.splitlines())
    assert "$s10Foundation" not in symbols and "ucal_open" not in symbols
    assert "$s20FoundationEssentials" in symbols, "the check would find Foundation's symbols if they were there"


def test_reminder_core_imports_no_foundation():
    """The pure core is pure Swift: no file of ReminderCore imports Foundation (or a part of it)."""
    imports = [f"{path.relative_to(ROOT)}: {line.strip()}" for path in (ROOT / "Sources" / "ReminderCore").rglob("*.swift")
               for line in path.read_text().splitlines() if line.startswith("import ") and "Foundation" in line]
    assert not imports, imports


def test_no_source_file_is_over_500_lines():
    """The style's bound (CONTRIBUTING.md): a file that grows past it is split where its parts meet."""
    long = [f"{path.relative_to(ROOT)}: {count}" for path in (ROOT / "Sources").rglob("*.swift")
            if (count := len(path.read_text().splitlines())) > 500]
    assert not long, long


def test_the_tests_of_a_pure_core_link_no_daemon_store_or_server():
    """The tests of a core, the wire types and the CLI link what they test: not the daemon, the store (GRDB),
    the server (NIO) or the daemon's test kit (which links all three)."""
    described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, capture_output=True, text=True,
                                          check=True, timeout=600).stdout)
    targets = {target["name"]: target for target in described["targets"]}

    def closure(name):
        target = targets[name]
        found = set(target.get("product_dependencies") or [])
        for dependency in target.get("target_dependencies") or []:
            found |= {dependency} | closure(dependency)
        return found

    heavy = {"ReminderDaemon", "ReminderDaemonTesting", "ReminderStore", "VarlinkServer", "GRDB", "NIOCore", "NIOPosix"}
    pure = ["ReminderCoreTests", "HabitCoreTests", "FitnessCoreTests", "ReminderSchedulingTests", "TimeZoneDatabaseTests",
            "ReminderInterfaceTests", "RemindCommandsTests"]
    linked = {name: sorted(closure(name) & heavy) for name in pure}
    assert all(not modules for modules in linked.values()), linked


def item(uid, modified, description):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", f"UID:{uid}", "SUMMARY:Conflict test",
             f"LAST-MODIFIED:{modified}", f"DESCRIPTION:{description}", "END:VTODO", "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def test_a_conflict_of_large_items_is_in_the_journal_whole(journald, tmp_path):
    """Two versions of about 600 KB each (an item may be 1 MiB): larger than a user's datagram may be (the send
    buffer capped by net.core.wmem_max), so the entry goes as a sealed memfd; as root, whose buffer is raised to
    8 MiB as libsystemd raises it, as one datagram (the memfd: JournalSocketTests). The journal holds the other
    version byte for byte, line breaks and all."""
    uid = f"conflict-{uuid.uuid4().hex[:8]}"
    older = item(uid, "20261126T080000Z", "older " + "x" * 600_000)
    newer = item(uid, "20261126T090000Z", "newer " + "y" * 600_000)
    (tmp_path / "a.ics").write_text(older, newline="")
    (tmp_path / "b.ics").write_text(newer, newline="")
    result = subprocess.run([os.path.join(BIN, "remindctl"), "resolve-conflict", str(tmp_path / "a.ics"), str(tmp_path / "b.ics")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "a.ics").read_bytes().decode() == newer
    def conflict_entries():
        # -a: the two versions whole (without it journalctl leaves a field over 4 KiB out).
        out = subprocess.run(["journalctl", "--no-pager", "-a", "-o", "json", f"REMINDD_ITEM_UID={uid}"], capture_output=True, text=True).stdout
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    # journald writes what it received in its own time: under the suite's load the entry was not there yet when
    # remindctl had exited (CI, once).
    entries = wait_until(conflict_entries, timeout=30)
    assert len(entries) == 1, [e.get("MESSAGE") for e in entries]
    assert entries[0]["SYSLOG_IDENTIFIER"] == "remindctl" and entries[0]["PRIORITY"] == "5"
    # journalctl shows a value with control characters (the items' CR LF) as its bytes.
    text = lambda value: bytes(value).decode() if isinstance(value, list) else value
    assert text(entries[0]["REMINDD_OTHER_VERSION"]) == older and text(entries[0]["REMINDD_KEPT_VERSION"]) == newer
