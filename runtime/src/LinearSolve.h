// Internal dense LU solve with the runtime's singularity test, shared by
// eqc_linsolve and Newton.
#ifndef EQC_RUNTIME_LINEARSOLVE_H
#define EQC_RUNTIME_LINEARSOLVE_H

#include <Eigen/Dense>

namespace eqc::rt {

/// Factors a with partial pivoting into lu. Returns EQC_OK, or
/// EQC_ERR_SINGULAR if a is not finite or a pivot is negligible.
int factorDense(Eigen::PartialPivLU<Eigen::MatrixXd> &lu,
                const Eigen::MatrixXd &a);

/// The same for a complex matrix (radau5's complex Newton block).
int factorDense(Eigen::PartialPivLU<Eigen::MatrixXcd> &lu,
                const Eigen::MatrixXcd &a);

/// Factors a with partial pivoting and overwrites b with a^-1 b.
/// Returns EQC_OK, or EQC_ERR_SINGULAR if a pivot is negligible or the solution
/// is not finite (b is then unspecified).
int solveDense(Eigen::PartialPivLU<Eigen::MatrixXd> &lu,
               const Eigen::MatrixXd &a, Eigen::Ref<Eigen::MatrixXd> b);

/// The largest system solveSmall takes.
constexpr int SmallSystem = 8;

/// Requires: 1 <= n <= SmallSystem; a is n-by-n row-major, b n-by-nrhs row-major. Solves A X = B
/// without allocating: a receives the LU factors (pivoted rows), b the solution. Returns EQC_OK,
/// or EQC_ERR_SINGULAR under factorDense's test (a pivot negligible against its column of A, a
/// non-finite entry) or for a non-finite solution.
int solveSmall(int n, double *a, double *b, int nrhs);

} // namespace eqc::rt

#endif // EQC_RUNTIME_LINEARSOLVE_H
