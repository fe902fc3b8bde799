// MLS 3.5, 12.9: the languages of external functions are "C", "FORTRAN 77" and "builtin"; another
// is reported.
// EXPECT: error language "Ada" is not supported (eqc calls "C", "FORTRAN 77" and "builtin" functions)
model ExtLanguage
  function f
    input Real x;
    output Real y;
  external "Ada" y = norm(x);
  end f;
  Real z = f(time);
end ExtLanguage;
