within Shapes.Round;
model Disc
  parameter Real r = 1;
  Real area = Shapes.pi * r^2;
end Disc;
