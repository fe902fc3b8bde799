#!/usr/bin/python3
"""Ensemble throughput of `eqc sweep`, measured side by side in one run (bench workload 8).

Per problem (Lotka-Volterra, the oscillator, ROBER, the pendulum), runs per second per core of:
  - `eqc sweep` with one worker (whole process, the compiled-model cache warm),
  - a shell loop of `eqc simulate -p` (one process per run, the cache warm),
  - SciPy's `solve_ivp` in a Python loop on the same problem, tolerances and output grid (the
    pendulum as its ODE in the angle: SciPy has no DAE solver; ROBER with Radau and its Jacobian),
then strong scaling (`-j 1` against `-j 2`; `mpirun -n 1` against `-n 2` when eqc has MPI) from
the runs' own time (`--stats`), and peak memory at N and 10 N runs. Writes a Markdown section
(stdout) and CSV rows (`--csv`).
"""
import argparse
import csv
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from run import run_wait4  # noqa: E402 (the suite's process runner: wall time and peak RSS by wait4)

# name, example, the varied parameter, its distribution, extra eqc options, the rtol/atol eqc uses
PROBLEMS = [
    ("lotka_volterra", "lotka_volterra.eq", "alpha", "uniform(1.2,1.8)", [], (1e-9, 1e-9)),
    ("oscillator", "oscillator.eq", "k", "uniform(2,6)", [], (1e-8, 1e-8)),
    ("rober", "rober.eq", "k1", "uniform(0.03,0.05)", ["--rtol", "1e-6", "--atol", "1e-10"], (1e-6, 1e-10)),
    ("pendulum", "pendulum.eq", "g", "uniform(9,10.6)", [], (1e-10, 1e-10)),
]


def wall(cmd, env=None):
    """Seconds, peak RSS (MB), stdout and stderr of a whole process (run.py's run_wait4)."""
    secs, rss, stdout, stderr, code = run_wait4(cmd, env=env)
    if code != 0:
        raise RuntimeError("%s: exit %d\n%s" % (" ".join(cmd), code, stderr[-2000:]))
    return secs, rss, stdout, stderr


def runs_seconds(stderr):
    m = re.search(r"sweep: (\d+) runs in ([0-9.e+-]+) s", stderr)
    return float(m.group(2)) if m else float("nan")


def scipy_problem(name, value):
    """The right-hand side, start, span, grid and method of a problem for solve_ivp."""
    import numpy as np
    if name == "lotka_volterra":
        a, b, g, d = value, 1.0, 3.0, 1.0
        return (lambda t, y: [a * y[0] - b * y[0] * y[1], d * y[0] * y[1] - g * y[1]], [10.0, 5.0], 15.0, 0.01,
                "RK45", None)
    if name == "oscillator":
        k, c = value, 0.1
        return lambda t, y: [y[1], -c * y[1] - k * y[0]], [1.0, 0.0], 10.0, 0.01, "RK45", None
    if name == "rober":
        k1, k2, k3 = value, 3e7, 1e4
        f = lambda t, y: [-k1 * y[0] + k3 * y[1] * y[2], k1 * y[0] - k3 * y[1] * y[2] - k2 * y[1] ** 2, k2 * y[1] ** 2]
        jac = lambda t, y: np.array([[-k1, k3 * y[2], k3 * y[1]], [k1, -k3 * y[2] - 2 * k2 * y[1], -k3 * y[1]],
                                     [0, 2 * k2 * y[1], 0]])
        return f, [1.0, 0.0, 0.0], 1e11, 1e11 / 500, "Radau", jac
    # the pendulum x = L sin(th), y = -L cos(th), L = 1, released at rest from x = 1 (horizontal)
    L, g = 1.0, value
    th0 = math.pi / 2
    return lambda t, y: [y[1], -(g / L) * math.sin(y[0])], [th0, 0.0], 10.0, 0.01, "DOP853", None


def scipy_seconds(name, values, tolerances):
    from scipy.integrate import solve_ivp
    import numpy as np
    rtol, atol = tolerances
    t0 = time.perf_counter()
    for v in values:
        f, y0, t_end, interval, method, jac = scipy_problem(name, v)
        grid = np.linspace(0, t_end, int(round(t_end / interval)) + 1)
        kw = {"jac": jac} if jac is not None else {}
        sol = solve_ivp(f, (0, t_end), y0, method=method, t_eval=grid, rtol=rtol, atol=atol, **kw)
        if not sol.success:
            raise RuntimeError("solve_ivp failed on %s: %s" % (name, sol.message))
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=2000, help="runs per sweep")
    ap.add_argument("--loop", type=int, default=10, help="runs of the shell loop and of SciPy's loop")
    ap.add_argument("--csv", default=None)
    ap.add_argument("--smoke", action="store_true", help="a few runs of each, no SciPy")
    a = ap.parse_args()
    if a.smoke:
        a.runs, a.loop = 8, 2
    eqc = os.path.join(a.build, "eqc")
    work = tempfile.mkdtemp(prefix="eqc-sweep-bench-")
    env = dict(os.environ, EQC_CACHE_DIR=os.path.join(work, "cache"))
    have_scipy = not a.smoke and subprocess.run(["/usr/bin/python3", "-c", "import scipy"],
                                                capture_output=True).returncode == 0
    mpirun = shutil.which("mpirun")
    has_mpi = mpirun and "Under `mpirun -n N`" in subprocess.run([eqc, "help", "sweep"], capture_output=True,
                                                          text=True).stdout and not a.smoke
    rows, md = [], []
    md.append("## 8. Ensembles: `eqc sweep` against a shell loop of `eqc simulate -p` and SciPy's `solve_ivp`\n")
    md.append("Runs per second per core; `eqc sweep` with one worker (%d runs, whole process: the trajectories on "
              "the experiment's output grid compressed into the HDF5 file and the summary; `--final-only` keeps the "
              "end values only), the shell loop and SciPy's loop %d runs each (SciPy returns the trajectories on the "
              "same grid, in memory), the compiled-model cache warm. Targets: sweep >= 20x the loop and >= 10x "
              "SciPy.\n" % (a.runs, a.loop))
    md.append("| problem | sweep runs/s | `--final-only` runs/s | shell loop runs/s | SciPy runs/s | sweep / loop | "
              "sweep / SciPy | `--final-only` / SciPy |")
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    scaling = []
    for name, example, param, dist, extra, tol in PROBLEMS:
        model = os.path.join(ROOT, "examples", example)
        sweep = [eqc, "sweep", model, "-p", "%s~%s" % (param, dist), "--samples", str(a.runs), "--quiet", "--stats",
                 "-o", os.path.join(work, name + ".h5")] + extra
        wall(sweep + ["-j", "1"], env)  # fills the cache
        t_sweep, _, _, err1 = wall(sweep + ["-j", "1"], env)
        sweep_rate = a.runs / t_sweep
        t_final, _, _, _ = wall(sweep + ["-j", "1", "--final-only"], env)
        final_rate = a.runs / t_final
        lo, hi = [float(x) for x in re.findall(r"[0-9.]+", dist)]
        values = [lo + (hi - lo) * (k + 0.5) / a.loop for k in range(a.loop)]
        t0 = time.perf_counter()
        for v in values:
            wall([eqc, "simulate", model, "-p", "%s=%r" % (param, v), "--quiet", "-o", os.path.join(work, "one.csv")]
                 + extra, env)
        loop_rate = a.loop / (time.perf_counter() - t0)
        scipy_rate = a.loop / scipy_seconds(name, values, tol) if have_scipy else float("nan")
        md.append("| %s | %.0f | %.0f | %.1f | %s | %.0fx | %s | %s |" % (
            name, sweep_rate, final_rate, loop_rate, "%.1f" % scipy_rate if have_scipy else "-", sweep_rate / loop_rate,
            "%.0fx" % (sweep_rate / scipy_rate) if have_scipy else "-",
            "%.0fx" % (final_rate / scipy_rate) if have_scipy else "-"))
        rows += [("sweep", name, "sweep_runs_per_s", sweep_rate), ("sweep", name, "final_only_runs_per_s", final_rate),
                 ("sweep", name, "loop_runs_per_s", loop_rate),
                 ("sweep", name, "scipy_runs_per_s", scipy_rate)]
        # Strong scaling from the runs' own time (compilation excluded).
        _, _, _, err2 = wall(sweep + ["-j", "2"], env)
        s1, s2 = runs_seconds(err1), runs_seconds(err2)
        entry = [name, s1, s2, s1 / (2 * s2)]
        if has_mpi:
            m = [mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl_vader_single_copy_mechanism", "none"]
            _, _, _, e1 = wall(m + ["-n", "1"] + sweep + ["-j", "1"], env)
            _, _, _, e2 = wall(m + ["-n", "2"] + sweep + ["-j", "1"], env)
            r1, r2 = runs_seconds(e1), runs_seconds(e2)
            entry += [r1, r2, r1 / (2 * r2)]
        scaling.append(entry)
        rows.append(("sweep", name, "efficiency_j2", entry[3]))
        print("sweep %-16s %8.0f runs/s  loop %6.1f  scipy %s" % (name, sweep_rate, loop_rate,
                                                                 "%.1f" % scipy_rate if have_scipy else "-"),
              file=sys.stderr, flush=True)
    md.append("")
    md.append("Strong scaling (the runs' time from `--stats`, trajectories and the summary included; target "
              "efficiency >= 0.9 at 2):\n")
    md.append("| problem | -j 1 s | -j 2 s | efficiency | mpirun -n 1 s | -n 2 s | efficiency |")
    md.append("|---|---:|---:|---:|---:|---:|---:|")
    for e in scaling:
        cells = ["%.3f" % e[1], "%.3f" % e[2], "%.2f" % e[3]] + (
            ["%.3f" % e[4], "%.3f" % e[5], "%.2f" % e[6]] if len(e) > 4 else ["-", "-", "-"])
        md.append("| %s | %s |" % (e[0], " | ".join(cells)))
    # Memory: the same study at N and 10 N runs.
    model = os.path.join(ROOT, "examples", "lotka_volterra.eq")
    peaks = []
    for n in (a.runs, 10 * a.runs):
        _, mb, _, _ = wall([eqc, "sweep", model, "-p", "alpha~uniform(1.2,1.8)", "--samples", str(n), "--quiet",
                            "-j", "2", "-o", os.path.join(work, "mem.h5")], env)
        peaks.append(mb)
        rows.append(("sweep", "lotka_volterra", "peak_mb_%d_runs" % n, mb))
    md.append("\nPeak memory of the Lotka-Volterra study (1,501 points x 3 variables per run, `-j 2`): %.0f MB at %d "
              "runs, %.0f MB at %d runs.\n" % (peaks[0], a.runs, peaks[1], 10 * a.runs))
    print("\n".join(md))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["workload", "model", "metric", "value"])
            w.writerows(rows)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
