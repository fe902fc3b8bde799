/* A piecewise-linear table as an external object (tests/conformance/functions/external_object.mo). */
#ifndef EQC_TABLE_H
#define EQC_TABLE_H
#include <stddef.h>
void *table_new(const char *name, const double *data, size_t n);
void table_free(void *table);
double table_at(void *table, double u);
double table_last(void *table);
int table_name_length(void *table);
#endif
