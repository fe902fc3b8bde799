/* The benchmark chain's right-hand sides hand-written in C, the baseline of eqc_bench_rhs. */
#ifndef EQC_BENCH_CHAIN_RHS_H
#define EQC_BENCH_CHAIN_RHS_H

#ifdef __cplusplus
extern "C" {
#endif

/** Index of k, c and d in the parameter vector of the chain_rhs functions. */
enum { CHAIN_P_K = 0, CHAIN_P_C = 1, CHAIN_P_D = 2, CHAIN_P_COUNT = 3 };

/** The signature shared by both variants. */
typedef int (*chain_rhs_fn)(int n, double t, const double *x, double *dx, const double *p);

/**
 * dx = f(t, x, p) of the chain of `n` oscillators that eqc_bench_gen writes with the sin force,
 * with the state layout x[2i] = x{i+1}, x[2i+1] = v{i+1} (0-based i) and p = {k, c, d}.
 * Returns 0, like a successful eqc_model_rhs_fn.
 */
int chain_rhs_sin(int n, double t, const double *x, double *dx, const double *p);

/** The same with the cubic force d*xi^3 (no libm call). */
int chain_rhs_cubic(int n, double t, const double *x, double *dx, const double *p);

/** The signature of the Jacobians: values in compressed sparse columns. */
typedef int (*chain_jac_fn)(int n, double t, const double *x, double *values, const double *p);

/**
 * The non-zero entries of df/dx in compressed sparse columns, rows increasing in each column:
 * column x{i}: rows v{i-1} (k), v{i} (-2k + d f'(x{i})), v{i+1} (k); column v{i}: rows x{i} (1),
 * v{i} (-c); 5n - 2 values. chain_jac_pattern writes that structure (colStart: 2n + 1 entries,
 * rowIndex: 5n - 2) for comparing it with eqc's.
 */
int chain_jac_sin(int n, double t, const double *x, double *values, const double *p);
int chain_jac_cubic(int n, double t, const double *x, double *values, const double *p);
void chain_jac_pattern(int n, int *colStart, int *rowIndex);

#ifdef __cplusplus
}
#endif

#endif /* EQC_BENCH_CHAIN_RHS_H */
