// MLS 3.5, 12.9.1: external "FORTRAN 77" functions take every argument by reference and arrays in
// column-major order (eqc passes copies, transposed); here LAPACK's dgesv and dgetrf, from the
// system's LAPACK (annotation Library = "lapack"), both in the model and at translation
// (Evaluate = true). A = [4, 3; 6, 3]: partial pivoting takes row 2 first, so dgetrf gives
// LU = [6, 3; 2/3, 1] and pivots {2, 2}; A x = {10, 12} has x = {1, 2}.
// EXPECT: simulate
model ExternalFortran
  function solve
    input Real A[:, size(A, 1)];
    input Real b[size(A, 1)];
    output Real x[size(A, 1)] = b;
    output Integer info;
  protected
    Real Awork[size(A, 1), size(A, 1)] = A;
    Integer n = size(A, 1);
    Integer ipiv[size(A, 1)];
  external "FORTRAN 77" dgesv(n, 1, Awork, n, ipiv, x, n, info) annotation(Library = "lapack");
  end solve;
  function factor
    input Real A[:, :];
    output Real LU[size(A, 1), size(A, 2)] = A;
    output Integer pivots[min(size(A, 1), size(A, 2))];
    output Integer info;
  external "FORTRAN 77" DGETRF(size(A, 1), size(A, 2), LU, size(A, 1), pivots, info) annotation(Library = "lapack");
  end factor;
  parameter Real A[2, 2] = [4, 3; 6, 3];
  parameter Real early[2] = solve(A, {10, 12}) annotation(Evaluate = true);
  Real x[2] = solve(A*(1 + time), {10, 12}*(1 + time));
  Real LU[2, 2];
  Integer pivots[2];
  Integer info;
equation
  (LU, pivots, info) = factor(A);
  assert(abs(early[1] - 1) < 1e-12 and abs(early[2] - 2) < 1e-12, "solved at translation");
  assert(abs(x[1] - 1) < 1e-12 and abs(x[2] - 2) < 1e-12, "solved while the model runs");
  assert(abs(LU[1, 1] - 6) < 1e-12 and abs(LU[1, 2] - 3) < 1e-12 and abs(LU[2, 1] - 2/3) < 1e-12 and
         abs(LU[2, 2] - 1) < 1e-12, "the factors, row-major again");
  assert(pivots[1] == 2 and pivots[2] == 2 and info == 0, "row 2 pivots first");
end ExternalFortran;
