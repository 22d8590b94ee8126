"""remindctl as a Linux user meets it: --version, a mistyped command, completion of names from the running
daemon, deleting with and without a terminal."""
import subprocess

from conftest import BIN


def test_version_on_both_binaries():
    for binary in ["remindctl", "remindd"]:
        result = subprocess.run([str(BIN / binary), "--version"], capture_output=True, text=True, timeout=30)
        assert result.returncode == 0 and result.stdout.startswith(binary + " 0."), result


def test_a_mistyped_command_gets_the_nearest_one_and_exit_status_64():
    result = subprocess.run([str(BIN / "remindctl"), "stauts"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 64
    assert result.stderr == "Error: unknown command 'stauts': did you mean 'remindctl status'?\n"


def test_completion_offers_reminder_names_exercise_ids_and_routine_ids(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "09:00")

    def complete(*words):
        # argument-parser's completion protocol, as the generated bash/zsh/fish scripts call it.
        return daemon.ctl("---completion", *words).stdout.splitlines()

    assert unique_name in complete("show", "--", "positional@0", "2", "0")
    assert "running" in complete("workout", "add", "--", "positional@0", "3", "0")
    assert "beginner-full-body" in complete("routine", "show", "--", "positional@0", "3", "0")


def test_delete_goes_on_without_a_terminal_and_remove_is_its_old_name(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "09:00")
    assert daemon.ctl("delete", unique_name).stdout == f"Deleted {unique_name}\n"
    daemon.ctl("add", unique_name, "--daily", "--at", "09:00")
    old = daemon.ctl("remove", unique_name)
    assert old.stderr == "remindctl: 'remove' is now 'delete'; the old name goes in the next release\n"
    assert unique_name not in daemon.user_reminders()
