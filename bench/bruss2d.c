/* BRUSS-2D's right-hand side and Jacobian (see bruss2d.h). Compiled -O2 in its own translation
 * unit (bench/CMakeLists.txt), so that neither solver can inline them. */
#include "bruss2d.h"

#include <math.h>
#include <stdlib.h>

/* The periodic neighbours of index i on a ring of N points. */
static int prev_of(int i, int N) { return i == 0 ? N - 1 : i - 1; }
static int next_of(int i, int N) { return i == N - 1 ? 0 : i + 1; }

static void sort6(int *a) {
  for (int k = 1; k < 6; ++k)
    for (int m = k; m > 0 && a[m - 1] > a[m]; --m) {
      const int s = a[m];
      a[m] = a[m - 1], a[m - 1] = s;
    }
}

int bruss2d_init(bruss2d *p, int N, double alpha) {
  if (N < 3)
    return -1;
  const int cells = N * N;
  p->N = N;
  p->n = 2 * cells;
  p->alpha = alpha;
  p->d = alpha * N * N;
  p->nnz = 6 * p->n;
  p->col_start = malloc((size_t)(p->n + 1) * sizeof *p->col_start);
  p->row_index = malloc((size_t)p->nnz * sizeof *p->row_index);
  if (!p->col_start || !p->row_index) {
    bruss2d_free(p);
    return -1;
  }
  /* Column 2c + s (s = 0: u, 1: v of cell c) holds the cell's rows 2c, 2c + 1 and the same
   * component's rows of the 4 neighbours, whose Laplacians contain it. */
  int k = 0;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      const int c = j * N + i;
      const int neighbours[4] = {j * N + prev_of(i, N), j * N + next_of(i, N),
                                 prev_of(j, N) * N + i, next_of(j, N) * N + i};
      for (int s = 0; s < 2; ++s) {
        int rows[6] = {2 * c, 2 * c + 1};
        for (int m = 0; m < 4; ++m)
          rows[2 + m] = 2 * neighbours[m] + s;
        sort6(rows);
        p->col_start[2 * c + s] = k;
        for (int m = 0; m < 6; ++m)
          p->row_index[k++] = rows[m];
      }
    }
  p->col_start[p->n] = k;
  return 0;
}

void bruss2d_free(bruss2d *p) {
  free(p->col_start);
  free(p->row_index);
  p->col_start = NULL;
  p->row_index = NULL;
}

void bruss2d_initial(const bruss2d *p, double *y) {
  const int N = p->N;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      const double x = (double)i / N, yy = (double)j / N;
      y[2 * (j * N + i)] = 22.0 * yy * pow(1.0 - yy, 1.5);
      y[2 * (j * N + i) + 1] = 27.0 * x * pow(1.0 - x, 1.5);
    }
}

int bruss2d_rhs(void *user, double t, const double *y, double *dy) {
  (void)t;
  const bruss2d *p = user;
  const int N = p->N;
  const double d = p->d;
  for (int j = 0; j < N; ++j) {
    const int down = prev_of(j, N) * N, up = next_of(j, N) * N, row = j * N;
    for (int i = 0; i < N; ++i) {
      const int c = row + i, west = row + prev_of(i, N), east = row + next_of(i, N);
      const int south = down + i, north = up + i;
      const double u = y[2 * c], v = y[2 * c + 1], uuv = u * u * v;
      dy[2 * c] = 1.0 + uuv - 4.4 * u +
                  d * (y[2 * west] + y[2 * east] + y[2 * south] + y[2 * north] - 4.0 * u);
      dy[2 * c + 1] = 3.4 * u - uuv + d * (y[2 * west + 1] + y[2 * east + 1] + y[2 * south + 1] +
                                           y[2 * north + 1] - 4.0 * v);
    }
  }
  return 0;
}

int bruss2d_jac(void *user, double t, const double *y, double *values) {
  (void)t;
  const bruss2d *p = user;
  const double d = p->d;
  /* Column col is the derivative by u (s = 0) or v (s = 1) of cell c: dfu and dfv are those of
   * the cell's own f_u and f_v; every other entry is a neighbour's diffusion weight d. */
  for (int col = 0; col < p->n; ++col) {
    const int c = col / 2, s = col % 2;
    const double u = y[2 * c], v = y[2 * c + 1];
    const double dfu = s == 0 ? 2.0 * u * v - 4.4 - 4.0 * d : u * u;
    const double dfv = s == 0 ? 3.4 - 2.0 * u * v : -u * u - 4.0 * d;
    for (int k = p->col_start[col]; k < p->col_start[col + 1]; ++k) {
      const int r = p->row_index[k];
      values[k] = r == 2 * c ? dfu : r == 2 * c + 1 ? dfv : d;
    }
  }
  return 0;
}
