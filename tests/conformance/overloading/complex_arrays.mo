// MLS 3.5, 14.4 and 14.5 with 10.6: an operator record's operators on arrays of its records,
// element by element (+, -, unary minus, .*), and an array with a scalar (*, /); a function of a
// scalar record called with an array is vectorized (12.4.6) and may return records.
// EXPECT: simulate
model ComplexArrays
  operator record C
    Real re, im;
    encapsulated operator function '+'
      input C a, b;
      output C c;
    algorithm
      c := C(a.re + b.re, a.im + b.im);
    end '+';
    encapsulated operator '-'
      function negate
        input C a;
        output C c;
      algorithm
        c := C(-a.re, -a.im);
      end negate;
      function subtract
        input C a, b;
        output C c;
      algorithm
        c := C(a.re - b.re, a.im - b.im);
      end subtract;
    end '-';
    encapsulated operator function '*'
      input C a, b;
      output C c;
    algorithm
      c := C(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
    end '*';
    encapsulated operator function '/'
      input C a, b;
      output C c;
    protected
      Real d = b.re ^ 2 + b.im ^ 2;
    algorithm
      c := C((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
    end '/';
  end C;
  function conj
    input C a;
    output C c;
  algorithm
    c := C(a.re, -a.im);
  end conj;
  function absC
    input C a;
    output Real r;
  algorithm
    r := sqrt(a.re ^ 2 + a.im ^ 2);
  end absC;
  parameter Integer m = 3;
  parameter C z = C(1, 2);
  C v[m] = {C(k, 0) for k in 1:m};
  C i[m];
  C d[m] = v - z * i;
  C n[m] = -i;
  C p[m] = v .* conj(i);
  Real a[m] = absC(i);
equation
  v = z * i;
  for k in 1:m loop
    // i = v/z = k (1 - 2j)/5; p = v conj(i) = k^2 (1 + 2j)/5; |i| = k/sqrt(5)
    assert(abs(i[k].re - k / 5) < 1e-12 and abs(i[k].im + 2 * k / 5) < 1e-12, "v = z*i");
    assert(abs(d[k].re) < 1e-12 and abs(d[k].im) < 1e-12 and abs(n[k].im - 2 * k / 5) < 1e-12, "- and unary -");
    assert(abs(p[k].re - k ^ 2 / 5) < 1e-12 and abs(p[k].im - 2 * k ^ 2 / 5) < 1e-12, ".* and vectorized conj");
    assert(abs(a[k] - k / sqrt(5)) < 1e-12, "vectorized call returning Reals");
  end for;
  annotation(experiment(StopTime = 0.1));
end ComplexArrays;
