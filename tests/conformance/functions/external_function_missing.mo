// MLS 3.5, 12.9.4: the C function must be in the Include code, a Library or the C library; a
// name found nowhere is an error at the external clause.
// EXPECT: error external function 'ExtMissing.f': C function 'eqc_no_such_function' not found (no Include or Library annotation names its code)
model ExtMissing
  function f
    input Real x;
    output Real y;
  external "C" y = eqc_no_such_function(x);
  end f;
  Real z = f(time);
end ExtMissing;
