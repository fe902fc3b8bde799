// MLS 3.5, 7.2.5: `each` before a modification of an array of components gives every component the
// whole modification, the modifications nested in it included: `g(each y(start = 2, fixed = true))`
// sets y's start of every element (as MSL's Digital registers write); without `each` a scalar value
// for an array of components is an error (each_missing.mo).
// EXPECT: simulate
model EachNested
  model Lag
    parameter Real T = 1;
    Real y;
  equation
    T * der(y) = -y;
  end Lag;
  model Bank
    Lag lag[3](T = {1, 2, 4});
  end Bank;
  Bank g(lag(each y(start = 2, fixed = true)));
equation
  for i in 1:3 loop
    assert(abs(g.lag[i].y - 2 * exp(-time / g.lag[i].T)) < 1e-5, "every element starts at 2");
  end for;
  annotation(experiment(StopTime = 1));
end EachNested;
