// MLS 3.5, 11.2.5 and 12.1: a function without outputs is called as a statement for its effects;
// eqc's functions have none but their assertions: the call is checked as an assert would be, in
// the initial algorithm at initialization (as MSL's BooleanTable checks its table), in an
// algorithm at every point. Called as a value it is an error.
// EXPECT: simulate
model CallWithoutOutputs
  function increasing "asserts that t is strictly increasing"
    input Real t[:];
  algorithm
    for i in 2:size(t, 1) loop
      assert(t[i] > t[i - 1], "not increasing at " + String(i));
    end for;
  end increasing;
  function below
    input Real x;
    input Real limit;
  algorithm
    assert(x < limit, "x = " + String(x) + " is not below " + String(limit));
  end below;
  parameter Real table[:] = {0, 1, 2.5};
  Real x(start = 0, fixed = true);
initial algorithm
  increasing(table);
algorithm
  below(x, 10);
equation
  der(x) = 1;
  annotation(experiment(StopTime = 2));
end CallWithoutOutputs;
