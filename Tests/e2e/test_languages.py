"""remindd in the user's language (gettext): a daemon whose environment says LANG=de_DE.UTF-8 shows its
notification and writes its journal MESSAGE in German, with the journal's fields as in every language;
remindctl follows its own shell's language; the catalog explains in German. The locales are made with localedef
into a folder of the test's own (LOCPATH), as a machine with `locales` installed would have them.

Also here: the checks of the message tables and their translations (po/): the template lists every message of
the tables, and msgfmt refuses a translation whose arguments do not match its message."""
import datetime as dt
import os
import re
import shutil
import struct
import subprocess

import pytest

from conftest import BIN, DAY_TZINFO, DAY_ZONE, ROOT, Journal, wait_until
from test_closing_the_loop import MESSAGE_ACKNOWLEDGED, MESSAGE_FIRED, add_soon

LANGUAGES = {"de": "de_DE", "fr": "fr_FR", "es": "es_ES"}
# A locale remindd has no translation for.
UNTRANSLATED = "it_IT"


@pytest.fixture(scope="module")
def locales(tmp_path_factory):
    """A LOCPATH holding de_DE.UTF-8, fr_FR.UTF-8, es_ES.UTF-8 and it_IT.UTF-8, compiled from glibc's sources
    (package locales)."""
    folder = tmp_path_factory.mktemp("locales")
    for name in [*LANGUAGES.values(), UNTRANSLATED]:
        subprocess.run(["localedef", "-i", name, "-f", "UTF-8", str(folder / f"{name}.UTF-8")], check=True, capture_output=True)
    return folder


def in_language(env, locales, name):
    """`env` with the language `name` (`de_DE`) and nothing that would override it."""
    env = {k: v for k, v in env.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_TIME")}
    return dict(env, LANG=f"{name}.UTF-8", LOCPATH=str(locales))


def local_names(locales, name, instant, form, zone="UTC"):
    """What glibc's `date` says for `instant` in `zone` in the locale `name` (`%a`: the short weekday): the oracle
    for the names remindd takes from LC_TIME."""
    return subprocess.run(["date", "-d", f"@{int(instant.timestamp())}", f"+{form}"], check=True, capture_output=True, text=True,
                          env=dict(os.environ, LC_ALL=f"{name}.UTF-8", LOCPATH=str(locales), TZ=zone)).stdout.strip()


def test_a_german_daemon_notifies_and_journals_in_german_with_the_same_fields(daemon, session_bus, locales, unique_name):
    daemon.env = in_language(daemon.env, locales, "de_DE")
    daemon.env["DBUS_SESSION_BUS_ADDRESS"] = session_bus.address
    daemon.start()
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "2", "--unit", "tablet")
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name)
    assert shown, session_bus.calls
    # In the reminder's zone; remindd shows a time's seconds only when they are not zero (add_soon's instant is to
    # the second).
    local = instant.astimezone(DAY_TZINFO)
    rid, weekday = reminder["id"], local_names(locales, "de_DE", instant, "%a", zone=DAY_ZONE)
    clock = local.strftime("%H:%M" if local.second == 0 else "%H:%M:%S")
    # The spec-written server's record: the summary is the name, the body and the buttons German.
    assert shown[0]["actions"] == [f"taken:{rid}", "Genommen", f"snooze:{rid}/10", "Schlummern 10 Min.", f"skip:{rid}", "Auslassen"]
    # The unit in German too (it said "2 tablets" inside German text); the journal's fields keep the stored unit.
    assert shown[0]["body"] == f"Nehmen Sie 2 Tabletten. Täglich, {weekday} {clock}"

    fired = Journal().wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    assert len(fired) == 1, fired
    assert fired[0]["MESSAGE"] == f"Erinnerung: {unique_name}, 2 Tabletten (täglich, {weekday} {clock})"
    # The fields are an API: the same names and values in every language.
    assert (fired[0]["REMINDER_ID"], fired[0]["REMINDER_DOSE"], fired[0]["REMINDER_UNIT"]) == (str(rid), "2", "tablet")
    assert fired[0]["REMINDER_ANNOUNCEMENT"] == "fired" and fired[0]["SCHEDULED_UTC"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ")

    session_bus.invoke(shown[0]["id"], f"taken:{rid}")
    taken = Journal().wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_ACKNOWLEDGED)
    assert len(taken) == 1 and taken[0]["REMINDER_STATE"] == "taken", taken
    assert taken[0]["MESSAGE"].startswith(f"Genommen: {unique_name}, 2 Tabletten (täglich, {weekday} {clock}) (erfasst {weekday} ")

    # remindctl in the same language: today's heading names the day as glibc's German does, the columns and
    # the state are German.
    today = daemon.ctl("today").stdout
    heading = subprocess.run(["date", "-u", "+%A, %-d. %B %Y"], capture_output=True, text=True, check=True,
                             env=dict(os.environ, LC_ALL="de_DE.UTF-8", LOCPATH=str(locales))).stdout.strip()
    assert today.splitlines()[0] == heading, today
    assert "ZEIT" in today and "ERINNERUNG" in today and "STATUS" in today, today
    # The occurrence's time (in the daemon's zone, UTC, first), and the time it was taken (the click's, which may be
    # the next minute's).
    mine = [line for line in today.splitlines() if line.startswith(instant.strftime("%H:%M")) and unique_name in line]
    assert len(mine) == 1 and re.search(r" genommen \(erfasst \d\d:\d\d", mine[0]), today
    assert f"Dosen: {unique_name}: 1 von 1 genommen" in today.splitlines(), today


def test_a_reminder_is_read_aloud_by_a_voice_of_the_language_its_words_are_in(daemon, locales, unique_name, tmp_path):
    """A German daemon asks speech-dispatcher for a German voice and German words; one whose locale remindd has
    no translation for (Italian) says English words with an English voice, not English words in Italian. spd-say
    is a stand-in first in PATH that writes down what it is asked to say."""
    folder, said = tmp_path / "bin", tmp_path / "said.txt"
    folder.mkdir()
    (folder / "spd-say").write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {said}\n')
    (folder / "spd-say").chmod(0o755)
    for locale, expected in [("de_DE", "--wait --language de -- Zeit für {}, 500 Milligramm."),
                             (UNTRANSLATED, "--wait --language en -- Time for {}, 500 milligrams.")]:
        daemon.stop()
        daemon.env = dict(in_language(daemon.env, locales, locale), PATH=f"{folder}:{os.environ['PATH']}")
        daemon.start()
        name = f"{unique_name}-{locale}"
        add_soon(daemon, name, "--daily", "--at", "{}", "--dose", "500mg", "--sound", "none", "--speak", lead=3)
        line = expected.format(name)
        assert wait_until(lambda: said.exists() and line in said.read_text().splitlines(), timeout=15), \
            said.read_text() if said.exists() else "nothing was said"


@pytest.mark.parametrize("damage", ["cut at 100 bytes", "a header claiming 2^31 strings"])
def test_a_damaged_catalog_leaves_remindd_and_remindctl_working_in_english(daemon, session_bus, locales, unique_name, tmp_path, damage):
    """#57 item 3: a German remindd.mo cut short (an interrupted copy, a full disk during an install) or whose
    header lies crashed remindd in glibc's _nl_find_msg at a dose's firing, and every remindctl command (exit
    139). Each is refused with one line, and both programs work in English. The programs are copies installed
    in a prefix of the test's own (they find their catalogs in ../share/locale)."""
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    for program in ("remindd", "remindctl"):
        shutil.copy2(BIN / program, prefix / "bin" / program)
    catalog = prefix / "share" / "locale" / "de" / "LC_MESSAGES" / "remindd.mo"
    catalog.parent.mkdir(parents=True)
    sound = (ROOT / ".build" / "locale" / "de" / "LC_MESSAGES" / "remindd.mo").read_bytes()
    catalog.write_bytes(sound[:100] if damage.startswith("cut") else sound[:8] + struct.pack("<I", 2 ** 31) + sound[12:])
    daemon.bin = prefix / "bin"
    daemon.env = dict(in_language(daemon.env, locales, "de_DE"), DBUS_SESSION_BUS_ADDRESS=session_bus.address)
    daemon.start()
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "2", "--unit", "tablet")
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name, timeout=15)
    assert shown and shown[0]["actions"][1::2] == ["Taken", "Snooze 10 min", "Skip"], shown
    assert Journal().wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    assert daemon.process.poll() is None, "remindd died at the firing"
    line = f"The German catalog at {catalog} is damaged"
    said = [e["MESSAGE"] for e in Journal().entries(_PID=str(daemon.process.pid)) if e["MESSAGE"].startswith(line)]
    assert len(said) == 1 and said[0].endswith("messages stay in English"), said
    today = daemon.ctl("today", check=False)
    assert today.returncode == 0 and unique_name in today.stdout, (today.returncode, today.stderr)
    assert today.stderr.startswith(f"remindctl: {line}"), today.stderr
    assert f"{unique_name} 0 of 1 taken" in today.stdout, today.stdout  # English words (the weekday is LC_TIME's)


def test_remindctl_speaks_its_shells_language_and_english_under_c(daemon, locales, unique_name):
    daemon.start()
    english, german, french, spanish = (
        dict(daemon.env, LANG="C"), in_language(daemon.env, locales, "de_DE"), in_language(daemon.env, locales, "fr_FR"),
        in_language(daemon.env, locales, "es_ES"))
    remindctl = str(ROOT / ".build" / "debug" / "remindctl")
    run = lambda env, *args: subprocess.run([remindctl, *args], env=env, capture_output=True, text=True)
    # An error of the CLI's own, and the daemon's, put in words.
    assert run(english, "snooze", unique_name, "--minutes", "0").stderr.strip() == \
        "Error: invalid --minutes 0: snooze for 1 to 1440 minutes"
    assert run(german, "snooze", unique_name, "--minutes", "0").stderr.strip() == \
        "Fehler: ungültiges --minutes 0: schlummern Sie 1 bis 1440 Minuten"
    assert f"no reminder '{unique_name}'" in run(english, "done", unique_name).stderr
    assert f"no reminder '{unique_name}'" in run(dict(english, LANG="C.UTF-8"), "done", unique_name).stderr
    assert f"keine Erinnerung '{unique_name}'" in run(german, "done", unique_name).stderr
    assert f"aucun rappel '{unique_name}'" in run(french, "done", unique_name).stderr
    assert f"no hay ningún recordatorio '{unique_name}'" in run(spanish, "done", unique_name).stderr
    # A log: the weekday of the time it was logged at, in each language's own short form.
    daemon.ctl("add", unique_name, "--daily", "--at", "23:59", "--tz", "UTC")
    # Nothing due yet: the daemon says why in a structured error, each remindctl in its language.
    assert f"nothing of {unique_name} is due now (next: " in run(english, "done", unique_name).stderr
    assert f"nichts von {unique_name} ist jetzt fällig (nächster Termin: " in run(german, "done", unique_name).stderr
    logged = run(french, "log", unique_name, "--at", "00:00")
    assert logged.returncode == 0, logged.stderr
    midnight = dt.datetime.now(dt.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    assert logged.stdout.startswith(f"{unique_name} noté, {local_names(locales, 'fr_FR', midnight, '%a')} "), logged.stdout
    # A dose its limits refuse: the daemon sends the facts, remindctl says them (English as the daemon does).
    daemon.ctl("add", unique_name + "-ibu", "--as-needed", "--dose", "400", "--unit", "mg", "--min-interval", "6h")
    daemon.ctl("log", unique_name + "-ibu")
    refused = run(english, "log", unique_name + "-ibu")
    assert refused.returncode == 1 and refused.stderr.startswith(f"Error: {unique_name}-ibu: the last dose was at "), refused.stderr
    assert "(at least 6h apart); the next is allowed from " in refused.stderr and refused.stderr.strip().endswith("; --force to log it anyway")
    refused = run(german, "log", unique_name + "-ibu").stderr
    assert refused.startswith(f"Fehler: {unique_name}-ibu: letzte Dosis ") and "(mindestens 6h Abstand); die nächste ist erlaubt ab " in refused, refused
    # A dose taken, with how much: one comma each in English, none doubled in German (it printed "2 tablets,, So").
    daemon.ctl("add", unique_name + "-vit", "--as-needed", "--dose", "2", "--unit", "tablet")
    taken = run(german, "done", unique_name + "-vit")
    assert taken.returncode == 0 and taken.stdout.startswith(f"Genommen: {unique_name}-vit (2 Tabletten), ") and ",," not in taken.stdout, taken
    taken = run(english, "done", unique_name + "-vit")
    assert taken.returncode == 0 and taken.stdout.startswith(f"Taken: {unique_name}-vit, 2 tablets, at "), taken
    # A time ahead, refused by remindctl in its language, shown as typed with the locale's weekday.
    ahead = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=2)).replace(second=0, microsecond=0)
    typed = ahead.strftime("%Y-%m-%dT%H:%M")
    shown = f"{local_names(locales, 'fr_FR', ahead, '%a')} {ahead.strftime('%Y-%m-%d %H:%M')} +00:00"
    assert run(french, "log", unique_name, "--at", typed).stderr.strip() == \
        f"Erreur : {shown} est dans le futur : une prise se note pour maintenant ou pour un moment passé"
    assert run(english, "log", unique_name, "--at", typed).stderr.strip().endswith(
        "is in the future: intake can be logged for now or a past time")
    listed = run(spanish, "log", "list")
    assert listed.stdout.split()[:5] == ["ID", "HORA", "RECORDATORIO", "CANTIDAD", "EFECTO"], listed.stdout
    assert run(english, "log", "list").stdout.split()[:5] == ["ID", "TIME", "REMINDER", "AMOUNT", "EFFECT"]


def test_a_german_day_is_german_from_status_to_the_doctors_pdf(daemon, locales, unique_name):
    """#59 item 6: what a German user's day was still English: `status`, `history`, `streak`, `calendar`, the
    units and schedules (`10 units`, `daily 20:16`), the daemon's errors that remindctl did not word (an unreadable
    --at, LogNotFound, InvalidInput) and the PDF for the doctor (its headings and weekday names). Each differs from
    LANG=C and holds German words; a unit typed in German (`--unit Einheiten`) is stored as the same unit."""
    daemon.start()
    german, english = in_language(daemon.env, locales, "de_DE"), dict(daemon.env, LANG="C")
    remindctl = str(ROOT / ".build" / "debug" / "remindctl")
    run = lambda env, *args: subprocess.run([remindctl, *args], env=env, capture_output=True, text=True)
    added = run(german, "add", unique_name, "--daily", "--at", "20:16", "--tz", "UTC", "--dose", "10", "--unit", "Einheiten")
    assert added.returncode == 0 and added.stdout.startswith("Erinnerung ") and "(10 Einheiten), täglich 20:16" in added.stdout, added
    assert daemon.ctl_json("show", unique_name)["unit"] == "unit", "stored as the same unit whatever the language"
    listed = run(english, "list").stdout
    assert f"{unique_name} (10 units)" in listed and "daily 20:16" in listed, listed
    daemon.ctl("add", unique_name + "-ibu", "--as-needed", "--dose", "400", "--unit", "mg", "--min-interval", "6h")
    yesterday = dt.datetime.now(dt.timezone.utc).replace(hour=9, minute=0, second=0, microsecond=0) - dt.timedelta(days=1)
    for hour, extra in ((7, ["--amount", "200.5"]), (9, ["--force"])):
        daemon.ctl("log", unique_name + "-ibu", "--at", yesterday.replace(hour=hour).strftime("%Y-%m-%dT%H:%M"), *extra)
    # Each command in German differs from LANG=C, with the words a German reader expects.
    expected = {"status": "Erinnerungen: ", "history": "erfasst", "streak": "Joker:", "calendar": "Serie "}
    for command, words in expected.items():
        said, unsaid = run(german, command).stdout, run(english, command).stdout
        assert said != unsaid and words in said, (command, said)
    month = local_names(locales, "de_DE", dt.datetime.now(dt.timezone.utc), "%B")
    assert month in run(german, "calendar").stdout
    # The daemon's errors, in words from their facts.
    assert "ungültige Angabe für --at 'gestern'" in run(german, "log", unique_name, "--at", "gestern").stderr
    assert "kein Eintrag mit der Nummer 99999" in run(german, "log", "delete", "99999").stderr
    refused = run(german, "stock", "add", unique_name, "5", "--expires", "2020-01")
    assert refused.returncode == 1 and refused.stderr.startswith("Fehler: ungültige Angabe für --expires: "), refused.stderr
    assert run(english, "log", "delete", "99999").stderr.startswith("Error: no log with id 99999")
    # The doctor's PDF: German headings, and the weekday of the forced dose as glibc's German names it.
    pdf = daemon.state / "bericht.pdf"
    assert run(german, "report", "--format", "pdf", "-o", str(pdf)).returncode == 0
    text = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split())
    weekday = local_names(locales, "de_DE", yesterday, "%a")
    for words in ("Zusammenfassung", "Therapietreue", "Bei Bedarf genommen", "Verordnung: 10 Einheiten, täglich 20:16",
                  f"{weekday} {yesterday.strftime('%Y-%m-%d')} 09:00: zu früh: eine andere Dosis um {weekday}", "Seite 1 von"):
        assert words in text, (words, text)
    # The text report's charts, and its numbers as German writes them.
    said, unsaid = run(german, "report").stdout, run(english, "report").stdout
    assert "600,5 mg an 1 von " in said and "bei Bedarf: 2 Dosen in " in said, said
    assert "600.5 mg on 1 of " in unsaid and "as needed: 2 doses in " in unsaid, unsaid


def test_every_catalog_explains_in_its_language(tmp_path, locales):
    """The translated catalogs compile, explain every MESSAGE_ID the English one does, and journalctl chooses
    the one of its locale (what `journalctl -x` shows: the package test reads that in a Debian root)."""
    catalogs = tmp_path / "usr" / "lib" / "systemd" / "catalog"
    catalogs.mkdir(parents=True)
    for path in (ROOT / "catalog").glob("remindd*.catalog"):
        shutil.copy(path, catalogs)
    compiled = subprocess.run(["journalctl", f"--root={tmp_path}", "--update-catalog"], capture_output=True, text=True, check=True)
    assert compiled.stderr == "", compiled.stderr
    ids = lambda text: sorted(line.split()[1] for line in text.splitlines() if line.startswith("-- "))
    english = ids((ROOT / "catalog" / "remindd.catalog").read_text())
    # Every language of po/ explains the journal too.
    for language in sorted(path.stem for path in (ROOT / "po").glob("*.po")):
        assert ids((ROOT / "catalog" / f"remindd.{language}.catalog").read_text()) == english, language
    subjects = {"C": "Subject: Reminder fired: @REMINDER_NAME@", "de_DE": "Subject: Erinnerung ausgelöst: @REMINDER_NAME@",
                "fr_FR": "Subject: Rappel déclenché : @REMINDER_NAME@", "es_ES": "Subject: Recordatorio activado: @REMINDER_NAME@"}
    for name, subject in subjects.items():
        env = dict(os.environ, LANG=name if name == "C" else f"{name}.UTF-8", LOCPATH=str(locales))
        env.pop("LC_ALL", None), env.pop("LC_MESSAGES", None), env.pop("LANGUAGE", None)
        shown = subprocess.run(["journalctl", f"--root={tmp_path}", "--dump-catalog", MESSAGE_FIRED], env=env, capture_output=True,
                               text=True, check=True).stdout
        assert subject in shown.splitlines(), (name, shown)


def test_the_template_lists_every_message_of_the_tables():
    """po/remindd.pot is what po/extract-messages writes from the tables now (make pot)."""
    check = subprocess.run([str(ROOT / "po" / "extract-messages"), "--check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_the_template_check_fails_for_a_message_it_does_not_list(tmp_path):
    """The check is not vacuous: a message added to a table and not to the template is named."""
    copy = tmp_path / "remindd"
    shutil.copytree(ROOT / "po", copy / "po")
    shutil.copytree(ROOT / "Sources" / "Translation", copy / "Sources" / "Translation")
    (copy / "Sources" / "Translation" / "New.swift").write_text('let added = Message("A message no template has: %1$s")\n')
    check = subprocess.run([str(copy / "po" / "extract-messages"), "--check"], capture_output=True, text=True)
    assert check.returncode == 1 and "A message no template has: %1$s" in check.stderr, check.stderr


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_each_translation_is_complete_and_its_arguments_match(language, tmp_path):
    """What make does for each language: msgcmp (every message of the template translated) and msgfmt --check
    (each translation takes its message's arguments); and a translation with an argument dropped is refused."""
    po = ROOT / "po" / f"{language}.po"
    subprocess.run(["msgcmp", str(po), str(ROOT / "po" / "remindd.pot")], check=True, capture_output=True)
    subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "ok.mo"), str(po)], check=True, capture_output=True)
    lines = po.read_text().splitlines()
    # The first translation with a second argument loses it.
    index = next(i for i, line in enumerate(lines) if line.startswith('msgstr "') and "%2$s" in line)
    lines[index] = lines[index].replace("%2$s", "")
    (tmp_path / "broken.po").write_text("\n".join(lines) + "\n")
    refused = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "broken.mo"), str(tmp_path / "broken.po")], capture_output=True, text=True)
    assert refused.returncode != 0 and "format" in refused.stderr, refused.stderr
