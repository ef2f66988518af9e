"""The NFD feature file and the Kubernetes examples (CTest fleet.kubernetes_examples): doctor --nfd on a
toolkit with a planted failure writes a file NFD's rules accept (checked here by an implementation of
Kubernetes' label rules of its own, not cudnnctl's), with an RFC 3339 expiry; the DaemonSet, the Job and
the NodeFeatureRule of docs/examples/kubernetes parse and name the same folder, the same file and the
namespace the doctor writes.

usage: kubernetes_examples_test.py CUDNNCTL DOCS_EXAMPLES_KUBERNETES"""
import datetime
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fleet_fixtures import doctor_env, make_toolkit, skip  # noqa: E402

try:
    import yaml
except ImportError:
    skip("python3-yaml is not installed")

CMD, EXAMPLES = sys.argv[1], sys.argv[2]
FEATURES_D = "/etc/kubernetes/node-feature-discovery/features.d"
NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def key_ok(key):
    prefix, sep, name = key.partition("/")
    if not sep or "/" in name or not prefix or len(prefix) > 253 or not all(DNS_LABEL.match(p) for p in prefix.split(".")):
        return False
    if (prefix == "kubernetes.io" or prefix.endswith(".kubernetes.io")) and not re.search(r"(^|\.)(feature|profile)\.node\.kubernetes\.io$", prefix):
        return False
    return len(name) <= 63 and bool(NAME.match(name))


def value_ok(value):
    return value == "" or (len(value) <= 63 and bool(NAME.match(value)))


def read_feature_file(path):
    data = open(path, "rb").read()
    assert len(data) < 65536, f"{len(data)} bytes: NFD ignores files of 64 KiB or more"
    labels, features, expiry, no_label = {}, {}, None, False
    for line in data.decode("utf-8").splitlines():
        line = line.strip()
        if line.startswith("# +expiry-time="):
            expiry = datetime.datetime.fromisoformat(line.split("=", 1)[1].replace("Z", "+00:00"))
        elif line == "# +no-label":
            no_label = True
        elif line.startswith("# +"):
            raise AssertionError(f"a directive NFD does not know: {line}")
        elif line and not line.startswith("#"):
            key, _, value = line.partition("=")
            assert key_ok(key), f"key refused by Kubernetes' rules: {key!r}"
            assert value_ok(value), f"value refused by Kubernetes' rules: {value!r}"
            (features if no_label else labels)[key] = value
            no_label = False
    return labels, features, expiry


def main():
    with tempfile.TemporaryDirectory(prefix="cudnnctl-nfd-") as tmp:
        tk = make_toolkit(os.path.join(tmp, "cuda"), cudnn_minor=1)
        folder = os.path.join(tmp, "features.d")
        os.mkdir(folder)
        out = os.path.join(folder, "cudnnctl")
        before = datetime.datetime.now(datetime.timezone.utc)
        run = subprocess.run([CMD, "doctor", "--no-gpu", "--cuda-path", tk, "--nfd", out, "--nfd-expiry", "600"],
                             capture_output=True, text=True, timeout=300, env=doctor_env(tk),
                             preexec_fn=lambda: os.umask(0o077))  # still 0644: node_exporter and NFD run as other users
        assert run.returncode == 10, f"doctor exit {run.returncode}: {run.stderr}"
        assert os.listdir(folder) == ["cudnnctl"], os.listdir(folder)  # no temporary file left
        assert oct(os.stat(out).st_mode & 0o777) == "0o644"
        labels, features, expiry = read_feature_file(out)
        assert expiry is not None, "no # +expiry-time"
        delta = (expiry - before).total_seconds()
        assert 590 <= delta <= 900, f"expiry {expiry} is {delta} s from now, not 600"
        ns = "cudnnctl.io"
        assert labels[f"{ns}/cudnn-version.major"] == "9" and labels[f"{ns}/cudnn-version.minor"] == "1", labels
        assert labels[f"{ns}/cudnn-version.full"].startswith("9.1."), labels
        assert labels[f"{ns}/cudnn.healthy"] == "false", labels
        assert features == {f"{ns}/check.loader.version": "fail"}, features  # the planted failure, as a feature only
        assert labels[f"{ns}/cudnn.checks-failed"] == "1", labels

        # a folder that is not there: exit 8 naming it, nothing written anywhere
        missing = subprocess.run([CMD, "doctor", "--no-gpu", "--cuda-path", tk, "--nfd", os.path.join(tmp, "nope", "cudnnctl")],
                                 capture_output=True, text=True, timeout=300, env=doctor_env(tk))
        assert missing.returncode == 8 and "nope' does not exist" in missing.stderr, (missing.returncode, missing.stderr)
        assert not os.path.exists(os.path.join(tmp, "nope"))

        # the examples: one namespace, one folder, one file name, and the namespace of the doctor's labels
        docs = {}
        for name in ("namespace.yaml", "daemonset.yaml", "job.yaml", "nodefeaturerule.yaml"):
            with open(os.path.join(EXAMPLES, name), encoding="utf-8") as f:
                docs[name] = yaml.safe_load(f)
        assert docs["namespace.yaml"]["kind"] == "Namespace"
        k8s_ns = docs["namespace.yaml"]["metadata"]["name"]
        for name, kind in (("daemonset.yaml", "DaemonSet"), ("job.yaml", "Job")):
            d = docs[name]
            assert d["kind"] == kind and d["metadata"]["namespace"] == k8s_ns, (name, d["kind"], d["metadata"])
            pod = d["spec"]["template"]["spec"]
            host_paths = {v["name"]: v["hostPath"]["path"] for v in pod["volumes"] if "hostPath" in v}
            mounts = {m["name"]: m["mountPath"] for c in pod["containers"] for m in c["volumeMounts"]}
            assert host_paths["features-d"] == FEATURES_D and mounts["features-d"] == FEATURES_D, (name, host_paths, mounts)
            command = " ".join(" ".join(c.get("command", []) + c.get("args", [])) for c in pod["containers"])
            assert f"{FEATURES_D}/cudnnctl" in command and "--nfd" in command, (name, command)
            assert host_paths["cuda"] == mounts["cuda"], (name, host_paths, mounts)
        rule = docs["nodefeaturerule.yaml"]
        assert rule["kind"] == "NodeFeatureRule" and rule["apiVersion"].startswith("nfd.k8s-sigs.io/")
        keys = [k for r in rule["spec"]["rules"] for m in r["matchFeatures"] for k in m["matchExpressions"]]
        assert keys and all(k.startswith(f"{ns}/") for k in keys), keys
        assert f"{ns}/cudnn.healthy" in keys
        for r in rule["spec"]["rules"]:
            for t in r.get("taints", []):
                assert key_ok(t["key"]) and value_ok(t["value"]) and t["effect"] in ("NoSchedule", "PreferNoSchedule", "NoExecute"), t
            for k, v in r.get("labels", {}).items():
                assert key_ok(k) and value_ok(v), (k, v)
        # what the rule matches is what the doctor writes: the unhealthy node's labels satisfy its taint rule
        taint_rule = next(r for r in rule["spec"]["rules"] if r.get("taints"))
        for m in taint_rule["matchFeatures"]:
            for k, e in m["matchExpressions"].items():
                assert e["op"] == "In" and labels.get(k) in e["value"], (k, e, labels.get(k))
    print("ok: the NFD file passes Kubernetes' label rules and the examples agree with it")


main()
