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


def test_the_missed_entry_says_a_log_soon_after_the_window_takes_it_late_as_the_program_counts_it():
    """The program counts a dose logged up to `lateTakeHoursAfterWindow` after a missed occurrence's window as
    taken late; the catalog said such a log did not change the missed occurrence, in every language."""
    hours = re.search(r"lateTakeHoursAfterWindow: Int64 = (\d+)", (ROOT / "Sources" / "ReminderCore" / "LateTake.swift").read_text()).group(1)
    said = {"": f"{hours} hours after the window", ".de": f"{hours} Stunden nach dem Ende", ".fr": f"{hours} heures après la fin",
            ".es": f"{hours} horas después del cierre"}
    for suffix, words in said.items():
        text = (ROOT / "catalog" / f"remindd{suffix}.catalog").read_text()
        missed = text.split("-- a4f7c2e91b3d4e6f8a0c5d2b7e9f1364\n")[1].split("\n-- ")[0]
        assert words in " ".join(missed.split()), (suffix, missed)
        assert "--late" in missed, suffix
