#!/usr/bin/env python3
"""Runs a corpus of real pasted messages through the built `cudnnctl explain --json -`.

usage: run_corpus.py CUDNNCTL CORPUS... [--min-score FRACTION]

Each record names the signature explain must name first for the message (or `none`: explain must name
nothing). Without --min-score every record must pass; with it the score of each corpus file is printed and the
run fails when any file scores below that fraction (the holdout parts, which are never tuned to).
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
    return (matches[0]["signature"], matches[0].get("detail", "")) if matches else ("none", "")


def main():
    args = sys.argv[1:]
    min_score = None
    if "--min-score" in args:
        i = args.index("--min-score")
        min_score = float(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2:
        raise SystemExit(__doc__)
    cudnnctl, corpora = args[0], args[1:]
    ok = True
    for corpus in corpora:
        ok = score_corpus(cudnnctl, corpus, min_score) and ok
    return 0 if ok else 1


def score_corpus(cudnnctl, corpus, min_score):
    recs = records(corpus)
    if not recs:
        raise SystemExit(f"{corpus}: no records")
    right = 0
    for r in recs:
        got, detail = named(cudnnctl, "\n".join(r["lines"]) + "\n")
        ok = got == r["expect"]
        right += ok
        print(f"{'ok  ' if ok else 'MISS'} {r['source']}: expected {r['expect']}, named {got}"
              + (f" ({detail})" if detail else ""))
    score = right / len(recs)
    name = corpus.replace("\\", "/").rsplit("/", 1)[-1]
    print(f"score {name}: {right}/{len(recs)} = {score:.0%}" + (f" (threshold {min_score:.0%})" if min_score is not None else ""))
    if min_score is None:
        return right == len(recs)
    return score >= min_score


if __name__ == "__main__":
    sys.exit(main())
