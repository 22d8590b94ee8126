"""A remindd notification on a real screen: Debian's notification-daemon under Xvfb, on a private session bus.
The test saves screenshots (the artefacts a person looks at) and checks what a person would see on them: the
notification appears when the reminder fires, a repeat replaces it instead of stacking a second one, and it goes
away when the dose is taken from the command line (the server says it closed it)."""
import os
import pathlib
import subprocess
import threading
import time

import pytest
from PIL import ImageChops, ImageGrab

from conftest import ROOT, Journal, SessionBus
from test_closing_the_loop import MESSAGE_FIRED, MESSAGE_REPEATED, add_soon

NOTIFICATION_DAEMON = "/usr/lib/notification-daemon/notification-daemon"
ARTIFACTS = pathlib.Path(os.environ.get("REMINDD_TEST_ARTIFACTS", ROOT / ".build" / "test-artifacts"))


class Screen:
    """An Xvfb display with a black root window: whatever is not black is a notification."""

    def __init__(self):
        read, write = os.pipe()
        self.server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x600x24", "-nolisten", "tcp"],
                                       pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as display:
            self.display = ":" + display.readline().strip()

    def grab(self):
        return ImageGrab.grab(xdisplay=self.display)

    def wait_for(self, condition, timeout=10.0):
        """The first screenshot for which `condition` holds (the last one taken, at the timeout)."""
        deadline = time.time() + timeout
        while True:
            shot = self.grab()
            if condition(shot) or time.time() > deadline:
                return shot
            time.sleep(0.1)

    @staticmethod
    def notifications(shot):
        """How many notifications a screenshot shows: bands of rows with something drawn, black between them."""
        rows = [shot.crop((0, y, shot.width, y + 1)).getbbox() is not None for y in range(shot.height)]
        return sum(1 for above, row in zip([False, *rows], rows) if row and not above)

    def stop(self):
        self.server.terminate()
        self.server.wait(timeout=10)


@pytest.fixture
def desktop(tmp_path):
    """A screen, a session bus and notification-daemon drawing on that screen."""
    screen = Screen()
    bus = SessionBus(tmp_path, with_server=False)
    server = subprocess.Popen([NOTIFICATION_DAEMON], env=dict(os.environ, DISPLAY=screen.display, DBUS_SESSION_BUS_ADDRESS=bus.address, NO_AT_BRIDGE="1"),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    probe = ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
             "--method", "org.freedesktop.Notifications.GetServerInformation"]
    deadline = time.time() + 10
    while time.time() < deadline:
        answer = subprocess.run(probe, env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address), capture_output=True, text=True)
        if answer.returncode == 0:
            break
        time.sleep(0.1)
    assert "Notification Daemon" in answer.stdout, answer.stderr
    yield screen, bus
    server.terminate()
    server.wait(timeout=10)
    bus.stop()
    screen.stop()


def test_the_notification_on_screen_is_replaced_by_its_repeat_and_closed_when_taken(daemon, desktop, unique_name):
    screen, bus = desktop
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert screen.grab().getbbox() is None, "the screen is not empty before the reminder fires"
    daemon.env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    daemon.start()
    closings = subprocess.Popen(["dbus-monitor", "--session", "type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'"],
                                env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address), stdout=subprocess.PIPE, text=True)
    add_soon(daemon, unique_name, "--daily", "--at", "{}", "--repeat", "3s", "--repeat-max", "1", "--urgency", "critical")
    journal = Journal()
    assert journal.wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)

    shown = screen.wait_for(lambda shot: shot.getbbox() is not None)
    shown.save(ARTIFACTS / "notification.png")
    box = shown.getbbox()
    assert box is not None, "no notification appeared on the screen"
    left, top, right, bottom = box
    assert Screen.notifications(shown) == 1 and right - left > 200 and bottom - top > 60, f"not one notification with its buttons: {box}"

    assert journal.wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_REPEATED)
    repeated = screen.wait_for(lambda shot: ImageChops.difference(shot, shown).getbbox() is not None, timeout=5)
    repeated.save(ARTIFACTS / "notification-repeated.png")
    assert ImageChops.difference(repeated, shown).getbbox() is not None, "the repeat did not change the notification"
    assert Screen.notifications(repeated) == 1, "the repeat stacked a second notification instead of replacing the first"

    # notification-daemon 3.20 under Xvfb keeps drawing a bubble after CloseNotification (it does so for any
    # client: gdbus shows the same), so that it closed is read from its NotificationClosed signal, reason 3.
    daemon.ctl("done", unique_name)
    lines = []
    threading.Thread(target=lambda: lines.extend(closings.stdout), daemon=True).start()
    closed = lambda: any("member=NotificationClosed" in line and lines[i + 2].split() == ["uint32", "3"]
                         for i, line in enumerate(lines[:-2]))
    deadline = time.time() + 5
    while not closed() and time.time() < deadline:
        time.sleep(0.1)
    closings.terminate()
    assert closed(), f"no NotificationClosed with reason 3 (closed by a call): {lines}"
    warnings = [e["MESSAGE"] for e in journal.entries(_PID=str(daemon.process.pid)) if "desktop notifications" in e["MESSAGE"].lower()]
    assert not warnings, warnings
