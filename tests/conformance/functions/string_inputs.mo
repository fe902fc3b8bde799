// MLS 3.5, 12.4.1 and 12.9.1.1: String inputs of functions (eqc: known when the model is
// compiled, the function specialized to each) in comparisons, messages, calls of other functions,
// named and positional arguments, and as `const char *` arguments of external C functions.
// EXPECT: simulate
model Strings
  function scaled
    input String unit;
    input Real x;
    output Real y;
  algorithm
    y := if unit == "mm" then x * 1000 elseif unit == "cm" then x * 100 else x;
    assert(y < 1e6, "too large in " + unit);
  end scaled;
  function len
    input String s;
    output Integer n;
  external "C" n = strlen(s);
  end len;
  function twice
    input String s;
    output Integer n;
  algorithm
    n := 2 * len(s);
  end twice;
  parameter String u = "cm";
  Real a = scaled("mm", time);
  Real b = scaled(u, time);
  Real c = scaled(unit = "m", x = time);
  Integer n = len("hello");
  Integer m = twice(u + "!");
equation
  assert(abs(a - 1000*time) < 1e-9 and abs(b - 100*time) < 1e-9 and abs(c - time) < 1e-12, "scaled");
  assert(n == 5 and m == 6, "lengths");
end Strings;
