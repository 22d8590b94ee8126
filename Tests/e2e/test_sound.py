"""An announcement you hear: the real remindd plays its sound through a real PulseAudio server (a null sink, in a
runtime folder of its own, never the machine's), recorded from the sink's monitor with `parec` and measured:
a dose's alarm starts within 1 s of the firing the journal reports, and not before; its repeat plays it again;
`--sound none` plays nothing."""
import array
import math
import os
import shutil
import subprocess
import threading
import time

import pytest

from conftest import Journal, wait_until
from test_closing_the_loop import MESSAGE_FIRED, MESSAGE_REPEATED, add_soon

RATE = 16000
WINDOW = RATE // 50  # 20 ms


def start_sound_server(runtime, home):
    """PulseAudio with one null sink (remindd_test), its socket at `runtime`/pulse/native, where a client whose
    XDG_RUNTIME_DIR is `runtime` finds it; returns the process, the PULSE_SERVER value and a client's environment."""
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), HOME=str(home))
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    server = subprocess.Popen(
        ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "-n", "--log-target=stderr",
         "--load=module-null-sink sink_name=remindd_test", "--load=module-native-protocol-unix"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    address = f"unix:{runtime}/pulse/native"
    client = dict(env, PULSE_SERVER=address)
    assert wait_until(lambda: subprocess.run(["pactl", "info"], env=client, capture_output=True).returncode == 0, timeout=15), \
        server.stderr.read() if server.poll() is not None else "pulseaudio did not answer"
    return server, address, client


@pytest.fixture
def sound_server(tmp_path):
    """PulseAudio with one null sink, its socket in a private runtime folder; yields the PULSE_SERVER value."""
    runtime = tmp_path / "pulse-runtime"
    home = tmp_path / "pulse-home"
    runtime.mkdir(mode=0o700)
    home.mkdir()
    server, address, client = start_sound_server(runtime, home)
    yield address, client
    server.terminate()
    server.wait(timeout=10)


class Recording:
    """The null sink's monitor, recorded as 16 kHz mono samples. Each chunk is stamped with the wall-clock time it
    arrived (parec asks for 20 ms of latency): a sample's time is its chunk's arrival less what follows it.
    (Counting samples from the start does not work: the monitor's samples can start late, by seconds.)"""

    def __init__(self, env, path):
        self.path = path
        self.chunks = []
        self.process = subprocess.Popen(
            ["parec", "-d", "remindd_test.monitor", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1", "--latency-msec=20"],
            env=env, stdout=subprocess.PIPE)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        assert wait_until(lambda: self.chunks, timeout=10), "parec recorded nothing"

    def _read(self):
        while chunk := self.process.stdout.read1(4096):
            self.chunks.append((time.time(), chunk))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.reader.join(timeout=10)
        with open(self.path, "wb") as f:
            for _, chunk in self.chunks:
                f.write(chunk)

    def windows(self):
        """(wall-clock time, RMS from 0 to 1) of each 20 ms of the recording."""
        found, pending = [], b""
        for arrived, chunk in self.chunks:
            pending += chunk
            usable = len(pending) // (2 * WINDOW) * 2 * WINDOW
            samples = array.array("h")
            samples.frombytes(pending[:usable])
            pending = pending[usable:]
            for index in range(0, len(samples), WINDOW):
                window = samples[index:index + WINDOW]
                at = arrived - (len(samples) - index + len(pending) // 2) / RATE
                found.append((at, math.sqrt(sum(s * s for s in window) / WINDOW) / 32768))
        return found

    def onsets(self, threshold=0.01):
        """When sound begins after at least half a second of silence."""
        found, quiet = [], 25
        for at, rms in self.windows():
            if rms > threshold:
                if quiet >= 25:
                    found.append(at)
                quiet = 0
            else:
                quiet += 1
        return found

    def rms_by_sox(self, since, length):
        """sox's RMS amplitude (0 to 1) of `length` seconds of samples from the wall-clock time `since` (0: the start)."""
        times = [at for at, _ in self.windows()]
        offset = next((index for index, at in enumerate(times) if at >= since), len(times)) * WINDOW / RATE
        out = subprocess.run(["sox", "-t", "raw", "-r", str(RATE), "-e", "signed", "-b", "16", "-c", "1", str(self.path), "-n",
                              "trim", f"{offset:.3f}", f"{length:.3f}", "stat"], capture_output=True, text=True).stderr
        return float(next(line.split(":")[1] for line in out.splitlines() if line.startswith("RMS     amplitude")))


def fired_at(name, message_id, count=1):
    """When the journal says the daemon announced (its entries' own timestamps), oldest first."""
    entries = Journal().wait_for(timeout=20, count=count, REMINDER_NAME=name, MESSAGE_ID=message_id)
    assert len(entries) >= count, entries
    return sorted(int(e["__REALTIME_TIMESTAMP"]) / 1e6 for e in entries)


pytestmark = pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("parec") is None,
                                reason="pulseaudio and parec come with make test's packages")


def test_a_dose_is_heard_when_it_fires_and_again_at_its_repeat(daemon, sound_server, unique_name, tmp_path):
    address, client = sound_server
    daemon.env["PULSE_SERVER"] = address
    daemon.start()
    recording = Recording(client, tmp_path / "dose.raw")
    _, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "1", "--unit", "tablet", "--repeat", "9s", "--window", "1m", lead=4)
    fired = fired_at(unique_name, MESSAGE_FIRED)[0]
    repeated = fired_at(unique_name, MESSAGE_REPEATED)[0]
    time.sleep(max(0.0, repeated + 2.5 - time.time()))
    recording.stop()
    heard = recording.onsets()
    # Nothing before the firing (0.1 s: the recording's latency).
    assert heard and heard[0] >= fired - 0.1, (heard, fired)
    assert heard[0] <= fired + 1.0, f"the alarm started {heard[0] - fired:.2f} s after the firing"
    assert any(repeated - 0.1 <= t <= repeated + 1.0 for t in heard), (heard, repeated)
    # sox agrees: the 1.5 s after the firing hold sound (the null sink records it at about a tenth of the file's
    # level), the second before it is silent.
    assert recording.rms_by_sox(fired, 1.5) > 0.004
    assert recording.rms_by_sox(fired - 1.2, 1.0) < 0.0005
    assert not Journal().entries(_PID=daemon.process.pid, PRIORITY="4"), "a warning (a sound not played?)"


def test_a_reminder_with_sound_none_is_silent(daemon, sound_server, unique_name, tmp_path):
    address, client = sound_server
    daemon.env["PULSE_SERVER"] = address
    daemon.start()
    recording = Recording(client, tmp_path / "none.raw")
    _, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "1", "--unit", "tablet", "--sound", "none", lead=3)
    fired = fired_at(unique_name, MESSAGE_FIRED)[0]
    time.sleep(max(0.0, fired + 2.0 - time.time()))
    recording.stop()
    assert not recording.onsets()
    assert recording.rms_by_sox(0, 60) < 0.0005
    assert daemon.ctl_json("show", unique_name)["sound"] == "none"


def test_during_quiet_hours_a_reminder_is_silent_and_a_dose_rings_through(daemon, sound_server, unique_name, tmp_path):
    """quiet-hours spanning now: a reminder without a dose fires silently (the journal says quiet hours), a dose
    after it is heard within 1 s."""
    import datetime as dt
    address, client = sound_server
    now = dt.datetime.now(dt.timezone.utc)
    span = f"{(now - dt.timedelta(hours=1)):%H:%M}-{(now + dt.timedelta(hours=1)):%H:%M}"
    (daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text(f'quiet-hours = "{span}"\n')
    daemon.env["PULSE_SERVER"] = address
    daemon.start()
    recording = Recording(client, tmp_path / "quiet.raw")
    add_soon(daemon, unique_name + "-water", "--daily", "--at", "{}", lead=3)
    add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "1", "--unit", "tablet", lead=7)
    water = Journal().wait_for(timeout=20, REMINDER_NAME=unique_name + "-water", MESSAGE_ID=MESSAGE_FIRED)
    dose = fired_at(unique_name, MESSAGE_FIRED)[0]
    time.sleep(max(0.0, dose + 2.0 - time.time()))
    recording.stop()
    assert water and water[0]["REMINDER_QUIET"] == "1" and water[0]["MESSAGE"].endswith("(quiet hours: no sound)"), water
    heard = recording.onsets()
    assert heard and dose - 0.1 <= heard[0] <= dose + 1.0, (heard, dose, int(water[0]["__REALTIME_TIMESTAMP"]) / 1e6)
    assert "REMINDER_QUIET" not in Journal().entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)[0]


def test_a_spoken_reminder_is_said_aloud_through_speech_dispatcher_and_one_without_speak_is_not(daemon, sound_server, unique_name, tmp_path):
    """--speak with --sound none: speech-dispatcher (spd-say, espeak-ng) says it on the sound server within a few
    seconds of the firing (spd-say starts speech-dispatcher, which loads espeak-ng first: within 2 s); a reminder without
    --speak, also soundless, fired first, says nothing."""
    if shutil.which("spd-say") is None:
        pytest.fail("spd-say is missing: make test installs speech-dispatcher")
    address, client = sound_server
    daemon.env["PULSE_SERVER"] = address
    daemon.start()
    recording = Recording(client, tmp_path / "speech.raw")
    add_soon(daemon, unique_name + "-unspoken", "--daily", "--at", "{}", "--sound", "none", lead=3)
    reminder, _ = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "500mg", "--sound", "none", "--speak", lead=8)
    assert reminder["speak"] is True
    unspoken = fired_at(unique_name + "-unspoken", MESSAGE_FIRED)[0]
    spoken = fired_at(unique_name, MESSAGE_FIRED)[0]
    time.sleep(max(0.0, spoken + 6.0 - time.time()))
    recording.stop()
    heard = recording.onsets()
    assert recording.rms_by_sox(unspoken, spoken - unspoken - 0.2) < 0.0005, "something was heard for the reminder without --speak"
    # Measured here: 0.4 to 0.5 s (speech-dispatcher started for the sentence).
    assert heard and spoken - 0.1 <= heard[0] <= spoken + 2.0, (heard, spoken)
    assert recording.rms_by_sox(heard[0], 1.5) > 0.004
    assert not Journal().entries(_PID=daemon.process.pid, PRIORITY="4"), "a warning (speech not said?)"
