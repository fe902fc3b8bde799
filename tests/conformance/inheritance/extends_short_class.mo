// MLS 3.5, 4.5.1 and 7.1: a short class definition is its base with its modifiers; extending it
// extends the base with them (MSL's `extends Modelica.Media.Water.StandardWater` where
// `package StandardWater = WaterIF97_ph`).
// EXPECT: simulate
// ARGS: --model P.Use
package P
  model Base
    parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end Base;
  model Fast = Base(k = 2);
  model Use
    extends Fast;
  equation
    assert(abs(x - exp(-2*time)) < 1e-5, "k = 2, the short class's modifier");
    annotation(experiment(StopTime = 1));
  end Use;
end P;
