// HIRES, "High Irradiance RESponse" of photomorphogenesis, a stiff ODE of dimension 8 from the Test
// Set for IVP Solvers (Mazzia and Magherini, Bari; hires.f, revision hires.F 1.2), also in Hairer and
// Wanner II. Reference at t = 321.8122 (RADAU5 in true double precision on a Cray C90, rtol = atol =
// 1.1e-18):
//   y1 = 0.7371312573325668e-3, y2 = 0.1442485726316185e-3, y3 = 0.5888729740967575e-4,
//   y4 = 0.1175651343283149e-2, y5 = 0.2386356198831331e-2, y6 = 0.6238968252742796e-2,
//   y7 = 0.2849998395185769e-2, y8 = 0.2850001604814231e-2.
// The coefficients are those of the Test Set's feval. Stiff: at rtol 1e-6 dopri5 needs about 10000
// steps, radau5 about 100 (the components are O(1e-3), hence atol = 1e-4 rtol):
//   eqc simulate examples/hires.eq --method radau5 --rtol 1e-6 --atol 1e-10
model Hires "High Irradiance RESponse (HIRES)"
  Real y1(start = 1, fixed = true), y2(start = 0, fixed = true), y3(start = 0, fixed = true);
  Real y4(start = 0, fixed = true), y5(start = 0, fixed = true), y6(start = 0, fixed = true);
  Real y7(start = 0, fixed = true), y8(start = 0.0057, fixed = true);
equation
  der(y1) = -1.71*y1 + 0.43*y2 + 8.32*y3 + 0.0007;
  der(y2) = 1.71*y1 - 8.75*y2;
  der(y3) = -10.03*y3 + 0.43*y4 + 0.035*y5;
  der(y4) = 8.32*y2 + 1.71*y3 - 1.12*y4;
  der(y5) = -1.745*y5 + 0.43*(y6 + y7);
  der(y6) = -280*y6*y8 + 0.69*y4 + 1.71*y5 - 0.43*y6 + 0.69*y7;
  der(y7) = 280*y6*y8 - 1.81*y7;
  der(y8) = -280*y6*y8 + 1.81*y7;
  annotation(experiment(StopTime = 321.8122, Tolerance = 1e-6));
end Hires;
