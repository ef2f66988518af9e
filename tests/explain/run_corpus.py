#!/usr/bin/env python3
"""Runs a corpus of real pasted messages through the built `cudnnctl explain --json -`.

usage: run_corpus.py CUDNNCTL CORPUS... [--min-score FRACTION] [--no-lookalike-blamed]

Each record names the signature explain must name first for the message (or `none`: explain must name
nothing). Without --min-score every record must pass; with it the score of each corpus file is printed and the
run fails when any file scores below that fraction (the holdout parts, which are never tuned to).
--no-lookalike-blamed also fails the run when a look-alike (a record expecting `none` or a workload.* signature:
not a set-up problem) is named as a set-up problem (a signature of layers 1-4 that is not harmless).
"""
import json
import subprocess
import sys


def records(path):
    recs, cur = [], None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if line.startswith("- expect:"):
                cur = {"expect": line.split(":", 1)[1].strip(), "source": "", "lines": []}
                recs.append(cur)
            elif cur is not None and line.strip().startswith("source:"):
                cur["source"] = line.split(":", 1)[1].strip()
            elif cur is not None and line.startswith("  |"):
                cur["lines"].append(line[4:] if line.startswith("  | ") else line[3:])
    for r in recs:
        if not r["source"] or not r["lines"]:
            raise SystemExit(f"{path}: a record without source or message: {r}")
    return recs


def named(cudnnctl, message):
    run = subprocess.run([cudnnctl, "explain", "--json", "-"], input=message.encode("utf-8"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if run.returncode not in (0, 10):
        raise SystemExit(f"explain failed with {run.returncode} on {message[:80]!r}: {run.stdout.decode(errors='replace')}{run.stderr.decode(errors='replace')}")
    doc = json.loads(run.stdout)
    matches = doc["matches"]
    if not matches:
        return "none", "", False
    first = matches[0]
    return first["signature"], first.get("detail", ""), first["layer"] < 5 and not first["harmless"]


def main():
    args = sys.argv[1:]
    min_score = None
    lookalikes = "--no-lookalike-blamed" in args
    if lookalikes:
        args.remove("--no-lookalike-blamed")
    if "--min-score" in args:
        i = args.index("--min-score")
        min_score = float(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2:
        raise SystemExit(__doc__)
    cudnnctl, corpora = args[0], args[1:]
    ok = True
    for corpus in corpora:
        ok = score_corpus(cudnnctl, corpus, min_score, lookalikes) and ok
    return 0 if ok else 1


def score_corpus(cudnnctl, corpus, min_score, lookalikes=False):
    recs = records(corpus)
    if not recs:
        raise SystemExit(f"{corpus}: no records")
    right = blamed = 0
    for r in recs:
        got, detail, setup = named(cudnnctl, "\n".join(r["lines"]) + "\n")
        ok = got == r["expect"]
        right += ok
        lookalike = r["expect"] == "none" or r["expect"].startswith("workload.")
        blamed += lookalike and setup
        print(f"{'ok  ' if ok else 'MISS'} {r['source']}: expected {r['expect']}, named {got}"
              + (f" ({detail})" if detail else "") + (" [a look-alike blamed on the set-up]" if lookalike and setup else ""))
    score = right / len(recs)
    name = corpus.replace("\\", "/").rsplit("/", 1)[-1]
    print(f"score {name}: {right}/{len(recs)} = {score:.0%}" + (f" (threshold {min_score:.0%})" if min_score is not None else "")
          + (f"; look-alikes blamed on the set-up: {blamed}" if lookalikes else ""))
    if lookalikes and blamed:
        return False
    if min_score is None:
        return right == len(recs)
    return score >= min_score


if __name__ == "__main__":
    sys.exit(main())
