/* The chain's rhs as a C programmer would write it: one loop, fixed ends as zero neighbours; built -O2. */
#include "chain_rhs.h"

#include <math.h>

int chain_rhs_sin(int n, double t, const double *x, double *dx, const double *p) {
  const double k = p[CHAIN_P_K], c = p[CHAIN_P_C], d = p[CHAIN_P_D];
  (void)t;
  for (int i = 0; i < n; ++i) {
    const double xi = x[2 * i], vi = x[2 * i + 1];
    const double left = i > 0 ? x[2 * i - 2] : 0.0;
    const double right = i + 1 < n ? x[2 * i + 2] : 0.0;
    dx[2 * i] = vi;
    dx[2 * i + 1] = -k * (2 * xi - left - right) - c * vi + d * sin(xi);
  }
  return 0;
}

int chain_rhs_cubic(int n, double t, const double *x, double *dx, const double *p) {
  const double k = p[CHAIN_P_K], c = p[CHAIN_P_C], d = p[CHAIN_P_D];
  (void)t;
  for (int i = 0; i < n; ++i) {
    const double xi = x[2 * i], vi = x[2 * i + 1];
    const double left = i > 0 ? x[2 * i - 2] : 0.0;
    const double right = i + 1 < n ? x[2 * i + 2] : 0.0;
    dx[2 * i] = vi;
    dx[2 * i + 1] = -k * (2 * xi - left - right) - c * vi + d * (xi * xi * xi);
  }
  return 0;
}
