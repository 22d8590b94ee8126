"""A linked collection whose folder is missing, emptied or replaced deletes nothing: the real daemon, its real
journal, the folder moved away while it is stopped (a disk not mounted at boot), emptied while it runs (a sync
command that empties it), and the `collection` key pointed at a new folder and reloaded."""
import os
import pathlib
import shutil
import signal
import time

from conftest import MS_BIND, MS_RDONLY, MS_REMOUNT, in_mount_namespace, wait_until


def linked(daemon, tmp_path, unique_name):
    """A daemon linked to tmp_path/coll, with a medication and a dose logged; returns the folder and its files."""
    folder = tmp_path / "coll"
    folder.mkdir()
    (daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text(f'collection = "{folder}"\n')
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--dose", "2", "--unit", "tablet")
    daemon.ctl("log", unique_name)
    files = wait_until(lambda: sorted(p.name for p in folder.glob("*.ics")) if len(list(folder.glob("*.ics"))) >= 3 else None)
    assert files, "the reminder, the check-in and the log were not published"
    return folder, files


def held_messages(journald, daemon):
    return [e["MESSAGE"] for e in journald.entries(_PID=daemon.process.pid) if "is not used" in e["MESSAGE"]]


def test_a_folder_not_mounted_at_start_removes_nothing_and_is_used_again_when_back(daemon, journald, tmp_path, unique_name):
    folder, files = linked(daemon, tmp_path, unique_name)
    daemon.stop()
    shutil.move(folder, tmp_path / "coll.unmounted")
    daemon.start()
    assert daemon.user_reminders() == [unique_name]
    assert len(daemon.ctl_json("log", "list")) == 1
    status = daemon.ctl_json("status")
    assert status["collection"] == {"folder": str(folder), "heldBecause": "the folder does not exist"}
    assert "not used: the folder does not exist" in daemon.ctl("status").stdout
    said = wait_until(lambda: held_messages(journald, daemon))
    assert len(said) == 1 and "remindctl collection relink" in said[0], said
    assert not folder.exists()  # the daemon does not make it
    # The disk is mounted again; the daemon is restarted (or reloaded): used again, nothing doubled.
    shutil.move(tmp_path / "coll.unmounted", folder)
    daemon.process.send_signal(signal.SIGHUP)
    assert wait_until(lambda: daemon.ctl_json("status")["collection"].get("heldBecause") is None)
    assert sorted(p.name for p in folder.glob("*.ics")) == files
    assert daemon.user_reminders() == [unique_name]
    assert len(daemon.ctl_json("log", "list")) == 1


def test_a_folder_emptied_while_running_is_held_and_relink_fills_it_again(daemon, journald, tmp_path, unique_name):
    folder, files = linked(daemon, tmp_path, unique_name)
    for path in folder.glob("*.ics"):
        path.unlink()
    assert wait_until(lambda: daemon.ctl_json("status")["collection"].get("heldBecause"))
    assert daemon.user_reminders() == [unique_name]
    assert len(daemon.ctl_json("log", "list")) == 1
    assert len(wait_until(lambda: held_messages(journald, daemon))) == 1
    out = daemon.ctl("collection", "relink").stdout
    assert out == f"Relinked {folder}: {len(files)} items written back.\n"
    assert sorted(p.name for p in folder.glob("*.ics")) == files
    assert daemon.ctl_json("collection").get("heldBecause") is None
    assert len(daemon.ctl_json("log", "list")) == 1


def test_a_folder_deleted_item_by_item_slowly_is_held_and_relink_writes_every_item_back(daemon, journald, tmp_path, unique_name):
    """`rm -rf` on a busy machine: the watcher reported the first unlinks on their own (a pause over its 20 ms
    quiet), and the daemon applied them as deletions made elsewhere (one of three items is no mass removal): the
    reminder or its log was gone from the store, and relink wrote back fewer items. Deletions now wait for 3 s
    without another, and the folder gone is held whole."""
    folder, files = linked(daemon, tmp_path, unique_name)
    for path in sorted(folder.glob("*.ics")):
        path.unlink()
        time.sleep(0.5)  # each unlink seen and scanned on its own
    folder.rmdir()
    assert wait_until(lambda: daemon.ctl_json("status")["collection"].get("heldBecause") == "the folder does not exist")
    time.sleep(4)  # past the quiet: nothing was applied meanwhile
    assert daemon.user_reminders() == [unique_name]
    assert len(daemon.ctl_json("log", "list")) == 1
    removed = [e["MESSAGE"] for e in journald.entries(_PID=daemon.process.pid) if "removed on another device" in e["MESSAGE"]]
    assert not removed, removed
    folder.mkdir()
    out = daemon.ctl("collection", "relink").stdout
    assert out == f"Relinked {folder}: {len(files)} items written back.\n"
    assert sorted(p.name for p in folder.glob("*.ics")) == files


def read_only(folder):
    """For `preexec_fn`: `folder` read-only in the child's own mount namespace (as remindd's unit left a folder
    deleted and made again: `ReadWritePaths=` stayed bound to the deleted one)."""
    return in_mount_namespace((folder, folder, None, MS_BIND), (None, folder, None, MS_BIND | MS_REMOUNT | MS_RDONLY))


def test_relink_into_a_folder_remindd_cannot_write_fails_and_says_how_to_fix_it(daemon, journald, tmp_path, unique_name):
    """`collection relink` answered "0 items written back" with exit 0 while the journal said "Read-only file
    system" 32 times (#57): now it fails, says how many items were not written and how to make the folder
    writable, and nothing is removed from the store."""
    folder, files = linked(daemon, tmp_path, unique_name)
    daemon.stop()
    for path in folder.glob("*.ics"):
        path.unlink()
    daemon.start(preexec_fn=read_only(folder))
    assert wait_until(lambda: daemon.ctl_json("status")["collection"].get("heldBecause"))
    relinked = daemon.ctl("collection", "relink", check=False)
    assert relinked.returncode != 0, relinked.stdout
    assert relinked.stdout == ""
    error = relinked.stderr.strip()
    assert "\n" not in error and f"could not write {len(files)} of {len(files)} items back into {folder}" in error, error
    assert "Read-only file system" in error and "ReadWritePaths=" in error, error
    assert list(folder.iterdir()) == []
    assert daemon.ctl_json("status")["collection"].get("heldBecause"), "a folder nothing was written into is still held"
    assert daemon.user_reminders() == [unique_name]
    assert len(daemon.ctl_json("log", "list")) == 1
    # Said once, as the folder's problem (it was also logged as "the store cannot be used").
    said = wait_until(lambda: [e["MESSAGE"] for e in journald.entries(_PID=daemon.process.pid) if "could not write" in e["MESSAGE"]])
    assert len(said) == 1 and said[0].startswith("Collection could not write"), said


def test_the_collection_key_pointed_elsewhere_and_reloaded_removes_nothing(daemon, tmp_path, unique_name):
    folder, files = linked(daemon, tmp_path, unique_name)
    other = tmp_path / "other"
    other.mkdir()
    (daemon.config / "remindd" / "config.toml").write_text(f'collection = "{other}"\n')
    daemon.process.send_signal(signal.SIGHUP)
    held = wait_until(lambda: [c for c in [daemon.ctl_json("status")["collection"]] if c["folder"] == str(other) and c.get("heldBecause")])
    assert held and held[0]["heldBecause"].startswith("it holds none of the"), "a new empty folder was taken for deletions"
    assert daemon.user_reminders() == [unique_name]
    assert len(daemon.ctl_json("log", "list")) == 1
    assert list(other.iterdir()) == []


def test_a_tilde_in_the_collection_means_HOME_as_for_the_state_and_config(daemon, tmp_path):
    home = tmp_path / "home"
    (home / "coll").mkdir(parents=True)
    daemon.env["HOME"] = str(home)
    (daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text('collection = "~/coll"\n')
    daemon.start()
    assert daemon.ctl_json("status")["collection"]["folder"] == str(home / "coll")


def without_owning_others_files():
    """For `preexec_fn`: remindd runs as root without CAP_FOWNER (dropped from the bounding set, so the program
    started holds it no more), as a user does: a file another user owns may not be opened with O_NOATIME."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    PR_CAPBSET_DROP, CAP_FOWNER = 24, 3

    def enter():
        if libc.prctl(PR_CAPBSET_DROP, CAP_FOWNER, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
    return enter


def test_items_another_user_owns_are_read(daemon, tmp_path, unique_name):
    """Items are opened with O_NOATIME (a first read does not write each inode back), which only a file's owner may
    use: another user's items (a shared folder) are read without it, not refused. A second store is linked to a
    folder whose items belong to someone else; it takes the reminder and the log from them."""
    folder, files = linked(daemon, tmp_path, unique_name)
    daemon.stop()
    for path in folder.glob("*.ics"):
        os.chown(path, 65534, 65534)
    shutil.rmtree(daemon.state)  # a second device: a store of its own, the same folder
    daemon.state.mkdir()
    daemon.start(preexec_fn=without_owning_others_files())
    status = (pathlib.Path("/proc") / str(daemon.process.pid) / "status").read_text()
    effective = int(next(line.split()[1] for line in status.splitlines() if line.startswith("CapEff:")), 16)
    assert not effective & (1 << 3), "remindd still holds CAP_FOWNER"
    assert wait_until(lambda: daemon.user_reminders() == [unique_name]), daemon.user_reminders()
    assert wait_until(lambda: len(daemon.ctl_json("log", "list")) == 1)
