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

/* Column x{i} then v{i}, for i = 0..n-1; `slope` is d*f'(x{i}). */
#define CHAIN_JAC_BODY(slope)                                                                        \
  const double k = p[CHAIN_P_K], c = p[CHAIN_P_C], d = p[CHAIN_P_D];                                 \
  double *out = values;                                                                              \
  (void)t;                                                                                           \
  for (int i = 0; i < n; ++i) {                                                                      \
    const double xi = x[2 * i];                                                                      \
    if (i > 0)                                                                                       \
      *out++ = k;                                                                                    \
    *out++ = -2 * k + (slope);                                                                       \
    if (i + 1 < n)                                                                                   \
      *out++ = k;                                                                                    \
    *out++ = 1.0;                                                                                    \
    *out++ = -c;                                                                                     \
  }                                                                                                  \
  return 0;

int chain_jac_sin(int n, double t, const double *x, double *values, const double *p) {
  CHAIN_JAC_BODY(d * cos(xi))
}

int chain_jac_cubic(int n, double t, const double *x, double *values, const double *p) {
  CHAIN_JAC_BODY(3 * d * xi * xi)
}

void chain_jac_pattern(int n, int *colStart, int *rowIndex) {
  int k = 0;
  for (int i = 0; i < n; ++i) {
    colStart[2 * i] = k;
    if (i > 0)
      rowIndex[k++] = 2 * i - 1;
    rowIndex[k++] = 2 * i + 1;
    if (i + 1 < n)
      rowIndex[k++] = 2 * i + 3;
    colStart[2 * i + 1] = k;
    rowIndex[k++] = 2 * i;
    rowIndex[k++] = 2 * i + 1;
  }
  colStart[2 * n] = k;
}
