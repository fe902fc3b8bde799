/* eqc compiled models: the functions eqc generates for a model (JIT and object code alike), the
 * model's function table, and simulations of it (C ABI, no global state). */
#ifndef EQC_MODEL_H
#define EQC_MODEL_H

#include "eqc_runtime.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Return codes at or above this value mean: the algebraic loop (code - base) failed to converge. */
#define EQC_MODEL_LOOP_FAILURE_BASE 1000
/**
 * Return codes at or above this value mean: user function (code - base) / 1024 of the model
 * failed, because (code - base) % 1024 is 1: an index was out of bounds, 2: calls nested more than
 * 10000 deep (endless recursion), 3 + k: its assertion k (counted from 0 in the order of the
 * function's statements) failed.
 */
#define EQC_MODEL_FUNCTION_FAILURE_BASE 1048576
/** Returned by a model's event function when a when-clause called terminate(). */
#define EQC_MODEL_EVENT_TERMINATE 1

/** dx = f(t, x, p) and the algebraic variables a (a also holds Newton guesses between calls). */
typedef int (*eqc_model_rhs_fn)(double t, const double *x, double *dx, double *a, const double *p);
/** Consistent initial values: states not fixed by start values, dx and a, at time t. */
typedef int (*eqc_model_init_fn)(double t, double *x, double *dx, double *a, const double *p);
/**
 * The ODE Jacobian's structurally non-zero entries d f_i / d x_j at (t, x): values[k] for entry k
 * of the model's sparsity pattern (compressed sparse columns, as eqc_sparsity).
 * Requires that rhs was just evaluated at the same point.
 */
typedef int (*eqc_model_jac_fn)(double t, const double *x, const double *dx, const double *a,
                                const double *p, double *values);
/**
 * The event indicators z of a model with events, at a point where rhs was just evaluated: one
 * per condition (a relation such as h < 0), positive where it holds.
 */
typedef int (*eqc_model_zc_fn)(double t, const double *x, const double *dx, const double *a,
                               const double *p, double *z);
/**
 * The discrete part of a model at an event, at a point where rhs was just evaluated with the
 * conditions in p: discrete equations and when-clauses (which fire where a condition became true
 * since pre) update the discrete values in p, and reinit() changes x. Returns 0,
 * EQC_MODEL_EVENT_TERMINATE, or a failure code.
 */
typedef int (*eqc_model_event_fn)(double t, double *x, const double *dx, const double *a, double *p);
/** The hidden constraints g(t, x) of an index-reduced model (g has one entry per invariant). */
typedef int (*eqc_model_inv_fn)(double t, const double *x, const double *p, double *g);
/** G = dg/dx: with the table's pattern for it (eqc_model.invariants_jac_pattern and
 *  initial_constraints_jac_pattern), its structurally non-zero entries in the pattern's order;
 *  without one, dense: G[i*n + j] = d g_i / d x_j (m-by-n, row-major, n states). */
typedef int (*eqc_model_invjac_fn)(double t, const double *x, const double *p, double *jac);
/**
 * Recomputes the dependent parameters (those whose binding reads other parameters, e.g.
 * omega = 2*pi*f) from the others, in dependency order, except those marked in `given` (n_params
 * flags: parameters set by the caller keep their value, and the ones bound to them follow).
 */
typedef int (*eqc_model_bind_fn)(const unsigned char *given, double *p);
/**
 * The start values of the states whose start expression reads parameters (s(start = A*sin(phi))),
 * written into x (n_states entries; the other states are left as they are).
 */
typedef int (*eqc_model_start_fn)(const double *p, double *x);

/**
 * The model's assertions (Modelica's assert) at a point where rhs was just evaluated: the first
 * assertion k, in the model's order, whose flag in `skip` is 0 and whose condition fails is
 * written to *failed (-1 when none fails), with its message (formatted at the point, cut to
 * `size` bytes with a terminating 0) in `message`. Returns 0, or a failure code (a function in
 * a condition failed).
 */
typedef int (*eqc_model_assert_fn)(double t, const double *x, const double *dx, const double *a, const double *p,
                                   const unsigned char *skip, int *failed, char *message, size_t size);

/** eqc_model.assert_kind: flags of an assertion. */
enum {
  EQC_ASSERT_WARNING = 1, /**< level = AssertionLevel.warning: reported once, the run goes on */
  EQC_ASSERT_INITIAL = 2  /**< of an initial equation section: checked at initialization only */
};

/**
 * Models with events: fills the discrete part of p (see eqc_model.n_p) from the parameters: each
 * discrete variable's start value, its pre() equal to it, pre() of continuous variables 0, and
 * initial()'s flag 1.
 */
typedef int (*eqc_model_discrete_start_fn)(double *p);

/** eqc_model.discrete_kind: what a discrete variable is. */
enum {
  EQC_DISCRETE_REAL = 0,
  EQC_DISCRETE_INTEGER = 1,
  EQC_DISCRETE_BOOLEAN = 2,
  EQC_DISCRETE_CONDITION =
      3, /**< a Boolean eqc introduced for a relation or a when-condition (not declared) */
  EQC_DISCRETE_TERMINAL = 4, /**< terminal() (MLS 3.5, 3.7.2): false until eqc_sim_terminate's event */
  /** the value of an impure call in a when-branch (MLS 3.5, 12.3), held for the rest of a step of
   * the event iteration: whoever runs the event iteration sets it to NaN where pre() moves (each
   * step of a non-initial event), and the event function evaluates the call only while it is NaN;
   * not a value of the model (never compared, listed nor written) */
  EQC_DISCRETE_ONCE = 5,
  /** a String variable (MLS 3.5, 3.8.3): the handle of its text (eqc_string_text in
   * eqc_external.h gives the text) */
  EQC_DISCRETE_STRING = 6
};

/** eqc_model.param_kind: how a parameter may be changed after compilation. */
enum {
  EQC_PARAM_FREE = 0,       /**< set by the caller, or its default */
  EQC_PARAM_DEPENDENT = 1,  /**< computed by bind from the others (may still be set: then it is kept) */
  EQC_PARAM_STRUCTURAL = 2, /**< fixes array sizes, loop ranges or which equations exist, or folded when
                               compiled (Evaluate = true): not settable */
  EQC_PARAM_INPUT =
      3,               /**< a top-level input of the model: a function of time, set with
                            eqc_sim_set_input or eqc_sim_set_input_function (its default is its start value) */
  EQC_PARAM_OBJECT = 4 /**< an external object (MLS 3.5, 12.9.7): the address of an object of
                            C code, made by eqc_model.objects; not settable */
};

/**
 * Delays (ABI 7): the histories that a model's delay(expr, delayTime, delayMax) read (MLS 3.5,
 * 3.7.2.1). The model's functions find the context in p[eqc_model.delay_context] (its address's
 * bits, stored as a double by whoever owns p; all-zero bits: no history, and every delay is its
 * expression's current value, as at the start time) and call value(context, k, t, v, delay_time,
 * delay_max) for delay k at time t, where v is the expression's value at the point (possibly of
 * the previous evaluation: structural analysis does not order a delay after its expression): it
 * returns the expression's value at t - delay_time from the history (the start time's value
 * until then). The owner records the history at accepted points with eqc_model.delays (eqc_sim
 * does, after every accepted step, at the start and after events).
 */
typedef struct eqc_delay_context eqc_delay_context;
struct eqc_delay_context {
  double (*value)(eqc_delay_context *context, int k, double t, double v, double delay_time, double delay_max);
};

/** The expressions of the model's delays (values[k] for delay k, 0 for a delay no function reads)
 *  at a point where rhs was just evaluated. */
typedef int (*eqc_model_delays_fn)(double t, const double *x, const double *dx, const double *a, const double *p,
                                   double *values);

/** Frees the external objects that p holds (entries of kind EQC_PARAM_OBJECT that are not 0)
 *  and sets their entries to 0. */
typedef int (*eqc_model_release_fn)(double *p);

/** The version of eqc_model this header describes; a model with another version is refused. */
#define EQC_MODEL_ABI_VERSION 9

/**
 * A compiled model: sizes, names, defaults and functions. Everything is constant and owned by
 * whoever made the table (a compiled object, or the JIT); a simulation only reads it.
 */
typedef struct eqc_model {
  int abi_version;          /**< EQC_MODEL_ABI_VERSION */
  const char *name;         /**< the model's name */
  int n_states, n_algebraics, n_params, n_invariants;
  const char *const *state_names;     /**< n_states names (x[i]) */
  const char *const *algebraic_names; /**< n_algebraics names (a[i]) */
  const char *const *param_names;     /**< n_params names (p[i]) */
  const double *param_defaults;       /**< n_params default values */
  const double *state_start;          /**< n_states start values */
  const double *algebraic_start;      /**< n_algebraics start values (Newton guesses) */
  eqc_model_rhs_fn rhs;               /**< required */
  eqc_model_init_fn init;             /**< may be NULL: the start values are consistent */
  eqc_model_jac_fn jac;               /**< may be NULL: finite differences */
  const eqc_sparsity *jac_pattern;    /**< the pattern of jac's values (required with jac) */
  eqc_model_inv_fn invariants;        /**< may be NULL when n_invariants = 0 */
  eqc_model_invjac_fn invariants_jac; /**< may be NULL: no projection onto the invariants */
  const char *description;            /**< the model's description ("" or NULL when none) */
  const char *const *state_descriptions;     /**< n_states strings ("" when none), or NULL */
  const char *const *algebraic_descriptions; /**< n_algebraics strings, or NULL */
  const char *const *param_descriptions;     /**< n_params strings, or NULL */
  /** How the model became an ODE: "none" (index 0 or 1), or "invariants, projection",
   *  "invariants, Baumgarte", "invariants, none" (the ODE of the differentiated equations, with
   *  the hidden constraints as invariants and that stabilization); NULL when unknown. */
  const char *reduction;
  const unsigned char *param_kind; /**< n_params EQC_PARAM_* values, or NULL: all free */
  eqc_model_bind_fn bind;          /**< may be NULL: no dependent parameters */
  eqc_model_start_fn start;        /**< may be NULL: no start value reads a parameter */
  /** n_states flags: 1 where the start value is fixed (Modelica's fixed = true), 0 where it is a
   *  guess that initialization may move; NULL: none fixed. With invariants, initialization holds
   *  the fixed states and moves the others onto them (a value set with eqc_sim_set_state for one
   *  of those is a guess). */
  const unsigned char *state_fixed;
  /** Index-reduced models: the constraints of the consistent initial point, the invariants
   *  followed by the initial equations (n_initial_constraints >= n_invariants), with their
   *  Jacobian; 0 and NULL: the invariants alone. */
  int n_initial_constraints;
  eqc_model_inv_fn initial_constraints;
  eqc_model_invjac_fn initial_constraints_jac;
  /** The model's experiment Tolerance (annotation(experiment(Tolerance = ...))), 0 when none:
   *  eqc_sim_new's default rtol and atol, as eqc simulate's. */
  double tolerance;
  /* Events (ABI 3). With discrete variables p is longer than the parameters: n_params parameters,
   * then the n_discretes discrete values, their n_discretes pre() values, the n_pre_continuous
   * pre() values of continuous variables (read in when-clauses), and initial()'s flag (1 while
   * initializing): n_p = n_params + 2 n_discretes + n_pre_continuous + 1 entries. Without events
   * n_p = n_params and the rest is 0 or NULL. Conditions are discrete variables (1 true, 0
   * false); event indicator k (zc) decides condition indicator_discrete[k]. */
  int n_p;
  int n_discretes;
  const char *const *discrete_names;   /**< n_discretes names (p[n_params + j]) */
  const unsigned char *discrete_kind;  /**< n_discretes EQC_DISCRETE_* values */
  int n_indicators;
  const int *indicator_discrete;       /**< per indicator: the condition among the discretes it decides */
  const unsigned char *indicator_at_zero; /**< per indicator: 1 for a relation a <= b (it holds at z = 0) */
  int n_pre_continuous;
  /** Per pre() of a continuous variable: the variable is x[i] for i < n_states,
   *  dx[i - n_states] for i < 2 n_states, else a[i - 2 n_states]. */
  const int *pre_continuous_source;
  eqc_model_discrete_start_fn discrete_start; /**< required with n_discretes > 0 */
  eqc_model_zc_fn zc;                         /**< required with n_indicators > 0 */
  eqc_model_event_fn event;                   /**< required with n_discretes > 0 */
  /** Index-reduced models: per state, its kinematic level (0 for a position, 1 for its velocity,
   *  ...) and whether it is integrated into another state (der(x) = v). After a reinit the
   *  states move onto the invariants holding the reinitialized ones and the integrated states of
   *  lower levels (a velocity's reinit leaves the positions), if that fails the reinitialized
   *  ones only, then none. NULL: the reinitialized ones only. */
  const int *state_level;
  const unsigned char *state_integrated;
  /* Sparse constraint Jacobians (ABI 4): the patterns of invariants_jac's and
   * initial_constraints_jac's values (compressed sparse columns: n_states columns, the
   * constraints as rows). NULL: that function writes a dense m-by-n matrix. eqc_sim then holds
   * and factors only these entries (a large index-reduced model's m-by-n would not fit). */
  const eqc_sparsity *invariants_jac_pattern;
  const eqc_sparsity *initial_constraints_jac_pattern;
  /* Assertions (ABI 5): assert(condition, message, level) of the model's equations, checked at the
   * consistent initial point, after every accepted step and after every event. An error stops the
   * run (EQC_ERR_ASSERTION, the message in eqc_sim_last_error); a warning goes to the warning
   * callback once per run. */
  int n_asserts;
  const unsigned char *assert_kind; /**< n_asserts EQC_ASSERT_* flags, or NULL: all errors */
  eqc_model_assert_fn asserts;      /**< required with n_asserts > 0 */
  /* External functions (ABI 6): the message of the last ModelicaError (MLS 3.5, 12.9.6) in the
   * model's external C functions on the calling thread, when a model function failed with
   * EQC_MODEL_FUNCTION_FAILURE_BASE + 1024 * f + 0 (the model's own copy of the runtime keeps it).
   * NULL: the model calls no external function. */
  const char *(*external_error)(void);
  /* Delays (ABI 7, see eqc_delay_context): n_delays histories, and the entry of p (the last, after
   * the parameters and the event part: n_p counts it) that holds the context; -1 without delays. */
  int n_delays;
  int delay_context;
  eqc_model_delays_fn delays; /**< required with n_delays > 0 */
  /* External objects (ABI 8; MLS 3.5, 12.9.7): the parameters of kind EQC_PARAM_OBJECT hold the
   * address of an object of C code as the bits of a double (0: none; their defaults are 0).
   * objects(given, p) frees the objects p holds, makes them anew from the parameters (their
   * constructors) and recomputes the parameters that read them (one marked in `given` keeps its
   * value), after bind; release(p) frees them (their destructors). eqc_sim calls objects at every
   * initialization and release when it is freed; a copy or a deserialized simulation makes its
   * own. Both NULL: the model has none. */
  eqc_model_bind_fn objects;
  eqc_model_release_fn release;
  /* Forward sensitivities across events (ABI 9; eqc simulate --sensitivities, whose model carries
   * the sensitivities d(v)/d(p_j) of its variables as variables of its own): at an event that the
   * crossing of indicator k causes at t_e, the run sets the discrete
   * sensitivity_event_time[j] to d(t_e)/d(p_j) = -z_kj / (dz_k/dt), z_kj from
   * indicator_sensitivities and dz_k/dt along the derivatives before the event; adds dx_i
   * d(t_e)/d(p_j) to the state sensitivity_state[j * n_states + i] (d(x_i)/d(p_j)) before the event
   * iteration and subtracts the derivatives after it times d(t_e)/d(p_j) after it; then sets the
   * discretes back to 0. The event function's own changes to the sensitivities (reinit, discrete
   * Reals) read them. 0 and NULL: the model has none. */
  int n_sensitivities;
  const int *sensitivity_state;      /**< n_sensitivities * n_states: a state's sensitivity's state, or -1 */
  const int *sensitivity_event_time; /**< n_sensitivities discrete indices (NULL without indicators) */
  /** z[k * n_sensitivities + j]: indicator k's derivative along p_j at fixed time (after rhs at the
   * same point); required with n_sensitivities > 0 and n_indicators > 0. */
  eqc_model_zc_fn indicator_sensitivities;
} eqc_model;

/** A simulation of one model: its parameters, state, options and statistics. */
typedef struct eqc_sim eqc_sim;

/**
 * Creates a simulation of `model` at time 0 with its default parameters and start values, the
 * options of eqc_options_default (rtol = atol = the model's tolerance when it has one), and projection onto the invariants after every step when the
 * model has invariants and their Jacobian. Returns NULL when the model table is invalid (wrong
 * abi_version, negative sizes, missing names or functions) or memory is short. The model must
 * outlive the simulation. Simulations share nothing: any number may run, in any threads.
 */
eqc_sim *eqc_sim_new(const eqc_model *model);
/** Frees a simulation (NULL is ignored). */
void eqc_sim_free(eqc_sim *sim);
/**
 * A copy of the simulation: the same model, parameters, state, time, options and statistics, and
 * what runs that continue each other keep (the last step size, auto's switch to radau5), so that
 * a run of the copy gives the bits a run of the original would (FMI's fmi2GetFMUstate). NULL for
 * NULL or without memory. The copy is independent: free it with eqc_sim_free.
 */
eqc_sim *eqc_sim_copy(const eqc_sim *sim);
/**
 * The state of a simulation as bytes (what eqc_sim_copy copies, less the model): its size, and
 * the bytes written into `bytes` (at least that size; EQC_ERR_ARGUMENT otherwise). The bytes are
 * for the same model compiled by the same eqc on the same kind of machine.
 */
size_t eqc_sim_serialized_size(const eqc_sim *sim);
int eqc_sim_serialize(const eqc_sim *sim, unsigned char *bytes, size_t size);
/** A simulation of `model` from eqc_sim_serialize's bytes, or NULL when they are not those of a
 *  simulation of a model of the same sizes (or memory is short). */
eqc_sim *eqc_sim_deserialize(const eqc_model *model, const unsigned char *bytes, size_t size);

/** The integrator options used by the next eqc_sim_run (t_start and t_end are set by the run). */
int eqc_sim_set_options(eqc_sim *sim, const eqc_options *opt);
/** Per-state absolute tolerances (n_states values, copied; e.g. atol times a state's nominal
 *  value), used instead of options.atol by the next runs; NULL: options.atol again.
 *  EQC_ERR_ARGUMENT for a negative or non-finite value. */
int eqc_sim_set_atol(eqc_sim *sim, const double *atol);
/** Called after every accepted step (after the projection) with the time and the states, e.g. for
 *  a progress bar; a non-zero return stops the run with EQC_ERR_STOPPED there. NULL: none. */
typedef int (*eqc_sim_step_fn)(void *user, double t, const double *x);
int eqc_sim_set_step_callback(eqc_sim *sim, eqc_sim_step_fn fn, void *user);
/** Projection onto the invariants after every step: 1 on (needs invariants_jac; the default
 *  then), 0 off (e.g. a model stabilized by Baumgarte's method). Initialization projects the
 *  start values onto the invariants either way. */
int eqc_sim_set_projection(eqc_sim *sim, int on);
/**
 * Supplies J = df/dx on demand for a table without jac (a compiler that generates the Jacobian
 * only when an implicit method needs it): provider sets *jac and *pattern (valid as long as the
 * simulation) and returns 0, or non-zero to stop the run (EQC_ERR_RHS). It is called once per
 * run, when an implicit method first needs J (never for explicit methods). NULL: finite
 * differences. `solver` picks the implicit methods' linear algebra (eqc_linear_solver; a table's
 * own jac uses it too). EQC_ERR_ARGUMENT for an unknown solver.
 */
typedef int (*eqc_sim_jacobian_fn)(void *user, eqc_model_jac_fn *jac, const eqc_sparsity **pattern);
int eqc_sim_set_jacobian(eqc_sim *sim, eqc_linear_solver solver, eqc_sim_jacobian_fn provider, void *user);

/** The index of a parameter, state or algebraic variable by name, or -1. */
int eqc_sim_param_index(const eqc_sim *sim, const char *name);
int eqc_sim_state_index(const eqc_sim *sim, const char *name);
int eqc_sim_algebraic_index(const eqc_sim *sim, const char *name);

/**
 * Sets parameter `index`; the dependent parameters bound to it follow at the next initialization
 * (eqc_model.bind; a dependent parameter set itself keeps its value), and so do start values that
 * read it, before the first run (eqc_model.start; states set with eqc_sim_set_state keep theirs).
 * EQC_ERR_ARGUMENT for a bad index, a non-finite value or a structural parameter.
 */
int eqc_sim_set_param(eqc_sim *sim, int index, double value);
/**
 * Inputs (parameters of kind EQC_PARAM_INPUT): eqc_sim_set_input sets one from now on (held
 * until set again); EQC_ERR_ARGUMENT for another kind of parameter or a non-finite value.
 */
int eqc_sim_set_input(eqc_sim *sim, int index, double value);
/**
 * Inputs as functions of time: fn(user, t, u) is called before every evaluation of the model at
 * time t, with u holding the inputs' current values (one per parameter of kind EQC_PARAM_INPUT,
 * in the order of their indices), which it overwrites; a non-zero return stops the run
 * (EQC_ERR_RHS). NULL: the held values again.
 */
typedef int (*eqc_sim_input_fn)(void *user, double t, double *u);
int eqc_sim_set_input_function(eqc_sim *sim, eqc_sim_input_fn fn, void *user);
/** Sets state `index` (a start value before eqc_sim_initialize, or the state between runs). */
int eqc_sim_set_state(eqc_sim *sim, int index, double value);
/** Sets the time (before the first run, or to restart from the current state at another time). */
int eqc_sim_set_time(eqc_sim *sim, double t);

/**
 * Makes the state consistent at the current time: runs the model's init (free states,
 * derivatives, algebraic variables), then, with projection on, projects onto the invariants,
 * moving only the states whose start is not fixed (EQC_ERR_NEWTON or
 * EQC_ERR_SINGULAR when the fixed values admit no consistent point near the start values; the
 * message names the fixed values). Models with events, before the first run: the discrete
 * variables start at their start values and the initial event iteration runs (when-clauses with
 * initial(), discrete equations), as in eqc simulate.
 * eqc_sim_run calls it itself before the first run and after eqc_sim_set_state/set_param.
 */
int eqc_sim_initialize(eqc_sim *sim);

/**
 * Called at each output point with the time, the states, their derivatives and the algebraic
 * variables; non-zero stops the run (EQC_ERR_STOPPED).
 */
typedef int (*eqc_sim_output_fn)(void *user, double t, const double *x, const double *dx,
                                 const double *a);

/**
 * Integrates from the current time to t_end (>= current time) with the options set, calling out
 * (may be NULL) at the start, on the output grid (options.interval from the current time; 0:
 * every step) and at t_end. t_end equal to the current time: out is called once there (after the
 * initialization, the consistent initial point: an initialization-only run), unless a run ended
 * there. Runs continue one another: the state and time carry over, and the
 * next run starts with the last step size. Models with events: state events are located and
 * handled by the event iteration (when-clauses, reinit, discrete equations, terminate()); out is
 * called at an event with the left and then the right limit (the same time twice), and no step
 * spans more than options.interval. Returns an eqc_status; on failure the state and time
 * are those of the last valid step, and eqc_sim_last_error says what happened, where and when.
 */
int eqc_sim_run(eqc_sim *sim, double t_end, eqc_sim_output_fn out, void *user);

/** The current time, states (n_states), derivatives and algebraic variables at it. */
double eqc_sim_time(const eqc_sim *sim);
const double *eqc_sim_states(const eqc_sim *sim);
const double *eqc_sim_derivatives(const eqc_sim *sim);
const double *eqc_sim_algebraics(const eqc_sim *sim);
/** Statistics of the last run; in *invariant_residual (may be NULL) the largest |g_i| of the
 *  invariants at its output points (after projection, where it is on: the drift otherwise). */
const eqc_stats *eqc_sim_stats(const eqc_sim *sim, double *invariant_residual);
/** Called once per run for each warning-level assertion that fails (at time t, assertion k of the
 *  model, its message); NULL: warnings are not reported. */
typedef void (*eqc_sim_warning_fn)(void *user, double t, int assertion, const char *message);
int eqc_sim_set_warning_callback(eqc_sim *sim, eqc_sim_warning_fn fn, void *user);
/** The assertion whose failure ended the last run or initialization (EQC_ERR_ASSERTION), else -1. */
int eqc_sim_failed_assertion(const eqc_sim *sim);
/** For callers that integrate the model themselves (an FMU's Model-Exchange environment), after
 *  each step they accept: the assertions at (t, x) (x is not kept), and the point recorded in
 *  the delays' histories. EQC_OK, EQC_ERR_ASSERTION
 *  (the message in eqc_sim_last_error), or EQC_ERR_RHS; failing warnings go to the warning
 *  callback once. */
int eqc_sim_check_assertions(eqc_sim *sim, double t, const double *x);

/** Models with events: the index of a discrete variable by name (-1 if none), and the discrete
 *  values (n_discretes; Booleans as 0 and 1). */
int eqc_sim_discrete_index(const eqc_sim *sim, const char *name);
const double *eqc_sim_discretes(const eqc_sim *sim);
/** All of p: the parameters, then the discrete part (eqc_model.n_p values). */
const double *eqc_sim_parameters(const eqc_sim *sim);
/**
 * Ends a simulation that ran successfully (to its stop time, or to a terminate()): the terminal
 * event at the current time, where terminal() is true (MLS 3.5, 3.7.2: when-clauses on it fire,
 * then the assertions are checked); later runs are refused. EQC_OK (also for a model without
 * terminal(): nothing to do), EQC_ERR_ASSERTION, or EQC_ERR_RHS, with the message in
 * eqc_sim_last_error; *changed (may be NULL) is 1 when discrete values or states changed.
 */
int eqc_sim_terminate(eqc_sim *sim, int *changed);
/** 1 once a when-clause called terminate(): the run that met it returned EQC_OK at that time
 *  (eqc_sim_time), and later runs are refused. */
int eqc_sim_terminated(const eqc_sim *sim);
/** Events handled so far (in every run and by eqc_sim_event). */
long eqc_sim_events(const eqc_sim *sim);

/*
 * For callers that integrate a model with events themselves (an FMU's Model-Exchange
 * environment): they watch the indicators' signs between steps and report each event.
 */
/** The event indicators at (t, x) under the conditions held: n_indicators values in z. Right
 *  after an event an indicator may still have the sign opposite to the condition the event
 *  settled (the iteration looks just ahead along the solution: a ball a few ulps below the floor,
 *  rising); it is reported as +-DBL_MIN with the condition's sign until its value agrees, so that
 *  every sign change the caller sees is a crossing. */
int eqc_sim_indicators(eqc_sim *sim, double t, const double *x, double *z);
/**
 * An event at (t, x) that the caller located: sets the time and states to them, moves an
 * index-reduced model (with projection on) onto its invariants, runs the event iteration with the
 * indicators whose sign disagrees with the condition held as crossed (none: the discrete
 * equations are evaluated again), moves it back onto them after a reinit, and sets
 * *states_changed (may be NULL) to 1 when the states changed. Returns EQC_OK (eqc_sim_terminated tells of a terminate()) or EQC_ERR_RHS with the
 * message in eqc_sim_last_error.
 */
int eqc_sim_event(eqc_sim *sim, double t, const double *x, int *states_changed);

/** An English sentence about the last failure ("" after success), valid until the next call. */
const char *eqc_sim_last_error(const eqc_sim *sim);

#ifdef __cplusplus
}
#endif

#endif /* EQC_MODEL_H */
