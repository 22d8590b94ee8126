"""The journal catalog: journalctl can compile it, and it explains every MESSAGE_ID remindd sends."""
import re
import shutil
import subprocess

from conftest import ROOT


def test_catalog_compiles_and_covers_every_message_id(tmp_path):
    catalog_dir = tmp_path / "usr" / "lib" / "systemd" / "catalog"
    catalog_dir.mkdir(parents=True)
    shutil.copy(ROOT / "catalog" / "remindd.catalog", catalog_dir)
    subprocess.run(["journalctl", f"--root={tmp_path}", "--update-catalog"], check=True, capture_output=True)
    listed = subprocess.run(["journalctl", f"--root={tmp_path}", "--list-catalog"], check=True, capture_output=True, text=True).stdout
    explained = set(re.findall(r"^([0-9a-f]{32}) remindd:", listed, re.M))
    senders = [ROOT / "Sources" / "ReminderDaemon" / "Announcers" / "JournalAnnouncer.swift", ROOT / "Sources" / "RemindCommands" / "SyncCommands.swift"]
    sent = set(re.findall(r'"([0-9a-f]{32})"', "".join(path.read_text() for path in senders)))
    assert len(sent) >= 8
    assert sent == explained
