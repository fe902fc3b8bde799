// MLS 3.5, 12.9: external C functions. 12.9.1: the default call passes the inputs in declaration
// order, an array as its address followed by its sizes (size_t); 12.9.2: a single scalar output is
// the returned value; an explicit call maps its arguments as written, outputs by address, size(a, k)
// as size_t; 12.9.4: Library = "m" links libm; Include code is compiled with the model.
// EXPECT: simulate
model Ext
  function cbrt
    input Real x;
    output Real y;
  external "C" y = cbrt(x) annotation(Library = "m");
  end cbrt;
  function weightedSum "default call: double weightedSum(const double *, size_t, double)"
    input Real a[:];
    input Real w;
    output Real s;
  external "C" annotation(Include = "
#include <stddef.h>
double weightedSum(const double *a, size_t n, double w) {
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += w * a[i];
  return s;
}");
  end weightedSum;
  function minmax "explicit call: outputs by address, Integer as int"
    input Real a[:];
    output Real lo;
    output Real hi;
    output Integer where;
  external "C" minmaxOf(a, size(a, 1), lo, hi, where) annotation(Include = "
#include <stddef.h>
void minmaxOf(const double *a, size_t n, double *lo, double *hi, int *where) {
  *lo = *hi = a[0]; *where = 1;
  for (size_t i = 1; i < n; ++i) { if (a[i] < *lo) *lo = a[i]; if (a[i] > *hi) { *hi = a[i]; *where = (int)i + 1; } }
}");
  end minmax;
  Real z = cbrt(8 + time);
  Real s = weightedSum({1, 2, 3, time}, 2);
  Real lo, hi;
  Integer k;
equation
  (lo, hi, k) = minmax({3, -1, 2 + 2 * floor(time), 4.5}); // k: Integer, changing at events only
  assert(abs(z - (8 + time)^(1/3)) < 1e-14, "cbrt");
  assert(abs(s - 2 * (6 + time)) < 1e-12, "weightedSum");
  assert(lo == -1 and hi == max(4.5, 2 + 2 * floor(time)), "minmax values");
  assert(k == (if time >= 2 then 3 else 4), "minmax index");
  annotation(experiment(StopTime = 2.5));
end Ext;
