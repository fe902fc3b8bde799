// MLS 3.5, 13.2.2.2: the package of a `within` clause must exist.
// ARGS: --lib {dir}/lib
// EXPECT: error package 'Shapes.Square' of this 'within' clause is not found
within Shapes.Square;
model Box
  Real x = 1;
end Box;
