// MLS 3.5, 12.6 and 10.1: arrays of records as values. An array of record components named
// whole, sliced or indexed; array constructors and fill() of record values; a record array with
// a value (parameter and variable, its slice per element, 7.2.5), record-array equations, and
// the fields of an array of records (`v.re` is a Real array).
// EXPECT: simulate
model RecordArrays
  record R
    Real re;
    Real im;
  end R;
  parameter Integer m = 3;
  parameter R c[m] = {R(k, -k) for k in 1:m};
  parameter R z[2] = fill(R(1, 2), 2);
  R v[m];
  R w[m](each re(start = 0, fixed = true));
  R u[m] = {R(time, 2 * time), v[2], c[3]};
  R two[2];
  Real s;
equation
  for k in 1:m loop
    v[k] = R(k, 2 * k);
    der(w[k].re) = -w[k].re + v[k].re;
    w[k].im = v[k].im * time;
  end for;
  two = v[2:3];
  s = sum(v.re) + sum(c.im);
  assert(s == 0 and two[1].re == 2 and two[2].im == 6, "slices and fields");
  assert(abs(u[1].im - 2 * time) < 1e-12 and u[2].im == 4 and u[3].re == 3 and u[3].im == -3, "constructors");
  assert(z[2].re == 1 and z[2].im == 2, "fill");
  assert(abs(w[3].re - 3 * (1 - exp(-time))) < 1e-5, "states in an array of records");
  annotation(experiment(StopTime = 1));
end RecordArrays;
