// MLS 3.5, 12.4 and 4.8.5: inputs, outputs and locals of a function may be of an enumeration type
// (Integer-valued, literal k is k), compared with the type's literals in the function; an external
// C function takes one as `int` (12.9.1: MSL's tables take Smoothness and Extrapolation so).
// EXPECT: simulate
model EnumerationInputs
  type Mode = enumeration(Off, Slow, Fast);
  function speed
    input Mode m;
    input Real x;
    output Real y;
  protected
    Mode fastest = Mode.Fast;
  algorithm
    y := if m == Mode.Off then 0 elseif m == fastest then 2 * x else x;
  end speed;
  function next
    input Mode m;
    output Mode n;
  algorithm
    n := if m == Mode.Fast then Mode.Off else Mode(Integer(m) + 1);
  end next;
  function code
    input Mode m;
    output Integer c;
  external "C" c = eqc_mode_code(m) annotation(Include = "int eqc_mode_code(int m) { return 10 * m; }");
  end code;
  Mode m = if time < 1 then Mode.Slow else Mode.Fast;
  Real y = speed(m, 3);
equation
  assert(y == (if time < 1 then 3 else 6), "enumeration input");
  assert(next(Mode.Slow) == Mode.Fast and next(Mode.Fast) == Mode.Off, "enumeration output");
  assert(code(Mode.Fast) == 30, "to C as int");
  annotation(experiment(StopTime = 2));
end EnumerationInputs;
