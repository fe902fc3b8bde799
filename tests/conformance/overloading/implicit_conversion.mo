// MLS 3.5, 14.4 item 3: when no function of the operator takes the operands as they are, one
// operand is converted by a constructor of the record the function's input takes: `2 + z` is
// '+'(fromReal(2), z), `z * 0.5` is '*'(z, fromReal(0.5)); a record constant of a package (and of a
// model) is a value of the record (4.4.2.1), here the imaginary unit.
// EXPECT: simulate
// ARGS: --model ImplicitConversion.Test
package ImplicitConversion
  operator record Cplx
    Real re, im;
    encapsulated operator 'constructor'
      function fromReal
        import ImplicitConversion.Cplx;
        input Real re;
        input Real im = 0;
        output Cplx c(re = re, im = im);
      algorithm
      end fromReal;
    end 'constructor';
    encapsulated operator function '+'
      import ImplicitConversion.Cplx;
      input Cplx a, b;
      output Cplx c;
    algorithm
      c := Cplx(a.re + b.re, a.im + b.im);
    end '+';
    encapsulated operator function '*'
      import ImplicitConversion.Cplx;
      input Cplx a, b;
      output Cplx c;
    algorithm
      c := Cplx(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
    end '*';
  end Cplx;
  constant Cplx j = Cplx(0, 1);

  model Test
    constant Cplx one = Cplx(1);
    Cplx z = Cplx(time, 1);
    Cplx y = 2 + z;
    Cplx h = z * 0.5;
    Cplx w = one + j * j "1 + j^2 = 0";
    Real im = j.im + one.re;
  equation
    assert(y.re == 2 + time and y.im == 1, "2 + z through fromReal(2)");
    assert(h.re == 0.5 * time and h.im == 0.5, "z * 0.5 through fromReal(0.5)");
    assert(w.re == 0 and w.im == 0, "1 + j*j = 0");
    assert(im == 2, "the fields of record constants");
    annotation(experiment(StopTime = 1));
  end Test;
end ImplicitConversion;
