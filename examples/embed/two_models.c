/* Steps two different compiled models side by side in one process, each in its own eqc_sim:
 * the Lotka-Volterra predator-prey model (dopri5) and Robertson's stiff kinetics (radau5). Prints
 * one line per time with both models' states (%.17g: exactly the doubles computed). */
#include "LotkaVolterra.h"
#include "Rober.h"

#include <stdio.h>

static eqc_sim *start(const eqc_model *m, eqc_method method, double rtol, double atol) {
  eqc_sim *sim = eqc_sim_new(m);
  eqc_options o;
  if (!sim)
    return NULL;
  eqc_options_default(&o);
  o.method = method;
  o.rtol = rtol;
  o.atol = atol;
  eqc_sim_set_options(sim, &o);
  return sim;
}

int main(void) {
  eqc_sim *prey = start(eqc_model_LotkaVolterra(), EQC_METHOD_DOPRI5, 1e-9, 1e-9);
  eqc_sim *rober = start(eqc_model_Rober(), EQC_METHOD_RADAU5, 1e-6, 1e-10);
  int k, status = 0;
  if (!prey || !rober)
    return 1;
  printf("time,x,y,y1,y2,y3\n");
  for (k = 1; k <= 15 && status == 0; ++k) {
    double t = k;
    const double *a, *b;
    if (eqc_sim_run(prey, t, NULL, NULL) != EQC_OK || eqc_sim_run(rober, t, NULL, NULL) != EQC_OK) {
      fprintf(stderr, "%s%s\n", eqc_sim_last_error(prey), eqc_sim_last_error(rober));
      status = 1;
      break;
    }
    a = eqc_sim_states(prey);
    b = eqc_sim_states(rober);
    printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", t, a[0], a[1], b[0], b[1], b[2]);
  }
  eqc_sim_free(prey);
  eqc_sim_free(rober);
  return status;
}
