"""cudnnctl report over real doctor documents (CTest fleet.report): five nodes, one of them half-upgraded
(its cuDNN header says 9.1 while its libraries are 9.19: the planted failure). The report names the
majority release and the outlier with its cause, in text, JSON and HTML; two documents of one host are
named by their files; hostile files (a FIFO, a huge file, nesting, not UTF-8, another schema) are listed
as unreadable without hanging.

usage: report_cli_test.py CUDNNCTL"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fleet_fixtures import doctor_env, make_toolkit  # noqa: E402

CMD = sys.argv[1]


def doctor_json(tk):
    run = subprocess.run([CMD, "doctor", "--no-gpu", "--cuda-path", tk, "--json"], capture_output=True, text=True, timeout=300, env=doctor_env(tk))
    assert run.returncode in (0, 10, 11), run.stderr
    return json.loads(run.stdout)


def report(*args, timeout=60):
    return subprocess.run([CMD, "report", *args], capture_output=True, text=True, timeout=timeout)


def main():
    with tempfile.TemporaryDirectory(prefix="cudnnctl-report-") as tmp:
        good = doctor_json(make_toolkit(os.path.join(tmp, "good")))
        bad = doctor_json(make_toolkit(os.path.join(tmp, "bad"), cudnn_minor=1))
        assert good["cudnn"]["version"] == "9.19.0" and bad["cudnn"]["version"] == "9.1.0", (good["cudnn"], bad["cudnn"])
        assert good["host"], "doctor --json names the host"
        failed = [c for c in bad["checks"] if c["status"] == "fail"]
        assert failed, "the planted header fails a check"
        assert not [c for c in good["checks"] if c["status"] in ("fail", "warn")], good["checks"]
        fleet = os.path.join(tmp, "fleet")
        os.mkdir(fleet)
        for i, doc in enumerate([good, good, bad, good, good], start=1):
            with open(os.path.join(fleet, f"gpu{i}.json"), "w", encoding="utf-8") as f:
                json.dump(dict(doc, host=f"gpu{i}.cluster"), f)

        run = report(fleet, "--json", "--html", os.path.join(tmp, "fleet.html"))
        assert run.returncode == 10, (run.returncode, run.stderr)
        doc = json.loads(run.stdout)
        assert doc["schema"] == "cudnnctl.report/1" and doc["exit_code"] == 10
        assert doc["majority"] == "9.19.0 (CUDA 13)", doc["majority"]
        assert [r["count"] for r in doc["releases"]] == [4, 1], doc["releases"]
        assert [o["name"] for o in doc["outliers"]] == ["gpu3.cluster"], doc["outliers"]
        reasons = doc["outliers"][0]["reasons"]
        assert any("9.1.0" in r and "majority" in r for r in reasons), reasons
        assert any(r.startswith(f"{failed[0]['id']} failed: ") for r in reasons), reasons
        row = next(c for c in doc["checks"] if c["id"] == failed[0]["id"])
        assert row["fail"] == 1 and row["failing"] == ["gpu3.cluster"], row
        toolkit_row = next(c for c in doc["checks"] if c["id"] == "toolkit.found")
        assert toolkit_row["pass"] == 5, toolkit_row
        html = open(os.path.join(tmp, "fleet.html"), encoding="utf-8").read()
        assert 'data-exit-code="10"' in html and '<tr data-node="gpu3.cluster">' in html and "<script" not in html

        text = report(*sorted(os.path.join(fleet, f) for f in os.listdir(fleet)))
        assert text.returncode == 10
        assert "the majority runs cuDNN 9.19.0 (CUDA 13) (4 of 5)" in text.stdout, text.stdout
        assert "  gpu3.cluster\n    - runs cuDNN 9.1.0 (CUDA 13), not the majority's 9.19.0 (CUDA 13)\n" in text.stdout, text.stdout

        # one release everywhere, two documents of one host: named by their files, exit 0
        same = os.path.join(tmp, "same")
        os.mkdir(same)
        for name, host in (("a.json", "gpu1"), ("b.json", "gpu1"), ("c.json", "gpu2")):
            with open(os.path.join(same, name), "w", encoding="utf-8") as f:
                json.dump(dict(good, host=host), f)
        run = report(same, "--json")
        doc = json.loads(run.stdout)
        assert run.returncode == 0 and doc["outliers"] == [], (run.returncode, doc["outliers"])
        assert sorted(n["name"] for n in doc["nodes"]) == ["a.json", "b.json", "gpu2"], doc["nodes"]

        # hostile files beside a good one: listed, never hung on, never crashing
        hostile = os.path.join(tmp, "hostile")
        os.mkdir(hostile)
        with open(os.path.join(hostile, "good.json"), "w", encoding="utf-8") as f:
            json.dump(good, f)
        os.mkfifo(os.path.join(hostile, "fifo.json"))
        with open(os.path.join(hostile, "huge.json"), "wb") as f:
            f.truncate(17 << 20)
        with open(os.path.join(hostile, "deep.json"), "w") as f:
            f.write("[" * 200000)
        with open(os.path.join(hostile, "latin1.json"), "wb") as f:
            f.write(b'{"schema": "cudnnctl.doctor/2", "host": "\xe9", "checks": []}')
        with open(os.path.join(hostile, "other.json"), "w") as f:
            json.dump({"schema": "cudnnctl.path/2"}, f)
        with open(os.path.join(hostile, "badstatus.json"), "w") as f:
            json.dump(dict(good, checks=[{"id": "x", "status": "\x1b[31mred"}]), f)
        os.symlink("/dev/zero", os.path.join(hostile, "zero.json"))
        run = report(hostile, "--json", timeout=60)
        doc = json.loads(run.stdout)
        assert run.returncode == 10 and len(doc["nodes"]) == 1, (run.returncode, doc["nodes"])
        unreadable = {os.path.basename(u["file"]) for u in doc["unreadable"]}
        assert unreadable == {"fifo.json", "huge.json", "deep.json", "latin1.json", "other.json", "badstatus.json", "zero.json"}, doc["unreadable"]
        text = report(hostile)
        assert "\x1b" not in text.stdout

        # nothing to report, a name that is not there
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        run = report(empty, "--json")
        assert run.returncode == 2 and json.loads(run.stdout)["error"]["id"] == "input.invalid", run.stdout
        run = report(os.path.join(tmp, "missing"), "--json")
        assert run.returncode == 8 and json.loads(run.stdout)["error"]["id"] == "io.not-found", run.stdout
    print("ok: the majority release, the outlier and its cause; hostile files listed")


main()
