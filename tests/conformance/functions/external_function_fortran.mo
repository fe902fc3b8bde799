// MLS 3.5, 12.9: "FORTRAN 77" is a language of the specification that eqc does not call.
// EXPECT: error language "FORTRAN 77" is not supported (eqc calls "C" and "builtin" functions)
model ExtFortran
  function f
    input Real x;
    output Real y;
  external "FORTRAN 77" y = dnrm2(x);
  end f;
  Real z = f(time);
end ExtFortran;
