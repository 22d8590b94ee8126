"""remindctl as a Linux user meets it: --version, a mistyped command, completion of names from the running
daemon, deleting with and without a terminal."""
import os
import subprocess

import pytest

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
    # Option values too: what the bash script asks for `remindctl add X --tz Europe/Ber<Tab>` and the others.
    assert complete("add", "--", "--tz", "4", "10", "remindctl", "add", "X", "--tz", "Europe/Ber") == ["Europe/Berlin"]
    assert "Twice a Day" in complete("add", "--", "--preset", "4", "0", "remindctl", "add", "X", "--preset", "")
    assert "Busy Day" in complete("rest", "mark", "--", "--reason", "5", "0", "remindctl", "rest", "mark", "2026-11-24", "--reason", "")


def test_the_scripts_complete_the_values_of_urgency_and_report_format(remindctl):
    """The values an option takes from a fixed list are in the generated scripts (fish's, one line per option)."""
    fish = subprocess.run([remindctl, "--generate-completion-script", "fish"], capture_output=True, text=True).stdout
    lines = {line.split("-l '")[1].split("'")[0] + "@" + line.split('"')[1]: line for line in fish.splitlines() if "-l '" in line and '"' in line}
    for option, command, values in [("urgency", "remindctl add", "normal critical auto"), ("urgency", "remindctl update", "normal critical auto"),
                                    ("format", "remindctl report", "text svg png pdf html")]:
        assert lines[f"{option}@{command}"].endswith(f"-rfka '{values}'"), lines.get(f"{option}@{command}")


def test_delete_goes_on_without_a_terminal_and_remove_is_its_old_name(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "09:00")
    added = daemon.ctl_json("show", unique_name)
    assert daemon.ctl("delete", unique_name).stdout == f"Deleted reminder {added['id']}: {unique_name}\n"
    daemon.ctl("add", unique_name, "--daily", "--at", "09:00")
    old = daemon.ctl("remove", unique_name)
    assert old.stderr == "remindctl: 'remove' is now 'delete'; the old name goes in the next release\n"
    assert unique_name not in daemon.user_reminders()


def interactive_shell(shell, daemon, tmp_path, names):
    """An interactive bash or zsh with remindctl's completion script installed as a user installs it, on a
    terminal (pexpect), remindctl on its PATH talking to `daemon`, which is started with reminders `names`."""
    import pexpect

    daemon.start()
    for name in names:
        daemon.ctl("add", name, "--daily", "--at", "09:00")
    script = daemon.ctl("--generate-completion-script", shell).stdout
    env = dict(daemon.env, PATH=f"{BIN}:{os.environ['PATH']}", INPUTRC="/dev/null", HISTFILE="/dev/null", ZDOTDIR=str(tmp_path))
    if shell == "bash":
        (tmp_path / "remindctl.bash").write_text(script)
        (tmp_path / "bashrc").write_text(f"PS1='$ '\nsource {tmp_path / 'remindctl.bash'}\n")
        args = ["--noprofile", "--rcfile", str(tmp_path / "bashrc"), "-i"]
    elif shell == "fish":
        # fish loads completions/remindctl.fish from its config directory when remindctl is first completed.
        (tmp_path / "fish" / "completions").mkdir(parents=True)
        (tmp_path / "fish" / "completions" / "remindctl.fish").write_text(script)
        env.update(XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))  # and its history goes there
        args = ["-i"]
    else:
        (tmp_path / "functions").mkdir()
        (tmp_path / "functions" / "_remindctl").write_text(script)
        (tmp_path / ".zshrc").write_text(f"fpath=({tmp_path / 'functions'} $fpath)\nautoload -Uz compinit && compinit -u -d {tmp_path / 'zcompdump'}\nPS1='$ '\n")
        args = ["-i"]
    terminal = pexpect.spawn(shell, args, env=env, encoding="utf-8", timeout=20, dimensions=(50, 400))
    terminal.sendline("echo rea''dy")
    terminal.expect_exact("ready")
    return terminal


def words_after(terminal, keys):
    """Types `keys` (Tab included) on the command line, then runs printf on the line's words instead of
    remindctl. The shell reads keys in order, so each Tab's completion is in place before the next key."""
    terminal.send(keys + "\x01printf '<%s>' \x05; echo ' en''d'\r")
    terminal.expect(r"(<remindctl>.*) end")
    return terminal.match.group(1)


def test_bash_completes_names_with_spaces_and_quotes_as_one_word_and_runs_nothing(daemon, tmp_path):
    """Interactive bash with the installed completion script, driven through a terminal: Tab must give the
    words a user means; a name that looks like a command substitution is offered only for its own prefix and
    never runs."""
    import pexpect

    ran = tmp_path / "ran"
    shell = interactive_shell("bash", daemon, tmp_path, ["Evening walk", "Eve's pill", "Vitamin D", "Vitamin C", f"$(touch {ran}) x"])
    assert words_after(shell, "remindctl show Even\t") == "<remindctl><show><Evening walk>"
    assert words_after(shell, "remindctl show Eve\\'\t") == "<remindctl><show><Eve's pill>"
    # A shared prefix up to the space, then the rest: the partial word is matched unescaped.
    assert words_after(shell, "remindctl show Vit\tD\t") == "<remindctl><show><Vitamin D>"
    assert words_after(shell, "remindctl show 'Evening w\t") == "<remindctl><show><Evening walk>"
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


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_complete_names_with_colons_spaces_and_quotes(shell, daemon, tmp_path):
    """Interactive zsh (with compinit) and fish with the installed completion scripts. zsh's `_describe` reads
    `name:text` with backslash escapes, so `Meds: morning` completed as `Meds` and `back\\slash` as `backslash`
    before the fix; fish takes the names as they are."""
    shell = interactive_shell(shell, daemon, tmp_path, ["Meds", "Meds: morning", "Evening walk", "Eve's pill", "back\\slash"])
    assert words_after(shell, "remindctl show Meds:\t") == "<remindctl><show><Meds: morning>"
    assert words_after(shell, "remindctl show Even\t") == "<remindctl><show><Evening walk>"
    assert words_after(shell, "remindctl show Eve\\'\t") == "<remindctl><show><Eve's pill>"
    assert words_after(shell, "remindctl show back\t") == "<remindctl><show><back\\slash>"
