// MLS 3.5, 3.7.2: delay(expr, delayTime) is expr(time - delayTime) once time > time.start +
// delayTime and expr(time.start) before; delay(expr, delayTime, delayMax) lets the delay time
// change within [0, delayMax]; delays of arrays are elementwise.
// EXPECT: simulate
// ARGS: --t-end 3 --rtol 1e-9 --atol 1e-9
model Delays
  Real s(start = 1, fixed = true);
  Real y = delay(s, 0.5);
  Real z = delay(s, 0.25 + 0.25*time/3, 1);
  Real v[2] = delay({s, -s}, 1);
equation
  der(s) = 1;
  assert(abs(y - (if time > 0.5 then 1 + time - 0.5 else 1)) < 1e-6, "fixed delay");
  assert(abs(z - (if time > 0.25 + 0.25*time/3 then 1 + time - 0.25 - 0.25*time/3 else 1)) < 1e-6, "variable delay");
  assert(abs(v[1] + v[2]) < 1e-12 and abs(v[1] - max(1 + time - 1, 1)) < 1e-6, "vectorized delay");
end Delays;
