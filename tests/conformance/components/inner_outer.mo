// MLS 3.5, 5.4: an outer component is the inner component of the same name of the nearest
// enclosing instance: every ball falls with the moon's gravity set on the one environment.
// EXPECT: simulate
model World
  model Environment
    parameter Real g = 9.81;
  end Environment;
  model Ball
    outer Environment env;
    Real h(start = 10, fixed = true), v(start = 0, fixed = true);
  equation
    der(h) = v;
    der(v) = -env.g;
    assert(abs(v + 1.62 * time) < 1e-9, "the inner environment's gravity");
  end Ball;
  model Pair
    Ball a, b;
  end Pair;
  inner Environment env(g = 1.62);
  Pair pair;
  Ball c;
  annotation(experiment(StopTime = 2));
end World;
