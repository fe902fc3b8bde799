// MLS 3.5, 8.3.7: the call equation's assertion fails once x passes 0.5: the run stops with the
// function's message (at the first step that ends past it).
// EXPECT: error assertion failed in function 'CallEquationFails.below': the value exceeds its limit
model CallEquationFails
  function below
    input Real x;
    input Real limit;
  algorithm
    assert(x <= limit, "the value exceeds its limit");
  end below;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  below(x, 0.5);
  annotation(experiment(StopTime = 1));
end CallEquationFails;
