#!/usr/bin/python3
"""Work-precision of SciPy's solve_ivp on the problems of eqc_bench_workprecision, and the time
ratio eqc/SciPy at matched error.

Measures scipy.integrate.solve_ivp on ROBER, HIRES, VDPOL (mu = 1e6), Arenstorf, Pleiades, Lorenz
and RigidBody with the initial values, end times, reference values, atol scaling and mixed error
of bench/workprecision.cpp (whose problems live in bench/wp_problems.c): RK45 and DOP853 on the
non-stiff problems, Radau, BDF and LSODA with the analytic Jacobian on the stiff ones. Writes a
CSV (--csv) and prints a Markdown table. With --compare EQC.csv (the CSV of
`eqc_bench_workprecision --csv`) it also prints the time ratio eqc/SciPy at matched mixed error,
interpolated exactly as workprecision.cpp does. See bench/README.md.

SciPy comes from Debian (apt-get install python3-scipy python3-numpy), hence /usr/bin/python3.

usage:
  bench/scipy_peer.py [--bench build/bench/eqc_bench_workprecision] [--csv FILE] [--problems ROBER,HIRES] [--reps 3]
  bench/scipy_peer.py --smoke
  bench/scipy_peer.py --compare EQC.csv [--scipy-csv SCIPY.csv]  # reuse a SciPy CSV, or measure
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time
from typing import Callable, NamedTuple, Optional

import numpy as np
import scipy
from scipy.integrate import solve_ivp


# ---- the problems: the C right-hand sides of bench/wp_problems.c written again in Python (their
# numbers are read from eqc_bench_workprecision, see load_problems) ----
#
# The small systems unpack y with tolist(): arithmetic on Python floats is about 3-4 times
# faster than on numpy scalars (Arenstorf's rhs 0.7 instead of 2.9 us per call), and SciPy should
# get a right-hand side written the way a careful user would.

def rober_rhs(t, y):
    y1, y2, y3 = y.tolist()
    consumed = -0.04 * y1 + 1e4 * y2 * y3
    produced = 3e7 * y2 * y2
    return np.array([consumed, -consumed - produced, produced])


def rober_jac(t, y):
    _, y2, y3 = y.tolist()
    return np.array([[-0.04, 1e4 * y3, 1e4 * y2],
                     [0.04, -1e4 * y3 - 6e7 * y2, -1e4 * y2],
                     [0.0, 6e7 * y2, 0.0]])


# HIRES is linear except for the term 280 y6 y8 in rows 6 to 8: dy = A y + b + that term.
HIRES_A = np.array([
    [-1.71, 0.43, 8.32, 0.0, 0.0, 0.0, 0.0, 0.0],
    [1.71, -8.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, -10.03, 0.43, 0.035, 0.0, 0.0, 0.0],
    [0.0, 8.32, 1.71, -1.12, 0.0, 0.0, 0.0, 0.0],
    [0.0, 0.0, 0.0, 0.0, -1.745, 0.43, 0.43, 0.0],
    [0.0, 0.0, 0.0, 0.69, 1.71, -0.43, 0.69, 0.0],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.81, 0.0],
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.81, 0.0],
])
HIRES_B = np.array([0.0007, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
HIRES_SIGN = np.array([-1.0, 1.0, -1.0])  # sign of 280 y6 y8 in rows 6, 7, 8


def hires_rhs(t, y):
    dy = HIRES_A @ y + HIRES_B
    dy[5:8] += HIRES_SIGN * (280.0 * y[5] * y[7])
    return dy


def hires_jac(t, y):
    jac = HIRES_A.copy()
    jac[5:8, 5] += HIRES_SIGN * (280.0 * y[7])
    jac[5:8, 7] += HIRES_SIGN * (280.0 * y[5])
    return jac


VDPOL_EPS = 1e-6  # mu = 1 / eps = 1e6


def vdpol_rhs(t, y):
    y1, y2 = y.tolist()
    return np.array([y2, ((1.0 - y1 * y1) * y2 - y1) / VDPOL_EPS])


def vdpol_jac(t, y):
    y1, y2 = y.tolist()
    return np.array([[0.0, 1.0],
                     [(-2.0 * y1 * y2 - 1.0) / VDPOL_EPS, (1.0 - y1 * y1) / VDPOL_EPS]])


AREN_MU = 0.012277471
AREN_MUP = 1.0 - AREN_MU


def arenstorf_rhs(t, y):
    y1, y2, v1, v2 = y.tolist()
    a, b = y1 + AREN_MU, y1 - AREN_MUP
    s1, s2 = a * a + y2 * y2, b * b + y2 * y2
    d1, d2 = s1 * math.sqrt(s1), s2 * math.sqrt(s2)
    return np.array([v1, v2,
                     y1 + 2.0 * v2 - AREN_MUP * a / d1 - AREN_MU * b / d2,
                     y2 - 2.0 * v1 - AREN_MUP * y2 / d1 - AREN_MU * y2 / d2])


PLEIADES_MASS = np.arange(1.0, 8.0)  # m_j = j


def pleiades_rhs(t, u):
    x, y = u[0:7], u[7:14]
    dx = x[np.newaxis, :] - x[:, np.newaxis]  # dx[i, j] = x_j - x_i
    dy = y[np.newaxis, :] - y[:, np.newaxis]
    r2 = dx * dx + dy * dy
    np.fill_diagonal(r2, np.inf)  # no self-attraction: m_j / r^3 = 0 on the diagonal
    weight = PLEIADES_MASS / (r2 * np.sqrt(r2))
    return np.concatenate((u[14:28], (weight * dx).sum(axis=1), (weight * dy).sum(axis=1)))


LORENZ_SIGMA, LORENZ_RHO, LORENZ_BETA = 10.0, 28.0, 8.0 / 3.0


def lorenz_rhs(t, y):
    x, yy, z = y.tolist()
    return np.array([LORENZ_SIGMA * (yy - x), x * (LORENZ_RHO - z) - yy, x * yy - LORENZ_BETA * z])


RIGID_M = 0.51


def rigid_rhs(t, y):
    y1, y2, y3 = y.tolist()
    return np.array([y2 * y3, -y1 * y3, -RIGID_M * y1 * y2])


class Problem(NamedTuple):
    name: str
    stiff: bool
    t_end: float
    atol_ratio: float  # atol = atol_ratio * rtol; also the floor of the mixed error
    y0: np.ndarray
    ref: np.ndarray  # y(t_end)
    rhs: Callable
    jac: Optional[Callable]  # the stiff problems only: their solvers use it


# The right-hand sides (and the stiff problems' Jacobians) by problem name; the numbers (t_end,
# atol_ratio, y0, reference) come from the C table through `eqc_bench_workprecision
# --print-problems`, so that the two peers cannot drift apart.
FUNCTIONS = {
    "ROBER": (rober_rhs, rober_jac),
    "HIRES": (hires_rhs, hires_jac),
    "VDPOL": (vdpol_rhs, vdpol_jac),
    "Arenstorf": (arenstorf_rhs, None),
    "Pleiades": (pleiades_rhs, None),
    "Lorenz": (lorenz_rhs, None),
    "RigidBody": (rigid_rhs, None),
}


def load_problems(bench):
    """The problems of bench/wp_problems.c, read from `bench --print-problems`."""
    try:
        out = subprocess.run([bench, "--print-problems"], stdout=subprocess.PIPE, check=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"scipy_peer.py: cannot read the problems from {bench} --print-problems ({e}); "
                 "build it (ninja -C build eqc_bench_workprecision) or pass --bench")
    problems = []
    for d in json.loads(out):
        if d["name"] not in FUNCTIONS:
            sys.exit(f"scipy_peer.py: no right-hand side for the problem {d['name']} of {bench}")
        rhs, jac = FUNCTIONS[d["name"]]
        problems.append(Problem(d["name"], d["stiff"], d["t_end"], d["atol_ratio"], np.array(d["y0"]),
                                np.array(d["ref"]), rhs, jac))
    return problems


STIFF_METHODS = ["Radau", "BDF", "LSODA"]
NONSTIFF_METHODS = ["RK45", "DOP853"]

# A run that reports success with a mixed error at or above this has no correct digit: it is
# listed, and left out of the curves (kWrong in workprecision.cpp).
WRONG = 1.0
SINGLE_REP_S = 2.0  # a run longer than this is timed once: repeating it would only cost time
# --smoke runs rtol 1e-4, except where a method has no correct digit there: RK45 ends the
# Arenstorf orbit with error 1.2 at rtol 1e-4 (and 3e-5), 0.24 at 1e-5 (eqc's dopri5 and CVODE
# Adams also lose the orbit at loose tolerances, see bench/README.md).
SMOKE_RTOL = 1e-4
SMOKE_RTOL_OF = {"Arenstorf": 1e-5}
TARGET_DECADES = range(3, 11)  # the compared errors, 1e-3 ... 1e-10
CSV_COLUMNS = ["problem", "solver", "method", "rtol", "atol", "status", "rhs_evals", "jac_evals",
               "lu_decompositions", "err_mixed", "time_median_s"]


def mixed_error(problem, y):
    """The Test Set's mixed error max_i |y_i - ref_i| / (atol/rtol + |ref_i|), as mixedError in
    workprecision.cpp."""
    with np.errstate(all="ignore"):
        e = float(np.max(np.abs(y - problem.ref) / (problem.atol_ratio + np.abs(problem.ref))))
    return e if math.isfinite(e) else math.inf


def rtol_sweep(rtol_max, rtol_min, per_decade):
    """10^(-k / per_decade) from rtol_max down to rtol_min, as workprecision.cpp builds its
    tolerances."""
    lmax, lmin = math.log10(rtol_max), math.log10(rtol_min)
    rtols = []
    k = 0
    while lmax - k / per_decade >= lmin - 1e-9:
        rtols.append(10.0 ** (lmax - k / per_decade))
        k += 1
    return rtols


# ---- measurement ----

def solve(problem, method, rtol, atol):
    """One solve_ivp run from 0 to t_end; returns the result and its wall time."""
    kwargs = {"jac": problem.jac} if problem.jac is not None else {}
    start = time.perf_counter()
    # Loose tolerances can make ROBER blow up (as CVODE's does): that shows as the error, so
    # numpy's overflow warnings would only clutter the output.
    with np.errstate(all="ignore"):
        sol = solve_ivp(problem.rhs, (0.0, problem.t_end), problem.y0, method=method, rtol=rtol,
                        atol=atol, **kwargs)
    return sol, time.perf_counter() - start


def measure(problem, method, rtol, reps):
    """The row of one (problem, method, rtol): statistics and error of the first run, median wall
    time of up to `reps` runs (one when the first takes over SINGLE_REP_S)."""
    atol = problem.atol_ratio * rtol
    sol, seconds = solve(problem, method, rtol, atol)
    times = [seconds]
    while len(times) < reps and times[0] <= SINGLE_REP_S:
        times.append(solve(problem, method, rtol, atol)[1])
    ok = sol.status == 0 and sol.t[-1] == problem.t_end
    return {
        "problem": problem.name, "solver": "SciPy " + method, "method": method,
        "rtol": rtol, "atol": atol, "status": "ok" if ok else "failed",
        "rhs_evals": sol.nfev, "jac_evals": sol.njev, "lu_decompositions": sol.nlu,
        "err_mixed": mixed_error(problem, sol.y[:, -1]) if ok else math.nan,
        "time_median_s": statistics.median(times),
        # For the Markdown only.
        "steps": len(sol.t) - 1, "reps": len(times),
        "message": "" if ok else f"{sol.message} at t = {sol.t[-1]:.6g}",
    }


def check_jacobian(problem):
    """Largest difference of the analytic Jacobian from central differences, at y0 and at a
    perturbed state, relative to the row's largest entry (checkJacobian in workprecision.cpp)."""
    n = len(problem.y0)
    idx = np.arange(n)
    perturbed = (problem.y0 * (1.0 + 0.01 * (idx % 3 + 1))
                 + 1e-3 * np.where(idx % 2 == 1, 1.0, -1.0) * (1.0 + np.abs(problem.y0)))
    worst = 0.0
    for y in (problem.y0, perturbed):
        jac = problem.jac(0.0, y)
        fd = np.empty((n, n))
        for j in range(n):
            h = 1e-6 * max(1e-3, abs(y[j]))
            step = np.zeros(n)
            step[j] = h
            fd[:, j] = (problem.rhs(0.0, y + step) - problem.rhs(0.0, y - step)) / (2 * h)
        row_scale = np.maximum(np.abs(jac).max(axis=1, keepdims=True), 1e-300)
        worst = max(worst, float((np.abs(jac - fd) / row_scale).max()))
    return worst


def methods_of(problem):
    return STIFF_METHODS if problem.stiff else NONSTIFF_METHODS


def measure_all(problems, rtols_of, reps, max_run_s):
    """Every problem at each of its rtols (rtols_of: problem name -> list) with each of its
    methods, interleaved per rtol so that the methods share the machine's drift. A method's sweep
    ends after its first run longer than max_run_s; returns the rows and, per (problem, method),
    why a sweep ended early."""
    rows, stopped = [], {}
    for problem in problems:
        print(f"{problem.name}:", end="", file=sys.stderr, flush=True)
        for rtol in rtols_of[problem.name]:
            for method in methods_of(problem):
                if (problem.name, method) in stopped:
                    continue
                row = measure(problem, method, rtol, reps)
                rows.append(row)
                if row["time_median_s"] > max_run_s:
                    stopped[(problem.name, method)] = (
                        f"sweep ended after rtol {rtol:.0e}: run took "
                        f"{row['time_median_s']:.3g} s > {max_run_s:g} s")
            print(f" {rtol:.0e}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    return rows, stopped


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "rtol": f"{row['rtol']:.3e}", "atol": f"{row['atol']:.3e}",
                             "err_mixed": f"{row['err_mixed']:.4e}",
                             "time_median_s": f"{row['time_median_s']:.6e}"})


def print_measurement(problems, rows, stopped, reps):
    print(f"# SciPy {scipy.__version__} solve_ivp: work-precision\n")
    print(f"NumPy {np.__version__}, Python {sys.version.split()[0]}. Median wall time of up to "
          f"{reps} run(s) per point (one when a run takes over {SINGLE_REP_S:g} s); mixed error "
          f"at t_end as in eqc_bench_workprecision.\n")
    for problem in problems:
        print(f"## {problem.name} (n = {len(problem.y0)}, t_end = {problem.t_end:g}, "
              f"atol = {problem.atol_ratio:g} rtol)\n")
        print("| method | rtol | error | steps | rhs | jac | LU | time ms | us/step | runs |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for method in methods_of(problem):
            for r in rows:
                if r["problem"] != problem.name or r["method"] != method:
                    continue
                error = ("**failed**: " + r["message"] if r["status"] != "ok"
                         else f"{r['err_mixed']:.2e}"
                         + (" **wrong**" if r["err_mixed"] >= WRONG else ""))
                per_step = r["time_median_s"] * 1e6 / max(1, r["steps"])
                print(f"| {method} | {r['rtol']:.0e} | {error} | {r['steps']} | {r['rhs_evals']} "
                      f"| {r['jac_evals']} | {r['lu_decompositions']} | "
                      f"{r['time_median_s'] * 1e3:.2f} | {per_step:.1f} | {r['reps']} |")
        print()
    notes = [f"- {p}, {m}: {why}" for (p, m), why in stopped.items()]
    notes += [f"- {r['problem']}, {r['method']}, rtol {r['rtol']:.0e}: failed: {r['message']}"
              for r in rows if r["status"] != "ok"]
    notes += [f"- {r['problem']}, {r['method']}, rtol {r['rtol']:.0e}: reported success, but no "
              f"correct digit at t_end (error {r['err_mixed']:.1e})"
              for r in rows if r["status"] == "ok" and r["err_mixed"] >= WRONG]
    if notes:
        print("Ended sweeps, failed runs and answers without a correct digit (the latter two are "
              "left out of the comparison):\n")
        print("\n".join(notes) + "\n")


# ---- matched-error comparison, mirroring curveOf and interpolate in workprecision.cpp ----

class CurvePoint(NamedTuple):
    log_err: float
    log_time: float
    log_rhs: float


def log10_or_nan(v):
    return math.log10(v) if v > 0 else math.nan


def curve_of(rows, problem, solver):
    """The successful points of one solver (the CSV's solver column, e.g. "eqc dopri5": other
    peers in eqc's CSV share method names) in sweep order (loose to tight rtol), keeping only
    those whose error is below that of every looser point: a tighter rtol that does not improve
    the error only costs more."""
    points = sorted((r for r in rows if r["problem"] == problem and r["solver"] == solver),
                    key=lambda r: -float(r["rtol"]))
    curve, best = [], math.inf
    for r in points:
        err = float(r["err_mixed"])
        if r["status"] == "ok" and 0 < err < WRONG and err < best:
            best = err
            curve.append(CurvePoint(math.log10(err), math.log10(float(r["time_median_s"])),
                                    log10_or_nan(int(r["rhs_evals"]))))
    return curve


def interpolate(curve, log_err):
    """Linear interpolation in log-log at log_err between the two neighbouring points of the
    (monotone) curve that bracket it. No extrapolation."""
    for a, b in zip(curve, curve[1:]):
        lo, hi = min(a.log_err, b.log_err), max(a.log_err, b.log_err)
        if log_err < lo or log_err > hi:
            continue
        if hi == lo:
            return a
        w = (log_err - a.log_err) / (b.log_err - a.log_err)
        return CurvePoint(log_err, a.log_time + w * (b.log_time - a.log_time),
                          a.log_rhs + w * (b.log_rhs - a.log_rhs))
    if len(curve) == 1 and curve[0].log_err == log_err:
        return curve[0]
    return None


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def print_comparison(problems, eqc_rows, scipy_rows, eqc_csv):
    """Per problem and target error, the time ratio of eqc's fastest method of the class (dopri5
    or dop853; radau5) to each SciPy method, both interpolated to the same mixed error."""
    print("## eqc / SciPy at matched error\n")
    print(f"eqc: {eqc_csv}. Time ratio (median run time of eqc / of SciPy, both interpolated in "
          "log-log to the same mixed error along the monotone envelope of each sweep); in "
          "parentheses the ratio of rhs evaluations. < 1: eqc is faster. The row \"eqc method\" "
          "names eqc's method compared at that error: the faster of dopri5 and dop853 on the "
          "non-stiff problems, radau5 on the stiff ones. -: the error is outside one of the two "
          "curves (no extrapolation).\n")
    header = "| problem | SciPy method |" + "".join(f" err 1e-{d} |" for d in TARGET_DECADES)
    print(header + "\n|---|---|" + "---:|" * len(TARGET_DECADES))
    speedups = []  # (problem, SciPy method, [SciPy time / eqc time at each matched target])
    for problem in problems:
        eqc_methods = ["radau5"] if problem.stiff else ["dopri5", "dop853"]
        best = {}  # decade -> (eqc method, interpolated point)
        for m in eqc_methods:
            curve = curve_of(eqc_rows, problem.name, "eqc " + m)
            for d in TARGET_DECADES:
                p = interpolate(curve, -d)
                if p is not None and (d not in best or p.log_time < best[d][1].log_time):
                    best[d] = (m, p)
        print(f"| {problem.name} | (eqc method) |"
              + "".join(f" {best[d][0] if d in best else '-'} |" for d in TARGET_DECADES))
        for method in methods_of(problem):
            curve = curve_of(scipy_rows, problem.name, "SciPy " + method)
            cells, ratios = [], []
            for d in TARGET_DECADES:
                s = interpolate(curve, -d)
                if d not in best or s is None:
                    cells.append("-")
                    continue
                e = best[d][1]
                ratios.append(10.0 ** (s.log_time - e.log_time))
                cells.append(f"{10.0 ** (e.log_time - s.log_time):.2g} "
                             f"({10.0 ** (e.log_rhs - s.log_rhs):.2g})")
            print(f"| {problem.name} | {method} |" + "".join(f" {c} |" for c in cells))
            speedups.append((problem.name, method, ratios))
    print()
    print("Speed-up of eqc over SciPy (SciPy time / eqc time) over the matched errors above:\n")
    print("| problem | SciPy method | matched errors | smallest | largest | >= 30x at all |")
    print("|---|---|---:|---:|---:|---|")
    for name, method, ratios in speedups:
        if ratios:
            print(f"| {name} | {method} | {len(ratios)} | {min(ratios):.0f} | {max(ratios):.0f} "
                  f"| {'yes' if min(ratios) >= 30 else 'no'} |")
        else:
            print(f"| {name} | {method} | 0 | - | - | - |")
    print()


# ---- main ----

def parse_args():
    parser = argparse.ArgumentParser(
        description="Work-precision of SciPy's solve_ivp on eqc_bench_workprecision's problems, "
                    "and eqc/SciPy at matched error.")
    parser.add_argument("--bench", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                                                        "bench", "eqc_bench_workprecision"),
                        help="eqc_bench_workprecision, whose --print-problems gives the problems' "
                             "numbers (default: build/bench/ of this checkout)")
    parser.add_argument("--csv", help="write one CSV row per (problem, method, rtol)")
    parser.add_argument("--problems", help="comma-separated subset, e.g. ROBER,HIRES "
                                           "(default: all)")
    parser.add_argument("--reps", type=int, default=3,
                        help="runs per point, median time (default 3; 1 above 2 s)")
    parser.add_argument("--rtol-max", type=float, default=1e-3, help="loosest rtol (1e-3)")
    parser.add_argument("--rtol-min", type=float, default=1e-10, help="tightest rtol (1e-10)")
    parser.add_argument("--per-decade", type=int, default=1, help="tolerances per decade (1)")
    parser.add_argument("--max-run-s", type=float, default=20.0,
                        help="a method's sweep ends after its first run longer than this (20)")
    parser.add_argument("--smoke", action="store_true",
                        help="rtol 1e-4 only (Arenstorf 1e-5), one run each, all problems; "
                             "checks the Jacobians and that every run succeeds with error < 1 "
                             "(exit 1 otherwise)")
    parser.add_argument("--compare", metavar="EQC_CSV",
                        help="the CSV of eqc_bench_workprecision --csv: print eqc/SciPy at "
                             "matched error")
    parser.add_argument("--scipy-csv",
                        help="with --compare: SciPy's rows from this CSV of an earlier run "
                             "instead of measuring")
    args = parser.parse_args()
    if args.reps < 1 or args.per_decade < 1 or not 0 < args.rtol_min <= args.rtol_max:
        parser.error("invalid option value")
    if args.scipy_csv and (not args.compare or args.smoke):
        parser.error("--scipy-csv needs --compare and measures nothing, so no --smoke")
    return args


def main():
    args = parse_args()
    all_problems = load_problems(args.bench)
    problems = all_problems
    if args.problems:
        names = args.problems.split(",")
        unknown = set(names) - {p.name for p in all_problems}
        if unknown:
            sys.exit(f"scipy_peer.py: unknown problem(s): {', '.join(sorted(unknown))}")
        problems = [p for p in all_problems if p.name in names]
    if args.smoke:
        problems = all_problems
        args.reps = 1
        rtols_of = {p.name: [SMOKE_RTOL_OF.get(p.name, SMOKE_RTOL)] for p in problems}
    else:
        sweep = rtol_sweep(args.rtol_max, args.rtol_min, args.per_decade)
        rtols_of = {p.name: sweep for p in problems}

    if args.scipy_csv:
        scipy_rows = read_rows(args.scipy_csv)
    else:
        scipy_rows, stopped = measure_all(problems, rtols_of, args.reps, args.max_run_s)
        if args.csv:
            write_csv(scipy_rows, args.csv)
        print_measurement(problems, scipy_rows, stopped, args.reps)

    if args.compare:
        print_comparison(problems, read_rows(args.compare), scipy_rows, args.compare)

    if args.smoke:
        # Plumbing only: the Jacobians are right, every run succeeded and got a digit.
        failures = [f"{p.name}: analytic Jacobian differs from central differences by {err:.2e}"
                    for p in problems if p.jac is not None
                    for err in [check_jacobian(p)] if err > 1e-5]
        failures += [f"{r['problem']}, {r['method']}, rtol {r['rtol']:.0e}: "
                     + (f"failed: {r['message']}" if r["status"] != "ok"
                        else f"error {r['err_mixed']:.2e} is implausible")
                     for r in scipy_rows if r["status"] != "ok" or not r["err_mixed"] < WRONG]
        for f in failures:
            print(f, file=sys.stderr)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
