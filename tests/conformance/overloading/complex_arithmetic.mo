// MLS 3.5, 14 (Overloaded Operators): an operator record's `operator '+'`, `'-'` (unary and
// binary), `'*'`, `'/'`, `'=='`, `'not'` and `'constructor'` functions are what the operators and
// the record's name stand for (14.2, 14.4, 14.5); element-wise operators use the same functions
// (14.4); the operators work in equations, bindings and functions alike. The values are checked
// against complex arithmetic done by hand: (1 + 2j)(3 - j) = 5 + 5j, (5 + 5j)/(1 + 2j) = 3 - j.
// EXPECT: simulate
model ComplexArithmetic
  operator record Cplx
    Real re, im;
    encapsulated operator 'constructor'
      function fromReal
        import ComplexArithmetic.Cplx;
        input Real re;
        input Real im = 0;
        output Cplx c(re = re, im = im);
      algorithm
      end fromReal;
      function polar
        import ComplexArithmetic.Cplx;
        input Real r;
        input Real phi;
        input Boolean isPolar;
        output Cplx c;
      algorithm
        c := Cplx(r * cos(phi), r * sin(phi));
      end polar;
    end 'constructor';
    encapsulated operator '-'
      function negate
        import ComplexArithmetic.Cplx;
        input Cplx a;
        output Cplx c;
      algorithm
        c := Cplx(-a.re, -a.im);
      end negate;
      function subtract
        import ComplexArithmetic.Cplx;
        input Cplx a, b;
        output Cplx c;
      algorithm
        c := Cplx(a.re - b.re, a.im - b.im);
      end subtract;
    end '-';
    encapsulated operator function '+'
      import ComplexArithmetic.Cplx;
      input Cplx a, b;
      output Cplx c;
    algorithm
      c := Cplx(a.re + b.re, a.im + b.im);
    end '+';
    encapsulated operator '*'
      function multiply
        import ComplexArithmetic.Cplx;
        input Cplx a, b;
        output Cplx c;
      algorithm
        c := Cplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
      end multiply;
      function scale "a Real times a Cplx: a direct match, no conversion"
        import ComplexArithmetic.Cplx;
        input Real k;
        input Cplx a;
        output Cplx c;
      algorithm
        c := Cplx(k * a.re, k * a.im);
      end scale;
    end '*';
    encapsulated operator function '/'
      import ComplexArithmetic.Cplx;
      input Cplx a, b;
      output Cplx c;
    protected
      Real d = b.re ^ 2 + b.im ^ 2;
    algorithm
      c := Cplx((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
    end '/';
    encapsulated operator function '=='
      import ComplexArithmetic.Cplx;
      input Cplx a, b;
      output Boolean same;
    algorithm
      same := a.re == b.re and a.im == b.im;
    end '==';
    encapsulated operator function 'not' "the conjugate, to check unary 'not'"
      import ComplexArithmetic.Cplx;
      input Cplx a;
      output Cplx c;
    algorithm
      c := Cplx(a.re, -a.im);
    end 'not';
  end Cplx;

  function rotate "operators inside a function"
    input Cplx z;
    input Real w;
    output Cplx y;
  algorithm
    y := z * Cplx(cos(w), sin(w));
    y := -(-y);
  end rotate;

  parameter Cplx a = Cplx(1, 2);
  parameter Cplx b = Cplx(re = 3, im = -1);
  Cplx p = a * b;
  Cplx q = p / a;
  Cplx s = a + b - Cplx(1);
  Cplx k = 3 * a;
  Cplx e = a .* b;
  Cplx n = not a;
  Cplx r = rotate(a, time);
  Cplx u = Cplx(2, Modelica_pi / 2, true);
  constant Real Modelica_pi = 3.141592653589793;
equation
  assert(p == Cplx(5, 5), "(1 + 2j)(3 - j) = 5 + 5j");
  assert(abs(q.re - 3) < 1e-15 and abs(q.im + 1) < 1e-15, "(5 + 5j)/(1 + 2j) = 3 - j");
  assert(s == Cplx(3, 1), "a + b - 1 = 3 + j");
  assert(k.re == 3 and k.im == 6, "3a by the Real * Cplx function");
  assert(e == p, "element-wise .* is '*'");
  assert(n.re == 1 and n.im == -2, "unary 'not'");
  assert(abs(r.re - (cos(time) - 2 * sin(time))) < 1e-12 and abs(r.im - (sin(time) + 2 * cos(time))) < 1e-12,
         "(1 + 2j) e^(j t)");
  assert(abs(u.re) < 1e-15 and abs(u.im - 2) < 1e-15, "the constructor chosen by its inputs: 2 e^(j pi/2) = 2j");
  annotation(experiment(StopTime = 1));
end ComplexArithmetic;
