#!/usr/bin/python3
"""Simulates the examples of Modelica Standard Library packages with eqc and tabulates the results.

usage: bench/msl_examples.py [--eqc build/eqc] [--msl DIR] [--timeout S] [--jobs N] [--csv out.csv]
                             PACKAGE...   (e.g. Modelica.Electrical.Analog Modelica.Blocks)

An example is a non-partial model or block under a package's `Examples` with an `experiment`
annotation; each is run as `eqc simulate <class> --lib <msl>` with the annotation's settings, and
the table gives per package the examples found, those simulated to their stop time, the slowest
(wall-clock, translation and simulation), and the first error line of each failure.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

CLASS = re.compile(r"^\s*(?:(?:partial|encapsulated|final|replaceable|redeclare)\s+)*"
                   r"(model|block|package|record|function|connector|class|type|operator)\s+(?:extends\s+)?"
                   r"(\w+)(?!\w)(?!\s*[=(])")  # not `function f(k = 2)`, a partial application
END = re.compile(r"^\s*end\s+(\w+)\s*;")
WITHIN = re.compile(r"^\s*within\s+([\w.]*)\s*;")


def examples_in(path, package_prefix):
    """The example classes of one .mo file: (dotted name) of models/blocks with an experiment."""
    found = []
    stack = []  # (name, kind, partial, has_experiment)
    within = ""
    in_string = False  # inside a string literal (documentation) where the line starts
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            # The line without its string literals' text (which may span lines).
            outside, escaped = [], False
            for ch in raw:
                if in_string:
                    if escaped:
                        escaped = False
                    elif ch == "\\":
                        escaped = True
                    elif ch == '"':
                        in_string = False
                        outside.append('""')
                elif ch == '"':
                    in_string = True
                else:
                    outside.append(ch)
            line = "".join(outside)
            m = WITHIN.match(line)
            if m:
                within = m.group(1)
                continue
            m = CLASS.match(line)
            if m and not line.strip().startswith("end"):
                stack.append([m.group(2), m.group(1), "partial" in line.split(m.group(1))[0], False])
                continue
            if stack and "experiment(" in line.replace(" ", ""):
                stack[-1][3] = True
            m = END.match(line)
            if m and stack and stack[-1][0] == m.group(1):
                name, kind, partial, experiment = stack.pop()
                dotted = ".".join([p for p in [within] if p] + [s[0] for s in stack] + [name])
                if (kind in ("model", "block") and not partial and experiment and ".Examples." in dotted + "."
                        and dotted.startswith(package_prefix + ".")):
                    found.append(dotted)
    return found


def package_examples(msl, package):
    root = os.path.join(msl, *package.split("."))
    files = []
    if os.path.isdir(root):
        for d, _, names in os.walk(root):
            files += [os.path.join(d, n) for n in names if n.endswith(".mo")]
    elif os.path.exists(root + ".mo"):
        files.append(root + ".mo")
    found = []
    for f in sorted(files):
        found += examples_in(f, package)
    return sorted(set(found))


def run(eqc, msl, example, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        start = time.monotonic()
        try:
            p = subprocess.run([eqc, "simulate", example, "--lib", msl, "-o", os.path.join(tmp, "out.csv")],
                               capture_output=True, text=True, timeout=timeout, cwd=tmp)
            seconds = time.monotonic() - start
            first = next((l for l in p.stderr.splitlines() if "error" in l), p.stderr.strip().split("\n")[0])
            return example, p.returncode, seconds, first
        except subprocess.TimeoutExpired:
            return example, "timeout", timeout, "timed out after %g s" % timeout


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("packages", nargs="+")
    ap.add_argument("--eqc", default=os.path.join(here, "..", "build", "eqc"))
    ap.add_argument("--msl", default=os.path.join(here, "..", "..", "shared", "msl-4.0.0"))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--csv")
    a = ap.parse_args()
    msl = os.path.abspath(a.msl)
    rows = []
    print("| package | examples | simulate | slowest (s) |\n|---|---|---|---|")
    for package in a.packages:
        examples = package_examples(msl, package)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda e: run(a.eqc, msl, e, a.timeout), examples))
        rows += [(package,) + r for r in results]
        ok = [r for r in results if r[1] == 0]
        slowest = max(ok, key=lambda r: r[2]) if ok else None
        print("| %s | %d | %d | %s |" % (package, len(examples), len(ok),
                                          "%s %.2f" % (slowest[0].split(".")[-1], slowest[2]) if slowest else "-"))
        sys.stdout.flush()
    print()
    for package, example, rc, seconds, first in rows:
        if rc != 0:
            print("- %s (%s): %s" % (example, rc, first))
    if a.csv:
        with open(a.csv, "w") as out:
            out.write("package,example,rc,seconds\n")
            for package, example, rc, seconds, _ in rows:
                out.write("%s,%s,%s,%.3f\n" % (package, example, rc, seconds))


if __name__ == "__main__":
    main()
