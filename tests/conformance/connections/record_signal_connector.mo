// MLS 3.5, 9.1 and 4.6: a short connector class of a record class (`connector ComplexOutput =
// output Complex`) is a connector: connect() joins the records' fields.
// EXPECT: simulate
model RecordSignalConnector
  record Complex
    Real re;
    Real im;
  end Complex;
  connector ComplexOutput = output Complex;
  connector ComplexInput = input Complex;
  block Ramp
    ComplexOutput y;
  equation
    y.re = time;
    y.im = -2 * time;
  end Ramp;
  block Magnitude
    ComplexInput u;
    Real r = sqrt(u.re^2 + u.im^2);
  end Magnitude;
  Ramp ramp;
  Magnitude m;
equation
  connect(ramp.y, m.u);
  assert(abs(m.r - sqrt(5) * time) < 1e-12, "|t - 2tj| through the connection");
  annotation(experiment(StopTime = 1));
end RecordSignalConnector;
