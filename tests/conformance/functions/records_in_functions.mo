// MLS 3.5, 12.6 and 12.4: records are inputs, outputs and locals of functions: fields read and
// assigned (t.z.re, nested records), whole records assigned from constructors and calls, a
// record output as the value of a call (a record equation, a record parameter's value).
// EXPECT: simulate
model RecordFunctions
  record Complex
    Real re;
    Real im;
  end Complex;
  record State
    Complex z;
    Integer n;
    Boolean positive;
  end State;
  function mul
    input Complex a;
    input Complex b;
    output Complex c;
  algorithm
    c := Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  end mul;
  function abs2
    input Complex a;
    output Real r = a.re^2 + a.im^2;
  end abs2;
  function step
    input State s;
    output State t;
  algorithm
    t.z := mul(s.z, s.z);
    t.n := s.n + 1;
    t.positive := not s.positive;
  end step;
  parameter State s0 = State(Complex(0, 2), 1, true);
  parameter State s1 = step(s0);
  Complex w = Complex(cos(time), sin(time));
  Complex w2 = mul(w, w);
  Real m = abs2(w2);
equation
  assert(abs(w2.re - cos(2 * time)) < 1e-12 and abs(w2.im - sin(2 * time)) < 1e-12, "w^2 = exp(2 i t)");
  assert(abs(m - 1) < 1e-12, "|w^2| = 1");
  assert(s1.n == 2 and not s1.positive and s1.z.re == -4 and s1.z.im == 0, "step of a parameter record");
end RecordFunctions;
