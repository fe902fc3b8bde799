// Internal dense LU solve with the runtime's singularity test, shared by
// eqc_linsolve and Newton.
#ifndef EQC_RUNTIME_LINEARSOLVE_H
#define EQC_RUNTIME_LINEARSOLVE_H

#include <array>
#include <cstdint>
#include <vector>

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

/// The largest system the Newton iteration keeps in fixed-size matrices.
constexpr int SmallSystem = 8;
/// The largest system solveSmall takes: up to this size the in-place LU (no copy, no allocation)
/// beats Eigen's dynamic one, whose copies and allocations dominate for the blocks of generated
/// models (16 and 32 unknowns in MSL's switched-capacitor filter: 2.3x faster end to end).
constexpr int InPlaceSystem = 64;

/// Requires: 1 <= n <= InPlaceSystem; a is n-by-n row-major, b n-by-nrhs row-major. Solves A X = B
/// without allocating: a receives the LU factors (pivoted rows), b the solution. Returns EQC_OK,
/// or EQC_ERR_SINGULAR under factorDense's test (a pivot negligible against its column of A, a
/// non-finite entry) or for a non-finite solution.
int solveSmall(int n, double *a, double *b, int nrhs);
/// solveSmall in two halves: the factors of a in place with the row exchanged at each step
/// (pivots[k]), EQC_ERR_SINGULAR under the same test; then B overwritten with A^-1 B.
int factorSmall(int n, double *a, int *pivots);
int substituteSmall(int n, const double *lu, const int *pivots, double *b, int nrhs);
/// The factors of the last systems eqc_linsolve solved, by their matrix, for one simulation
/// (eqc_sim owns one and makes it current on its thread while it calls the model). The linear
/// blocks of generated models often have coefficients that change only at events (a switched
/// network's conductances): their matrix comes again at every step, and its factors are taken
/// from here (the same numbers: the same factorization of the same matrix). A lookup compares
/// matrices (a different one differs in its first entries, as a rule): n^2 operations at most
/// instead of the factorization's n^3/3.
class FactorCache {
public:
  FactorCache() = default;
  FactorCache(const FactorCache &) {} ///< a copy starts empty
  FactorCache &operator=(const FactorCache &) { return *this; }
  /// The cached factors (and pivots) of the n-by-n matrix a, or null.
  const double *find(int n, const double *a, const int *&pivots);
  /// Factors a (overwritten) and keeps its factors in place of the entry used longest ago; null
  /// when it is singular (nothing kept).
  const double *factor(int n, double *a, const int *&pivots);
  /// The cache of the simulation running on this thread, or null.
  static FactorCache *&current();

private:
  struct Entry {
    int n = 0; ///< 0: empty
    uint64_t used = 0;
    std::vector<double> matrix, factors;
    std::vector<int> pivots;
  };
  std::array<Entry, 32> entries_;
  uint64_t clock_ = 0;
};

/// Makes `cache` current on this thread for its lifetime (the previous one after).
class FactorCacheScope {
public:
  explicit FactorCacheScope(FactorCache &cache) : previous_(FactorCache::current()) { FactorCache::current() = &cache; }
  ~FactorCacheScope() { FactorCache::current() = previous_; }
  FactorCacheScope(const FactorCacheScope &) = delete;
  FactorCacheScope &operator=(const FactorCacheScope &) = delete;

private:
  FactorCache *previous_;
};

/// solveSmall through the current FactorCache, if any (a matrix seen again is not factored
/// again; the numbers are the same); a is left unspecified.
int solveCached(int n, double *a, double *b, int nrhs);

/// How many nonlinear blocks eqc_solve_block has iterated on this thread: a simulation learns from
/// it whether its model has any (only then do Newton guesses matter, GuessPolicy::Step).
extern thread_local unsigned long blockSolves;

} // namespace eqc::rt

#endif // EQC_RUNTIME_LINEARSOLVE_H
