// MLS 3.5, 14.2 item 3: with an operator 'constructor', `C(args)` must match one of its functions;
// the record's own constructor is not used then.
// EXPECT: error no function of operator 'constructor' of 'NoConstructor.V' matches 'NoConstructor.V(Integer, Integer)'
model NoConstructor
  operator record V
    Real x, y;
    encapsulated operator 'constructor'
      function diagonal
        import NoConstructor.V;
        input Real d;
        output V v(x = d, y = d);
      algorithm
      end diagonal;
    end 'constructor';
  end V;
  V a = V(1, 2);
end NoConstructor;
