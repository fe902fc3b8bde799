/* Runs the Lotka-Volterra model with the settings `eqc simulate examples/lotka_volterra.eq` takes
 * from its experiment annotation (auto, rtol = atol = 1e-9, t = 0..15, output every 0.01) and
 * writes time and the states as CSV on stdout: the same numbers as eqc simulate's CSV. */
#include "LotkaVolterra.h"

#include <stdio.h>

static int row(void *user, double t, const double *x, const double *dx, const double *a) {
  const eqc_model *m = user;
  int i;
  (void)dx, (void)a;
  printf("%.17g", t);
  for (i = 0; i < m->n_states; ++i)
    printf(",%.17g", x[i]);
  printf("\n");
  return 0;
}

int main(void) {
  const eqc_model *m = eqc_model_LotkaVolterra();
  eqc_sim *sim = eqc_sim_new(m);
  eqc_options o;
  int i, status;
  if (!sim)
    return 1;
  eqc_options_default(&o); /* method auto */
  o.rtol = 1e-9;
  o.atol = 1e-9;
  o.interval = 0.01;
  eqc_sim_set_options(sim, &o);
  printf("time");
  for (i = 0; i < m->n_states; ++i)
    printf(",%s", m->state_names[i]);
  printf("\n");
  status = eqc_sim_run(sim, 15.0, row, (void *)m);
  if (status != EQC_OK)
    fprintf(stderr, "%s\n", eqc_sim_last_error(sim));
  eqc_sim_free(sim);
  return status == EQC_OK ? 0 : 1;
}
