// MLS 3.5, 4.4.1 and 7.2: the binding of a component's input may name a variable of a sibling
// whose own binding names one of the first's (MSL's RadioButtonSource: start(reset = {stop.on}),
// stop(reset = {start.on})): the sizes taken from the bindings (`reset[:]`) need the components,
// not their values, so this is no cycle; a parameter defined through itself still is.
// EXPECT: simulate
model SiblingBindings
  block Button
    input Boolean reset[:] = {false};
    parameter Real at = 1;
    Boolean on = time >= at;
    Boolean blocked = reset[1];
  end Button;
  Button first(at = 1, reset = {second.on});
  Button second(at = 2, reset = {first.on});
  Button third(at = 0.5, reset = {first.on, second.on});
equation
  assert(size(third.reset, 1) == 2, "the size from the binding");
  assert(first.blocked == second.on and second.blocked == first.on, "each reads the other");
  annotation(experiment(StopTime = 3));
end SiblingBindings;
