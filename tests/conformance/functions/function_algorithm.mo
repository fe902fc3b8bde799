// MLS 3.5, 12.1-12.4: a function with inputs, outputs, defaults, named arguments and a loop.
// EXPECT: simulate
model Series
  function expSeries
    input Real x;
    input Integer n = 20;
    output Real y;
  protected
    Real term;
  algorithm
    y := 1;
    term := 1;
    for k in 1:n loop
      term := term * x / k;
      y := y + term;
    end for;
  end expSeries;
  Real z;
equation
  z = expSeries(n = 25, x = time);
  assert(abs(z - exp(time)) < 1e-9, "series");
  annotation(experiment(StopTime = 2));
end Series;
