"""The doctor's metrics in the real engines (CTest fleet.prometheus_engine): Debian's prometheus-node-exporter
serves the file doctor --prometheus wrote into its textfile folder, with the planted failure as its fail
series; promtool check metrics passes on the file; a real prometheus scrapes the exporter and a query
returns the failure. Everything on 127.0.0.1, in a temporary folder; the servers are stopped by PID.

usage: prometheus_engine_test.py CUDNNCTL"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fleet_fixtures import doctor_env, free_port, make_toolkit, skip  # noqa: E402

CMD = sys.argv[1]
EXPORTER = shutil.which("prometheus-node-exporter") or shutil.which("node_exporter")
PROMETHEUS, PROMTOOL = shutil.which("prometheus"), shutil.which("promtool")


def get(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode("utf-8")


def wait_for(what, probe, seconds):
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            value = probe()
            if value:
                return value
        except OSError as e:
            last = e
        time.sleep(0.5)
    sys.exit(f"FAIL: {what} not seen within {seconds} s (last error: {last})")


def start(argv, log):
    return subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def stop(proc):
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    if not (EXPORTER and PROMETHEUS and PROMTOOL):
        skip("prometheus-node-exporter, prometheus or promtool is not installed (apt-get install prometheus prometheus-node-exporter)")
    with tempfile.TemporaryDirectory(prefix="cudnnctl-prom-") as tmp:
        tk = make_toolkit(os.path.join(tmp, "cuda"), cudnn_minor=1)
        textfiles = os.path.join(tmp, "textfile")
        os.mkdir(textfiles)
        prom_file = os.path.join(textfiles, "cudnnctl.prom")
        run = subprocess.run([CMD, "doctor", "--no-gpu", "--cuda-path", tk, "--prometheus", prom_file, "--json"],
                             capture_output=True, text=True, timeout=300, env=doctor_env(tk),
                             preexec_fn=lambda: os.umask(0o077))  # still 0644: node_exporter and NFD run as other users
        doc = json.loads(run.stdout)
        failed = sorted({c["id"] for c in doc["checks"] if c["status"] == "fail"})
        assert run.returncode == 10 and failed, f"the planted header should fail a check: {run.returncode} {failed}\n{run.stderr}"
        assert oct(os.stat(prom_file).st_mode & 0o777) == "0o644", oct(os.stat(prom_file).st_mode)
        assert sorted(os.listdir(textfiles)) == ["cudnnctl.prom"], os.listdir(textfiles)
        text = open(prom_file, encoding="utf-8").read()
        lint = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
        assert lint.returncode == 0 and not lint.stdout.strip() and not lint.stderr.strip(), f"promtool check metrics: {lint.stdout}{lint.stderr}"

        exporter_port, prom_port = free_port(), free_port()
        log = open(os.path.join(tmp, "servers.log"), "w")
        exporter = prometheus = None
        try:
            exporter = start([EXPORTER, f"--web.listen-address=127.0.0.1:{exporter_port}", "--collector.disable-defaults",
                              "--collector.textfile", f"--collector.textfile.directory={textfiles}"], log)
            metrics = wait_for("node_exporter's /metrics", lambda: get(f"http://127.0.0.1:{exporter_port}/metrics"), 30)
            assert "node_textfile_scrape_error 0" in metrics, "node_exporter could not read the file:\n" + metrics[-2000:]
            for check in failed:
                series = f'cudnnctl_check_status{{check="{check}",layer='
                line = next((l for l in metrics.splitlines() if l.startswith(series) and 'status="fail"' in l), None)
                assert line and line.endswith(" 1"), f"the fail series of {check} is not 1 in node_exporter's /metrics: {line}"
            assert f"cudnnctl_checks_failed {len(failed)}" in metrics

            storage = os.path.join(tmp, "tsdb")
            config = os.path.join(tmp, "prometheus.yml")
            with open(config, "w", encoding="utf-8") as f:
                f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
                        f"  - job_name: node\n    static_configs:\n      - targets: ['127.0.0.1:{exporter_port}']\n")
            prometheus = start([PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={storage}",
                                f"--web.listen-address=127.0.0.1:{prom_port}"], log)
            query = urllib.parse.quote('cudnnctl_check_status{status="fail"} == 1')

            def failures():
                answer = json.loads(get(f"http://127.0.0.1:{prom_port}/api/v1/query?query={query}"))
                return sorted(r["metric"]["check"] for r in answer["data"]["result"]) or None

            got = wait_for("the planted failure in prometheus' query", failures, 90)
            assert got == failed, f"prometheus returned {got}, the doctor failed {failed}"
            info = json.loads(get(f"http://127.0.0.1:{prom_port}/api/v1/query?query=cudnnctl_cudnn_info"))["data"]["result"]
            assert len(info) == 1 and info[0]["metric"]["version"] == "9.1.0" and info[0]["metric"]["toolkit"] == tk, info
        finally:
            stop(prometheus)
            stop(exporter)
            log.close()
    print(f"ok: node_exporter served and prometheus returned the planted failure ({', '.join(failed)})")


main()
