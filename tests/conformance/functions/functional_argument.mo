// MLS 3.5, 12.4.2: functional input arguments. A function is passed by name, or as a partial
// application `function g(w = k)` (12.4.2.1) whose bound inputs may be parameters or values that
// change over time; a functional input is called like a function and passed on to other
// functions, recursive ones too (an adaptive Simpson quadrature calling itself). 6.6: the argument
// is function-compatible with the functional input's type (the same inputs and outputs by name and
// order; the extra input `w` is bound, the extra input `scale` has a default).
// EXPECT: simulate
model Functional
  partial function F
    input Real u;
    output Real y;
  end F;
  function square
    extends F;
  algorithm
    y := u * u;
  end square;
  function wave
    extends F;
    input Real w;
    input Real scale = 1;
  algorithm
    y := scale * sin(w * u);
  end wave;
  function poly "roots of p(u) = u^2 - c"
    input Real u;
    input Real c;
    output Real y = u^2 - c;
  end poly;
  function simpson "adaptive Simpson quadrature of f over [a, b]"
    input F f;
    input Real a;
    input Real b;
    input Real tol = 1e-10;
    output Real s;
  protected
    Real m = (a + b) / 2;
    Real whole, left, right;
  algorithm
    whole := (b - a) / 6 * (f(a) + 4 * f(m) + f(b));
    left := (m - a) / 6 * (f(a) + 4 * f((a + m) / 2) + f(m));
    right := (b - m) / 6 * (f(m) + 4 * f((m + b) / 2) + f(b));
    if abs(left + right - whole) < 15 * tol or b - a < 1e-6 then
      s := left + right + (left + right - whole) / 15;
    else
      s := simpson(f, a, m, tol / 2) + simpson(f, m, b, tol / 2);
    end if;
  end simpson;
  function bisect "a root of f in [lo, hi]"
    input F f;
    input Real lo;
    input Real hi;
    output Real u;
  protected
    Real a = lo, b = hi, fa;
  algorithm
    fa := f(a);
    while b - a > 1e-13 loop
      u := (a + b) / 2;
      if (f(u) > 0) == (fa > 0) then
        a := u;
        fa := f(u);
      else
        b := u;
      end if;
    end while;
    u := (a + b) / 2;
  end bisect;
  function twice "passes its functional input on"
    input F g;
    input Real x;
    output Real y = g(g(x));
  end twice;
  constant Real pi = 2 * asin(1);
  parameter Real k = 3;
  parameter Real I1 = simpson(square, 0, 2) "8/3";
  parameter Real I2 = simpson(function wave(w = k), 0, pi / k) "2/k";
  Real I3 = simpson(function wave(w = 1, scale = 1 + time), 0, pi) "2 (1 + time)";
  Real r = bisect(function poly(c = 2 + time), 0, 3) "sqrt(2 + time)";
  Real t4 = twice(square, 1 + time) "(1 + time)^4";
equation
  assert(abs(I1 - 8 / 3) < 1e-9, "integral of u^2 over [0, 2]");
  assert(abs(I2 - 2 / k) < 1e-9, "integral of sin(k u) over [0, pi/k]");
  assert(abs(I3 - 2 * (1 + time)) < 1e-8, "integral with a bound input that changes in time");
  assert(abs(r - sqrt(2 + time)) < 1e-10, "root of u^2 - (2 + time)");
  assert(abs(t4 - (1 + time)^4) < 1e-9, "a functional input passed on");
  annotation(experiment(StopTime = 1));
end Functional;
