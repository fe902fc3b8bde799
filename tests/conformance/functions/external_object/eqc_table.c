/* A piecewise-linear table as an external object (tests/conformance/functions/external_object.mo):
 * built by eqc from this folder as library "eqc_table" (MLS 3.5, 12.9.4). */
#include "eqc_table.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  size_t n;
  double *x, *y;
  char name[16];
} table;

void *table_new(const char *name, const double *data, size_t n) {
  table *t = malloc(sizeof *t);
  t->n = n;
  t->x = malloc(n * sizeof(double));
  t->y = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i) {
    t->x[i] = data[2 * i];
    t->y[i] = data[2 * i + 1];
  }
  strncpy(t->name, name, sizeof t->name - 1);
  t->name[sizeof t->name - 1] = 0;
  return t;
}

void table_free(void *p) {
  table *t = p;
  free(t->x);
  free(t->y);
  free(t);
}

double table_at(void *p, double u) {
  const table *t = p;
  size_t i = 1;
  while (i + 1 < t->n && u > t->x[i])
    ++i;
  return t->y[i - 1] + (t->y[i] - t->y[i - 1]) * (u - t->x[i - 1]) / (t->x[i] - t->x[i - 1]);
}

double table_last(void *p) {
  const table *t = p;
  return t->x[t->n - 1];
}

int table_name_length(void *p) { return (int)strlen(((const table *)p)->name); }
