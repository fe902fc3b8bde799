/* The C signatures of the functions eqc generates for a model (JIT and object code alike). */
#ifndef EQC_MODEL_ABI_H
#define EQC_MODEL_ABI_H

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes at or above this value mean: the algebraic loop (code - base) failed to converge. */
#define EQC_MODEL_LOOP_FAILURE_BASE 1000

/** dx = f(t, x, p) and the algebraic variables a (a also holds Newton guesses between calls). */
typedef int (*eqc_model_rhs_fn)(double t, const double *x, double *dx, double *a, const double *p);
/** Consistent initial values: states not fixed by start values, dx and a, at time t. */
typedef int (*eqc_model_init_fn)(double t, double *x, double *dx, double *a, const double *p);
/**
 * The ODE Jacobian's structurally non-zero entries d f_i / d x_j at (t, x): values[k] for entry k
 * of the model's sparsity pattern (compressed sparse columns, as eqc_sparsity of the runtime).
 * Requires that rhs was just evaluated at the same point.
 */
typedef int (*eqc_model_jac_fn)(double t, const double *x, const double *dx, const double *a,
                                const double *p, double *values);

/** The hidden constraints g(t, x) of an index-reduced model (g has one entry per invariant). */
typedef int (*eqc_model_inv_fn)(double t, const double *x, const double *p, double *g);
/** G[i*n + j] = d g_i / d x_j (m-by-n, row-major, n states). */
typedef int (*eqc_model_invjac_fn)(double t, const double *x, const double *p, double *jac);

#ifdef __cplusplus
}
#endif

#endif /* EQC_MODEL_ABI_H */
