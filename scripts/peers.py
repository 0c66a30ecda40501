#!/usr/bin/env python3
"""Which real calendar programs accept these .ics files: the peer-acceptance check behind README's table.

    scripts/peers.py [--json OUT] [--peers icalendar,vobject,rie,khal,calcurse,radicale] [--venv DIR]
                     FILE_OR_FOLDER...

Six peers, each asked about each file (30 s at most per question):
  icalendar  python icalendar 7.3, strict: the file reads as one calendar and no component records an error
  vobject    vobject reads it, and every DTSTART and DUE value converts
  rie        recurring-ical-events 3.8 expands VEVENT, VTODO and VJOURNAL over 2000-2030 without an exception
  khal       `khal import --batch` into a fresh calendar: exit 0, nothing skipped, nothing critical
  calcurse   `calcurse -i` into fresh folders: exit 0
  radicale   a Radicale server on 127.0.0.1 (a free port, its own folder, stopped at the end) takes the file as
             CalDAV clients send it: one resource per UID (with the VTIMEZONEs), each PUT answered 201 or 204;
             counted on files that hold a VEVENT, VTODO or VJOURNAL and no METHOD other than PUBLISH (an iTIP
             message is not what a calendar server stores)

The Python peers live in a virtual environment under .build (made on first use, never the system's Python);
calcurse comes from Debian (`make deps PACKAGES=calcurse`). Prints accepted/total per peer and the commonest
reasons for a refusal; --json writes every verdict.
"""
import argparse
import collections
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.path.join(HERE, "..", ".build", "peers-venv")
PACKAGES = ["icalendar==7.3.0", "recurring-ical-events==3.8.2", "vobject==0.9.9", "khal==0.14.1", "radicale==3.9.0"]
PEERS = ["icalendar", "vobject", "rie", "khal", "calcurse", "radicale"]
LIMIT = 30


def in_venv(given=None):
    """Re-runs this script inside its virtual environment, making it first when needed; `given` (--venv) names one
    that already holds the peers (the tests' .build/venv), used as it is."""
    global VENV
    if given:
        VENV = os.path.abspath(given)
    marker = os.path.join(VENV, "packages.txt")
    wanted = "\n".join(PACKAGES)
    if not given and (not os.path.exists(marker) or open(marker).read() != wanted):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "--quiet", "--disable-pip-version-check",
                        *PACKAGES], check=True)
        with open(marker, "w") as handle:
            handle.write(wanted)
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        python = os.path.join(VENV, "bin", "python3")
        os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


# The in-process peers run in a child process per file (`--ask PEER FILE`), so a hang or a crash is one refusal.

def ask_icalendar(data):
    import icalendar
    calendar = icalendar.Calendar.from_ical(data)
    problems = [(component.name, error) for component in calendar.walk() for error in component.errors]
    if problems:
        name, (prop, message) = problems[0]
        return False, f"{name} {prop or ''}: {message}"
    return True, ""


def ask_vobject(data):
    import vobject
    pending = list(vobject.readComponents(data.decode("utf-8")))
    while pending:
        component = pending.pop()
        pending += list(component.components())
        if component.name in ("VEVENT", "VTODO"):
            for line in component.contents.get("dtstart", []) + component.contents.get("due", []):
                _ = line.value
    return True, ""


def ask_rie(data):
    import datetime
    import icalendar
    import recurring_ical_events
    for calendar in icalendar.Calendar.from_ical(data, multiple=True):
        query = recurring_ical_events.of(calendar, components=("VEVENT", "VTODO", "VJOURNAL"))
        count = 0
        for year in range(2000, 2031):
            count += len(query.between(datetime.date(year, 1, 1), datetime.date(year + 1, 1, 1)))
            if count > 20000:
                break
    return True, ""


def ask_in_child(peer, path):
    try:
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "--ask", peer, path],
                             capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        return False, f"no answer in {LIMIT} s"
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["failed"])[-1]
        return False, last[:200]
    verdict = json.loads(run.stdout)
    return verdict["accepted"], verdict["detail"]


def ask_khal(path):
    with tempfile.TemporaryDirectory(prefix="peers-khal-") as folder:
        calendar = os.path.join(folder, "calendar")
        os.makedirs(calendar)
        config = os.path.join(folder, "config")
        with open(config, "w") as handle:
            handle.write(f"""[calendars]
[[peer]]
path = {calendar}
type = calendar
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
default_timezone = UTC
local_timezone = UTC
[sqlite]
path = {os.path.join(folder, "khal.db")}
""")
        try:
            run = subprocess.run([os.path.join(VENV, "bin", "khal"), "-c", config, "import", "--batch", "-a",
                                  "peer", path], capture_output=True, text=True, timeout=LIMIT)
        except subprocess.TimeoutExpired:
            return False, f"no answer in {LIMIT} s"
        complaints = [line for line in run.stderr.splitlines()
                      if "critical" in line.lower() or "skipping" in line.lower() or "error" in line.lower()]
        if run.returncode != 0 or complaints:
            return False, (complaints or run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[0][:200]
        return True, ""


def ask_calcurse(path):
    if not shutil.which("calcurse"):
        return None, "calcurse is not installed (make deps PACKAGES=calcurse)"
    with tempfile.TemporaryDirectory(prefix="peers-calcurse-") as folder:
        data, config = os.path.join(folder, "data"), os.path.join(folder, "config")
        os.makedirs(data)
        os.makedirs(config)
        try:
            run = subprocess.run(["calcurse", "-D", data, "-C", config, "-i", path], capture_output=True, text=True,
                                 timeout=LIMIT, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return False, f"no answer in {LIMIT} s"
        if run.returncode != 0:
            return False, (run.stderr.strip() or run.stdout.strip() or f"exit {run.returncode}").splitlines()[-1][:200]
        return True, ""


class Radicale:
    """One Radicale server for the whole check: 127.0.0.1, a free port, its own folder, a bounded lifetime."""

    def __init__(self, lifetime):
        self.folder = tempfile.mkdtemp(prefix="peers-radicale-")
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = os.path.join(self.folder, "config")
        with open(config, "w") as handle:
            handle.write(f"""[server]
hosts = 127.0.0.1:{self.port}
[auth]
type = none
[storage]
filesystem_folder = {os.path.join(self.folder, "collections")}
[logging]
level = warning
""")
        self.log = open(os.path.join(self.folder, "log"), "w")
        self.process = subprocess.Popen(
            ["timeout", str(lifetime), os.path.join(VENV, "bin", "python3"), "-m", "radicale", "--config", config],
            stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("Radicale did not start")

    def request(self, method, path, body=b"", headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=LIMIT)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        text = response.read()
        connection.close()
        return response.status, text

    def ask(self, path, number):
        import icalendar
        data = open(path, "rb").read()
        try:
            methods = set()
            for each in icalendar.Calendar.from_ical(data, multiple=True):
                method = each.get("METHOD", "PUBLISH")
                methods |= {str(value).upper() for value in (method if isinstance(method, list) else [method])}
            if methods - {"PUBLISH"}:
                return None, "an iTIP message (METHOD " + ",".join(sorted(methods)) + "), not what a server stores"
            calendar = icalendar.Calendar.from_ical(data)
        except Exception as error:
            return False, f"cannot split into resources: {error}"[:200]
        collection = f"/peer/c{number}/"
        self.request("MKCOL", "/peer/")
        status, _ = self.request("MKCALENDAR", collection)
        if status not in (200, 201):
            return False, f"MKCALENDAR answered {status}"
        zones = [component for component in calendar.subcomponents if component.name == "VTIMEZONE"]
        groups = collections.OrderedDict()
        for component in calendar.subcomponents:
            if component.name in ("VEVENT", "VTODO", "VJOURNAL"):
                groups.setdefault(str(component.get("UID", f"no-uid-{len(groups)}")), []).append(component)
        if not groups:
            return None, "nothing a server stores"
        for index, members in enumerate(groups.values()):
            resource = icalendar.Calendar()
            for name in ("VERSION", "PRODID", "CALSCALE"):
                if name in calendar:
                    resource.add(name, calendar[name])
            for component in zones + members:
                resource.add_component(component)
            status, answer = self.request("PUT", f"{collection}r{index}.ics", resource.to_ical(),
                                          {"Content-Type": "text/calendar; charset=utf-8"})
            if status not in (201, 204):
                return False, f"PUT answered {status}: {self.reason() or answer.decode(errors='replace').strip()}"[:200]
        return True, ""

    def reason(self):
        """Why Radicale refused the last request, from its log (its answer only says "Bad Request")."""
        time.sleep(0.05)
        with open(os.path.join(self.folder, "log"), errors="replace") as handle:
            refusals = [line for line in handle if "Bad " in line and " request " in line]
        return refusals[-1].split("): ", 1)[-1].strip() if refusals else ""

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def files_in(arguments):
    for argument in arguments:
        if os.path.isdir(argument):
            for root, _, names in os.walk(argument):
                yield from (os.path.join(root, name) for name in sorted(names) if name.endswith(".ics"))
        else:
            yield argument


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--ask":
        peer, path = sys.argv[2], sys.argv[3]
        accepted, detail = {"icalendar": ask_icalendar, "vobject": ask_vobject, "rie": ask_rie}[peer](
            open(path, "rb").read())
        print(json.dumps({"accepted": accepted, "detail": detail}))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--json")
    parser.add_argument("--venv", help="a virtual environment that already has the peers (not made or changed)")
    args = parser.parse_args()
    in_venv(args.venv)
    peers = args.peers.split(",")
    files = sorted(files_in(args.paths))
    server = Radicale(lifetime=60 + 10 * len(files)) if "radicale" in peers else None
    verdicts = {}
    try:
        for number, path in enumerate(files):
            verdicts[path] = {}
            for peer in peers:
                if peer in ("icalendar", "vobject", "rie"):
                    accepted, detail = ask_in_child(peer, path)
                elif peer == "khal":
                    accepted, detail = ask_khal(path)
                elif peer == "calcurse":
                    accepted, detail = ask_calcurse(path)
                else:
                    accepted, detail = server.ask(path, number)
                verdicts[path][peer] = {"accepted": accepted, "detail": detail}
    finally:
        if server:
            server.stop()
    print(f"{len(files)} files")
    for peer in peers:
        asked = [verdict[peer] for verdict in verdicts.values() if verdict[peer]["accepted"] is not None]
        accepted = sum(1 for verdict in asked if verdict["accepted"])
        reasons = collections.Counter(verdict["detail"][:90] for verdict in asked if not verdict["accepted"])
        print(f"{peer:10} {accepted}/{len(asked)} accepted")
        for reason, count in reasons.most_common(3):
            print(f"{'':12}{count} x {reason}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(verdicts, handle, indent=1)


if __name__ == "__main__":
    main()
