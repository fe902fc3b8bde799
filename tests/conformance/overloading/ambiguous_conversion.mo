// MLS 3.5, 14.4 item 3: converting an operand must give one match; here 2 converts to an A (for
// mul) and to a B (for mulB), so `a * 2` is an error.
// ARGS: --model AmbiguousConversion.Test
// EXPECT: error matches several functions of operator '*' after converting an operand
package AmbiguousConversion
  operator record A
    Real x;
    encapsulated operator 'constructor'
      function fromReal
        import AmbiguousConversion.A;
        input Real x;
        output A a(x = x);
      algorithm
      end fromReal;
    end 'constructor';
    encapsulated operator '*'
      function mul
        import AmbiguousConversion.A;
        input A a, b;
        output A c;
      algorithm
        c := A(a.x * b.x);
      end mul;
      function mulB
        import AmbiguousConversion.A;
        import AmbiguousConversion.B;
        input A a;
        input B b;
        output A c;
      algorithm
        c := A(a.x * b.y);
      end mulB;
    end '*';
  end A;
  operator record B
    Real y;
    encapsulated operator 'constructor'
      function fromReal
        import AmbiguousConversion.B;
        input Real y;
        output B b(y = y);
      algorithm
      end fromReal;
    end 'constructor';
  end B;
  model Test
    A a = A(1);
    A c = a * 2;
  end Test;
end AmbiguousConversion;
