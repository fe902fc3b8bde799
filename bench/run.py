#!/usr/bin/env python3
"""The benchmark suite in one command: writes one CSV and a Markdown summary with ratios.

    bench/run.py [--build build] [--out DIR] [--sizes 100,1000,10000,100000] [--reps 3] [--smoke]

Workloads (bench/README.md says what each measures and how to read it):
  compile   compile scaling: every family of bench/gen_models.py in scalar and array form at each
            size, `eqc simulate` from source to the first right-hand-side call (one Euler step),
            whole process: wall time, peak RSS, and each phase from --time-passes; beside it the
            same right-hand side as straight-line C compiled by clang -O0 and -O2 (compile only)
  rhs       JIT rhs against hand-written C (build/bench/eqc_bench_rhs)
  wp        work-precision against SUNDIALS CVODE (eqc_bench_workprecision, when built)
  sparse    sparse LU against KLU (eqc_bench_sparselu, when built)
  sparse_stiff  a large sparse stiff problem, BRUSS-2D (N = 16, 32, 64), eqc's radau5 with its
            sparse LU against CVODE BDF with KLU (eqc_bench_sparse_stiff, when built)
  first     time to first result: `eqc simulate` of every example, whole process

Every comparison is measured side by side in the same run, interleaved, as medians of --reps
repetitions. Nothing here checks a time; `--smoke` (a ctest) runs every workload at tiny sizes
and checks that each run succeeds and that the tables are written.
"""

import argparse
import csv
import glob
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_models  # noqa: E402

PHASES = ("parse", "flatten", "reduce", "causalize", "codegen", "optimize", "jit")


class Failure(Exception):
    pass


def run_wait4(cmd, timeout=None, env=None, memory_gb=None):
    """Runs cmd with os.wait4 for its own rusage: (seconds, peak RSS MB, stdout, stderr, code).
    With memory_gb, the process's address space is limited to that (a model too large for the
    machine then fails with an error instead of calling the kernel's OOM killer on the run)."""
    out_f = tempfile.TemporaryFile(mode="w+")
    err_f = tempfile.TemporaryFile(mode="w+")
    begin = time.perf_counter()

    def limit():
        if memory_gb:
            import resource
            bytes_ = int(memory_gb * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (bytes_, bytes_))

    p = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, env=env, preexec_fn=limit)
    deadline = None if timeout is None else begin + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid != 0:
            break
        if deadline is not None and time.perf_counter() > deadline:
            p.kill()
            pid, status, usage = os.wait4(p.pid, 0)
            status = -9
            break
        time.sleep(0.002)
    seconds = time.perf_counter() - begin
    p.returncode = os.waitstatus_to_exitcode(status) if status != -9 else -9
    out_f.seek(0)
    err_f.seek(0)
    return seconds, usage.ru_maxrss / 1024.0, out_f.read(), err_f.read(), p.returncode


def time_passes(stderr):
    phases = {}
    for m in re.finditer(r"^time (\w+): ([0-9.eE+-]+) ms$", stderr, re.M):
        phases[m.group(1)] = float(m.group(2)) / 1000.0
    return phases


def slope(points):
    """Least-squares slope of log(time) against log(N)."""
    pts = [(math.log(n), math.log(t)) for n, t in points if t > 0 and math.isfinite(t)]
    if len(pts) < 2:
        return float("nan")
    mx = statistics.fmean(p[0] for p in pts)
    my = statistics.fmean(p[1] for p in pts)
    den = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / den if den else float("nan")


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "-"
    return "%.*g" % (digits, v)


class Suite:
    def __init__(self, args):
        self.a = args
        self.eqc = os.path.join(args.build, "eqc")
        self.rows = []  # (workload, model, form, n, equations, metric, value, unit)
        self.failures = []
        self.md = []
        self.work = tempfile.mkdtemp(prefix="eqc-bench-")
        self.cc = shutil.which("clang-14") or shutil.which("clang") or shutil.which("cc")

    def row(self, workload, model, form, n, eqs, metric, value, unit):
        self.rows.append((workload, model, form, n, eqs, metric, value, unit))

    # -- workload 1 -------------------------------------------------------------------------------
    def compile_one(self, path):
        cmd = [self.eqc, "simulate", path, "--method", "euler", "--t-end", "1e-9", "--dt", "1e-9",
               "-o", os.path.join(self.work, "out.csv"), "--quiet", "--time-passes", "--no-cache"]
        secs, rss, _, err, code = run_wait4(cmd, timeout=self.a.timeout, memory_gb=self.a.memory_gb)
        if code != 0:
            return None, err.strip().splitlines()[-1] if err.strip() else "exit %d" % code
        return secs, rss, time_passes(err)

    def c_compile(self, c_path, level):
        obj = os.path.join(self.work, "rhs.o")
        secs, rss, _, err, code = run_wait4([self.cc, "-O%d" % level, "-c", c_path, "-o", obj], timeout=self.a.timeout)
        if code != 0:
            raise Failure("%s -O%d failed: %s" % (self.cc, level, err[-1000:]))
        return secs, rss

    def workload_compile(self):
        families = self.a.families.split(",")
        results = {}  # (family, form) -> list of (n, eqs, median total, rss, phases, c0, c2)
        failed = set()
        for family in families:
            for form in ("scalar", "array"):
                for n_eq in self.a.sizes:
                    n = max(2, n_eq // gen_models.PER_CELL[family])
                    eqs = gen_models.equations(family, n)
                    path = os.path.join(self.work, "%s_%s_%d.eq" % (family, form, n))
                    text = (gen_models.scalar_model if form == "scalar" else gen_models.array_model)(family, n)
                    with open(path, "w") as f:
                        f.write(text)
                    c_path = None
                    if family in gen_models.HAS_C and form == "scalar" and self.cc and eqs <= self.a.c_max_equations:
                        c_path = path[:-3] + ".c"
                        with open(c_path, "w") as f:
                            f.write(gen_models.c_rhs(family, n))
                    if (family, form) in failed:
                        continue
                    reps = self.a.reps if eqs <= 10000 else 1
                    totals, rsss, phase_runs, c0s, c2s = [], [], [], [], []
                    for _ in range(reps):  # interleaved: eqc, clang -O0, clang -O2 per round
                        outcome = self.compile_one(path)
                        if outcome[0] is None:
                            break
                        secs, rss, phases = outcome
                        totals.append(secs)
                        rsss.append(rss)
                        phase_runs.append(phases)
                        if c_path:
                            c0s.append(self.c_compile(c_path, 0)[0])
                            c2s.append(self.c_compile(c_path, 2)[0])
                    if not totals:  # failed (e.g. over --memory-gb): said, and no larger size tried
                        failed.add((family, form))
                        self.failures.append("%s %s, %d equations: %s" % (family, form, eqs, outcome[1]))
                        self.row("compile", family, form, n, eqs, "failed", outcome[1], "")
                        print("compile %s_%s N=%d failed: %s" % (family, form, n, outcome[1]), flush=True)
                        continue
                    total = statistics.median(totals)
                    rss = max(rsss)
                    phases = {p: statistics.median(r.get(p, 0.0) for r in phase_runs) for p in PHASES}
                    c0 = statistics.median(c0s) if c0s else float("nan")
                    c2 = statistics.median(c2s) if c2s else float("nan")
                    name = "%s_%s" % (family, form)
                    self.row("compile", family, form, n, eqs, "total", total, "s")
                    self.row("compile", family, form, n, eqs, "peak_rss", rss, "MB")
                    for p in PHASES:
                        self.row("compile", family, form, n, eqs, p, phases[p], "s")
                    if c_path:
                        self.row("compile", family, form, n, eqs, "clang_O0", c0, "s")
                        self.row("compile", family, form, n, eqs, "clang_O2", c2, "s")
                    results.setdefault((family, form), []).append((n, eqs, total, rss, phases, c0, c2))
                    print("compile %-22s N=%-7d %8d equations: %7.3f s %7.0f MB%s" % (
                        name, n, eqs, total, rss,
                        "  (clang -O0 %.3f s, -O2 %.3f s)" % (c0, c2) if c_path else ""), flush=True)
        md = self.md
        md.append("## 1. Compile scaling: source to the first right-hand-side call\n")
        md.append("`eqc simulate` whole process (one Euler step), median of %d runs (1 run above 10^4 "
                  "equations); phases from `--time-passes`; peak RSS of the process. Beside it, clang "
                  "(`%s`) compiling the same right-hand side as straight-line C, compile only, "
                  "interleaved with eqc's runs. eqc/C: eqc's whole pipeline over clang -O2.\n"
                  % (self.a.reps, os.path.basename(self.cc or "none")))
        md.append("| model | form | equations | total s | parse | flatten | reduce | causalize | codegen | "
                  "optimize | jit | peak MB | µs/equation | clang -O0 s | clang -O2 s | eqc/C-O2 |")
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (family, form), pts in results.items():
            for n, eqs, total, rss, ph, c0, c2 in pts:
                md.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s | %s | %s |" % (
                    family, form, eqs, fmt(total), fmt(ph["parse"]), fmt(ph["flatten"]), fmt(ph["reduce"]),
                    fmt(ph["causalize"]), fmt(ph["codegen"]), fmt(ph["optimize"]), fmt(ph["jit"]), rss,
                    fmt(total / eqs * 1e6), fmt(c0), fmt(c2), fmt(total / c2 if c2 == c2 else float("nan"))))
        md.append("\nLog-log slope of the total time against the number of equations (from 10^3 equations "
                  "up; 1.0 is linear), and the structural part (flatten + reduce + causalize) per equation "
                  "at the largest size:\n")
        md.append("| model | form | slope | largest size | total s | structural µs/equation |")
        md.append("|---|---|---:|---:|---:|---:|")
        for (family, form), pts in results.items():
            big = [(eqs, total) for n, eqs, total, *_ in pts if eqs >= 1000]
            s = slope(big)
            n, eqs, total, rss, ph, c0, c2 = pts[-1]
            structural = ph["flatten"] + ph["reduce"] + ph["causalize"]
            self.row("compile", family, form, "", "", "slope_from_1e3", s, "")
            md.append("| %s | %s | %s | %d | %s | %s |" % (family, form, fmt(s), eqs, fmt(total),
                                                          fmt(structural / eqs * 1e6)))
        if self.failures:
            md.append("Runs that failed (no larger size of that model was tried):\n")
            md.extend("- " + f for f in self.failures)
        md.append("")

    # -- workloads 2, 3-4, 5, 7: the compiled benchmarks ------------------------------------------------
    def workload_binary(self, key, binary, args, title, has_csv=True):
        path = os.path.join(self.a.build, "bench", binary)
        if not os.path.exists(path):
            self.md.append("## %s\n\nnot built (%s; see bench/README.md)\n" % (title, binary))
            print("%s: %s not built, skipped" % (key, binary))
            return
        out_csv = os.path.join(self.a.out, "%s.csv" % key)
        cmd = [path] + args + (["--csv", out_csv] if has_csv else [])
        print("%s: %s" % (key, " ".join(cmd)), flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=self.a.timeout)
        if p.returncode != 0:
            raise Failure("%s failed (exit %d):\n%s" % (binary, p.returncode, p.stdout[-3000:]))
        with open(os.path.join(self.a.out, "%s.md" % key), "w") as f:
            f.write(p.stdout)
        self.md.append("## %s\n\nFull output: `%s.md`%s.\n" % (title, key, ", CSV: `%s.csv`" % key if has_csv else ""))
        tail = [l for l in p.stdout.splitlines() if l.startswith("|") or l.startswith("#")]
        self.md.extend(tail[:80])
        self.md.append("")
        if has_csv:
            self.row(key, binary, "", "", "", "csv", out_csv, "path")

    # -- workloads 3 and 4, SciPy ------------------------------------------------------------------
    def workload_scipy(self):
        """SciPy's solve_ivp (bench/scipy_peer.py, Debian's python3-scipy under /usr/bin/python3)
        on the work-precision problems, compared with eqc's runs of the wp workload."""
        title = "3-4. Work-precision against SciPy's solve_ivp"
        python = "/usr/bin/python3"
        have = os.path.exists(python) and subprocess.run(
            [python, "-c", "import scipy"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        eqc_csv = os.path.join(self.a.out, "wp.csv")
        if not have or not os.path.exists(eqc_csv):
            reason = "python3-scipy not installed (bench/install-peers.sh)" if not have else "no wp workload"
            self.md.append("## %s\n\nskipped: %s\n" % (title, reason))
            print("scipy: skipped (%s)" % reason)
            return
        script = os.path.join(HERE, "scipy_peer.py")
        scipy_csv = os.path.join(self.a.out, "scipy.csv")
        bench = os.path.join(self.a.build, "bench", "eqc_bench_workprecision")
        measure = [python, script, "--bench", bench, "--csv", scipy_csv] + (["--smoke"] if self.a.smoke else [])
        print("scipy: %s" % " ".join(measure), flush=True)
        p = subprocess.run(measure, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=self.a.timeout)
        if p.returncode != 0:
            raise Failure("scipy_peer.py failed (exit %d):\n%s" % (p.returncode, p.stdout[-3000:]))
        with open(os.path.join(self.a.out, "scipy.md"), "w") as f:
            f.write(p.stdout)
        compare = [python, script, "--bench", bench, "--compare", eqc_csv, "--scipy-csv", scipy_csv]
        c = subprocess.run(compare, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=self.a.timeout)
        if c.returncode != 0:
            raise Failure("scipy_peer.py --compare failed (exit %d):\n%s" % (c.returncode, c.stdout[-3000:]))
        self.md.append("## %s\n\nSciPy's own table: `scipy.md`, CSV `scipy.csv`; eqc's runs from the wp workload.\n"
                       % title)
        self.md.extend(l for l in c.stdout.splitlines() if l.startswith("|") or l.startswith("#"))
        self.md.append("")

    # -- workload 6 -------------------------------------------------------------------------------
    def workload_first(self):
        examples = sorted(glob.glob(os.path.join(ROOT, "examples", "*.eq")))
        if self.a.smoke:
            examples = examples[:3]
        lib = os.path.join(ROOT, "examples", "lib")
        rows = []
        env = dict(os.environ, EQC_CACHE_DIR=os.path.join(self.work, "cache"))

        def measure(cmd):
            secs, rss, _, err, code = run_wait4(cmd, timeout=self.a.timeout, env=env)
            if code != 0:
                raise Failure("%s: exit %d\n%s" % (" ".join(cmd), code, err[-2000:]))
            return secs, rss

        for path in examples:
            name = os.path.basename(path)[:-3]
            cmd = [self.eqc, "simulate", path, "--lib", lib, "-o", os.path.join(self.work, "first.csv"), "--quiet"]
            measure(cmd)  # fills the cache
            cold, warm = [], []
            for _ in range(self.a.reps_first):  # interleaved: without the cache, then with it
                cold.append(measure(cmd + ["--no-cache"]))
                warm.append(measure(cmd))
            tc = statistics.median(t for t, _ in cold)
            tw = statistics.median(t for t, _ in warm)
            rss = max(r for _, r in cold)
            rows.append((name, tc, tw, rss))
            self.row("first", name, "", "", "", "whole_process_no_cache", tc, "s")
            self.row("first", name, "", "", "", "whole_process_cached", tw, "s")
            print("first %-28s %.3f s (cached: %.3f s)" % (name, tc, tw), flush=True)
        self.md.append("## 6. Time to first result: `eqc simulate` of the examples, whole process\n")
        self.md.append("Median of %d runs each, interleaved: without the compiled-model cache (`--no-cache`) "
                       "and with it (filled by a run before). With the examples' own experiment settings, so "
                       "this includes the whole simulation and writing the CSV.\n" % self.a.reps_first)
        self.md.append("| example | seconds | cached, seconds | peak MB |")
        self.md.append("|---|---:|---:|---:|")
        for name, tc, tw, rss in rows:
            self.md.append("| %s | %s | %s | %.0f |" % (name, fmt(tc), fmt(tw), rss))
        self.md.append("")

    # -- workload 8 -------------------------------------------------------------------------------
    def workload_sweep(self):
        """Ensembles: bench/sweep_bench.py (eqc sweep against a shell loop and SciPy's loop)."""
        cmd = ["/usr/bin/python3", os.path.join(HERE, "sweep_bench.py"), "--build", self.a.build,
               "--csv", os.path.join(self.a.out, "sweep.csv")] + (["--smoke"] if self.a.smoke else [])
        print("sweep: %s" % " ".join(cmd), flush=True)
        os.makedirs(self.a.out, exist_ok=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=self.a.timeout)
        if p.returncode != 0:
            raise Failure("sweep_bench.py failed (exit %d):\n%s" % (p.returncode, p.stdout[-3000:]))
        self.md.extend(l for l in p.stdout.splitlines() if not l.startswith("sweep "))
        self.md.append("")

    def write(self):
        os.makedirs(self.a.out, exist_ok=True)
        csv_path = os.path.join(self.a.out, "results.csv")
        tmp = csv_path + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["workload", "model", "form", "n", "equations", "metric", "value", "unit"])
            w.writerows(self.rows)
        os.replace(tmp, csv_path)
        md_path = os.path.join(self.a.out, "summary.md")
        with open(md_path + ".tmp", "w") as f:
            f.write("# eqc benchmark summary\n\n%s, %s\n\n" % (time.strftime("%Y-%m-%d %H:%M"), os.uname().machine))
            f.write("\n".join(self.md) + "\n")
        os.replace(md_path + ".tmp", md_path)
        print("wrote %s and %s" % (csv_path, md_path))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=None, help="output directory (default BUILD/bench-results)")
    ap.add_argument("--sizes", default="100,1000,10000,100000",
                    help="numbers of equations (each family's N is chosen to match)")
    ap.add_argument("--families", default=",".join(gen_models.FAMILIES))
    ap.add_argument("--workloads", default="compile,rhs,wp,sparse,sparse_stiff,first,sweep")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--reps-first", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--memory-gb", type=float, default=12,
                    help="address-space limit of each eqc compile run (a run over it fails, is listed, "
                         "and the model's larger sizes are skipped)")
    ap.add_argument("--c-max-equations", type=int, default=10000,
                    help="largest model whose C is compiled (clang -O2 on the 10^5-line C of the "
                         "cascade took 4.5 minutes and 6.4 GB)")
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, one repetition (the ctest)")
    a = ap.parse_args()
    a.out = a.out or os.path.join(a.build, "bench-results")
    if a.smoke:
        a.sizes, a.reps, a.reps_first = "20", 1, 1
    a.sizes = [int(s) for s in a.sizes.split(",")]
    os.makedirs(a.out, exist_ok=True)
    s = Suite(a)
    workloads = a.workloads.split(",")
    try:
        if "compile" in workloads:
            s.workload_compile()
        if "rhs" in workloads:
            s.workload_binary("rhs", "eqc_bench_rhs", ["--smoke"] if a.smoke else ["--n", "500"],
                              "2. Right-hand side: JIT against hand-written C")
        if "wp" in workloads:
            s.workload_binary("wp", "eqc_bench_workprecision", ["--smoke"] if a.smoke else [],
                              "3-4. Work-precision against SUNDIALS CVODE (non-stiff and stiff)")
        if "wp" in workloads:
            s.workload_scipy()
        if "sparse" in workloads:
            s.workload_binary("sparse", "eqc_bench_sparselu", ["--smoke"] if a.smoke else [],
                              "5. Large sparse linear algebra: Eigen SparseLU against KLU", has_csv=False)
        if "sparse_stiff" in workloads:
            s.workload_binary("sparse_stiff", "eqc_bench_sparse_stiff", ["--smoke"] if a.smoke else [],
                              "7. Large sparse stiff problem: BRUSS-2D, radau5 against CVODE BDF with KLU")
        if "first" in workloads:
            s.workload_first()
        if "sweep" in workloads:
            s.workload_sweep()
    except Failure as e:
        print("bench: error: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(s.work, ignore_errors=True)
    s.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
