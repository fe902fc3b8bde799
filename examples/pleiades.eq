// The Pleiades (PLEI): seven stars in the plane, a non-stiff celestial mechanics problem of Hairer,
// Nørsett and Wanner I and of the Test Set for IVP Solvers (Mazzia and Magherini, Bari; plei.f,
// revision plei.F 1.2), 28 first-order states. Star i has mass m_i = i, position
// (x_i, y_i) and velocity (u_i, v_i); with r_ij = (x_i - x_j)^2 + (y_i - y_j)^2,
//   x_i'' = sum_{j != i} m_j (x_j - x_i)/r_ij^(3/2),   y_i'' = sum_{j != i} m_j (y_j - y_i)/r_ij^(3/2).
// The algebraic variables dij = r_ij^(3/2) are the 21 distance cubes. Reference at t = 3 (PSIDE
// with rtol = atol = 1e-16 on a Cray C90):
//   x1 = 0.3706139143970502, x2 = 0.3237284092057233e1, x3 = -0.3222559032418324e1,
//   x4 = 0.6597091455775310, x5 = 0.3425581707156584, x6 = 0.1562172101400631e1,
//   x7 = -0.7003092922212495,
//   y1 = -0.3943437585517392e1, y2 = -0.3271380973972550e1, y3 = 0.5225081843456543e1,
//   y4 = -0.2590612434977470e1, y5 = 0.1198213693392275e1, y6 = -0.2429682344935824,
//   y7 = 0.1091449240428980e1,
//   u1 = 0.3417003806314313e1, u2 = 0.1354584501625501e1, u3 = -0.2590065597810775e1,
//   u4 = 0.2025053734714242e1, u5 = -0.1155815100160448e1, u6 = -0.8072988170223021,
//   u7 = 0.5952396354208710,
//   v1 = -0.3741244961234010e1, v2 = 0.3773459685750630, v3 = 0.9386858869551073,
//   v4 = 0.3667922227200571, v5 = -0.3474046353808490, v6 = 0.2344915448180937e1,
//   v7 = -0.1947020434263292e1.
//   eqc simulate examples/pleiades.eq --method dop853 --rtol 1e-10
model Pleiades "seven bodies in the plane (PLEI)"
  Real x1(start = 3, fixed = true), y1(start = 3, fixed = true);
  Real u1(start = 0, fixed = true), v1(start = 0, fixed = true);
  Real x2(start = 3, fixed = true), y2(start = -3, fixed = true);
  Real u2(start = 0, fixed = true), v2(start = 0, fixed = true);
  Real x3(start = -1, fixed = true), y3(start = 2, fixed = true);
  Real u3(start = 0, fixed = true), v3(start = 0, fixed = true);
  Real x4(start = -3, fixed = true), y4(start = 0, fixed = true);
  Real u4(start = 0, fixed = true), v4(start = -1.25, fixed = true);
  Real x5(start = 2, fixed = true), y5(start = 0, fixed = true);
  Real u5(start = 0, fixed = true), v5(start = 1, fixed = true);
  Real x6(start = -2, fixed = true), y6(start = -4, fixed = true);
  Real u6(start = 1.75, fixed = true), v6(start = 0, fixed = true);
  Real x7(start = 2, fixed = true), y7(start = 4, fixed = true);
  Real u7(start = -1.5, fixed = true), v7(start = 0, fixed = true);
  // dij = ((xi - xj)^2 + (yi - yj)^2)^(3/2)
  Real d12, d13, d14, d15, d16, d17, d23, d24, d25, d26, d27;
  Real d34, d35, d36, d37, d45, d46, d47, d56, d57, d67;
equation
  d12 = ((x1 - x2)^2 + (y1 - y2)^2)^(3/2);
  d13 = ((x1 - x3)^2 + (y1 - y3)^2)^(3/2);
  d14 = ((x1 - x4)^2 + (y1 - y4)^2)^(3/2);
  d15 = ((x1 - x5)^2 + (y1 - y5)^2)^(3/2);
  d16 = ((x1 - x6)^2 + (y1 - y6)^2)^(3/2);
  d17 = ((x1 - x7)^2 + (y1 - y7)^2)^(3/2);
  d23 = ((x2 - x3)^2 + (y2 - y3)^2)^(3/2);
  d24 = ((x2 - x4)^2 + (y2 - y4)^2)^(3/2);
  d25 = ((x2 - x5)^2 + (y2 - y5)^2)^(3/2);
  d26 = ((x2 - x6)^2 + (y2 - y6)^2)^(3/2);
  d27 = ((x2 - x7)^2 + (y2 - y7)^2)^(3/2);
  d34 = ((x3 - x4)^2 + (y3 - y4)^2)^(3/2);
  d35 = ((x3 - x5)^2 + (y3 - y5)^2)^(3/2);
  d36 = ((x3 - x6)^2 + (y3 - y6)^2)^(3/2);
  d37 = ((x3 - x7)^2 + (y3 - y7)^2)^(3/2);
  d45 = ((x4 - x5)^2 + (y4 - y5)^2)^(3/2);
  d46 = ((x4 - x6)^2 + (y4 - y6)^2)^(3/2);
  d47 = ((x4 - x7)^2 + (y4 - y7)^2)^(3/2);
  d56 = ((x5 - x6)^2 + (y5 - y6)^2)^(3/2);
  d57 = ((x5 - x7)^2 + (y5 - y7)^2)^(3/2);
  d67 = ((x6 - x7)^2 + (y6 - y7)^2)^(3/2);
  der(x1) = u1;  der(y1) = v1;
  der(x2) = u2;  der(y2) = v2;
  der(x3) = u3;  der(y3) = v3;
  der(x4) = u4;  der(y4) = v4;
  der(x5) = u5;  der(y5) = v5;
  der(x6) = u6;  der(y6) = v6;
  der(x7) = u7;  der(y7) = v7;
  der(u1) = 2*(x2 - x1)/d12 + 3*(x3 - x1)/d13 + 4*(x4 - x1)/d14
           + 5*(x5 - x1)/d15 + 6*(x6 - x1)/d16 + 7*(x7 - x1)/d17;
  der(v1) = 2*(y2 - y1)/d12 + 3*(y3 - y1)/d13 + 4*(y4 - y1)/d14
           + 5*(y5 - y1)/d15 + 6*(y6 - y1)/d16 + 7*(y7 - y1)/d17;
  der(u2) = (x1 - x2)/d12 + 3*(x3 - x2)/d23 + 4*(x4 - x2)/d24
           + 5*(x5 - x2)/d25 + 6*(x6 - x2)/d26 + 7*(x7 - x2)/d27;
  der(v2) = (y1 - y2)/d12 + 3*(y3 - y2)/d23 + 4*(y4 - y2)/d24
           + 5*(y5 - y2)/d25 + 6*(y6 - y2)/d26 + 7*(y7 - y2)/d27;
  der(u3) = (x1 - x3)/d13 + 2*(x2 - x3)/d23 + 4*(x4 - x3)/d34
           + 5*(x5 - x3)/d35 + 6*(x6 - x3)/d36 + 7*(x7 - x3)/d37;
  der(v3) = (y1 - y3)/d13 + 2*(y2 - y3)/d23 + 4*(y4 - y3)/d34
           + 5*(y5 - y3)/d35 + 6*(y6 - y3)/d36 + 7*(y7 - y3)/d37;
  der(u4) = (x1 - x4)/d14 + 2*(x2 - x4)/d24 + 3*(x3 - x4)/d34
           + 5*(x5 - x4)/d45 + 6*(x6 - x4)/d46 + 7*(x7 - x4)/d47;
  der(v4) = (y1 - y4)/d14 + 2*(y2 - y4)/d24 + 3*(y3 - y4)/d34
           + 5*(y5 - y4)/d45 + 6*(y6 - y4)/d46 + 7*(y7 - y4)/d47;
  der(u5) = (x1 - x5)/d15 + 2*(x2 - x5)/d25 + 3*(x3 - x5)/d35
           + 4*(x4 - x5)/d45 + 6*(x6 - x5)/d56 + 7*(x7 - x5)/d57;
  der(v5) = (y1 - y5)/d15 + 2*(y2 - y5)/d25 + 3*(y3 - y5)/d35
           + 4*(y4 - y5)/d45 + 6*(y6 - y5)/d56 + 7*(y7 - y5)/d57;
  der(u6) = (x1 - x6)/d16 + 2*(x2 - x6)/d26 + 3*(x3 - x6)/d36
           + 4*(x4 - x6)/d46 + 5*(x5 - x6)/d56 + 7*(x7 - x6)/d67;
  der(v6) = (y1 - y6)/d16 + 2*(y2 - y6)/d26 + 3*(y3 - y6)/d36
           + 4*(y4 - y6)/d46 + 5*(y5 - y6)/d56 + 7*(y7 - y6)/d67;
  der(u7) = (x1 - x7)/d17 + 2*(x2 - x7)/d27 + 3*(x3 - x7)/d37
           + 4*(x4 - x7)/d47 + 5*(x5 - x7)/d57 + 6*(x6 - x7)/d67;
  der(v7) = (y1 - y7)/d17 + 2*(y2 - y7)/d27 + 3*(y3 - y7)/d37
           + 4*(y4 - y7)/d47 + 5*(y5 - y7)/d57 + 6*(y6 - y7)/d67;
  annotation(experiment(StopTime = 3, Tolerance = 1e-6));
end Pleiades;
