// MLS 3.5, 12.4.6: a function of scalar inputs applied to arrays maps over them element-wise;
// an argument of the declared shape is passed whole to every call (here the vector c).
// EXPECT: simulate
model VectorizedCall
  function fromRpm
    input Real rpm;
    output Real w;
  algorithm
    w := rpm * 3.14159265358979 / 30;
  end fromRpm;
  function weighted
    input Real x;
    input Real c[2];
    output Real y;
  algorithm
    y := c[1] * x + c[2];
  end weighted;
  parameter Real speeds[3] = {0, 30, 60};
  Real w[3] = fromRpm(speeds);
  Real grid[2, 2] = fromRpm([30, 60; 90, time]);
  Real y[3] = weighted({1, 2, 3} * time, {2, 1});
equation
  assert(abs(w[3] - 2 * 3.14159265358979) < 1e-12, "each element converted");
  assert(abs(grid[2, 1] - 3 * 3.14159265358979) < 1e-12 and abs(grid[2, 2] - time * 3.14159265358979 / 30) < 1e-12, "a matrix too");
  assert(abs(y[3] - (6 * time + 1)) < 1e-12, "the vector input passed whole");
  annotation(experiment(StopTime = 1));
end VectorizedCall;
