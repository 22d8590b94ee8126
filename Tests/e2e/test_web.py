"""#60 stage 1: remindd-web against the real remindd, with plain HTTP requests as a browser (or an attacker's
page) would send them: the one-time login, DNS rebinding, CSRF and Origin checks, the security headers, and a
dose due now taken from Today exactly once (checked with `remindctl log list --json`)."""
import datetime as dt
import http.client
import json
import os
import re
import socket
import stat
import subprocess
import time
import urllib.parse

import pytest

from caldav_servers import free_port
from conftest import BIN, wait_until


class Web:
    """remindd-web beside the test's remindd, on a free port, and a browser's cookie jar of one session."""

    def __init__(self, daemon):
        self.daemon = daemon
        self.port = free_port()
        self.env = dict(daemon.env, REMINDD_WEB_PORT=str(self.port))
        self.process = subprocess.Popen([str(BIN / "remindd-web")], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        assert f"http://127.0.0.1:{self.port}/" in line, (line, self.process.stderr.read() if self.process.poll() is not None else "")
        self.cookie = None

    def request(self, method, path, host=None, headers=None, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        sent = {"Host": host or f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookie and "Cookie" not in sent:
            sent["Cookie"] = self.cookie
        if body is not None:
            body = urllib.parse.urlencode(body)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        response.text = response.read().decode()
        connection.close()
        return response

    def login_url(self):
        result = subprocess.run([str(BIN / "remindctl"), "ui", "--print"], env=self.env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    def log_in(self):
        url = urllib.parse.urlsplit(self.login_url())
        response = self.request("GET", f"{url.path}?{url.query}")
        assert response.status == 303 and response.getheader("Location") == "/", (response.status, response.text)
        self.cookie = response.getheader("Set-Cookie").split(";")[0]
        return response

    def csrf(self):
        page = self.request("GET", "/")
        return re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)

    def post(self, path, fields, origin=None):
        return self.request("POST", path, headers={"Origin": origin or f"http://127.0.0.1:{self.port}"}, body=fields)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def web(daemon):
    daemon.start()
    started = Web(daemon)
    yield started
    started.stop()


def due_now(daemon, name):
    """Adds the one-off `name` (1 tablet) due in 2 s and waits until `today` says it is due."""
    daemon.ctl("add", name, "--in", "2s", "--dose", "1", "--unit", "tablet")
    def state():
        return [o["state"] for o in daemon.ctl_json("today")["occurrences"] if o["reminderName"] == name]
    assert wait_until(lambda: state() == ["due"], timeout=15), state()


def logs(daemon, name):
    return [log for log in daemon.ctl_json("log", "list") if log["reminderName"] == name]


def test_the_login_link_works_once_and_a_wrong_one_is_refused_slowly(web):
    url = urllib.parse.urlsplit(web.login_url())
    token_file = web.daemon.runtime / "remindd-web" / "login-token"
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600 and stat.S_IMODE(os.stat(token_file.parent).st_mode) == 0o700
    first = web.request("GET", f"{url.path}?{url.query}")
    assert first.status == 303
    cookie = first.getheader("Set-Cookie")
    assert all(part in cookie for part in ("HttpOnly", "SameSite=Strict", "Path=/")), cookie
    assert not token_file.exists(), "spent"
    again = web.request("GET", f"{url.path}?{url.query}")
    assert again.status == 403 and again.getheader("Set-Cookie") is None
    web.login_url()  # a token waits in the file: a guess must still not match
    began = time.monotonic()
    wrong = web.request("GET", "/login?token=" + "0" * 64)
    assert wrong.status == 403 and wrong.getheader("Set-Cookie") is None and time.monotonic() - began >= 0.9
    assert web.request("GET", "/").status == 403, "no session without a cookie"
    web.cookie = cookie.split(";")[0]
    assert web.request("GET", "/").status == 200


def test_a_page_of_another_host_is_refused_even_with_a_session(web):
    """DNS rebinding: a page at evil.example whose name now resolves to 127.0.0.1 sends Host: evil.example."""
    web.log_in()
    for host in ("evil.example", f"evil.example:{web.port}", "127.0.0.1"):
        refused = web.request("GET", "/", host=host)
        assert refused.status == 403 and "Due now" not in refused.text, host
    assert web.request("GET", "/", host=f"localhost:{web.port}").status == 200


def test_a_change_needs_the_forms_token_and_this_origin_and_changes_nothing_otherwise(web, unique_name):
    web.log_in()
    due_now(web.daemon, unique_name)
    page = web.request("GET", "/")
    assert unique_name in page.text and "Due now" in page.text
    reminder = re.search(r'name="reminder" value="(\d+)"', page.text).group(1)
    csrf = web.csrf()
    attempts = [
        ("no token", web.post("/take", {"reminder": reminder})),
        ("a wrong token", web.post("/take", {"reminder": reminder, "csrf": "0" * 64})),
        ("another origin", web.post("/take", {"reminder": reminder, "csrf": csrf}, origin="http://evil.example")),
        ("a GET", web.request("GET", f"/take?reminder={reminder}&csrf={csrf}")),
        ("a page elsewhere that hides its origin", web.request("POST", "/take", headers={"Origin": "null", "Sec-Fetch-Site": "cross-site"},
                                                              body={"reminder": reminder, "csrf": csrf})),
        ("no session", web.request("POST", "/take", headers={"Cookie": "remindd-session=" + "0" * 64, "Origin": f"http://127.0.0.1:{web.port}"},
                                   body={"reminder": reminder, "csrf": csrf})),
    ]
    for what, response in attempts:
        assert response.status in (403, 404), (what, response.status)
    assert logs(web.daemon, unique_name) == [], "nothing was taken"
    taken = web.post("/take", {"reminder": reminder, "csrf": csrf})
    assert taken.status == 303 and taken.getheader("Location") == "/"
    assert len(logs(web.daemon, unique_name)) == 1
    after = web.request("GET", "/")
    assert f'name="reminder" value="{reminder}"' not in after.text, "no longer due"
    assert re.search(rf"<td>{re.escape(unique_name)} \(1 tablet\)</td><td>taken</td>", after.text), after.text


def test_take_all_takes_each_due_dose_once(web, unique_name):
    web.log_in()
    names = [unique_name + "-a", unique_name + "-b"]
    for name in names:
        due_now(web.daemon, name)
    assert "Take all" in web.request("GET", "/").text
    assert web.post("/take-all", {"csrf": web.csrf()}).status == 303
    assert [len(logs(web.daemon, name)) for name in names] == [1, 1]
    assert "Nothing is due now." in web.request("GET", "/").text
    assert web.post("/take-all", {"csrf": web.csrf()}).status == 303
    assert [len(logs(web.daemon, name)) for name in names] == [1, 1], "a second Take all takes nothing more"


def test_every_answer_forbids_framing_and_outside_sources(web):
    answers = {"login refused": web.request("GET", "/login?token=x"), "not logged in": web.request("GET", "/")}
    web.log_in()
    answers.update({"today": web.request("GET", "/"), "style": web.request("GET", "/app.css"), "unknown": web.request("GET", "/nothing")})
    for what, response in answers.items():
        policy = response.getheader("Content-Security-Policy") or ""
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, what
        assert response.getheader("X-Frame-Options") == "DENY" and response.getheader("Referrer-Policy") == "no-referrer", what
        assert response.getheader("Access-Control-Allow-Origin") is None, what
        assert not re.search(r'(src|href|action)="(https?:)?//', response.text), what


def test_a_finished_sessions_cookie_is_refused(web):
    web.log_in()
    assert web.post("/logout", {"csrf": web.csrf()}).status == 303
    assert web.request("GET", "/").status == 403


def test_each_browser_is_answered_in_its_language(web):
    """Accept-Language among the languages remindd has (the same catalogs as remindctl's); one it has not, in
    remindd-web's own (LANG=C here: English)."""
    web.log_in()
    expected = {"de-DE,de;q=0.9,en;q=0.5": ("de", "Jetzt fällig"), "fr-FR": ("fr", "À prendre maintenant"), "es": ("es", "Pendiente ahora"),
                "en-GB,de;q=0.5": ("en", "Due now"), "nl-NL": ("en", "Due now")}
    for accepted, (language, words) in expected.items():
        page = web.request("GET", "/", headers={"Accept-Language": accepted}).text
        assert f'<html lang="{language}">' in page and words in page, (accepted, page[:600])


def test_an_as_needed_dose_taken_from_today_then_waits_its_interval(web, unique_name):
    web.log_in()
    web.daemon.ctl("add", unique_name, "--as-needed", "--dose", "400", "--unit", "mg", "--min-interval", "6h", "--max-per-day", "3")
    page = web.request("GET", "/").text
    assert f'aria-label="Take one now: {unique_name}"' in page and "3 more allowed in 24 hours" in page, page
    reminder = re.search(rf'name="reminder" value="(\d+)"><button type="submit" aria-label="Take one now: {unique_name}"', page).group(1)
    assert web.post("/take-one", {"reminder": reminder, "csrf": web.csrf()}).status == 303
    taken = logs(web.daemon, unique_name)
    assert len(taken) == 1
    page = web.request("GET", "/").text
    allowed = web.daemon.ctl_json("today")["asNeeded"][0]["allowedFromLocal"][11:16]
    assert f"next allowed at {allowed}" in page and "2 more allowed in 24 hours" in page, page
    # Too soon: refused in remindctl's words (here German ones, as the browser asks), and nothing recorded.
    said = subprocess.run([str(BIN / "remindctl"), "log", unique_name], env=dict(web.env, LANG="C"), capture_output=True, text=True).stderr
    german = {"Origin": f"http://127.0.0.1:{web.port}", "Accept-Language": "de"}
    assert web.request("POST", "/take-one", headers=german, body={"reminder": reminder, "csrf": web.csrf()}).status == 303
    assert len(logs(web.daemon, unique_name)) == 1
    notice = re.search(r'<p class="notice" role="alert">([^<]*)</p>', web.request("GET", "/", headers={"Accept-Language": "de"}).text).group(1)
    english = said.removeprefix("Error: ").strip()
    assert notice and notice != english and unique_name in notice, (notice, english)
    # The terminal's line offers --force; the page has no such option, so its line does not.
    assert "--force" in english and "--force" not in notice, (english, notice)


def test_the_stock_is_refilled_and_counted_from_the_medication_page_and_runs_low_on_today(web, unique_name):
    web.log_in()
    web.daemon.ctl("add", unique_name, "--daily", "--at", "08:00,20:00", "--dose", "1", "--unit", "tablet", "--refill-days", "7")
    page = web.request("GET", "/medication").text
    assert unique_name in page and "not counted yet" in page and 'value="add"' not in page, "counted before a pack is added"
    reminder = re.search(rf'<h2 id="stock-(\d+)">Change the stock of {unique_name}</h2>', page).group(1)
    counted = web.post("/stock", {"reminder": reminder, "amount": "20", "expires": "2099-03", "action": "set", "csrf": web.csrf()})
    assert counted.status == 303 and counted.getheader("Location") == "/medication"
    added = web.post("/stock", {"reminder": reminder, "amount": "10", "expires": "2098-01", "action": "add", "csrf": web.csrf()})
    assert added.status == 303
    stock = web.daemon.ctl_json("stock", "show", unique_name)[0]
    assert stock["left"] == 30 and [p["expires"] for p in stock["packs"]] == ["2098-01-31", "2099-03-31"], stock
    page = web.request("GET", "/medication").text
    assert "30 tablets" in page and "Done." in page and stock["through"] in page
    assert "Running low" not in web.request("GET", "/").text
    # Counted in a German way (12,5 -> 12.5): 12 doses, fewer days than the refill notice wants.
    web.post("/stock", {"reminder": reminder, "amount": "5,5", "action": "set", "csrf": web.csrf()})
    assert web.daemon.ctl_json("stock", "show", unique_name)[0]["left"] == 5.5
    today = web.request("GET", "/").text
    assert f"Running low: {unique_name}" in today and "5.5 tablets left" in today, today


def test_the_report_page_its_charts_and_the_pdf_for_the_doctor(web, unique_name, tmp_path):
    web.log_in()
    web.daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--dose", "1", "--unit", "tablet")
    web.daemon.ctl("add", unique_name + "-prn", "--as-needed", "--dose", "400", "--unit", "mg")
    web.daemon.ctl("log", unique_name + "-prn")
    page = web.request("GET", "/report")
    assert page.status == 200 and f'<th scope="row">{unique_name}</th>' in page.text, page.text[:2000]
    assert f"{unique_name}-prn (400 mg)" in page.text and "logged" in page.text, "the history lists the dose"
    period = re.search(r'src="/report.svg\?from=([0-9-]+)&amp;to=([0-9-]+)"', page.text)
    assert period, page.text
    chosen = web.request("GET", f"/report?from={period.group(1)}&to={period.group(2)}")
    assert f"{period.group(1)} to {period.group(2)}" in chosen.text
    assert web.request("GET", "/report?from=yesterday").status == 400
    svg = web.request("GET", f"/report.svg?from={period.group(1)}&to={period.group(2)}")
    assert svg.status == 200 and svg.getheader("Content-Type") == "image/svg+xml" and "<svg xmlns=\"http://www.w3.org/2000/svg\"" in svg.text, svg.text[:200]
    assert unique_name in svg.text
    assert "script" not in svg.getheader("Content-Security-Policy") and "default-src 'none'" in svg.getheader("Content-Security-Policy")
    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    connection.request("GET", f"/report.pdf?from={period.group(1)}&to={period.group(2)}", headers={"Host": f"127.0.0.1:{web.port}", "Cookie": web.cookie})
    response = connection.getresponse()
    pdf = response.read()
    assert response.status == 200 and response.getheader("Content-Type") == "application/pdf", pdf[:300]
    assert response.getheader("Content-Disposition").startswith("attachment; filename=\"remindd-report-")
    (tmp_path / "report.pdf").write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(tmp_path / "report.pdf")], capture_output=True, text=True)
    assert info.returncode == 0 and "Pages:" in info.stdout, info.stderr
    text = subprocess.run(["pdftotext", str(tmp_path / "report.pdf"), "-"], capture_output=True, text=True, check=True).stdout
    assert unique_name in text and "Summary" in text
    german = web.request("GET", "/report", headers={"Accept-Language": "de"}).text
    assert "Verlauf und Bericht" in german and "Pünktlich" in german, german[:1500]


def test_a_reminder_is_added_previewed_changed_disabled_and_deleted_from_its_pages(web, unique_name):
    web.log_in()
    form = {"name": unique_name, "at": "08:00, 20:00", "day-mon": "on", "day-thu": "on", "dose": "1,5", "unit": "tablet", "window": "2h",
            "refill-days": "10", "repeat": "10m", "repeat-max": "3", "before": "15m, 1h", "speak": "yes"}
    # The next five, from remindd's engine, as remindctl preview gives them.
    preview = web.request("GET", "/reminders/new?" + urllib.parse.urlencode({**form, "preview": "1"})).text
    expected = web.daemon.ctl_json("preview", "--weekly", "mon,thu", "--at", "08:00,20:00", "--count", "5")
    shown = re.findall(r"<li>(\w+ \d{4}-\d\d-\d\d \d\d:\d\d)</li>", preview)
    assert [s.split(" ", 1)[1] for s in shown] == [f["local"][:10] + " " + f["local"][11:16] for f in expected], (shown, expected)
    assert f'value="{unique_name}"' in preview, "the form keeps what was typed"
    # A refusal comes back on the form, with what was typed, in remindd's words.
    refused = web.post("/reminders/add", {**form, "at": "25:99", "csrf": web.csrf()})
    assert refused.status == 303 and refused.getheader("Location").startswith("/reminders/new?")
    again = web.request("GET", refused.getheader("Location")).text
    assert "25:99" in again and 'class="notice"' in again
    assert unique_name not in [r["name"] for r in web.daemon.ctl_json("list")]
    added = web.post("/reminders/add", {**form, "csrf": web.csrf()})
    assert added.status == 303 and added.getheader("Location") == "/reminders"
    stored = next(r for r in web.daemon.ctl_json("list") if r["name"] == unique_name)
    assert stored["rule"]["weekly"] == "mon,thu" and stored["rule"]["at"] == "08:00,20:00" and stored["windowSeconds"] == 7200
    assert stored["dose"] == 1.5 and stored["unit"] == "tablet", stored
    assert (stored["refillDays"], stored["repeatSeconds"], stored["repeatMax"], stored["beforeMinutes"], stored["speak"]) == (10, 600, 3, [15, 60], True), stored
    listing = web.request("GET", "/reminders").text
    assert f"{unique_name} (1.5 tablets)" in listing and "weekly" in listing
    edit = web.request("GET", f"/reminders/edit?reminder={stored['id']}").text
    assert 'value="08:00, 20:00"' in edit and 'name="day-thu" checked' in edit and 'value="1.5"' in edit
    assert 'name="repeat" value="10m"' in edit and 'name="before" value="15m, 1h"' in edit and '<option value="yes" selected>' in edit
    changed = web.post("/reminders/update", {"reminder": stored["id"], "name": unique_name, "at": "09:30", "dose": "2", "unit": "tablet", "csrf": web.csrf()})
    assert changed.status == 303 and changed.getheader("Location") == "/reminders"
    stored = web.daemon.ctl_json("show", unique_name)
    assert stored["rule"].get("daily") is True and stored["rule"]["at"] == "09:30" and stored["dose"] == 2, stored
    assert "repeatSeconds" not in stored and "beforeMinutes" not in stored, "emptied on the form: cleared"
    assert web.post("/reminders/disable", {"reminder": stored["id"], "csrf": web.csrf()}).status == 303
    assert web.daemon.ctl_json("show", unique_name)["enabled"] is False
    confirm = web.request("GET", f"/reminders/delete?reminder={stored['id']}").text
    assert f"Delete {unique_name}?" in confirm
    assert unique_name in [r["name"] for r in web.daemon.ctl_json("list")], "asking deletes nothing"
    assert web.post("/reminders/remove", {"reminder": stored["id"], "csrf": web.csrf()}).status == 303
    assert unique_name not in [r["name"] for r in web.daemon.ctl_json("list")]


def test_a_preset_and_a_medication_when_needed_with_its_limits_are_added_and_changed_from_the_form(web, unique_name):
    """#60: the form sets a preset (from the first time and day) or when needed, and the limits of a dose; the
    Medication page shows the limits and leads to the form that changes them."""
    web.log_in()
    preset = {"name": unique_name, "how": "Weekly", "at": "09:30", "first-day": "2030-01-07", "csrf": web.csrf()}
    assert web.post("/reminders/add", preset).status == 303
    stored = web.daemon.ctl_json("show", unique_name)
    assert stored["rule"] == {"preset": "Weekly", "start": "2030-01-07T09:30"}, stored["rule"]
    assert stored["next"]["local"].startswith("2030-01-07T09:30"), stored["next"]
    edit = web.request("GET", f"/reminders/edit?reminder={stored['id']}").text
    assert '<option value="Weekly" selected>' in edit and 'name="first-day" value="2030-01-07"' in edit and 'name="at" value="09:30"' in edit
    needed = f"{unique_name}-prn"
    fields = {"name": needed, "how": "as-needed", "dose": "400", "unit": "mg", "min-interval": "6h", "max-per-day": "3", "csrf": web.csrf()}
    assert web.post("/reminders/add", fields).status == 303
    stored = web.daemon.ctl_json("show", needed)
    assert stored["rule"] == {"asNeeded": True} and (stored["minIntervalSeconds"], stored["maxPerDay"]) == (21600, 3), stored
    medication = web.request("GET", "/medication").text
    row = re.search(rf"<tr><td>{re.escape(needed)}</td>.*?</tr>", medication).group(0)
    assert "at least 6h apart, at most 3 in 24 hours" in row and f'href="/reminders/edit?reminder={stored["id"]}"' in row, row
    # A maximum that is not a number is said on the form, and nothing changes.
    refused = web.post("/reminders/update", {**fields, "reminder": stored["id"], "max-per-day": "three"})
    assert "three is not a whole number" in web.request("GET", refused.getheader("Location")).text
    assert web.daemon.ctl_json("show", needed)["maxPerDay"] == 3
    # Emptied on the form: no limit.
    assert web.post("/reminders/update", {**fields, "reminder": stored["id"], "min-interval": "", "max-per-day": "2"}).status == 303
    stored = web.daemon.ctl_json("show", needed)
    assert "minIntervalSeconds" not in stored and stored["maxPerDay"] == 2 and stored["rule"] == {"asNeeded": True}, stored
    assert "at most 2 in 24 hours" in web.request("GET", "/medication").text
    german = web.request("GET", f"/reminders/edit?reminder={stored['id']}", headers={"Accept-Language": "de"}).text
    assert "Bei Bedarf" in german and "Zweimal täglich" in german, german[:2000]


def test_whom_a_medicine_is_for_is_set_on_the_form_and_said_on_every_page(web, unique_name):
    """#60 with #59's people: a caregiver's pages name whom each medicine is for ("Anna: Amoxicillin") on
    Today, Reminders, Medication and History, as remindctl does; the form sets it and, emptied, makes it yours."""
    web.log_in()
    fields = {"name": unique_name, "at": "08:00", "dose": "1", "unit": "tablet", "for": "Anna", "csrf": web.csrf()}
    assert web.post("/reminders/add", fields).status == 303
    stored = web.daemon.ctl_json("show", unique_name)
    assert stored["person"] == "Anna", stored
    assert f"Anna: {unique_name}" in web.request("GET", "/reminders").text
    web.daemon.ctl("stock", "set", unique_name, "20")
    assert f"<td>Anna: {unique_name}</td>" in web.request("GET", "/medication").text
    edit = web.request("GET", f"/reminders/edit?reminder={stored['id']}").text
    assert 'name="for" value="Anna"' in edit
    due = f"{unique_name}-now"
    web.daemon.ctl("add", due, "--in", "2s", "--dose", "1", "--unit", "tablet", "--for", "Ben")
    assert wait_until(lambda: [o["state"] for o in web.daemon.ctl_json("today")["occurrences"] if o["reminderName"] == due] == ["due"], timeout=15)
    today = web.request("GET", "/").text
    assert f"Ben: {due}" in today and f'aria-label="Taken: Ben: {due}"' in today, today
    assert web.post("/take", {"reminder": str(web.daemon.ctl_json("show", due)["id"]), "csrf": web.csrf()}).status == 303
    assert f"Ben: {due}" in web.request("GET", "/report").text
    # Emptied on the form: the user's own again.
    assert web.post("/reminders/update", {**fields, "reminder": stored["id"], "for": ""}).status == 303
    assert "person" not in web.daemon.ctl_json("show", unique_name)
    assert f"Anna: {unique_name}" not in web.request("GET", "/reminders").text


def test_a_reminder_is_paused_with_dates_and_resumed_from_its_page(web, unique_name):
    """#60 with #59's pauses: Pause on the Reminders page asks from, until and why; the list then says until
    when, and Resume ends it; a pause remindd refuses is said on the pause's page and changes nothing."""
    web.log_in()
    web.daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--dose", "1", "--unit", "tablet")
    reminder = web.daemon.ctl_json("show", unique_name)["id"]
    assert f'href="/reminders/pause?reminder={reminder}"' in web.request("GET", "/reminders").text
    form = web.request("GET", f"/reminders/pause?reminder={reminder}").text
    assert 'name="until" type="date" required' in form and 'action="/reminders/pause"' in form, form
    today = dt.date.fromisoformat(web.daemon.ctl_json("today")["date"])
    until = (today + dt.timedelta(days=3)).isoformat()
    # A pause wholly in the past: refused with remindd's words, on the pause's page.
    refused = web.post("/reminders/pause", {"reminder": reminder, "from": "2001-01-01", "until": "2001-01-02", "csrf": web.csrf()})
    assert refused.getheader("Location") == f"/reminders/pause?reminder={reminder}"
    assert 'role="alert"' in web.request("GET", refused.getheader("Location")).text
    assert "pauses" not in web.daemon.ctl_json("show", unique_name)
    assert web.post("/reminders/pause", {"reminder": reminder, "until": until, "reason": "hospital", "csrf": web.csrf()}).status == 303
    pauses = web.daemon.ctl_json("show", unique_name)["pauses"]
    assert len(pauses) == 1 and pauses[0]["reason"] == "hospital", pauses
    listed = web.request("GET", "/reminders").text
    row = re.search(rf"<tr><th scope=\"row\">{re.escape(unique_name)}.*?</tr>", listed).group(0)
    assert "paused until" in row and until in row and 'action="/reminders/resume"' in row, row
    assert web.post("/reminders/resume", {"reminder": reminder, "csrf": web.csrf()}).status == 303
    def row():
        return re.search(rf"<tr><th scope=\"row\">{re.escape(unique_name)}.*?</tr>", web.request("GET", "/reminders").text).group(0)
    assert "paused" not in row() and f'href="/reminders/pause?reminder={reminder}"' in row(), row()
    # One ahead is said with its start, and Resume removes it.
    ahead = (today + dt.timedelta(days=2)).isoformat()  # two days on: a midnight during the test leaves it ahead
    ended = web.daemon.ctl_json("show", unique_name).get("pauses", [])
    assert web.post("/reminders/pause", {"reminder": reminder, "from": ahead, "until": until, "csrf": web.csrf()}).status == 303
    assert "paused from" in row() and ahead in row(), row()
    assert web.post("/reminders/resume", {"reminder": reminder, "csrf": web.csrf()}).status == 303
    assert web.daemon.ctl_json("show", unique_name).get("pauses", []) == ended, "the one ahead is gone, the ended one stays"
    assert "paused" not in row(), row()


def test_a_german_unit_typed_on_the_form_is_stored_as_remindd_names_it(web, unique_name):
    web.log_in()
    fields = {"name": unique_name, "at": "08:00", "dose": "2", "unit": "Tabletten", "csrf": web.csrf()}
    response = web.request("POST", "/reminders/add", headers={"Origin": f"http://127.0.0.1:{web.port}", "Accept-Language": "de"}, body=fields)
    assert response.status == 303
    assert web.daemon.ctl_json("show", unique_name)["unit"] == "tablet"


def test_the_habits_page_shows_the_month_and_marks_a_rest_day(web):
    web.log_in()
    calendar = web.daemon.ctl_json("calendar")
    page = web.request("GET", "/habits").text
    assert "Streak: " in page and "Habit strength: " in page and 'aria-current="date"' in page, page[:2000]
    assert page.count("<td") >= len(calendar["days"])
    tomorrow = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1)).strftime("%Y-%m-%d")
    marked = web.post("/habits/rest", {"date": tomorrow, "reason": "travel", "csrf": web.csrf()})
    assert marked.status == 303 and marked.getheader("Location") == "/habits"
    assert tomorrow in [day["date"] for day in web.daemon.ctl_json("rest", "list")], "marked in remindd"
    month = tomorrow[:7]
    shown = web.request("GET", f"/habits?month={month}").text
    assert re.search(r'<td class="planned"><span class="day">\d+</span> <span class="state">rest planned</span>', shown) and "Done." in shown, shown


def test_a_long_list_of_reminders_comes_a_page_at_a_time(web, unique_name):
    web.log_in()
    socket_path = web.daemon.socket_path
    for index in range(101):
        add = {"method": "io.remindd.Reminders.Add", "parameters": {"name": f"{unique_name}-{index:03d}", "rule": {"daily": True, "at": "09:00"},
                                                             "dose": "1", "unit": "tablet"}}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(socket_path)
            connection.sendall(json.dumps(add).encode() + b"\0")
            assert b"error" not in connection.recv(65536)
    first = web.request("GET", "/reminders").text
    assert first.count('<th scope="row">') == 100
    following = re.search(r'<a href="/reminders\?after=(\d+)">More reminders</a>', first)
    assert following, "a link to the rest"
    rest = web.request("GET", f"/reminders?after={following.group(1)}").text
    assert rest.count('<th scope="row">') == 102 - 100 and "More reminders" not in rest
    # Medication the same way: 100 on the first page, the 101st on the next, each once.
    first = web.request("GET", "/medication").text
    names = re.findall(rf"<tr><td>({unique_name}-\d+)</td>", first)
    following = re.search(r'<a href="/medication\?after=(\d+)">More medications</a>', first)
    assert len(names) == 100 and following, len(names)
    rest = re.findall(rf"<tr><td>({unique_name}-\d+)</td>", web.request("GET", f"/medication?after={following.group(1)}").text)
    assert sorted(names + rest) == [f"{unique_name}-{index:03d}" for index in range(101)]
    assert web.request("GET", "/reminders/edit?reminder=999999").status == 400, "a reminder that is not there, said so"
