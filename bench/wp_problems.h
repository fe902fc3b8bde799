/* The test problems of eqc_bench_workprecision: right-hand sides and analytic Jacobians written
 * by hand in C, called unchanged by eqc's runtime and (through a thin adapter) by CVODE. */
#ifndef EQC_BENCH_WP_PROBLEMS_H
#define EQC_BENCH_WP_PROBLEMS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The same signatures as eqc_rhs_fn and eqc_jac_fn (runtime/include/eqc/eqc_runtime.h):
 * dydt = f(t, y); jac[i*n + j] = d f_i / d y_j (row-major). Return 0. */
typedef int (*wp_rhs_fn)(void *user, double t, const double *y, double *dydt);
typedef int (*wp_jac_fn)(void *user, double t, const double *y, double *jac);

typedef struct wp_problem {
  const char *name;
  int n;
  int stiff;              /* 1: compared with CVODE BDF + Newton, else with CVODE Adams */
  double t_end;           /* t_start is 0 */
  double atol_ratio;      /* atol = atol_ratio * rtol in the sweep; also the absolute floor
                             of the mixed error measure (see bench/README.md) */
  const double *y0;
  const double *ref;      /* y(t_end) */
  const char *ref_source; /* where ref comes from */
  wp_rhs_fn rhs;
  wp_jac_fn jac;
} wp_problem;

/* ROBER, HIRES, VDPOL (mu = 1e6), Arenstorf, Pleiades, Lorenz, RigidBody, in that order. */
extern const wp_problem wp_problems[];
extern const int wp_problem_count;

#ifdef __cplusplus
}
#endif

#endif /* EQC_BENCH_WP_PROBLEMS_H */
