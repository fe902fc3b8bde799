// MLS 3.5, 12.4.2.1: a function partial application is only an argument of a functional input; in
// an expression it is an error.
// EXPECT: error (a partial application) can only be the argument of a functional input of a function
model Outside
  function scaled
    input Real u;
    input Real k;
    output Real y = k * u;
  end scaled;
  function value
    input Real x;
    output Real y = x;
  end value;
  Real z = value(function scaled(k = 2));
end Outside;
