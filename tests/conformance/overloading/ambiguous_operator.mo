// MLS 3.5, 14.4 item 2: it is an error when several functions of the operator match the operands.
// EXPECT: error 'Ambiguous.V + Ambiguous.V' matches several functions of operator '+': 'Ambiguous.V.'+'.add', 'Ambiguous.V.'+'.plus'
model Ambiguous
  operator record V
    Real x;
    encapsulated operator '+'
      function add
        import Ambiguous.V;
        input V a, b;
        output V c;
      algorithm
        c := V(a.x + b.x);
      end add;
      function plus
        import Ambiguous.V;
        input V a, b;
        input Real scale = 1;
        output V c;
      algorithm
        c := V(scale * (a.x + b.x));
      end plus;
    end '+';
  end V;
  V a = V(1), b = V(2);
  V c = a + b;
end Ambiguous;
