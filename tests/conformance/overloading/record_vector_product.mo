// MLS 3.5, 14.4: with operands that are arrays of an operator record, vector*vector is left
// undefined (10.6 is not applied to it) unless the operator has a function taking the arrays.
// EXPECT: error operator '*' of an operator record applies to arrays element by element or with a scalar only
model RecordVectorProduct
  operator record C
    Real re, im;
    encapsulated operator function '*'
      input C a, b;
      output C c;
    algorithm
      c := C(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
    end '*';
  end C;
  C a[2] = {C(1, 0), C(0, 1)};
  C b[2] = {C(2, 0), C(0, 2)};
  C s;
equation
  s = a * b;
end RecordVectorProduct;
