"""A `systemd --user` manager of the tests' own (HOME and XDG_RUNTIME_DIR of its own) and what the tests under it
share: `make install-user` into its home, commands in its environment, a server that records what hooks post.

PID 1 on the test machines is not systemd; as root, `systemd --user` still starts when /run/systemd/system
exists. The fixture creates that directory (and removes it if it did), runs the user manager, and stops it at
the end.
"""
import os
import pathlib
import shutil
import subprocess
import time
import uuid

import pytest

from conftest import ROOT
from daemon_process import start_user_manager, stop_user_manager


class UserManager:
    """A `systemd --user` manager with its own HOME and XDG_RUNTIME_DIR; `relogin()` stops it and starts a
    new one on the same directories, as a logout and a login do."""

    def __init__(self, base):
        self.home, self.runtime = base / "home", base / "runtime"
        self.home.mkdir(parents=True)
        self.runtime.mkdir(mode=0o700)
        self.env = {"PATH": os.environ["PATH"], "HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.runtime),
                    "XDG_CONFIG_HOME": str(self.home / ".config")}
        self.process = None

    def start(self):
        self.process = start_user_manager(self.env, self.runtime)

    def stop(self):
        stop_user_manager(self.process, self.env)

    def relogin(self):
        self.stop()
        self.start()


@pytest.fixture
def user_manager(journald):
    if os.geteuid() != 0:
        pytest.fail("the systemd user-service test needs root (it starts systemd --user); run make test as root")
    # Not under /tmp or /var/tmp (the checkout may be there): the service runs with PrivateTmp=yes and
    # would not see its binary.
    base = pathlib.Path("/var/lib") / f"remindd-e2e-{uuid.uuid4().hex[:8]}"
    created_marker = not os.path.isdir("/run/systemd/system")
    if created_marker:
        os.makedirs("/run/systemd/system")
    manager = UserManager(base)
    try:
        manager.start()
        yield manager
    finally:
        manager.stop()
        if created_marker:
            os.rmdir("/run/systemd/system")
        shutil.rmtree(base, ignore_errors=True)


def install(env):
    result = subprocess.run(
        ["make", "-s", "install-user", "CONFIG=debug"], cwd=ROOT, env=dict(env, PATH=os.environ["PATH"]),
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def files_under(root):
    """Every file and folder under `root`, as relative paths."""
    return {str(path.relative_to(root)) for path in pathlib.Path(root).rglob("*")}


def run(env, *args, check=True):
    result = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=120)
    assert not check or result.returncode == 0, f"{args}: {result.stdout}{result.stderr}"
    return result


def make_database(env, home, state_dir, reminder):
    """Runs the installed remindd by hand on `state_dir` (its own socket), adds `reminder`, and stops it."""
    socket_path = str(home / "by-hand.sock")
    daemon = subprocess.Popen([str(home / ".local" / "bin" / "remindd"), "--state-dir", str(state_dir), "--socket", socket_path],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    remindctl = [str(home / ".local" / "bin" / "remindctl"), "add", reminder, "--daily", "--at", "08:00", "--disabled"]
    deadline = time.time() + 20
    while subprocess.run(remindctl, env=dict(env, REMINDD_SOCKET=socket_path), capture_output=True).returncode != 0:
        assert daemon.poll() is None and time.time() < deadline, daemon.stderr.read() if daemon.poll() is not None else "no socket"
        time.sleep(0.1)
    daemon.terminate()
    assert daemon.wait(timeout=15) == 0


def thread_nice_values(pid):
    """The nice value of each of a process's threads (field 19 of /proc/PID/task/TID/stat)."""
    values = []
    for stat in pathlib.Path(f"/proc/{pid}/task").glob("*/stat"):
        fields = stat.read_text().rsplit(")", 1)[1].split()
        values.append(int(fields[16]))
    return values


class RecordingHTTPServer:
    """An HTTP server on 127.0.0.1 that records each POST's path and body (what ntfy.sh would get)."""

    def __init__(self):
        import http.server
        import threading
        posts = self.posts = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                posts.append((self.path, self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for_post(self, timeout):
        deadline = time.time() + timeout
        while not self.posts and time.time() < deadline:
            time.sleep(0.1)
        return self.posts

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def process_running(text):
    return subprocess.run(["pgrep", "-f", text], capture_output=True).returncode == 0


def readme_quick_start():
    """The commands of the README's first steps (its block under "Quick start"), comments off."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]
