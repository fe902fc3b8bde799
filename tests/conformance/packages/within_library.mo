// MLS 3.5, 13.2.2.2 and 13.4: a file `within Shapes.Round;` is a member of that package of the
// library path; the library's package directories are read as they are named.
// ARGS: --lib {dir}/lib
// EXPECT: simulate
within Shapes.Round;
model Wheel
  Disc d(r = 2);
equation
  assert(abs(d.area - 4 * Shapes.pi) < 1e-12, "the area from the library's constant");
end Wheel;
