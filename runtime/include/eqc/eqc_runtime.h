/* eqc runtime: integrators and algebraic-loop solvers for compiled models (C ABI). */
#ifndef EQC_RUNTIME_H
#define EQC_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes returned by every eqc_ function; 0 is success. */
typedef enum eqc_status {
  EQC_OK = 0,
  EQC_ERR_ARGUMENT = 1,       /**< invalid size, option or null pointer */
  EQC_ERR_RHS = 2,            /**< the model function returned non-zero (see eqc_stats.rhs_code) */
  EQC_ERR_NONFINITE = 3,      /**< NaN or Inf in the state or its derivative */
  EQC_ERR_STEP_UNDERFLOW = 4, /**< variable step size fell below the representable minimum */
  EQC_ERR_MAX_STEPS = 5,      /**< step-count limit reached before t_end */
  EQC_ERR_NEWTON = 6,         /**< Newton iteration of an algebraic block did not converge */
  EQC_ERR_SINGULAR = 7,       /**< singular matrix in a linear solve */
  EQC_ERR_STOPPED = 8,        /**< the output callback asked to stop */
  EQC_ERR_CHATTERING = 9,     /**< too many state events too close together (see eqc_events) */
  EQC_ERR_ASSERTION = 10      /**< an assertion of the model failed (Modelica's assert) */
} eqc_status;

/** A static English sentence describing a status code. */
const char *eqc_status_message(int status);

/**
 * Set in a right-hand side's non-zero return value (with a code of the caller's in the other
 * bits) when f cannot be evaluated at this trial point but may be at a nearby one: an algebraic
 * block that is singular or does not converge there, a value outside a function's domain, an
 * assertion (Modelica 3.5, 8.3.7: "the simulation may continue with another evaluation, e.g.
 * with a shorter step-size"). The variable-step methods (dopri5, dop853, radau5, auto) reject the
 * trial step and retry with a shorter one; only when the step falls below the smallest
 * representable one, in a fixed-step method, or at a point already accepted does the integration
 * stop, with EQC_ERR_RHS and the value in eqc_stats.rhs_code.
 */
#define EQC_RHS_RETRY 0x40000000

/**
 * ODE right-hand side dxdt = f(t, x). Returns 0 on success; any other value stops the integration,
 * except that one with EQC_RHS_RETRY set first makes the variable-step methods retry shorter steps.
 */
typedef int (*eqc_rhs_fn)(void *user, double t, const double *x, double *dxdt);

/** Called with the state at each output time; a non-zero return stops the integration. */
typedef int (*eqc_output_fn)(void *user, double t, const double *x);

/** Integration methods. */
typedef enum eqc_method {
  EQC_METHOD_EULER = 0,  /**< explicit Euler, fixed step, order 1 */
  EQC_METHOD_HEUN = 1,   /**< Heun (explicit trapezoid), fixed step, order 2 */
  EQC_METHOD_RK4 = 2,    /**< classical Runge-Kutta, fixed step, order 4 */
  EQC_METHOD_DOPRI5 = 3, /**< Dormand-Prince 5(4), variable step, PI control, dense output */
  EQC_METHOD_DOP853 = 4, /**< Hairer's DOP853: Dormand-Prince 8(5,3), variable step, dense
                              output of order 7 */
  EQC_METHOD_BEULER = 5, /**< backward Euler, fixed step, order 1, each step solved by
                              simplified Newton (see eqc_integrate_ex) */
  EQC_METHOD_RADAU5 = 6, /**< Hairer & Wanner's RADAU5: Radau IIA, order 5, stiffly accurate,
                              variable step, dense output of order 3 (see eqc_integrate_ex) */
  EQC_METHOD_AUTO = 7    /**< dopri5 until stiffness is detected, then radau5 to t_end (see
                              eqc_integrate_ex) */
} eqc_method;

/** Integrator options; fill with eqc_options_default() and change what you need. */
typedef struct eqc_options {
  eqc_method method;
  double t_start, t_end; /**< t_end > t_start */
  double dt;             /**< fixed-step methods (euler, heun, rk4, beuler): the step (last step
                              shortened to hit t_end) */
  double interval;       /**< output spacing from t_start; 0: every (accepted) step */
  double rtol, atol;     /**< variable-step: error tolerances, weight atol + rtol*|x| */
  const double *atol_vector; /**< variable-step: n absolute tolerances, one per component, used
                                  instead of atol when not NULL (read, not kept, by the call) */
  double h_init;         /**< variable-step: first step, 0 = automatic (Hairer's algorithm) */
  double h_max;          /**< variable-step: largest step, 0 = t_end - t_start */
  long max_steps;        /**< limit on steps (accepted + rejected), 0 = 10^7 */
  double output_origin;  /**< dopri5, dop853, radau5, auto: grid times are output_origin + k*interval
                              (NaN = t_start), so a restarted integration keeps the grid of the
                              first one */
} eqc_options;

/** Defaults: auto, t in [0, 1], dt 1e-3, interval 0, rtol 1e-6, atol 1e-9, atol_vector NULL. */
void eqc_options_default(eqc_options *opt);

/** Linear algebra of the implicit methods (beuler, radau5, auto's radau5 phase). */
typedef enum eqc_linear_solver {
  EQC_LINEAR_AUTO = 0,  /**< sparse when a pattern is given, n >= 64 and at most 10% of the
                             entries are structurally non-zero; dense otherwise */
  EQC_LINEAR_DENSE = 1, /**< n-by-n matrices, LU with partial pivoting */
  EQC_LINEAR_SPARSE = 2 /**< compressed sparse columns, Eigen's SparseLU with COLAMD ordering;
                             memory and work follow the pattern and its fill-in */
} eqc_linear_solver;

/** What an integration did; valid after success and after failure. */
typedef struct eqc_stats {
  long steps;             /**< accepted steps */
  long rejected;          /**< rejected steps (variable-step only) */
  long rhs_evals;         /**< calls of the right-hand side */
  long outputs;           /**< calls of the output callback */
  double t_reached;       /**< last time at which the state is valid */
  double h_last;          /**< last step size attempted */
  int failed_component;   /**< state index with NaN/Inf on EQC_ERR_NONFINITE, else -1 */
  int rhs_code;           /**< the non-zero value returned by the rhs on EQC_ERR_RHS, else 0 */
  long hook_calls;        /**< calls of the post-step hook (eqc_integrate_with_hook), else 0 */
  long jac_evals;         /**< calls of the Jacobian callback (eqc_integrate_ex); finite-difference
                               Jacobians count in rhs_evals instead */
  long lu_decompositions; /**< LU factorizations of the Newton matrix I - h*J (beuler); radau5
                               counts its real and its complex matrix as one each */
  long newton_iterations; /**< Newton iterations, one linear solve each (beuler; radau5: one
                               real and one complex solve each) */
  int method_used;        /**< the method that ran last: opt->method, except auto, which gives
                               EQC_METHOD_DOPRI5 or, after a switch, EQC_METHOD_RADAU5; -1 when
                               the arguments were rejected */
  double switch_time;     /**< auto: time of the switch to radau5; NaN without a switch */
  int linear_solver;      /**< the implicit methods' linear algebra: EQC_LINEAR_DENSE or
                               EQC_LINEAR_SPARSE (see eqc_integrate_jac); EQC_LINEAR_AUTO (0)
                               when no implicit method ran */
  long events;            /**< state events handed to eqc_events.handle (eqc_integrate_events) */
  double t_event;         /**< time of the last located state event; NaN if none */
  int event_indicator;    /**< the lowest crossed indicator of the last located event; -1 if
                               none. On EQC_ERR_NONFINITE from an indicator, that indicator
                               (failed_component is then -1) */
} eqc_stats;

/**
 * Integrates x' = f(t, x) from opt->t_start to opt->t_end. x holds x(t_start) on entry and the
 * state at stats->t_reached on return. out (may be NULL) is called at t_start, at every output
 * time t_start + k*interval (fixed-step methods: every round(interval/dt) steps), and at t_end.
 * Returns an eqc_status.
 */
int eqc_integrate(int n, eqc_rhs_fn f, void *f_user, double *x, const eqc_options *opt,
                  eqc_output_fn out, void *out_user, eqc_stats *stats);

/**
 * Residual (and Jacobian) of an algebraic block in its unknowns: res[i] = F_i, and when jac is
 * not NULL, jac[i*n + j] = dF_i/dw_j (row-major). env is passed through unchanged.
 */
typedef void (*eqc_block_fn)(void *env, double *res, double *jac);

/**
 * Solves the n-dimensional block F(w) = 0 by damped Newton iteration. unknowns[j] points at w_j;
 * the pointed-to values are the initial guess and receive the solution. Converged when the
 * scaled Newton step max_j |dw_j| / (1 + |w_j|) <= tol. Returns EQC_OK, EQC_ERR_NEWTON,
 * EQC_ERR_SINGULAR or EQC_ERR_NONFINITE.
 */
int eqc_solve_block(int n, double *const *unknowns, eqc_block_fn f, void *env, double tol,
                    int max_iter);

/**
 * Solves A X = B in place: A is n-by-n row-major (overwritten), B is n-by-nrhs row-major and
 * receives X. Returns EQC_OK or EQC_ERR_SINGULAR.
 */
int eqc_linsolve(int n, double *a, double *b, int nrhs);

/**
 * As eqc_linsolve, for a system whose matrix changes with the model's discrete state: where A
 * is singular and A X = B consistent (the residual of the minimum-norm X at the level of
 * rounding), X is that minimum-norm solution (a statically indeterminate split, e.g. of two stuck
 * friction elements in series) instead of EQC_ERR_SINGULAR. A is overwritten.
 */
int eqc_linsolve_min_norm(int n, double *a, double *b, int nrhs);

/**
 * As eqc_linsolve_min_norm, but where A is singular and A X = B consistent, X is the solution
 * nearest to x0 (n-by-nrhs row-major, the unknowns' values before: the minimum-norm change): of
 * the torque splits of two stuck friction elements, the one that moves least from the values the
 * elements had, which keeps each within its limit where the minimum-norm split need not. A
 * regular A gives eqc_linsolve's X. x0 NULL: eqc_linsolve_min_norm.
 */
int eqc_linsolve_nearest(int n, double *a, double *b, int nrhs, const double *x0);

/**
 * The values of dg/dx over the compressed sparse columns (col_start, row_index) of a constraint
 * Jacobian (rows constraints over n states) by forward differences of g at (t, x): the generated
 * Jacobian of constraints that read what the ODE's algebraic loops compute. Returns 0 or g's
 * failure code.
 */
int eqc_constraint_jacobian_fd(int (*g)(double t, const double *x, const double *p, double *g), int n, int rows, const int *col_start, const int *row_index,
                               double t, const double *x, const double *p, double *values);

/**
 * Invariants g(t, x) (m of them) and their Jacobian G = dg/dx (m-by-n row-major; jac may be
 * NULL: residuals only). Returns 0 or non-zero on failure.
 */
typedef int (*eqc_constraint_fn)(void *user, double t, const double *x, double *g, double *jac);

/**
 * Projects x onto {g(t, x) = 0} by damped Gauss-Newton with minimum-norm corrections
 * dx = -G^T (G G^T)^{-1} g, iterated until every |g_i| <= tol * sum_j |G_ij| (1 + |x_j|) (the
 * change of g_i that a scaled change of x by tol can cause, so the test does not depend on the
 * units of g_i; tol below 4*DBL_EPSILON counts as 4*DBL_EPSILON) or max_iter corrections; x is
 * updated in place, and on failure holds the last iterate. residual_norm (may be NULL) receives
 * max_i |g_i| at the returned x. Returns EQC_OK, EQC_ERR_NEWTON (no convergence),
 * EQC_ERR_SINGULAR (G G^T singular: dependent invariants), EQC_ERR_RHS (g failed),
 * EQC_ERR_NONFINITE (NaN or Inf in x, g or G), EQC_ERR_ARGUMENT.
 */
int eqc_project(int n, int m, double t, double *x, eqc_constraint_fn g, void *user, double tol,
                int max_iter, double *residual_norm);

/** The tolerance eqc projects onto invariants with: eqc simulate, eqc_sim and the FMUs alike. */
#define EQC_PROJECTION_TOLERANCE 1e-12

/**
 * A projection workspace that a caller projecting after every step keeps, so that the buffers of
 * eqc_project are allocated once (eqc_project allocates them per call). One per thread; a
 * constraint function that itself projects with the same projector gets a workspace of its own.
 * The runtime keeps no per-thread state, so a library holding it can be unloaded.
 */
typedef struct eqc_projector eqc_projector;
/** A new projector, or NULL without memory. */
eqc_projector *eqc_projector_new(void);
/** Frees the projector (NULL is ignored). */
void eqc_projector_free(eqc_projector *projector);
/** eqc_project with `projector`'s buffers (NULL: eqc_project's own). */
int eqc_projector_project(eqc_projector *projector, int n, int m, double t, double *x, eqc_constraint_fn g,
                          void *user, double tol, int max_iter, double *residual_norm);

/**
 * Hook called after every accepted step with the new state (may change it, e.g. eqc_project);
 * non-zero stops the integration (EQC_ERR_RHS with rhs_code set to that value).
 */
typedef int (*eqc_step_fn)(void *user, double t, double *x);

/**
 * eqc_integrate with a post-step hook (NULL: same as eqc_integrate). After the hook changes x,
 * methods with FSAL (dopri5, dop853) re-evaluate f at the new x; dense-output values handed to
 * the output callback are passed through the hook as well (on a copy), so outputs lie on the
 * manifold too. The initial state is not passed through the hook. When the hook fails on a
 * step's state or makes it non-finite (EQC_ERR_NONFINITE), x is that step's result before the
 * hook, at stats->t_reached; failing on an output copy leaves x at the last step's state.
 */
int eqc_integrate_with_hook(int n, eqc_rhs_fn f, void *f_user, double *x, const eqc_options *opt,
                            eqc_output_fn out, void *out_user, eqc_step_fn hook, void *hook_user,
                            eqc_stats *stats);

/** Jacobian J[i*n + j] = d f_i / d x_j (row-major) at (t, x); returns 0 or non-zero on failure. */
typedef int (*eqc_jac_fn)(void *user, double t, const double *x, double *jac);

/**
 * eqc_integrate_with_hook plus a Jacobian for the implicit methods (NULL: finite differences).
 *
 * beuler solves x_{k+1} = x_k + h f(t_{k+1}, x_{k+1}) by simplified Newton from x_k with the
 * matrix I - h J: J and its LU factors are kept across iterations and steps, and J is
 * re-evaluated before the first step and, at most once per step, when the ratio of successive
 * Newton steps exceeds 0.5 or 10 iterations did not converge (J at the current iterate), or
 * when the iteration diverges or meets a non-finite f (J at x_k, Newton restarted there). I - h J is refactored when h changes by more
 * than 1e-6 relative. Converged when the scaled step d = max_j |dx_j| / (1 + |x_j|), or the
 * remaining error estimated from the contraction rate r as d r / (1 - r), is <= 1e-10.
 * Without jac, J comes from forward differences at the current iterate with increments
 * sqrt(DBL_EPSILON) * max(|x_j|, 1) (n calls of f, counted in rhs_evals). If Newton does not
 * converge with a fresh J, the integration stops with EQC_ERR_NEWTON (EQC_ERR_SINGULAR if
 * I - h J is singular); a failing jac gives EQC_ERR_RHS with rhs_code set. x and
 * stats->t_reached then hold the last accepted step.
 *
 * radau5 follows Hairer & Wanner's RADAU5 (Solving ODEs II, IV.8) with its default parameters.
 * rtol and atol are first transformed as RADAU5 does (rtol' = 0.1 rtol^(2/3), atol' = rtol'
 * atol / rtol), so that the global error is about rtol. Each step solves the collocation system
 * by simplified Newton on the transformed stages with one real LU of (gamma/h) I - J and one
 * complex LU of ((alpha + i beta)/h) I - J, at most 7 iterations, starting from the previous
 * step's collocation polynomial; converged when the contraction estimate theta/(1-theta)
 * times the scaled step is <= max(10 eps/rtol', min(0.03, sqrt(rtol'))). J (callback, or
 * forward differences with increments sqrt(DBL_EPSILON) * max(|x_j|, atol), sqrt(DBL_EPSILON)
 * where both are 0) is taken at the last accepted state, and kept after an accepted step
 * unless its last Newton contraction exceeded 0.001; the LU factors are kept
 * while h is unchanged, and h itself is kept when the new step would be 1 to 1.2 times it and J
 * is kept. Step sizes come from the embedded error estimate (re-estimated once more on the
 * first step and after a rejection) and Gustafsson's predictive controller, within 1/8 and 5
 * times the last step. Newton divergence, 7 iterations without convergence, a non-finite f
 * or a singular matrix halve the step (slow convergence shrinks it as RADAU5 predicts); when
 * the step falls below the representable minimum the integration stops with EQC_ERR_NEWTON
 * (EQC_ERR_NONFINITE with failed_component if f was non-finite), and the fifth singular matrix
 * stops it with EQC_ERR_SINGULAR; error-test rejections give EQC_ERR_STEP_UNDERFLOW. Outputs
 * between steps come from the collocation polynomial. A failing f or jac gives EQC_ERR_RHS with
 * rhs_code set; x and stats->t_reached hold the last accepted step (after a failing hook, as
 * eqc_integrate_with_hook says).
 *
 * auto starts with dopri5 and runs Hairer's stiffness test (dopri5.f) after every accepted
 * step: h |lambda| is estimated as h ||f(x_new) - f(s6)|| / ||x_new - s6|| from the last two
 * stages (s6 the sixth stage's state); when it exceeds 2 on 15 accepted steps, counted until 6
 * steps below it reset the count, the problem is stiff (dopri5.f's boundary 3.25 is never
 * reached at tight tolerances, where the step controller holds h |lambda| at 2.5-3). Then radau5 (with jac, rtol,
 * atol, h_max and the remaining max_steps; its first step chosen automatically) continues
 * from that step's state and time to t_end. Outputs keep the grid of t_start (or
 * output_origin) and no time is reported twice; the hook sees every accepted step of both
 * methods. There is no switch back to dopri5. stats sum both phases; method_used and
 * switch_time tell which method finished and when it took over. Other methods ignore jac.
 */
int eqc_integrate_ex(int n, eqc_rhs_fn f, void *f_user, eqc_jac_fn jac, void *jac_user, double *x,
                     const eqc_options *opt, eqc_output_fn out, void *out_user, eqc_step_fn hook,
                     void *hook_user, eqc_stats *stats);

/**
 * The structurally non-zero entries of an n-by-n matrix in compressed sparse column form: the
 * entries of column j are k = col_start[j] .. col_start[j+1]-1, in rows row_index[k], strictly
 * increasing within a column. col_start has n + 1 entries, col_start[0] = 0, col_start[n] = nnz.
 */
typedef struct eqc_sparsity {
  int nnz;
  const int *col_start;
  const int *row_index;
} eqc_sparsity;

/**
 * eqc_projector_project with G given as the values of `pattern` (an m-by-n eqc_sparsity: n
 * columns, the m constraints as rows): g's jac argument receives pattern->nnz values in the
 * pattern's order. Beyond 128 constraints G and G G^T are held and factored sparse (unless more
 * than 5% of G is non-zero), so memory and work follow the non-zeros; below, and for the
 * rank-revealing fallback, G is scattered into a dense matrix. The same iterates, bit for bit,
 * as the dense call with the scattered G. EQC_ERR_ARGUMENT for an invalid pattern.
 */
int eqc_projector_project_sparse(eqc_projector *projector, int n, int m, const eqc_sparsity *pattern, double t,
                                 double *x, eqc_constraint_fn g, void *user, double tol, int max_iter,
                                 double *residual_norm);

/**
 * Sparse Jacobian: values[k] = d f_i / d x_j for entry k of the pattern (row i = row_index[k],
 * column j); returns 0 or non-zero on failure.
 */
typedef int (*eqc_sparse_jac_fn)(void *user, double t, const double *x, double *values);

/**
 * How the implicit methods get J = df/dx. Zero-initialize and set what you have: `dense` (a full
 * row-major J), and/or a `pattern` with or without `sparse` values. With a pattern and no values
 * callback, J comes from forward differences that perturb structurally independent columns
 * together (Curtis-Powell-Reid), so it costs one f per group, not per column. Without a pattern
 * the dense callback or n forward differences give a dense J. `solver` picks the linear algebra
 * (EQC_LINEAR_AUTO: see eqc_linear_solver); the sparse solver needs a pattern, and ignores
 * `dense`; the dense solver uses `dense`, else scatters `sparse` values. `user` goes to all
 * callbacks.
 *
 * `prepare` (may be NULL) is called once per integration, when an implicit method first needs J
 * (auto: at its switch to radau5; never when no implicit method runs), with a copy of this
 * description that it may complete: a compiler that generates J on demand sets the pattern and
 * the callbacks there. A non-zero return stops the integration with EQC_ERR_RHS (rhs_code set).
 * The pattern must stay valid until the integration returns.
 */
typedef struct eqc_jacobian eqc_jacobian;
struct eqc_jacobian {
  eqc_jac_fn dense;
  eqc_sparse_jac_fn sparse;
  void *user;
  const eqc_sparsity *pattern;
  eqc_linear_solver solver;
  int (*prepare)(void *user, eqc_jacobian *jac);
};

/**
 * eqc_integrate_ex with a dense or sparse Jacobian description (jac may be NULL: dense finite
 * differences). An invalid pattern (see eqc_sparsity) or EQC_LINEAR_SPARSE without one gives
 * EQC_ERR_ARGUMENT (checked after `prepare` when there is one). stats->linear_solver says which
 * linear algebra ran.
 */
int eqc_integrate_jac(int n, eqc_rhs_fn f, void *f_user, const eqc_jacobian *jac, double *x,
                      const eqc_options *opt, eqc_output_fn out, void *out_user, eqc_step_fn hook,
                      void *hook_user, eqc_stats *stats);

/** Event indicators z_k(t, x), k < nz: the zero-crossing functions. Returns 0 or non-zero on failure. */
typedef int (*eqc_zc_fn)(void *user, double t, const double *x, double *z);

/** Returned by an eqc_event_fn: end the integration successfully at the event. */
#define EQC_EVENT_TERMINATE 1

/**
 * Called at each located state event with t the event time and x the state there: the left
 * limit, already passed through the post-step hook as an interpolated output state is. It may
 * change x (to the right limit: a reinit) and conditions (its new view of which conditions hold).
 * crossed[k] is 1 for the indicators whose condition changed at t (all of them when several
 * change at the same located time), else 0. Returns 0 to continue, EQC_EVENT_TERMINATE to end the
 * integration successfully at t (x as left by the call), anything else to fail (EQC_ERR_RHS with
 * rhs_code set to that value; x is then the left limit again).
 */
typedef int (*eqc_event_fn)(void *user, double t, double *x, const int *crossed, int *conditions);

/**
 * State events (zero crossings) for eqc_integrate_events. Zero-initialize and set what you have.
 *
 * Condition k holds when z_k > 0, and at z_k = 0 when at_zero[k] is 1 (a relation a <= b as
 * opposed to a < b). After every accepted step from t_old to t_new (before the post-step hook), z
 * is evaluated at t_new; where that differs from conditions[k] for some k, a condition changed in
 * (t_old, t_new] (a condition that changes and changes back within one step is not seen). The earliest change among all indicators is then located on the
 * method's dense output of that step (dopri5's and dop853's continuous extensions, radau5's
 * collocation polynomial, for euler, heun, rk4 and beuler the cubic Hermite interpolant of x and
 * f at both ends of the step) by regula falsi with the Anderson-Bjorck modification (a faster
 * Illinois), all indicators evaluated at each candidate, until the bracket [t_l, t_r] (no
 * condition changed at t_l, some at t_r) is at most 4 DBL_EPSILON max(|t_l|, |t_r|, t_new -
 * t_old) wide: a few ulps. It bisects when no indicator that changed agrees with its condition at
 * t_l (possible right after an event) or three iterations did not halve the bracket (a multiple
 * root), and stops after 200 iterations.
 * The event time is t_r, the event state the dense output there. Root location calls no f
 * (dop853: its 3 extra dense-output stages once per event step; fixed-step methods: f at the
 * step's end, and beuler also at its start, once per event step).
 *
 * At the event, the output callback gets the grid times before it from the dense output, then
 * (t_event, left limit), then handle is called, then (t_event, right limit): the same time twice,
 * as Modelica tools write events (a grid time equal to t_event is the left-limit row; a grid
 * time within 1e-9 * interval after it is covered by the event rows). The integration then
 * restarts from (t_event, right limit) with a fresh start of the method: dopri5, dop853 and
 * radau5 choose a new first step (at least 100 DBL_EPSILON max(|t_event|, |t_end|), at most
 * h_max; h_init is for t_start only); auto continues with dopri5 and a fresh stiffness test, but
 * with radau5 once it has switched; the fixed-step methods end their steps and write their
 * outputs on the grid of t_start (the first step after the event is shortened). Outputs keep the
 * grid of t_start (or output_origin); stats and max_steps count over the whole run. An event a
 * few ulps or less before t_end ends the integration there with the right limit.
 */
typedef struct eqc_events {
  int nz;                /**< number of indicators (0: no events, plain integration) */
  eqc_zc_fn zc;          /**< the indicators; a failure gives EQC_ERR_RHS with rhs_code set, a
                              NaN or Inf EQC_ERR_NONFINITE (see eqc_stats.event_indicator) */
  eqc_event_fn handle;   /**< called at each event */
  void *user;            /**< passed to zc and handle */
  int *conditions;       /**< nz entries, in/out, owned by the caller: condition k is 1 (z_k > 0)
                              or 0. The caller sets them initially and in handle. They need not
                              equal z_k > 0 at the start of a segment: a caller that knows z_k is
                              about to move away from 0 sets the condition it will have then
                              (a bouncing ball's "h > 0" stays 1 at the bounce) */
  int chatter_events;    /**< 0 = 100 */
  double chatter_window; /**< 0 = 1e-8 * (t_end - t_start): more than chatter_events events
                              within a window this wide stop the integration with
                              EQC_ERR_CHATTERING before the last one is handled; x and t_reached
                              are then its left limit (written as an output row), t_event and
                              event_indicator name it */
  const unsigned char *at_zero; /**< NULL (every condition fails at z_k = 0), or nz entries: 1
                              where condition k holds at z_k = 0 */
} eqc_events;

/**
 * eqc_integrate_jac with state events (see eqc_events; events may be NULL or have nz == 0:
 * exactly eqc_integrate_jac). Returns EQC_ERR_ARGUMENT for a negative nz, a missing zc, handle
 * or conditions, or negative chattering limits.
 */
int eqc_integrate_events(int n, eqc_rhs_fn f, void *f_user, const eqc_jacobian *jac, double *x,
                         const eqc_options *opt, eqc_output_fn out, void *out_user,
                         eqc_step_fn hook, void *hook_user, const eqc_events *events,
                         eqc_stats *stats);

/**
 * Numerical rank of the m-by-n row-major matrix a: singular values above rel_tol times the
 * largest count (rank-revealing QR). Returns the rank, or -1 on bad arguments.
 */
int eqc_matrix_rank(int m, int n, const double *a, double rel_tol);

#ifdef __cplusplus
}
#endif

#endif /* EQC_RUNTIME_H */
