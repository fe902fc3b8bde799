#!/usr/bin/python3
"""Reference values y(t_end) of the Lorenz and rigid-body problems of bench/wp_problems.c, by two
independent methods: a Taylor-series integrator in 60-digit decimal arithmetic (both systems are
quadratic, so the Taylor coefficients are Cauchy products) and SciPy's DOP853 at rtol 2.5e-14 (its
floor); for the rigid body also the closed form (Jacobi elliptic functions, scipy.special.ellipj).
The parameters are the doubles the C code uses (8/3 and 0.51 rounded to binary), converted exactly.

usage: bench/wp_reference.py   (Debian's /usr/bin/python3 with python3-scipy; about 1 s)
"""
import decimal
from decimal import Decimal

import numpy as np
import scipy.special
from scipy.integrate import solve_ivp

decimal.getcontext().prec = 60

LORENZ_SIGMA, LORENZ_RHO, LORENZ_BETA = 10.0, 28.0, 8.0 / 3.0
RIGID_M = 0.51  # y3' = -m y1 y2; m = k^2 of the elliptic functions


def cauchy(a, b, k):
    """k-th Taylor coefficient of the product of the series a and b."""
    return sum(a[i] * b[k - i] for i in range(k + 1))


def lorenz_coefficients(y, order):
    s, r, b = (Decimal(v) for v in (LORENZ_SIGMA, LORENZ_RHO, LORENZ_BETA))
    x, yy, z = [[c] for c in y]
    for k in range(order):
        x.append(s * (yy[k] - x[k]) / (k + 1))
        yy.append((r * x[k] - cauchy(x, z, k) - yy[k]) / (k + 1))
        z.append((cauchy(x, yy, k) - b * z[k]) / (k + 1))
    return [x, yy, z]


def rigid_coefficients(y, order):
    m = Decimal(RIGID_M)
    a, b, c = [[v] for v in y]
    for k in range(order):
        a.append(cauchy(b, c, k) / (k + 1))
        b.append(-cauchy(a, c, k) / (k + 1))
        c.append(-m * cauchy(a, b, k) / (k + 1))
    return [a, b, c]


def taylor(coefficients, y0, t_end, steps, order):
    """y(t_end) by `steps` equal Taylor steps of the given order (Horner's scheme)."""
    y = [Decimal(v) for v in y0]
    h = Decimal(t_end) / steps
    for _ in range(steps):
        series = coefficients(y, order)
        y = []
        for c in series:
            acc = Decimal(0)
            for ck in reversed(c):
                acc = acc * h + ck
            y.append(acc)
    return y


def lorenz_rhs(t, y):
    x, yy, z = y
    return [LORENZ_SIGMA * (yy - x), x * (LORENZ_RHO - z) - yy, x * yy - LORENZ_BETA * z]


def rigid_rhs(t, y):
    a, b, c = y
    return [b * c, -a * c, -RIGID_M * a * b]


def report(name, y0, t_end, rhs, coefficients, steps, order, closed_form=None):
    fine = taylor(coefficients, y0, t_end, steps, order)
    coarse = taylor(coefficients, y0, t_end, steps // 2, order - 6)
    dop = solve_ivp(rhs, (0.0, t_end), y0, method="DOP853", rtol=2.5e-14, atol=2.5e-14).y[:, -1]
    ref = np.array([float(v) for v in fine])
    scale = 1.0 + np.abs(ref)  # the mixed error with atol = rtol
    print(f"{name}: y0 = {y0}, t_end = {t_end}")
    for v in fine:
        print(f"  {v:.25e}")
    print("  as doubles: " + ", ".join(f"{v:.16e}" for v in ref))
    taylor_diff = max(abs(f - c) for f, c in zip(fine, coarse))
    print(f"  Taylor {steps} steps order {order} vs {steps // 2} steps order {order - 6}: "
          f"max abs difference {float(taylor_diff):.1e}")
    print(f"  DOP853 rtol = atol = 2.5e-14: mixed error {np.max(np.abs(dop - ref) / scale):.1e}, "
          f"max relative {np.max(np.abs(dop - ref) / np.abs(ref)):.1e}")
    if closed_form is not None:
        cf = np.array(closed_form)
        print(f"  closed form: mixed error {np.max(np.abs(cf - ref) / scale):.1e}, "
              f"max relative {np.max(np.abs(cf - ref) / np.abs(ref)):.1e}")


def main():
    report("Lorenz", [1.0, 0.0, 0.0], 2.0, lorenz_rhs, lorenz_coefficients, 800, 36)
    # y = (sn, cn, dn)(t | m) from y(0) = (0, 1, 1).
    sn, cn, dn, _ = scipy.special.ellipj(12.0, RIGID_M)
    report("Rigid body", [0.0, 1.0, 1.0], 12.0, rigid_rhs, rigid_coefficients, 240, 30,
           closed_form=[sn, cn, dn])


if __name__ == "__main__":
    main()
