// Sparse LU for the implicit methods' Newton matrices c I - J: Eigen's SparseLU (COLAMD), which
// the runtime uses, against KLU from Debian's SuiteSparse (AMD ordering, BTF), side by side in
// one run. Matrices: the 1-D and 2-D heat equations by lines (3- and 5-point Laplacians) shifted
// by c = gamma/h as radau5 factors them. Reported per matrix: symbolic analysis once, numeric
// factorization (median of rounds; KLU also its refactorization with the kept pivots, what a
// solver with a changed h can use), one solve, and the factors' non-zeros.
//
//   eqc_bench_sparselu [--smoke] [--rounds N]
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <klu.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// c I - J for J the Laplacian of an m^dim grid with spacing 1/(m+1), compressed columns.
Eigen::SparseMatrix<double> shiftedLaplacian(int m, int dim, double c) {
  const int n = dim == 1 ? m : m * m;
  const double k = (m + 1.0) * (m + 1.0);
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(static_cast<size_t>(n) * (dim == 1 ? 3 : 5));
  for (int i = 0; i < n; ++i) {
    t.emplace_back(i, i, c + 2.0 * dim * k);
    if (dim == 1) {
      if (i > 0)
        t.emplace_back(i, i - 1, -k);
      if (i + 1 < n)
        t.emplace_back(i, i + 1, -k);
    } else {
      int r = i / m, q = i % m;
      if (q > 0)
        t.emplace_back(i, i - 1, -k);
      if (q + 1 < m)
        t.emplace_back(i, i + 1, -k);
      if (r > 0)
        t.emplace_back(i, i - m, -k);
      if (r + 1 < m)
        t.emplace_back(i, i + m, -k);
    }
  }
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(t.begin(), t.end());
  a.makeCompressed();
  return a;
}

struct Row {
  std::string name;
  int n;
  long nnz;
  double eigenAnalyze, eigenFactor, eigenSolve, kluAnalyze, kluFactor, kluRefactor, kluSolve;
  long eigenFactorNnz, kluFactorNnz;
};

Row measure(const std::string &name, const Eigen::SparseMatrix<double> &a, int rounds) {
  const int n = static_cast<int>(a.rows());
  Row row{name, n, a.nonZeros(), 0, 0, 0, 0, 0, 0, 0, 0, 0};
  Eigen::VectorXd b = Eigen::VectorXd::Ones(n), x(n);

  Eigen::SparseLU<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> lu;
  auto t = Clock::now();
  lu.analyzePattern(a);
  row.eigenAnalyze = since(t);

  std::vector<int> ap(a.outerIndexPtr(), a.outerIndexPtr() + n + 1), ai(a.innerIndexPtr(), a.innerIndexPtr() + a.nonZeros());
  std::vector<double> ax(a.valuePtr(), a.valuePtr() + a.nonZeros());
  klu_common common;
  klu_defaults(&common);
  t = Clock::now();
  klu_symbolic *symbolic = klu_analyze(n, ap.data(), ai.data(), &common);
  row.kluAnalyze = since(t);
  klu_numeric *numeric = nullptr;

  std::vector<double> ef, es, kf, kr, ks;
  std::vector<double> rhs(n);
  double eigenResidual = 0, kluResidual = 0;
  for (int r = 0; r < rounds; ++r) {
    // Interleaved, so that both see the same machine.
    t = Clock::now();
    lu.factorize(a);
    ef.push_back(since(t));
    t = Clock::now();
    x = lu.solve(b);
    es.push_back(since(t));
    eigenResidual = (a * x - b).lpNorm<Eigen::Infinity>();

    if (numeric)
      klu_free_numeric(&numeric, &common);
    t = Clock::now();
    numeric = klu_factor(ap.data(), ai.data(), ax.data(), symbolic, &common);
    kf.push_back(since(t));
    t = Clock::now();
    klu_refactor(ap.data(), ai.data(), ax.data(), symbolic, numeric, &common);
    kr.push_back(since(t));
    std::fill(rhs.begin(), rhs.end(), 1.0);
    t = Clock::now();
    klu_solve(symbolic, numeric, n, 1, rhs.data(), &common);
    ks.push_back(since(t));
    Eigen::Map<Eigen::VectorXd> kx(rhs.data(), n);
    kluResidual = (a * kx - b).lpNorm<Eigen::Infinity>();
  }
  row.eigenFactor = median(ef);
  row.eigenSolve = median(es);
  row.kluFactor = median(kf);
  row.kluRefactor = median(kr);
  row.kluSolve = median(ks);
  row.eigenFactorNnz = lu.nnzL() + lu.nnzU();
  row.kluFactorNnz = numeric ? numeric->lnz + numeric->unz : -1;
  if (eigenResidual > 1e-8 || kluResidual > 1e-8)
    std::fprintf(stderr, "%s: residuals %g (Eigen) %g (KLU)\n", name.c_str(), eigenResidual, kluResidual);
  klu_free_numeric(&numeric, &common);
  klu_free_symbolic(&symbolic, &common);
  return row;
}

} // namespace

int main(int argc, char **argv) {
  bool smoke = false;
  int rounds = 9;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--smoke"))
      smoke = true;
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = std::max(1, std::atoi(argv[++i]));
  }
  // radau5's real matrix: gamma/h I - J with gamma = 3.64 and a step of 1e-3.
  const double c = 3.64 / 1e-3;
  struct Case {
    const char *name;
    int m, dim;
  };
  std::vector<Case> cases = smoke ? std::vector<Case>{{"heat1d", 1000, 1}, {"heat2d", 30, 2}}
                                  : std::vector<Case>{{"heat1d", 10000, 1},  {"heat1d", 100000, 1}, {"heat1d", 1000000, 1},
                                                      {"heat2d", 100, 2},    {"heat2d", 316, 2},    {"heat2d", 1000, 2}};
  if (smoke)
    rounds = 1;
  std::printf("| matrix | n | nnz | Eigen analyze | Eigen factor | Eigen solve | KLU analyze | KLU factor | KLU refactor | "
              "KLU solve | factor KLU/Eigen | factors nnz Eigen / KLU |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Case &k : cases) {
    Eigen::SparseMatrix<double> a = shiftedLaplacian(k.m, k.dim, c);
    Row r = measure(std::string(k.name), a, rounds);
    auto ms = [](double s) { return s * 1e3; };
    std::printf("| %s | %d | %ld | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f | %ld / %ld |\n",
                r.name.c_str(), r.n, r.nnz, ms(r.eigenAnalyze), ms(r.eigenFactor), ms(r.eigenSolve), ms(r.kluAnalyze),
                ms(r.kluFactor), ms(r.kluRefactor), ms(r.kluSolve), r.kluFactor / r.eigenFactor, r.eigenFactorNnz,
                r.kluFactorNnz);
    std::fflush(stdout);
  }
  return 0;
}
