"""The CalDAV servers (Radicale, Xandikos) and vdirsyncer as the benchmarks run them, on 127.0.0.1."""
import os
import socket
import subprocess
import textwrap
import time
import uuid


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server(kind, root, log=os.devnull):
    """`kind` ("radicale": one user, alice; "xandikos": no accounts) on 127.0.0.1 with its own storage, each
    request logged to `log`; returns the process and the URL under which calendars are made."""
    port = free_port()
    if kind == "radicale":
        with open(f"{root}/users", "w") as users:
            users.write("alice:secret\n")
        command = ["radicale", "--server-hosts", f"127.0.0.1:{port}", "--storage-filesystem-folder", f"{root}/storage",
                   "--auth-type", "htpasswd", "--auth-htpasswd-filename", f"{root}/users", "--auth-htpasswd-encryption", "plain"]
        command += ["--logging-level", "info"] if log != os.devnull else []
        home = f"http://127.0.0.1:{port}/alice/"
    else:
        command = ["xandikos", "--defaults", "-d", f"{root}/storage", "-l", "127.0.0.1", "-p", str(port)]
        home = f"http://127.0.0.1:{port}/user/calendars/"
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return process, home


def requests_logged(kind, log):
    """How many requests the server logged (``server`` with a log)."""
    with open(log) as text:
        marker = " request for " if kind == "radicale" else "aiohttp.access"
        return sum(marker in line for line in text)


def calendar(home):
    """A new calendar under `home` (MKCALENDAR); returns its URL."""
    url = f"{home}{uuid.uuid4().hex[:8]}/"
    made = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-u", "alice:secret", "-X", "MKCALENDAR", url],
                          capture_output=True, text=True, timeout=30)
    assert made.stdout == "201", made
    return url


def vdirsyncer(root, folder, url):
    """A vdirsyncer configuration pairing `folder` with `url`, discovered; returns it and a function that syncs
    (and returns the seconds it took)."""
    config = f"{root}/vdirsyncer-{uuid.uuid4().hex[:6]}.conf"
    os.makedirs(f"{config}.status")
    with open(config, "w") as out:
        out.write(textwrap.dedent(f"""\
            [general]
            status_path = "{config}.status/"

            [pair remindd]
            a = "local"
            b = "server"
            collections = null
            conflict_resolution = "a wins"

            [storage local]
            type = "filesystem"
            path = "{folder}/"
            fileext = ".ics"

            [storage server]
            type = "caldav"
            url = "{url}"
            username = "alice"
            password = "secret"
            """))

    def run(*args):
        began = time.monotonic()
        done = subprocess.run(["vdirsyncer", "-c", config, *args], capture_output=True, text=True, timeout=4 * 3600)
        assert done.returncode == 0, done.stderr[-2000:]
        return time.monotonic() - began

    run("discover")
    return config, lambda: run("sync")
