// MLS 3.5, 12.6 and 12.4.1: arrays of records as function inputs (of unknown size, `v[:]`),
// outputs (sized from the inputs) and locals; their elements indexed by loop variables
// (`v[i]`, `v[i].re`), their fields as arrays (`v[:].re`, `v.im`), and record elements assigned.
// EXPECT: simulate
model RecordArraysInFunctions
  record C
    Real re, im;
  end C;
  function csum
    input C v[:];
    output C r;
  algorithm
    r := C(sum(v[:].re), sum(v.im));
  end csum;
  function cprod
    input C v[:];
    output C r;
  algorithm
    r := C(1, 0);
    for i in 1:size(v, 1) loop
      r := C(r.re * v[i].re - r.im * v[i].im, r.re * v[i].im + r.im * v[i].re);
    end for;
  end cprod;
  function cmax "the element of largest modulus, and its index"
    input C v[:];
    output C result;
    output Real index;
  protected
    Real a, best;
  algorithm
    best := -1;
    for i in 1:size(v, 1) loop
      a := v[i].re ^ 2 + v[i].im ^ 2;
      if a > best then
        best := a;
        index := i;
      end if;
    end for;
    result := v[integer(index)];
  end cmax;
  function reversed
    input C v[:];
    output C w[size(v, 1)];
  algorithm
    for i in 1:size(v, 1) loop
      w[size(v, 1) + 1 - i] := v[i];
    end for;
  end reversed;
  function grid
    input Integer m;
    output C t[m, m];
  algorithm
    for i in 1:m loop
      for j in 1:m loop
        t[i, j] := C(i, j);
      end for;
    end for;
    t[m, 1].im := -1;
  end grid;
  parameter Integer n = 3;
  C v[n] = {C(k * time, 1) for k in 1:n};
  C s = csum(v);
  C p = cprod(v);
  C mx;
  Real at;
  C w[n] = reversed(v);
  parameter C t[2, 2] = grid(2);
equation
  (mx, at) = cmax(v);
  // v = (t + j, 2t + j, 3t + j): the sum 6t + 3j; the product (t + j)(2t + j)(3t + j) =
  // 6t^3 - 6t + j(11t^2 - 1); the largest modulus is v[3] (near t = 0 the moduli agree to rounding).
  assert(abs(s.re - 6 * time) < 1e-12 and s.im == 3, "sum of a record array");
  assert(abs(p.re - (6 * time ^ 3 - 6 * time)) < 1e-9 and abs(p.im - (11 * time ^ 2 - 1)) < 1e-9, "product");
  assert(if time > 1e-3 then at == 3 and abs(mx.re - 3 * time) < 1e-12 else mx.im == 1,
         "element and index of the largest");
  assert(abs(w[1].re - 3 * time) < 1e-12 and abs(w[3].re - time) < 1e-12 and w[2].im == 1, "reversed");
  assert(t[1, 2].re == 1 and t[1, 2].im == 2 and t[2, 1].re == 2 and t[2, 1].im == -1, "a matrix of records");
  annotation(experiment(StopTime = 1));
end RecordArraysInFunctions;
