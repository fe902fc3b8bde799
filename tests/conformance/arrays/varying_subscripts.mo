// MLS 3.5, 10.5: a subscript is an Integer expression, also one that changes at events (a
// discrete Integer, an enumeration value): the element it selects, of a parameter array, of an
// array variable, of a constant table indexed by two of them (as MSL's Digital gate tables).
// EXPECT: simulate
model VaryingSubscripts
  type L = enumeration(lo, hi, x);
  constant L andTable[L, L] = [L.lo, L.lo, L.lo; L.lo, L.hi, L.x; L.lo, L.x, L.x];
  parameter Real a[3] = {10, 20, 30};
  Real b[2, 3] = {{time, 2 * time, 3 * time}, {-time, -2 * time, -3 * time}};
  Integer k(start = 1, fixed = true);
  Integer row = if time < 1.5 then 1 else 2;
  L p = if k == 1 then L.lo else L.hi;
  L q = if time < 2 then L.hi else L.x;
  L r = andTable[p, q];
  Real y = a[k] + b[row, k];
algorithm
  when sample(0.5, 1) then
    k := if pre(k) < 3 then pre(k) + 1 else 1;
  end when;
equation
  assert(abs(y - (a[k] + (if row == 1 then 1 else -1) * k * time)) < 1e-12, "y selects a[k] and b[row, k]");
  assert(r == (if p == L.lo then L.lo elseif q == L.hi then L.hi else L.x), "r is the table's entry");
  annotation(experiment(StopTime = 3));
end VaryingSubscripts;
