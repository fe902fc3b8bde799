// MLS 3.5, 12.2, 3.6.6 and 3.7.1: String inputs, outputs and protected variables of functions
// hold texts computed when the function runs (not known when the model is compiled): concatenated
// in a loop, converted from numbers, compared; the assert fails the run if a text differs.
// EXPECT: simulate
model StringLocals
  function joined
    input Integer n;
    input String separator;
    output String s;
  algorithm
    s := "";
    for i in 1:n loop
      s := if i == 1 then String(i) else s + separator + String(i);
    end for;
  end joined;
  function matches
    input Real t;
    output Boolean ok;
  protected
    Integer n = integer(3 + t);
    String expected = "1, 2, 3";
  algorithm
    ok := joined(n, ", ") == (if n == 3 then expected else expected + ", 4");
  end matches;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(matches(time), "joined(n, \", \") is wrong at time " + String(time));
  annotation(experiment(StopTime = 1.5));
end StringLocals;
