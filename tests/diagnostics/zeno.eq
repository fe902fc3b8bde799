// RUN: simulate --t-end 2 -o zeno.csv
model Zeno "a ball that bounces ever faster: the bounces accumulate at t = 3*sqrt(2/g) (Zeno)"
  parameter Real e = 0.5, g = 9.81;
  Real h(start = 1, fixed = true), v(start = 0, fixed = true);
equation
  der(h) = v;
  der(v) = -g;
  when h < 0 then
    reinit(v, -e*pre(v));
  end when;
end Zeno;
