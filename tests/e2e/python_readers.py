#!/usr/bin/python3
"""eqc's result files read as Python users read them (Debian's h5py, NumPy and SciPy).

1. A 10,000-run Monte Carlo study of the pendulum's period against its length and gravity
   (examples/pendulum_period.eq, the index-3 Cartesian pendulum) with `eqc sweep`: the HDF5 file
   reopened with h5py in its documented layout; each run's period against the exact
   T = 4 sqrt(L/g) K(sin(theta0/2)^2) (scipy.special.ellipk), and the mean period against its
   expectation over the distributions of L and g (numerical integration) within the Monte Carlo
   error.
2. `eqc simulate -o run.mat` read by scipy.io.loadmat as DyMat and BuildingsPy read Dymola's files.
3. With MPI (EQC_MPIRUN set): the same study under `mpirun -n 2` gives the same runs, bit for bit,
   as `-j 2`.

Usage: python_readers.py EQC SOURCE_DIR SCRATCH_DIR. Exit 77 (skipped) without h5py or SciPy.
"""
import math
import os
import shutil
import subprocess
import sys

try:
    import h5py
    import numpy as np
    import scipy.io
    from scipy import integrate, special
except ImportError as e:
    print(f"skipped: {e} (install python3-h5py and python3-scipy: scripts/install-deps.sh)")
    sys.exit(77)

EQC, SOURCE, SCRATCH = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(args, cwd, env=None):
    r = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
    check(r.returncode == 0, f"{' '.join(args)} exited with {r.returncode}")
    return r


shutil.rmtree(SCRATCH, ignore_errors=True)
os.makedirs(SCRATCH)
model = os.path.join(SOURCE, "examples", "pendulum_period.eq")
L_MEAN, L_STD, G_MEAN, G_STD, THETA0, N = 1.0, 0.05, 9.81, 0.1, 0.5, 10000
study = [EQC, "sweep", model, "-p", f"L~normal({L_MEAN},{L_STD})", "-p", f"g~normal({G_MEAN},{G_STD})",
         "--samples", str(N), "--seed", "2026", "--vars", "T", "--final-only", "--quiet"]

# 1. The Monte Carlo study, every core.
run(study + ["-o", "period.h5"], SCRATCH)
with h5py.File(os.path.join(SCRATCH, "period.h5"), "r") as f:
    names = [n.decode() if isinstance(n, bytes) else n for n in f["runs/parameter_names"][()]]
    check(names == ["L", "g"], f"parameter names {names}")
    params = f["runs/parameters"][()]
    check(params.shape == (N, 2), f"parameters shape {params.shape}")
    check(set(f["runs/state"][()].tolist()) == {1}, "every run ok")
    check(list(f["runs/statistics_names"].asstr()[()])[0] == "seconds", "statistics names")
    T = f["final/T"][()]
    L, g = params[:, 0], params[:, 1]
    exact = 4 * np.sqrt(L / g) * special.ellipk(math.sin(THETA0 / 2) ** 2)
    worst = np.max(np.abs(T - exact) / exact)
    print(f"pendulum period: {N} runs, largest relative error {worst:.2e}")
    check(worst < 1e-7, f"period vs the elliptic integral: {worst}")
    # E[T] = 4 K E[sqrt(L)] E[1/sqrt(g)] (L and g independent), by quadrature over the normals.
    def expect(fn, mean, std):
        pdf = lambda v: math.exp(-0.5 * ((v - mean) / std) ** 2) / (std * math.sqrt(2 * math.pi))
        return integrate.quad(lambda v: fn(v) * pdf(v), mean - 12 * std, mean + 12 * std, epsabs=1e-14)[0]
    expected = (4 * special.ellipk(math.sin(THETA0 / 2) ** 2) * expect(math.sqrt, L_MEAN, L_STD)
                * expect(lambda v: 1 / math.sqrt(v), G_MEAN, G_STD))
    error = T.std(ddof=1) / math.sqrt(N)
    print(f"mean period {T.mean():.6f}, expected {expected:.6f}, Monte Carlo error {error:.2e}")
    check(abs(T.mean() - expected) < 4 * error, "mean period within four standard errors")
    summary = f["summary/T/mean"][()]
    check(summary.shape == (1,) and abs(summary[0] - T.mean()) < 1e-12, "summary mean")
    check(abs(f["summary/T/std"][0] - T.std(ddof=1)) < 1e-12, "summary std")
    levels = f["summary/quantile_levels"][()]
    check(np.allclose(f["summary/T/quantiles"][:, 0], np.quantile(T, levels), rtol=0, atol=1e-12),
          "summary quantiles = numpy.quantile")

# 2. run.mat with scipy.io.loadmat (the reading of DyMat and BuildingsPy).
osc = os.path.join(SOURCE, "examples", "oscillator.eq")
run([EQC, "simulate", osc, "-o", "osc.mat", "--quiet"], SCRATCH)
run([EQC, "simulate", osc, "-o", "osc.csv", "--quiet"], SCRATCH)
mat = scipy.io.loadmat(os.path.join(SCRATCH, "osc.mat"), chars_as_strings=False)
aclass = ["".join(row).rstrip() for row in mat["Aclass"]]
check(aclass == ["Atrajectory", "1.1", "", "binTrans"], f"Aclass {aclass}")
names = ["".join(mat["name"][:, i]).rstrip() for i in range(mat["name"].shape[1])]
check(names == ["time", "k", "c", "x", "v", "a"], f"names {names}")
info = mat["dataInfo"]
csv = np.loadtxt(os.path.join(SCRATCH, "osc.csv"), delimiter=",", skiprows=1)
for column, name in enumerate(["time", "x", "v", "a"]):
    i = names.index(name)
    block, index = int(info[0, i]), int(info[1, i])
    data = mat["data_2"][index - 1] if block in (0, 2) else None
    check(data is not None and np.array_equal(data, csv[:, column]), f"{name} in data_2 = the CSV")
k = names.index("k")
check(info[0, k] == 1 and mat["data_1"][info[1, k] - 1, 0] == 4.0, "parameter k in data_1")
check(mat["data_1"][0, 1] == 10.0, "data_1: the stop time")

# 3. MPI: mpirun -n 2 against -j 2, bit for bit.
mpirun = os.environ.get("EQC_MPIRUN")
if mpirun:
    run(study + ["-j", "2", "-o", "threads.h5"], SCRATCH)
    # In the sanitizer build, LeakSanitizer is off for the ranks: OpenMPI keeps allocations of its
    # components until exit and unloads them, so they cannot even be named in a suppression.
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
    run(mpirun.split() + ["-n", "2"] + study + ["-j", "1", "-o", "ranks.h5"], SCRATCH, env)
    with h5py.File(os.path.join(SCRATCH, "threads.h5"), "r") as a, h5py.File(os.path.join(SCRATCH, "ranks.h5"), "r") as b:
        check(np.array_equal(a["runs/parameters"][()], b["runs/parameters"][()]), "MPI: the same parameter sets")
        check(np.array_equal(a["final/T"][()], b["final/T"][()]), "MPI: the same periods, bit for bit")
        check(set(b["runs/state"][()].tolist()) == {1}, "MPI: every run ok")
else:
    print("MPI part skipped: eqc built without MPI (EQC_MPIRUN unset)")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
