/* Right-hand sides and Jacobians of the work-precision problems (see wp_problems.h). Compiled -O2
 * in its own translation unit (bench/CMakeLists.txt), so that neither solver can inline them. */
#include "wp_problems.h"

#include <math.h>
#include <string.h>

/* ---- ROBER: Robertson's chemical kinetics (Test Set for IVP Solvers, rober.f) ---- */

static int rober_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  dy[2] = 3e7 * y[1] * y[1];
  dy[1] = -dy[0] - dy[2];
  return 0;
}

static int rober_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  J[0] = -0.04, J[1] = 1e4 * y[2], J[2] = 1e4 * y[1];
  J[3] = 0.04, J[4] = -1e4 * y[2] - 6e7 * y[1], J[5] = -1e4 * y[1];
  J[6] = 0.0, J[7] = 6e7 * y[1], J[8] = 0.0;
  return 0;
}

static const double rober_y0[3] = {1.0, 0.0, 0.0};
/* rober.f, t = 1e11 */
static const double rober_ref[3] = {0.2083340149701255e-07, 0.8333360770334713e-13,
                                    0.9999999791665050e+00};

/* ---- HIRES: high irradiance response (Test Set, hires.f) ---- */

static int hires_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  dy[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
  dy[1] = 1.71 * y[0] - 8.75 * y[1];
  dy[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
  dy[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
  dy[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
  dy[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
  dy[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
  dy[7] = -dy[6];
  return 0;
}

static int hires_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  memset(J, 0, 64 * sizeof *J);
#define H(i, j) J[(i)*8 + (j)]
  H(0, 0) = -1.71, H(0, 1) = 0.43, H(0, 2) = 8.32;
  H(1, 0) = 1.71, H(1, 1) = -8.75;
  H(2, 2) = -10.03, H(2, 3) = 0.43, H(2, 4) = 0.035;
  H(3, 1) = 8.32, H(3, 2) = 1.71, H(3, 3) = -1.12;
  H(4, 4) = -1.745, H(4, 5) = 0.43, H(4, 6) = 0.43;
  H(5, 3) = 0.69, H(5, 4) = 1.71, H(5, 5) = -280.0 * y[7] - 0.43, H(5, 6) = 0.69,
  H(5, 7) = -280.0 * y[5];
  H(6, 5) = 280.0 * y[7], H(6, 6) = -1.81, H(6, 7) = 280.0 * y[5];
  H(7, 5) = -280.0 * y[7], H(7, 6) = 1.81, H(7, 7) = -280.0 * y[5];
#undef H
  return 0;
}

static const double hires_y0[8] = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057};
/* hires.f, t = 321.8122 */
static const double hires_ref[8] = {0.7371312573325668e-3, 0.1442485726316185e-3,
                                    0.5888729740967575e-4, 0.1175651343283149e-2,
                                    0.2386356198831331e-2, 0.6238968252742796e-2,
                                    0.2849998395185769e-2, 0.2850001604814231e-2};

/* ---- VDPOL: Van der Pol, y' = z, z' = ((1 - y^2) z - y) / eps, eps = 1e-6 (Test Set, vdpol.f) ---- */

#define VDP_EPS 1e-6

static int vdpol_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  dy[0] = y[1];
  dy[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / VDP_EPS;
  return 0;
}

static int vdpol_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  J[0] = 0.0;
  J[1] = 1.0;
  J[2] = (-2.0 * y[0] * y[1] - 1.0) / VDP_EPS;
  J[3] = (1.0 - y[0] * y[0]) / VDP_EPS;
  return 0;
}

static const double vdpol_y0[2] = {2.0, 0.0};
/* vdpol.f, t = 2 */
static const double vdpol_ref[2] = {0.1706167732170483e+01, -0.8928097010247975e+00};

/* ---- Arenstorf orbit: restricted three-body problem (Hairer, Norsett & Wanner I, II.0) ---- */

#define AREN_MU 0.012277471
#define AREN_MUP (1.0 - AREN_MU)

static int arenstorf_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  const double a = y[0] + AREN_MU, b = y[0] - AREN_MUP;
  const double s1 = a * a + y[1] * y[1], s2 = b * b + y[1] * y[1];
  const double d1 = s1 * sqrt(s1), d2 = s2 * sqrt(s2);
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = y[0] + 2.0 * y[3] - AREN_MUP * a / d1 - AREN_MU * b / d2;
  dy[3] = y[1] - 2.0 * y[2] - AREN_MUP * y[1] / d1 - AREN_MU * y[1] / d2;
  return 0;
}

static int arenstorf_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  const double a = y[0] + AREN_MU, b = y[0] - AREN_MUP;
  const double s1 = a * a + y[1] * y[1], s2 = b * b + y[1] * y[1];
  const double d1 = s1 * sqrt(s1), d2 = s2 * sqrt(s2); /* s^(3/2) */
  const double p1 = d1 * s1, p2 = d2 * s2;             /* s^(5/2) */
  const double cross = 3.0 * (AREN_MUP * a * y[1] / p1 + AREN_MU * b * y[1] / p2);
  memset(J, 0, 16 * sizeof *J);
  J[0 * 4 + 2] = 1.0;
  J[1 * 4 + 3] = 1.0;
  J[2 * 4 + 0] =
      1.0 - AREN_MUP * (1.0 / d1 - 3.0 * a * a / p1) - AREN_MU * (1.0 / d2 - 3.0 * b * b / p2);
  J[2 * 4 + 1] = cross;
  J[2 * 4 + 3] = 2.0;
  J[3 * 4 + 0] = cross;
  J[3 * 4 + 1] = 1.0 - AREN_MUP * (1.0 / d1 - 3.0 * y[1] * y[1] / p1) -
                 AREN_MU * (1.0 / d2 - 3.0 * y[1] * y[1] / p2);
  J[3 * 4 + 2] = -2.0;
  return 0;
}

/* One period T = 17.0652165601579625588917206249 returns to y0. */
static const double arenstorf_y0[4] = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};

/* ---- Pleiades: seven bodies in the plane, masses m_i = i (Test Set, plei.f) ---- */
/* y = (x_1..x_7, y_1..y_7, x'_1..x'_7, y'_1..y'_7) */

static int pleiades_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  for (int i = 0; i < 14; ++i)
    dy[i] = y[14 + i];
  for (int i = 0; i < 7; ++i) {
    double sx = 0.0, sy = 0.0;
    for (int j = 0; j < 7; ++j) {
      if (j == i)
        continue;
      const double dx = y[j] - y[i], dyy = y[7 + j] - y[7 + i];
      const double r2 = dx * dx + dyy * dyy;
      const double r3 = r2 * sqrt(r2);
      sx += (j + 1) * dx / r3;
      sy += (j + 1) * dyy / r3;
    }
    dy[14 + i] = sx;
    dy[21 + i] = sy;
  }
  return 0;
}

static int pleiades_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  memset(J, 0, 28 * 28 * sizeof *J);
#define P(i, j) J[(i)*28 + (j)]
  for (int i = 0; i < 14; ++i)
    P(i, 14 + i) = 1.0;
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      if (j == i)
        continue;
      const double m = j + 1;
      const double dx = y[j] - y[i], dyy = y[7 + j] - y[7 + i];
      const double r2 = dx * dx + dyy * dyy;
      const double r3 = r2 * sqrt(r2), r5 = r3 * r2;
      const double axx = m * (1.0 - 3.0 * dx * dx / r2) / r3;
      const double axy = -3.0 * m * dx * dyy / r5;
      const double ayy = m * (1.0 - 3.0 * dyy * dyy / r2) / r3;
      P(14 + i, j) += axx, P(14 + i, i) -= axx;
      P(14 + i, 7 + j) += axy, P(14 + i, 7 + i) -= axy;
      P(21 + i, j) += axy, P(21 + i, i) -= axy;
      P(21 + i, 7 + j) += ayy, P(21 + i, 7 + i) -= ayy;
    }
#undef P
  return 0;
}

static const double pleiades_y0[28] = {
    3.0, 3.0,  -1.0, -3.0,  2.0, -2.0, 2.0,  /* x */
    3.0, -3.0, 2.0,  0.0,   0.0, -4.0, 4.0,  /* y */
    0.0, 0.0,  0.0,  0.0,   0.0, 1.75, -1.5, /* x' */
    0.0, 0.0,  0.0,  -1.25, 1.0, 0.0,  0.0   /* y' */
};
/* plei.f, t = 3 */
static const double pleiades_ref[28] = {
    0.3706139143970502e+000,  0.3237284092057233e+001,  -0.3222559032418324e+001,
    0.6597091455775310e+000,  0.3425581707156584e+000,  0.1562172101400631e+001,
    -0.7003092922212495e+000, -0.3943437585517392e+001, -0.3271380973972550e+001,
    0.5225081843456543e+001,  -0.2590612434977470e+001, 0.1198213693392275e+001,
    -0.2429682344935824e+000, 0.1091449240428980e+001,  0.3417003806314313e+001,
    0.1354584501625501e+001,  -0.2590065597810775e+001, 0.2025053734714242e+001,
    -0.1155815100160448e+001, -0.8072988170223021e+000, 0.5952396354208710e+000,
    -0.3741244961234010e+001, 0.3773459685750630e+000,  0.9386858869551073e+000,
    0.3667922227200571e+000,  -0.3474046353808490e+000, 0.2344915448180937e+001,
    -0.1947020434263292e+001};

/* ---- Lorenz: sigma = 10, rho = 28, beta = 8/3 (Lorenz 1963), y(0) = (1, 0, 0), t in [0, 2] ---- */
/* t_end = 2: the orbit has left the origin and turned once round a wing of the attractor, but
 * chaos has not yet set in: no perturbation anywhere in [0, 2] grows by more than 1.9 up to t = 2
 * (23 for t = 3, 970 for t = 5), so the reference and the solvers' errors stay meaningful. */

#define LORENZ_SIGMA 10.0
#define LORENZ_RHO 28.0
#define LORENZ_BETA (8.0 / 3.0)

static int lorenz_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  dy[0] = LORENZ_SIGMA * (y[1] - y[0]);
  dy[1] = y[0] * (LORENZ_RHO - y[2]) - y[1];
  dy[2] = y[0] * y[1] - LORENZ_BETA * y[2];
  return 0;
}

static int lorenz_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  J[0] = -LORENZ_SIGMA, J[1] = LORENZ_SIGMA, J[2] = 0.0;
  J[3] = LORENZ_RHO - y[2], J[4] = -1.0, J[5] = -y[0];
  J[6] = y[1], J[7] = y[0], J[8] = -LORENZ_BETA;
  return 0;
}

static const double lorenz_y0[3] = {1.0, 0.0, 0.0};
/* t = 2, bench/wp_reference.py: Taylor series in 60-digit decimals (800 steps of order 36 and 400
 * of order 30 agree to 1e-48); SciPy's DOP853 at rtol 2.5e-14 agrees to 1.0e-14 relative. */
static const double lorenz_ref[3] = {-7.8760825499916571740511674e+00,
                                     -8.7616218173149383058396960e+00,
                                     2.4990260995565926668515781e+01};

/* ---- Rigid body: Euler's equations of a free rigid body, y1' = y2 y3, y2' = -y1 y3,
 * y3' = -0.51 y1 y2, y(0) = (0, 1, 1), t in [0, 12]: Krogh's non-stiff test problem as in
 * MATLAB's rigidode (the interval of Shampine & Gordon 1975, p. 243, about 1.5 periods). The
 * solution is (sn, cn, dn)(t | m = 0.51). ---- */

#define RIGID_M 0.51

static int rigid_rhs(void *user, double t, const double *y, double *dy) {
  (void)user, (void)t;
  dy[0] = y[1] * y[2];
  dy[1] = -y[0] * y[2];
  dy[2] = -RIGID_M * y[0] * y[1];
  return 0;
}

static int rigid_jac(void *user, double t, const double *y, double *J) {
  (void)user, (void)t;
  J[0] = 0.0, J[1] = y[2], J[2] = y[1];
  J[3] = -y[2], J[4] = 0.0, J[5] = -y[0];
  J[6] = -RIGID_M * y[1], J[7] = -RIGID_M * y[0], J[8] = 0.0;
  return 0;
}

static const double rigid_y0[3] = {0.0, 1.0, 1.0};
/* t = 12, bench/wp_reference.py: Taylor series in 60-digit decimals (240 steps of order 30 and 120
 * of order 24 agree to 1e-31); scipy.special.ellipj(12, 0.51) agrees to 1.4e-15 relative, SciPy's
 * DOP853 at rtol 2.5e-14 to 2.2e-14. */
static const double rigid_ref[3] = {-7.0539780952257171426669753e-01,
                                    -7.0881163246715811368800811e-01,
                                    8.6384669037022211016362612e-01};

/* atol_ratio: ROBER and HIRES have components of 1e-13 to 1e-2 and are run with atol = 1e-4 rtol;
 * the others are of order one (Lorenz: 1 to 30) and run with atol = rtol. */
const wp_problem wp_problems[] = {
    {"ROBER", 3, 1, 1e11, 1e-4, rober_y0, rober_ref, "Test Set for IVP Solvers, rober.f", rober_rhs,
     rober_jac},
    {"HIRES", 8, 1, 321.8122, 1e-4, hires_y0, hires_ref, "Test Set for IVP Solvers, hires.f",
     hires_rhs, hires_jac},
    {"VDPOL", 2, 1, 2.0, 1.0, vdpol_y0, vdpol_ref, "Test Set for IVP Solvers, vdpol.f", vdpol_rhs,
     vdpol_jac},
    {"Arenstorf", 4, 0, 17.0652165601579625588917206249, 1.0, arenstorf_y0, arenstorf_y0,
     "periodic orbit: y(T) = y(0) (Hairer, Norsett & Wanner I)", arenstorf_rhs, arenstorf_jac},
    {"Pleiades", 28, 0, 3.0, 1.0, pleiades_y0, pleiades_ref, "Test Set for IVP Solvers, plei.f",
     pleiades_rhs, pleiades_jac},
    {"Lorenz", 3, 0, 2.0, 1.0, lorenz_y0, lorenz_ref,
     "Taylor series in 60 digits (bench/wp_reference.py); DOP853 rtol 2.5e-14 agrees to 1e-14",
     lorenz_rhs, lorenz_jac},
    {"RigidBody", 3, 0, 12.0, 1.0, rigid_y0, rigid_ref,
     "Taylor series in 60 digits = (sn, cn, dn)(12 | 0.51) to 1.4e-15 (bench/wp_reference.py)",
     rigid_rhs, rigid_jac},
};
const int wp_problem_count = sizeof wp_problems / sizeof wp_problems[0];
