// MLS 3.5, 14.4 item 5: without a function that matches (directly or after a conversion) the
// expression is erroneous: V has no constructor from a Boolean.
// EXPECT: error no function of operator '+' of 'NoMatch.V' matches 'NoMatch.V + Boolean'
model NoMatch
  operator record V
    Real x;
    encapsulated operator function '+'
      import NoMatch.V;
      input V a, b;
      output V c;
    algorithm
      c := V(a.x + b.x);
    end '+';
  end V;
  V a = V(1);
  V c = a + true;
end NoMatch;
