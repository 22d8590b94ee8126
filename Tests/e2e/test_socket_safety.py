"""The control socket cannot be hijacked through a directory another user created first."""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import BIN

NOBODY = 65534


@pytest.fixture
def shared_dir():
    """A directory other users can reach, like /tmp (pytest's own temporary directories are private)."""
    path = tempfile.mkdtemp(dir="/tmp", prefix="remindd-e2e-")
    os.chmod(path, 0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def foreign_dir(base, mode):
    path = os.path.join(base, "remindd-hijack")
    os.mkdir(path)
    os.chown(path, NOBODY, NOBODY)
    os.chmod(path, mode)
    return path


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as a second user")
def test_daemon_refuses_a_socket_directory_of_another_user(daemon, shared_dir):
    directory = foreign_dir(shared_dir, 0o777)
    daemon.start("--socket", f"{directory}/control.sock", wait=False)
    assert daemon.process.wait(timeout=10) == 1
    err = daemon.process.stderr.read().strip()
    assert err.endswith(f"the socket directory {directory} belongs to another user (uid {NOBODY}): remove it, or set XDG_RUNTIME_DIR "
                        "(a systemd session sets it), or give --socket in a directory of yours"), err
    assert not os.path.exists(f"{directory}/control.sock")


def test_daemon_makes_its_own_socket_directory_private(daemon, shared_dir):
    directory = os.path.join(shared_dir, "mine")
    os.mkdir(directory, 0o755)
    os.chmod(directory, 0o755)
    daemon.start("--socket", f"{directory}/control.sock")
    assert os.stat(directory).st_mode & 0o777 == 0o700
    assert daemon.ctl("status", "--socket", f"{directory}/control.sock").returncode == 0


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("setpriv"), reason="needs root and setpriv to act as a second user")
def test_remindctl_refuses_a_socket_served_by_another_user(shared_dir, tmp_path):
    directory = foreign_dir(shared_dir, 0o777)
    path = f"{directory}/control.sock"
    # Another user's process that answers like remindd would ("Added reminder 1").
    server = subprocess.Popen(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable, "-c",
         "import socket,sys\n"
         f"s=socket.socket(socket.AF_UNIX); s.bind({path!r}); s.listen(); print('ready', flush=True)\n"
         "c,_=s.accept(); c.recv(65536)\n"
         "c.sendall(b'{\"parameters\":{\"reminder\":{\"id\":1,\"name\":\"forged\"}}}\\0')\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().strip() == "ready"
        env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
        result = subprocess.run([str(BIN / "remindctl"), "add", "Pills", "--daily", "--at", "08:00", "--socket", path],
                                env=env, capture_output=True, text=True, timeout=20)
        assert result.returncode == 1
        assert "Added" not in result.stdout
        assert f"is served by another user's process (uid {NOBODY}), not by your remindd" in result.stderr, result.stderr
    finally:
        server.kill()
        server.wait()
