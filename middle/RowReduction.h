// The seeds' reduction (Bertolazzi): the DAE as E(z,t) z' = G(z,t) over its unknowns after alias
// elimination; rows of the table [E | G] are combined until E is nonsingular, and every row whose
// E part vanishes is a hidden constraint [algK], replaced by its time derivative. The result is an
// ODE in the original unknowns with every constraint found as an invariant.
#pragma once

#include "middle/ExprOps.h"
#include "middle/FlatSystem.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace eqc {

/// One row of the table: Σ_j entries[j].second · z'_{entries[j].first} = rhs.
struct TableRow {
  std::vector<std::pair<int, const Expr *>> entries; ///< (column, E entry), non-zero, ascending column
  const Expr *rhs = nullptr;                         ///< G
  std::string label;                                 ///< "equation 3", "d/dt [alg2]"
  SourceRange loc;
  int pivot = -1; ///< the column this row determines, -1 while it has none
  /// The constraint chain whose last derivative this row is (for Baumgarte), -1 for a model equation.
  int chain = -1;
  /// Rows that end a chain: along solutions Σ E_j z'_j − G = sign · C^(k), C^(k) the time
  /// derivative of the chain's last constraint (−1 as differentiated, +1 once negated for display).
  double sign = -1;
};

/// [algK] = expr: zero along every solution.
struct FoundConstraint {
  const Expr *expr;
  std::string origin; ///< label of the zero row it was read from
  SourceRange loc;
  int chain; ///< constraints of one chain are the successive derivatives of its first one
  int level; ///< position in the chain: 0 for a model equation, l for its l-th derivative
};

/// One step of the procedure, as `eqc reduce` prints it.
struct RowStep {
  enum class Kind {
    Constraint,    ///< row `row` has E = 0: constraint `constraint` found
    Differentiate, ///< row `row` replaced by the time derivative of constraint `constraint`
    Eliminate,     ///< row `row` -= factor · row `other` (the pivot row of a column)
    Pivot,         ///< row `row` determines column `column` (pivot `factor`)
  };
  Kind kind;
  int row = -1, other = -1, column = -1, constraint = -1;
  const Expr *factor = nullptr;
  TableRow after; ///< the row after the step
};

/// A pivot that is not a constant: the ODE is singular where it vanishes.
struct PivotCondition {
  int row;
  const Expr *pivot;
  std::vector<const Expr *> factors; ///< its non-constant factors: the ODE is singular where one is 0
  double atStart;                    ///< its value at the start point
};

struct RowReduction {
  /// Why the procedure does not apply (an equation not linear in the highest derivatives, no end
  /// after the differentiation limit); empty when it does.
  std::string notApplicable;
  std::vector<int> columns;    ///< z: the unknowns integrated, in column order
  std::vector<int> derivative; ///< per column: the variable z' (created for algebraic unknowns)
  /// Aliases eliminated first: variable := expression (±variable or ±der(variable)).
  std::vector<std::pair<int, const Expr *>> aliases;
  /// Unknowns defined by one algebraic equation that no other equation uses: computed after the ODE.
  std::vector<std::pair<int, const Expr *>> outputs; ///< (variable, residual of its equation)
  std::vector<std::string> outputLabels;
  std::vector<SourceRange> outputLocs;
  std::vector<TableRow> initial; ///< the table before any step
  std::vector<TableRow> rows;    ///< the final table: one pivot per row
  std::vector<FoundConstraint> constraints;
  int chains = 0;
  std::vector<RowStep> steps;
  std::vector<PivotCondition> pivotConditions;
  bool applies() const { return notApplicable.empty(); }
};

/// An equation replaced by a combination of equations that has no highest derivative left.
struct StructureConversion {
  int equation;            ///< index into FlatSystem::equations
  const Expr *residual;    ///< the new equation is 0 = residual
  std::string combination; ///< "equation 2 + equation 1"
};

/// Parameter values (each after the parameters its binding uses) and the start values of the
/// unknowns (0 where none is given), indexed by variable; derivatives 0.
std::vector<double> startPoint(const FlatSystem &flat, double t0);

/// Requires: a balanced FlatSystem as the frontend made it (no Pantelides derivatives); `point`
/// from startPoint. Ensures: when applies(), a table whose rows each have a pivot column (pivots
/// chosen by structure — constants first — and confirmed numerically at `point`), every zero row
/// met on the way recorded as a constraint, derivative variables created in `flat` for every
/// column; errors (and nullopt) for rows that reduce to 0 = 0 (dependent equations) or to an
/// equation without unknowns (inconsistent ones). `recordSteps` keeps every step for the report.
std::optional<RowReduction> reduceByRows(FlatSystem &flat, const std::vector<double> &point, double t0,
                                         bool recordSteps, Diagnostics &diags);

/// Structural-analysis conversion of models that structural analysis misreads (seed 002's "not
/// SA-friendly" class, the linear-combination method of Tan, Nedialkov and Pryce): the equations'
/// matrix of highest derivatives is row-reduced (symbolically, pivots confirmed at the start point); each
/// equation whose row vanishes is replaced by the combination 0 = G found, so that structural
/// analysis sees the hidden constraint and differentiates it. Requires: the flat system as the
/// frontend made it. Ensures: the conversions made (none for most models: a model whose rows
/// each have one derivative of their own is not examined), or nullopt with an error naming the
/// combination when it leaves no unknown.
std::optional<std::vector<StructureConversion>> convertForStructure(FlatSystem &flat, double t0,
                                                                    Diagnostics &diags);

/// The row as a residual Σ E_j z'_j − G.
const Expr *rowResidual(ExprContext &ctx, const RowReduction &r, const TableRow &row);

/// The final rows solved for their pivots, the aliases and outputs, and the constraints
/// (`eqc check` and `--dump-after=reduce` of the invariants form).
void printRowReduction(std::ostream &os, const FlatSystem &flat, const RowReduction &r);

/// The row solved for its pivot's derivative: (G − Σ_{j≠pivot} E_j z'_j) / E_pivot.
const Expr *solvedRow(ExprContext &ctx, const RowReduction &r, const TableRow &row);

} // namespace eqc
