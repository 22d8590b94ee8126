"""remindctl as a Linux user meets it: --version, a mistyped command, completion of names from the running
daemon, deleting with and without a terminal."""
import os
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


def test_bash_completes_names_with_spaces_and_quotes_as_one_word_and_runs_nothing(daemon, tmp_path):
    """Interactive bash with the installed completion script, driven through a terminal: Tab must give the
    words a user means; a name that looks like a command substitution is offered only for its own prefix and
    never runs."""
    import pexpect

    daemon.start()
    ran = tmp_path / "ran"
    names = ["Evening walk", "Eve's pill", "Vitamin D", "Vitamin C", f"$(touch {ran}) x"]
    for name in names:
        daemon.ctl("add", name, "--daily", "--at", "09:00")
    script = tmp_path / "remindctl.bash"
    script.write_text(daemon.ctl("--generate-completion-script", "bash").stdout)
    env = dict(daemon.env, PATH=f"{BIN}:{os.environ['PATH']}", INPUTRC="/dev/null", PS1="$ ", HISTFILE="/dev/null")
    shell = pexpect.spawn("bash", ["--norc", "--noprofile", "-i"], env=env, encoding="utf-8", timeout=20,
                          dimensions=(50, 400))
    shell.sendline(f"source {script}; echo sour''ced")
    shell.expect_exact("sourced")

    def argv_after(*steps):
        """Types each (text, what Tab inserts) step, then runs printf on the line's words instead of remindctl."""
        for text, inserted in steps:
            shell.send(text + "\t")
            shell.expect_exact(inserted)
        shell.send("\x01printf '<%s>' \x05; echo ' en''d'\r")
        shell.expect(r"(<remindctl>.*) end")
        return shell.match.group(1)

    assert argv_after(("remindctl show Even", "ing\\ walk ")) == "<remindctl><show><Evening walk>"
    assert argv_after(("remindctl show Eve\\'", "s\\ pill ")) == "<remindctl><show><Eve's pill>"
    # A shared prefix up to the space, then the rest: the partial word is matched unescaped.
    assert argv_after(("remindctl show Vit", "amin\\ "), ("D", "D ")) == "<remindctl><show><Vitamin D>"
    assert argv_after(("remindctl show 'Evening w", "alk' ")) == "<remindctl><show><Evening walk>"
    # Tab twice lists what matches: the command-substitution look-alike matched every prefix before the fix.
    shell.send("remindctl show Eve\t\t")
    shell.expect_exact("remindctl show Eve")  # the line as typed
    shell.expect_exact("remindctl show Eve")  # and again under the list
    listed = shell.before
    assert "Evening walk" in listed and "Eve's pill" in listed and "touch" not in listed, listed
    shell.sendcontrol("c")
    shell.sendline("exit")
    shell.expect(pexpect.EOF)
    assert not ran.exists(), "completing a name ran the command substitution in it"
