// MLS 3.5, 4.5.1: a short class definition `function f2 = f1(k = 2)` is f1 with the default
// of input k changed (an argument given in the call still wins; f3 = f2 keeps it); and 5.3.2:
// a function named through a scalar component, `w.acc(x)`, is the function of that
// component's class, its modifiers evaluated in the component (here its parameter g, set to
// 5 from outside; MSL's world.gravityAcceleration is one).
// EXPECT: simulate
model ShortFunctionClasses
  function scale
    input Real x;
    input Real k = 1;
    output Real y;
  algorithm
    y := k*x;
  end scale;
  function twice = scale(k = 2);
  function alias = twice;
  model Field
    parameter Real g = 3;
    replaceable function acc = scale(k = g);
  end Field;
  Field w(g = 5);
  Real a = scale(3);
  Real b = twice(3);
  Real c = twice(3, k = 4);
  Real d = alias(3 + time);
  Real e = w.acc(2);
equation
  assert(a == 3 and b == 6 and c == 12, "a short class changes a default, a given argument wins");
  assert(abs(d - 2*(3 + time)) < 1e-12, "a short class of a short class keeps the defaults");
  assert(e == 10, "the component's function takes the component's parameter");
annotation(experiment(StopTime = 1));
end ShortFunctionClasses;
