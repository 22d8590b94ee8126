#!/usr/bin/env python3
"""remindd-web beside the real remindd with 1,000 reminders: how long each page takes to be answered, against the
style sheet (no call to remindd) and `remindctl today` (a whole process) measured in the same run; a Take from
the page to the log recorded; and what each program does while nobody uses the pages.

Measured: the median and 90th percentile of 30 GETs of Today, Reminders, Medication and Habits over loopback
HTTP (keep-alive off: a connection each, as a browser's first request); a POST /take (a dose due now) until its
303 comes back, which remindd sends once the log is stored and written to the journal (the Done reply); the
system calls of remindd and of remindd-web over 5 s with remindd-web running and no page open (strace -c -f).
Targets (#60): a page under 50 ms with 1,000 reminders; a Take under 100 ms; 0 idle system calls for both.

Usage: web_pages.py BIN_DIR
"""
import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_process  # noqa: E402

BIN = sys.argv[1]
COUNT = 1000


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    def __init__(self, port):
        self.port, self.cookie = port, None

    def request(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Host": f"127.0.0.1:{self.port}", "Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            body = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        began = time.monotonic()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        elapsed = time.monotonic() - began
        connection.close()
        return elapsed, response, text


def idle_calls(pid, root, name):
    tracer = subprocess.Popen(["strace", "-c", "-f", "-o", f"{root}/{name}.strace", "-p", str(pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    tracer.terminate()
    tracer.wait(timeout=10)
    with open(f"{root}/{name}.strace") as f:
        total = [line for line in f.read().splitlines() if line.strip().endswith("total")]
    return int(total[0].split()[3]) if total else 0


def ms(samples, quantile=0.5):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(quantile * len(ordered)))] * 1000


def main():
    root = tempfile.mkdtemp(prefix="remindd-web-bench-")
    os.makedirs(f"{root}/run", mode=0o700)
    port = free_port()
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC",
               REMINDD_WEB_PORT=str(port))
    daemon, _ = daemon_process.start(BIN, root, env)
    socket_path = f"{root}/run/remindd/control.sock"
    for index in range(COUNT):
        at = f"{(index * 7) % 24:02d}:{index % 60:02d}"
        daemon_process.varlink(socket_path, "io.remindd.Reminders.Add",
                               {"name": f"Dose {index}", "rule": {"daily": True, "at": at}, "dose": "1", "unit": "tablet"})
    web = subprocess.Popen([os.path.join(BIN, "remindd-web")], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    web.stdout.readline()
    browser = Browser(port)
    url = urllib.parse.urlsplit(subprocess.run([os.path.join(BIN, "remindctl"), "ui", "--print"], env=env, capture_output=True, text=True,
                                               check=True).stdout.strip())
    _, login, _ = browser.request("GET", f"{url.path}?{url.query}")
    browser.cookie = login.getheader("Set-Cookie").split(";")[0]
    print(f"remindd-web with {COUNT} reminders (release build, loopback HTTP, 30 requests each)")
    for path in ("/app.css", "/", "/reminders", "/medication", "/habits"):
        samples = []
        for _ in range(30):
            elapsed, response, _ = browser.request("GET", path)
            assert response.status == 200, (path, response.status)
            samples.append(elapsed)
        print(f"  GET {path:<12} median {ms(samples):6.1f} ms, 90th percentile {ms(samples, 0.9):6.1f} ms")
    today = []
    for _ in range(10):
        began = time.monotonic()
        subprocess.run([os.path.join(BIN, "remindctl"), "today"], env=env, check=True, capture_output=True)
        today.append(time.monotonic() - began)
    print(f"  remindctl today (a whole process, the comparison): median {ms(today):6.1f} ms")

    takes = []
    for round in range(5):
        name = f"Take {round}"
        subprocess.run([os.path.join(BIN, "remindctl"), "add", name, "--in", "1s", "--dose", "1", "--unit", "tablet"], env=env, check=True,
                       capture_output=True)
        deadline = time.monotonic() + 20
        while True:
            _, _, page = browser.request("GET", "/")
            found = re.search(rf'name="reminder" value="(\d+)"><button type="submit" aria-label="Taken: {name}"', page)
            if found or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert found, f"{name} never came due"
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
        elapsed, response, _ = browser.request("POST", "/take", {"reminder": found.group(1), "csrf": csrf})
        assert response.status == 303
        takes.append(elapsed)
    print(f"  POST /take until its 303 (the log stored and journalled): median {ms(takes):6.1f} ms, slowest {max(takes) * 1000:6.1f} ms")
    print(f"  idle system calls over 5 s with no page open: remindd {idle_calls(daemon.pid, root, 'remindd')}, "
          f"remindd-web {idle_calls(web.pid, root, 'remindd-web')}")
    web.terminate()
    web.wait(timeout=10)
    daemon_process.stop(daemon)


main()
