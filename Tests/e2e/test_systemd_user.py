"""remindd as a real systemd user service: make install-user, socket activation, StatusText, the journal.

PID 1 on the test machines is not systemd; as root, `systemd --user` still starts when /run/systemd/system
exists. The test creates that directory (and removes it if it did), runs the user manager with its own
HOME, XDG_RUNTIME_DIR and XDG_CONFIG_HOME, and stops it at the end.
"""
import os
import pathlib
import shutil
import subprocess
import time
import uuid

import pytest

from conftest import ROOT, schedule_soon

MESSAGE_FIRED = "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51"


@pytest.fixture
def user_manager(journald):
    if os.geteuid() != 0:
        pytest.fail("the systemd user-service test needs root (it starts systemd --user); run make test as root")
    # Not under /tmp or /var/tmp (the checkout may be there): the service runs with PrivateTmp=yes and
    # would not see its binary.
    base = pathlib.Path("/var/lib") / f"remindd-e2e-{uuid.uuid4().hex[:8]}"
    home, runtime = base / "home", base / "runtime"
    home.mkdir(parents=True)
    runtime.mkdir(mode=0o700)
    created_marker = not os.path.isdir("/run/systemd/system")
    if created_marker:
        os.makedirs("/run/systemd/system")
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_RUNTIME_DIR": str(runtime),
           "XDG_CONFIG_HOME": str(home / ".config")}
    manager = subprocess.Popen(["/lib/systemd/systemd", "--user"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 20
        while not (runtime / "systemd" / "private").exists():
            assert manager.poll() is None, "systemd --user exited"
            assert time.time() < deadline, "systemd --user did not start"
            time.sleep(0.1)
        yield env, home
    finally:
        subprocess.run(["systemctl", "--user", "exit"], env=env, capture_output=True)
        try:
            manager.wait(timeout=15)
        except subprocess.TimeoutExpired:
            manager.kill()
        if created_marker:
            os.rmdir("/run/systemd/system")
        shutil.rmtree(base, ignore_errors=True)


def run(env, *args, check=True):
    result = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=120)
    assert not check or result.returncode == 0, f"{args}: {result.stdout}{result.stderr}"
    return result


def test_user_service_installs_starts_and_fires(user_manager, journald):
    env, home = user_manager
    install = subprocess.run(
        ["make", "-s", "install-user", "CONFIG=debug"], cwd=ROOT, env=dict(env, PATH=os.environ["PATH"]),
        capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr
    assert "systemctl --user enable --now remindd.socket" in install.stdout
    units = home / ".config" / "systemd" / "user"
    assert (units / "remindd.service").exists() and (units / "remindd.socket").exists()
    run(env, "systemd-analyze", "--user", "verify", str(units / "remindd.socket"), str(units / "remindd.service"))

    run(env, "systemctl", "--user", "daemon-reload")
    run(env, "systemctl", "--user", "enable", "--now", "remindd.socket")
    remindctl = str(home / ".local" / "bin" / "remindctl")
    name = f"svc-{uuid.uuid4().hex[:8]}"
    # The first call starts remindd.service by socket activation.
    at, instant = schedule_soon(lambda *args: run(env, remindctl, *args).stdout, name, lead=5)
    assert run(env, "systemctl", "--user", "is-active", "remindd.service").stdout.strip() == "active"
    shown = at[:5] if at.endswith(":00") else at  # times show seconds only when they are not zero
    expected = f"StatusText=2 reminders, next: {name} at {instant.strftime('%a')} {shown}"
    # The manager reads STATUS= from its notify socket when it gets to it: poll for a while.
    deadline = time.time() + 10
    while (status := run(env, "systemctl", "--user", "show", "-p", "StatusText", "remindd.service").stdout.strip()) != expected:
        assert time.time() < deadline, status
        time.sleep(0.1)

    entries = journald.wait_for(timeout=15, REMINDER_NAME=name)
    assert [e["MESSAGE_ID"] for e in entries] == [MESSAGE_FIRED]
    # Sent natively with its fields (not through stdout), from the service's cgroup. (Without systemd as
    # PID 1, journald files the root user manager's units under _SYSTEMD_UNIT rather than _SYSTEMD_USER_UNIT.)
    assert entries[0]["_TRANSPORT"] == "journal"
    assert "remindd.service" in (entries[0].get("_SYSTEMD_USER_UNIT"), entries[0].get("_SYSTEMD_UNIT"))
    # The state went where StateDirectory= put it ($STATE_DIRECTORY: ~/.config/remindd on systemd 252,
    # ~/.local/state/remindd on newer ones).
    store = pathlib.Path(run(env, remindctl, "status", "--json").stdout.split('"storePath" : "')[1].split('"')[0])
    assert store.exists() and store.parent.name == "remindd" and home in store.parents

    run(env, "systemctl", "--user", "reload", "remindd.service")
    run(env, "systemctl", "--user", "stop", "remindd.service", "remindd.socket")
    assert run(env, "systemctl", "--user", "is-active", "remindd.service", check=False).stdout.strip() == "inactive"


def test_service_sandboxing_scores_two_or_better():
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", str(ROOT / "systemd" / "remindd.service")],
                            capture_output=True, text=True)
    line = [l for l in result.stdout.splitlines() if "Overall exposure level" in l][0]
    score = float(line.split(":")[1].split()[0])
    assert score <= 2.0, line
