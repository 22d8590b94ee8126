"""The adherence report with the real daemon: a dose logged ahead, one taken, and one skipped show in the figures
that remindctl and any Varlink client (the Python reference client here) read."""
import datetime as dt
import json
import os
import pathlib
import re
import shutil
import sqlite3
import subprocess
import time
import xml.etree.ElementTree as ET

import varlink
from PIL import Image

from conftest import DAY_TZINFO, DAY_ZONE, ROOT, time_of_day

ARTIFACTS = pathlib.Path(os.environ.get("REMINDD_TEST_ARTIFACTS", ROOT / ".build" / "test-artifacts"))


def test_the_report_counts_what_was_logged_and_skipped_and_a_varlink_client_reads_the_same(daemon, unique_name):
    daemon.start()
    # Two doses a few seconds ahead, on one UTC day (a run in the last seconds of a day waits for the next): the
    # first logged ahead of time, the second skipped once due. The report's days are each reminder's own (a
    # medication's day, with its times in its zone): the doses' date in DAY_ZONE.
    if 86400 - int(time.time()) % 86400 < 15:
        time.sleep(86400 - time.time() % 86400 + 1)
    now = int(time.time())
    first, second = now + 3, now + 6
    times = ",".join(time_of_day(t) for t in (first, second))
    daemon.ctl("add", unique_name, "--daily", "--at", times, "--tz", DAY_ZONE)
    daemon.ctl("log", unique_name)
    time.sleep(max(0.0, second + 1 - time.time()))
    daemon.ctl("skip", unique_name, "--reason", "travel")
    today = dt.datetime.fromtimestamp(second, DAY_TZINFO).strftime("%Y-%m-%d")
    report = json.loads(daemon.ctl("report", "--from", today, "--to", today, "--reminder", unique_name, "--json").stdout)
    figures = report["reminders"][0]
    assert (figures["due"], figures["onTime"], figures["loggedAhead"], figures["skipped"]) == (2, 1, 1, 1), figures
    assert figures["skipReasons"] == [{"reason": "travel", "count": 1}] and figures["adherence"] == 1.0
    # Each occurrence's local time: HH:MM, with its seconds when they are not zero.
    local = [t[:-3] if t.endswith(":00") else t for t in times.split(",")]
    assert figures["days"] == [{"date": today, "states": ["suppressed", "skipped"], "times": local}]
    with varlink.Client(address=f"unix:{daemon.socket_path}") as client, client.open("io.remindd.Reminders") as remote:
        reply = remote.Report(today, today, [unique_name])
    assert reply["reminders"] == report["reminders"]
    text = daemon.ctl("report", "--from", today, "--to", today, "--reminder", unique_name).stdout
    assert "100.0%" in text and "skipped: travel 1" in text, text


def test_the_pictures_show_a_known_missed_dose_in_its_colour_and_the_pdf_has_the_percentages(daemon, tmp_path):
    """Nine days of a daily dose written into the store (the daemon stopped), one of them missed: the PNG made by
    rsvg-convert has the missed colour at that day's cell (found in the SVG the same command draws), the PDF's
    text (pdftotext) has the adherence the JSON gives, the HTML page holds every picture. The PNG is kept in
    .build/test-artifacts/ to be looked at."""
    daemon.start()
    daemon.stop()
    now = int(time.time())
    today = now // 86400
    days = [today - n for n in range(9, 0, -1)]  # the nine days before today (UTC), all decided
    missed_day = days[4]
    with sqlite3.connect(daemon.state / "remindd" / "remindd.sqlite") as con:
        added = con.execute("INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES ('Metformin', ?, 'UTC', 1, ?, ?)",
                            (json.dumps({"daily": True, "at": "08:00"}), days[0] * 86400, now))
        con.executemany("INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, 'UTC')",
                        [(added.lastrowid, day * 86400 + 8 * 3600 + 600) for day in days if day != missed_day])
    daemon.start()
    daemon.ctl("profile", "set", "--name", "Ana Souza")
    first, last = (time.strftime("%Y-%m-%d", time.gmtime(d * 86400)) for d in (days[0], days[-1]))
    period = ["--from", first, "--to", last]
    figures = json.loads(daemon.ctl("report", *period, "--json").stdout)["reminders"][0]
    missed_date = time.strftime("%Y-%m-%d", time.gmtime(missed_day * 86400))
    assert (figures["due"], figures["onTime"], figures["missed"]) == (9, 8, [f"{missed_date}T08:00:00+00:00"]), figures
    percent = f"{figures['adherence'] * 100:.1f}%"
    assert percent == "88.9%"

    # Where the missed and a taken cell are: their rects in the SVG (inside a translated group).
    svg = ET.fromstring(daemon.ctl("report", *period, "--format", "svg").stdout)
    cells = {}
    for group in svg.iter("{http://www.w3.org/2000/svg}g"):
        offset = float(group.get("transform", "translate(0,0)").split(",")[1].rstrip(")"))
        for rect in group.iter("{http://www.w3.org/2000/svg}rect"):
            title = rect.find("{http://www.w3.org/2000/svg}title")
            if title is not None:
                cells[title.text] = (float(rect.get("x")) + float(rect.get("width")) / 2, float(rect.get("y")) + offset + float(rect.get("height")) / 2)
    taken_date = time.strftime("%Y-%m-%d", time.gmtime(days[3] * 86400))

    out = tmp_path / "out"
    out.mkdir()
    png_path = out / "report.png"
    daemon.ctl("report", *period, "--format", "png", "-o", str(png_path))
    image = Image.open(png_path).convert("RGB")
    scale = image.width / float(svg.get("width"))
    assert scale == 2, "drawn at twice the SVG's size"
    def colour(title):
        x, y = cells[title]
        return image.getpixel((int(x * scale), int(y * scale)))
    assert colour(f"{missed_date} 08:00: missed") == (0x7F, 0x1D, 0x1D)
    assert colour(f"{taken_date} 08:00: taken") == (0x2F, 0x9E, 0x44)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(png_path, ARTIFACTS / "report.png")

    pdf_path = out / "report.pdf"
    daemon.ctl("report", *period, "--format", "pdf", "-o", str(pdf_path))
    text = subprocess.run(["pdftotext", str(pdf_path), "-"], capture_output=True, text=True, check=True).stdout
    assert percent in text and "Metformin" in text and f"Report for Ana Souza, {first} to {last}" in text, text
    assert sorted(p.name for p in out.iterdir()) == ["report.pdf", "report.png"], "no temporary file left"

    html = daemon.ctl("report", *period, "--format", "html", "--habits").stdout
    # The header's picture, then one under each heading: the bars, the days, and the habit's four (the logs count).
    assert html.startswith("<!DOCTYPE html>") and percent in html and "src=" not in html
    assert html.count("<svg ") == html.count("<h2>") + 1 == 7, html.count("<h2>")
    # Without --habits: the bars and the days alone.
    plain = daemon.ctl("report", *period, "--format", "html").stdout
    assert plain.count("<svg ") == plain.count("<h2>") + 1 == 3, plain.count("<h2>")

    refused = daemon.ctl("report", *period, "--format", "pdf", "-o", str(out / "missing" / "report.pdf"), check=False)
    assert refused.returncode != 0 and "cannot write" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert not (out / "missing").exists()


def test_the_pdf_is_pages_a_doctor_can_read_with_every_count_the_terminal_shows(daemon):
    """A month of a twice-daily dose written into the store: some missed, some taken 2.5 h late, one skipped with a
    reason. The PDF comes in A4 pages (or Letter with --paper letter), each headed with the name and the period
    and numbered; its text (pdftotext) has the regimen and every count the terminal's report shows, and each
    missed date and time. A new user's first day is a page or two, not one 100 inches tall."""
    daemon.start()
    daemon.ctl("add", "Metformin", "--daily", "--at", "08:00,20:00", "--tz", "UTC", "--window", "2h", "--dose", "2", "--unit", "tablet")
    first_day_pdf = daemon.state / "first.pdf"
    daemon.ctl("report", "--format", "pdf", "--paper", "a4", "-o", str(first_day_pdf))
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "50", str(first_day_pdf)], capture_output=True, text=True, check=True).stdout
    assert int(re.search(r"Pages:\s+(\d+)", info).group(1)) <= 3, info
    assert all("(A4)" in line for line in info.splitlines() if re.match(r"Page\s+\d+ size:", line)), info
    metformin = daemon.ctl_json("show", "Metformin")["id"]
    daemon.stop()
    now = int(time.time())
    today = now // 86400
    days = [today - n for n in range(30, 0, -1)]
    with sqlite3.connect(daemon.state / "remindd" / "remindd.sqlite") as con:
        con.execute("UPDATE reminder SET createdAt = ? WHERE id = ?", (days[0] * 86400, metformin))
        rows = []
        for index, day in enumerate(days):
            for hour in (8, 20):
                slot = day * 86400 + hour * 3600
                if index % 7 == 3 and hour == 8 or index == 10 and hour == 20:
                    continue  # missed; skipped
                late = index % 5 == 1 and hour == 20
                rows.append((metformin, slot + (9000 if late else 600), slot if late else None, 2000))
        con.executemany("INSERT INTO intake (reminderId, at, timeZone, forScheduledAt, amount) VALUES (?, ?, 'UTC', ?, ?)", rows)
        skipped = days[10] * 86400 + 20 * 3600
        con.execute("INSERT INTO outcome (reminderId, reminderName, slot, scheduledAt, state, decidedAt, reason, confirmed) "
                    "VALUES (?, 'Metformin', '', ?, 'skipped', ?, 'travel', 1)", (metformin, skipped, skipped))
    daemon.start()
    daemon.ctl("profile", "set", "--name", "Ana Souza")
    first, last = (time.strftime("%Y-%m-%d", time.gmtime(d * 86400)) for d in (days[0], days[-1]))
    period = ["--from", first, "--to", last, "--reminder", "Metformin"]
    figures = daemon.ctl_json("report", *period)["reminders"][0]
    assert (figures["due"], figures["late"], len(figures["missed"]), figures["skipped"]) == (60, 6, 4, 1), figures
    terminal = daemon.ctl("report", *period).stdout
    for paper, size in (("a4", "(A4)"), ("letter", "(letter)")):
        pdf = daemon.state / f"report-{paper}.pdf"
        daemon.ctl("report", *period, "--format", "pdf", "--paper", paper, "-o", str(pdf))
        info = subprocess.run(["pdfinfo", "-f", "1", "-l", "50", str(pdf)], capture_output=True, text=True, check=True).stdout
        pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
        sizes = [line for line in info.splitlines() if re.match(r"Page\s+\d+ size:", line)]
        assert len(sizes) == pages and all(size in line for line in sizes), info
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        flat = " ".join(text.split())
        assert flat.count(f"Report for Ana Souza, {first} to {last}") == pages, flat
        assert all(f"Page {n} of {pages}" in flat for n in range(1, pages + 1)), flat
        assert "Regimen: 2 tablets, daily 08:00, 20:00" in flat, flat  # the plural (it said "2 tablet")
        for phrase in (f"Due {figures['due']}", f"taken on time {figures['onTime']}", f"taken late {figures['late']}",
                       f"late by {figures['lateMinutesMedian']} min median, {figures['lateMinutesP90']} min 90th percentile",
                       f"Skipped {figures['skipped']} (travel 1)", f"missed {len(figures['missed'])}", f"adherence {figures['adherence'] * 100:.1f}%"):
            assert phrase in flat, (phrase, flat)
        # Each missed date and time, as the terminal's version says it.
        missed_line = " ".join(terminal.split("missed: ", 1)[1].split("\n\n", 1)[0].split())
        for when in missed_line.split(", "):
            assert when.strip() in flat, (when, flat)


def test_the_pdfs_first_page_lists_the_as_needed_doses_and_every_dose_forced_past_a_limit(daemon):
    """#57 item 6: the doctor's PDF left the as-needed painkiller off page 1 (docs/reports.md promises it there), and
    the doses forced past its limits appeared nowhere. Yesterday's doses of ibuprofen, two of them forced: page 1
    says how many were taken and when each forced one was, with the limit it broke."""
    daemon.start()
    daemon.ctl("add", "Ibuprofen", "--as-needed", "--dose", "400", "--unit", "mg", "--min-interval", "6h", "--max-per-day", "3")
    daemon.ctl("add", "Metformin", "--daily", "--at", "08:00", "--tz", "UTC", "--dose", "500", "--unit", "mg")
    yesterday = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 86400))
    for clock, force in (("07:00", False), ("09:00", True), ("15:00", False), ("21:00", True)):
        daemon.ctl("log", "Ibuprofen", "--at", f"{yesterday}T{clock}", *(["--force"] if force else []))
    pdf = daemon.state / "report.pdf"
    daemon.ctl("report", "--format", "pdf", "-o", str(pdf))
    first_page = " ".join(subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True,
                                         check=True).stdout.split())
    assert "Taken as needed Ibuprofen: 4 doses in the period (limits: at least 6h apart, at most 3 in 24 hours)." in first_page, first_page
    assert "Doses taken past a limit (forced)" in first_page, first_page
    weekday = time.strftime("%a", time.strptime(yesterday, "%Y-%m-%d"))
    assert f"Ibuprofen: {weekday} {yesterday} 09:00: too soon: another dose at {weekday} {yesterday} 07:00 (at least 6h apart)." in first_page, first_page
    assert f"Ibuprofen: {weekday} {yesterday} 21:00: dose 4 in the 24 hours from {weekday} {yesterday} 07:00 (at most 3)." in first_page, first_page
    history = daemon.ctl("history", "--reminder", "Ibuprofen").stdout
    assert history.count("forced") == 2, history
