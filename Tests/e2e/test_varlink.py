"""The Varlink socket, spoken to by the reference Python client (PyPI `varlink`) and by raw bytes."""
import json
import os
import socket
import stat
import subprocess
import sys

import pytest
import varlink


def raw_call(path, message: bytes):
    """Sends raw bytes (one or more NUL-terminated messages); returns the first reply and whether the peer then closed."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(path)
        try:
            s.sendall(message)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and hang up before it has read everything (oversized messages)
        s.settimeout(5)
        data = b""
        while b"\0" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        reply = json.loads(data.split(b"\0")[0])
        try:
            s.settimeout(1)
            closed = s.recv(1) == b""
        except (socket.timeout, ConnectionResetError):
            closed = False
        return reply, closed


def test_python_client_getinfo_add_list(daemon, unique_name):
    daemon.start()
    with varlink.Client.new_with_address("unix:" + daemon.socket_path) as client:
        with client.open("org.varlink.service") as service:
            info = service.GetInfo()
            assert info["product"] == "remindd"
            assert info["interfaces"] == [
                "org.varlink.service", "io.remindd.Backup", "io.remindd.Fitness", "io.remindd.Habits", "io.remindd.Medication",
                "io.remindd.Reminders", "io.remindd.Routines"]
            for interface in info["interfaces"][1:]:
                description = service.GetInterfaceDescription(interface=interface)["description"]
                assert f"\ninterface {interface}\n" in description
        # Each interface answers through the generic client, with its own errors.
        with client.open("io.remindd.Fitness") as fitness:
            assert fitness.ProfileGet() == {"weightKg": 70, "weightSet": False}
            with pytest.raises(varlink.VarlinkError) as error:
                fitness.ProfileSet(weight="heavy")
            assert error.value.error() == "io.remindd.Fitness.InvalidInput"
        with client.open("io.remindd.Routines") as routines:
            assert "beginner-full-body" in [r["id"] for r in routines.List()["routines"]]
        with client.open("io.remindd.Reminders") as reminders:
            added = reminders.Add(name=unique_name, rule={"weekly": "sun", "at": "09:00"}, timeZone="America/New_York")
            assert added["reminder"]["name"] == unique_name
            assert added["reminder"]["summary"] == "weekly Sun 09:00"
            assert added["reminder"]["next"]["local"].endswith("T09:00:00-05:00") or added["reminder"]["next"]["local"].endswith("T09:00:00-04:00")
            listed = reminders.List()["reminders"]
            assert [r["name"] for r in listed] == ["Planning a rest day this week?", unique_name]
            with pytest.raises(varlink.VarlinkError) as error:
                reminders.Add(name=unique_name, rule={"daily": True, "at": "08:00"})
            assert error.value.error() == "io.remindd.Reminders.NameTaken"
            with pytest.raises(varlink.VarlinkError) as error:
                reminders.Add(name="bad", rule={"daily": True, "at": "25:00"})
            assert error.value.error() == "io.remindd.Reminders.InvalidRule"
            assert "invalid time '25:00'" in error.value.parameters()["message"]
            assert unique_name in [f["reminderName"] for f in reminders.Next(count=2)["firings"]]
    # The CLI sees what the Python client added.
    assert daemon.user_reminders() == [unique_name]


def test_protocol_errors_never_crash_or_write(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00")
    path = daemon.socket_path
    reply, _ = raw_call(path, b'{"method": "io.remindd.Reminders.Launch"}\0')
    assert reply["error"] == "org.varlink.service.MethodNotFound"
    reply, _ = raw_call(path, b'{"method": "com.example.Nope.Get"}\0')
    assert reply["error"] == "org.varlink.service.InterfaceNotFound"
    reply, _ = raw_call(path, b'{"method": "io.remindd.Reminders.Add", "parameters": {"rule": {"daily": true}}}\0')
    assert reply == {"error": "org.varlink.service.InvalidParameter", "parameters": {"parameter": "name"}}
    reply, _ = raw_call(path, b'{"method": "io.remindd.Reminders.Add", "parameters": {"name": "x", "rule": "daily"}}\0')
    assert reply["error"] == "org.varlink.service.InvalidParameter" and reply["parameters"]["parameter"] == "rule"
    reply, closed = raw_call(path, b'{"method": \0')
    assert reply["error"] == "io.remindd.Reminders.ProtocolError" and not closed
    reply, closed = raw_call(path, b"x" * ((1 << 20) + 100) + b"\0")
    assert reply["error"] == "io.remindd.Reminders.ProtocolError" and "larger than" in reply["parameters"]["reason"]
    assert closed
    reply, _ = raw_call(path, b'{"method": "io.remindd.Reminders.Watch"}\0')
    assert reply["error"] == "org.varlink.service.ExpectedMore"
    # Still alive, and nothing was written.
    assert daemon.process.poll() is None
    assert daemon.user_reminders() == [unique_name]


def test_socket_mode_and_peer_uid(daemon):
    daemon.start()
    path = daemon.socket_path
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # Let another uid reach the socket file, so that only SO_PEERCRED can refuse it.
    os.chmod(path, 0o666)
    os.chmod(os.path.dirname(path), 0o755)
    for directory in [daemon.runtime, *daemon.runtime.parents]:
        if str(directory) in ("/", "/tmp"):
            break
        os.chmod(directory, os.stat(directory).st_mode | 0o005)  # traversable by others (pytest's temp dirs are 0700)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            os.setgid(65534)
            os.setuid(65534)
            reply, _ = raw_call(path, b'{"method": "io.remindd.Reminders.List"}\0')
            os.write(write_end, json.dumps(reply).encode())
        except Exception as e:  # report anything to the parent
            os.write(write_end, json.dumps({"exception": repr(e)}).encode())
        os._exit(0)
    os.close(write_end)
    os.waitpid(pid, 0)
    reply = json.loads(os.read(read_end, 65536))
    assert reply.get("error") == "org.varlink.service.PermissionDenied", reply


def test_the_reference_generic_cli_calls_each_interface(daemon):
    """The commands the README gives for `python3 -m varlink.cli` work against the daemon."""
    daemon.start()
    address = "unix:" + daemon.socket_path
    cli = [sys.executable, "-m", "varlink.cli"]
    info = subprocess.run(cli + ["info", address], capture_output=True, text=True, timeout=30)
    assert info.returncode == 0, info.stderr
    assert "io.remindd.Habits" in info.stdout and "io.remindd.Routines" in info.stdout
    described = subprocess.run(cli + ["help", address + "/io.remindd.Habits"], capture_output=True, text=True, timeout=30)
    assert described.returncode == 0 and "method Streak()" in described.stdout
    called = subprocess.run(cli + ["call", address + "/io.remindd.Habits.Streak", "{}"], capture_output=True, text=True, timeout=30)
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["freezes"] == 0
