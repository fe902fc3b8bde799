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

#ifdef __cplusplus
}
#endif

#endif /* EQC_BENCH_CHAIN_RHS_H */
