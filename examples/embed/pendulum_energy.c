/* Runs the pendulum compiled by `eqc compile examples/pendulum.eq` with dopri5 and prints the
 * drift of its energy and of its rod length. Build: see README.md in this folder. */
#include "Pendulum.h"

#include <math.h>
#include <stdio.h>

struct drift {
  int x, y, vx, vy;   /* state indices, looked up by name */
  double g, length;   /* parameter values */
  double energy0, worst_energy, worst_length;
  int points;
};

static double energy(const struct drift *d, const double *s) {
  return 0.5 * (s[d->vx] * s[d->vx] + s[d->vy] * s[d->vy]) + d->g * s[d->y];
}

static int on_output(void *user, double t, const double *x, const double *dx, const double *a) {
  struct drift *d = user;
  double e = energy(d, x), l = sqrt(x[d->x] * x[d->x] + x[d->y] * x[d->y]);
  (void)t, (void)dx, (void)a;
  if (d->points++ == 0)
    d->energy0 = e;
  if (fabs(e - d->energy0) > d->worst_energy)
    d->worst_energy = fabs(e - d->energy0);
  if (fabs(l - d->length) > d->worst_length)
    d->worst_length = fabs(l - d->length);
  return 0;
}

int main(void) {
  const eqc_model *model = eqc_model_Pendulum();
  eqc_sim *sim = eqc_sim_new(model);
  struct drift d = {0};
  eqc_options o;
  if (!sim) {
    fprintf(stderr, "cannot create the simulation\n");
    return 1;
  }
  d.x = eqc_sim_state_index(sim, "x");
  d.y = eqc_sim_state_index(sim, "y");
  d.vx = eqc_sim_state_index(sim, "vx");
  d.vy = eqc_sim_state_index(sim, "vy");
  d.g = model->param_defaults[eqc_sim_param_index(sim, "g")];
  d.length = model->param_defaults[eqc_sim_param_index(sim, "L")];
  eqc_options_default(&o);
  o.method = EQC_METHOD_DOPRI5;
  o.rtol = 1e-10;
  o.atol = 1e-10;
  o.interval = 0.01;
  eqc_sim_set_options(sim, &o);
  if (eqc_sim_run(sim, 10.0, on_output, &d) != EQC_OK) {
    fprintf(stderr, "pendulum: %s\n", eqc_sim_last_error(sim));
    eqc_sim_free(sim);
    return 1;
  }
  printf("pendulum, dopri5 rtol 1e-10, projection onto the invariants, t = 0..10 (%d points, %ld steps)\n",
         d.points, eqc_sim_stats(sim, NULL)->steps);
  printf("energy drift %.3e, length drift %.3e\n", d.worst_energy, d.worst_length);
  eqc_sim_free(sim);
  return d.worst_energy < 1e-6 && d.worst_length < 1e-9 ? 0 : 2;
}
