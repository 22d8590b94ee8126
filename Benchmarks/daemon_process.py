"""Starting, stopping and measuring the real remindd, shared by the benchmarks."""
import json
import os
import socket
import subprocess
import time


def start(bin_dir, root, env, keep_notify=False):
    """Starts remindd; returns the process and the seconds to READY=1 (sd_notify), and the notify socket if kept."""
    notify_path = os.path.join(root, f"notify-{time.monotonic_ns()}")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(120)
    began = time.monotonic()
    process = subprocess.Popen([os.path.join(bin_dir, "remindd")], env=dict(env, NOTIFY_SOCKET=notify_path),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while b"READY=1" not in notify.recv(4096):
        pass
    ready = time.monotonic() - began
    if keep_notify:
        return process, ready, notify
    notify.close()
    return process, ready


def stop(process):
    process.terminate()
    process.wait(timeout=60)


def rss_mb(pid):
    """Resident memory of a process, in MB."""
    return resident_parts_mb(pid)["VmRSS"]


def resident_parts_mb(pid):
    """Resident memory of a process, in MB: the whole (`VmRSS`), its anonymous pages (`RssAnon`: what the process
    made) and its file pages (`RssFile`: the executable's and the libraries' pages mapped, which the kernel maps
    around each page a process touches, as many as the page cache holds)."""
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status if line.startswith(("VmRSS:", "RssAnon:", "RssFile:")))
    return {name: int(value.split()[0]) / 1024 for name, value in fields.items()}


def cpu_seconds(pid):
    """The CPU time a process has used so far (user and system), in seconds: steadier than a wall-clock figure on
    a machine whose speed moves between runs."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def context_switches(pid):
    """How many times the process's threads have given up a core so far: (waiting for something, preempted), summed
    over its threads (`/proc/PID/status` counts the main thread's alone). A count, which the machine's speed does not
    move as it moves the CPU time."""
    waited = preempted = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                fields = dict(line.split(":", 1) for line in status if "ctxt_switches" in line)
        except FileNotFoundError:  # a thread that ended since the listing
            continue
        waited += int(fields["voluntary_ctxt_switches"])
        preempted += int(fields["nonvoluntary_ctxt_switches"])
    return waited, preempted


JOURNAL_SOCKET = "/run/systemd/journal/socket"


def journal_listens():
    """Whether a journald accepts on the socket (a stopped one may leave the socket file behind)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        probe.connect(JOURNAL_SOCKET)
        return True
    except OSError:
        return False
    finally:
        probe.close()


# How many datagrams a socket's queue holds before a sender waits, as systemd's sysctl.d/50-default.conf sets it
# on every machine systemd boots (the kernel's own default is 10).
SYSTEMD_DGRAM_QUEUE = 512


def start_journald(root, queue_like_systemd=False):
    """Starts systemd-journald standalone when none listens (as the e2e harness does); returns it, or None.

    With `queue_like_systemd` (the benchmarks), its socket queues as many datagrams as on a machine systemd booted:
    journald runs in a network namespace of its own whose `net.unix.max_dgram_qlen` is 512 (a socket takes the
    value of the namespace it is made in, and a socket bound to a path is reached from every namespace), leaving
    the machine's own setting alone. On a machine without systemd as its init (this one: 10) a burst's sender waits
    for journald every tenth entry, and both sides then idle in turn."""
    if journal_listens():
        return None
    notify_path = os.path.join(root, "journald-notify")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(10)
    command = ["/lib/systemd/systemd-journald"]
    if queue_like_systemd:
        command = ["unshare", "--net", "sh", "-c", f"sysctl -qw net.unix.max_dgram_qlen={SYSTEMD_DGRAM_QUEUE} && exec {command[0]}"]
    process = subprocess.Popen(command, env=dict(os.environ, NOTIFY_SOCKET=notify_path),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while b"READY=1" not in notify.recv(4096):
        pass
    notify.close()
    return process


def varlink(path, method, parameters, more=False):
    """Calls a method; returns the seconds taken and the reply (with `more`: the list of replies)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(path)
        began = time.monotonic()
        s.sendall(json.dumps({"method": method, "parameters": parameters, "more": more}).encode() + b"\0")
        data, replies = b"", []
        while True:
            data += s.recv(1 << 20)
            *complete, data = data.split(b"\0")
            replies += [json.loads(m) for m in complete]
            if replies and not replies[-1].get("continues"):
                return time.monotonic() - began, (replies if more else replies[0])


def start_user_manager(env, runtime):
    """Starts `systemd --user` with `env` (its own HOME and XDG_RUNTIME_DIR, `runtime`); returns it once its private
    socket is there. (As root, it starts only where /run/systemd/system exists: the caller makes it.)"""
    private = runtime / "systemd" / "private"
    if private.exists():
        private.unlink()  # left by a manager before it (a login again)
    process = subprocess.Popen(["/lib/systemd/systemd", "--user"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while not private.exists():
        if process.poll() is not None or time.time() > deadline:
            raise RuntimeError("systemd --user " + ("exited" if process.poll() is not None else "did not start"))
        time.sleep(0.1)
    return process


def stop_user_manager(process, env):
    """Asks the manager to exit (its units stop), or kills it after 15 s."""
    subprocess.run(["systemctl", "--user", "exit"], env=env, capture_output=True)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
