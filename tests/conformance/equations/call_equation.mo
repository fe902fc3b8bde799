// MLS 3.5, 8.3.7: an equation may be a call of a function without outputs, made for its effects
// (here its assertion, checked where an assert equation is: after every step); in a when-clause it
// is made when the clause fires. The bound holds up to t = 1, so the run succeeds.
// EXPECT: simulate
model CallEquation
  function below
    input Real x;
    input Real limit;
  algorithm
    assert(x <= limit, "the value exceeds its limit");
  end below;
  Real x(start = 0, fixed = true);
  Integer fired(start = 0, fixed = true);
equation
  der(x) = 1;
  below(x, 1.5);
  when x > 0.5 then
    below(x, 0.6);
    fired = pre(fired) + 1;
  end when;
  annotation(experiment(StopTime = 1));
end CallEquation;
