/* BRUSS-2D, the two-dimensional Brusselator with diffusion (Hairer & Wanner, Solving Ordinary
 * Differential Equations II), by the method of lines: the problem of eqc_bench_sparse_stiff, its right-hand side and
 * analytic sparse Jacobian written by hand in C, called unchanged by eqc's runtime and (through a
 * thin adapter) by CVODE. */
#ifndef EQC_BENCH_BRUSS2D_H
#define EQC_BENCH_BRUSS2D_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * u_t = 1 + u^2 v - 4.4 u + alpha (u_xx + u_yy),  v_t = 3.4 u - u^2 v + alpha (v_xx + v_yy)
 * on the unit square with periodic boundaries, on an N x N grid x_i = i / N, y_j = j / N, with
 * the 5-point Laplacian. u and v of cell (i, j) are interleaved at y[2 (j N + i)] and
 * y[2 (j N + i) + 1], so each column of the Jacobian has 6 entries: the cell's own 2 x 2
 * reaction block and the 4 neighbours' diffusion. Hairer & Wanner's source term (5 in a disk from
 * t = 1.1 on) is left out: its jump in time would measure how each step-size controller meets a
 * discontinuity, not the linear algebra this problem is for.
 */
typedef struct bruss2d {
  int N;            /* grid points per direction, >= 3 (so that the 4 neighbours differ) */
  int n;            /* unknowns, 2 N^2 */
  double alpha;     /* diffusion coefficient */
  double d;         /* alpha N^2: the Laplacian's weight of each neighbour */
  int nnz;          /* the Jacobian's structurally non-zero entries, 6 n */
  int *col_start;   /* n + 1: the Jacobian's pattern, compressed sparse columns (as eqc_sparsity) */
  int *row_index;   /* nnz, strictly increasing within each column */
} bruss2d;

/* Sets the sizes and builds the pattern. Returns 0, or -1 when N < 3 or memory is short. */
int bruss2d_init(bruss2d *p, int N, double alpha);
void bruss2d_free(bruss2d *p);

/* Hairer & Wanner's initial values: u = 22 y (1 - y)^(3/2), v = 27 x (1 - x)^(3/2). */
void bruss2d_initial(const bruss2d *p, double *y);

/* The same signatures as eqc_rhs_fn and eqc_sparse_jac_fn (runtime/include/eqc/eqc_runtime.h),
 * user a bruss2d: dy = f(t, y); values[k] = d f_i / d y_j for entry k of the pattern. Return 0. */
int bruss2d_rhs(void *user, double t, const double *y, double *dy);
int bruss2d_jac(void *user, double t, const double *y, double *values);

#ifdef __cplusplus
}
#endif

#endif /* EQC_BENCH_BRUSS2D_H */
