// MLS 3.5, 4.5: a partial class cannot be instantiated; it is extended.
// EXPECT: error 'b' is of the partial class 'Bad.Base', which cannot be instantiated
model Bad
  partial model Base
    Real x;
  end Base;
  Base b;
equation
  b.x = time;
end Bad;
