// MLS 3.5, 3.7.2: terminal() is true at the end of a successful analysis only: when-clauses on it
// fire once, at the stop time; an assert in such a clause is checked there (8.3.7).
// EXPECT: simulate
// ARGS: --t-end 1
model Terminal
  Real x(start = 0, fixed = true);
  discrete Real atEnd(start = -1);
equation
  der(x) = 2;
  when terminal() then
    atEnd = x;
    assert(abs(x - 2) < 1e-9, "x reaches 2 at the end");
  end when;
end Terminal;
