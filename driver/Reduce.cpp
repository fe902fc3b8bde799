// The `eqc reduce` report: one function per section, written through a small renderer that knows
// the three output formats (plain text at 100 columns, Markdown, a LaTeX fragment).
#include "driver/Reduce.h"

#include "driver/RunState.h"

#include "middle/ExprOps.h"
#include "middle/LatexPrinter.h"
#include "middle/SigmaMethod.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace eqc {

bool parseReportFormat(const std::string &name, ReportFormat &out) {
  if (name == "text" || name == "txt")
    out = ReportFormat::Text;
  else if (name == "markdown" || name == "md")
    out = ReportFormat::Markdown;
  else if (name == "latex" || name == "tex")
    out = ReportFormat::Latex;
  else
    return false;
  return true;
}

namespace {

constexpr size_t kWidth = 100;
/// A space inside inline mathematics of the text format: printed as ' ', never broken at.
constexpr char kHardSpace = '\x01';

std::string soften(std::string s) {
  std::replace(s.begin(), s.end(), kHardSpace, ' ');
  return s;
}

/// Display width in code points (the report uses Σ, σ and −).
size_t columns(const std::string &s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

std::string padRight(const std::string &s, size_t w) { return s + std::string(w > columns(s) ? w - columns(s) : 0, ' '); }
std::string padLeft(const std::string &s, size_t w) { return std::string(w > columns(s) ? w - columns(s) : 0, ' ') + s; }


/// Splits a long line of a formula before ` + ` / ` - `, after `, ` or, failing those, after `*`;
/// continuation lines get `indent` spaces.
std::vector<std::string> wrapFormula(const std::string &line, size_t width, size_t indent) {
  std::vector<std::string> out;
  std::string rest = line;
  std::string lead;
  while (columns(lead) + columns(rest) > width) {
    size_t room = width > columns(lead) ? width - columns(lead) : 0;
    // Per priority (0: between terms or arguments, 1: between factors): the last cut that fits.
    size_t fits[2] = {std::string::npos, std::string::npos}, first = std::string::npos;
    for (size_t i = 1; i + 2 < rest.size(); ++i) {
      bool term = rest[i] == ' ' && (rest[i + 1] == '+' || rest[i + 1] == '-') && rest[i + 2] == ' ';
      bool comma = rest[i - 1] == ',' && rest[i] == ' ';
      bool factor = rest[i - 1] == '*';
      if (!term && !comma && !factor)
        continue;
      int priority = factor ? 1 : 0;
      if (columns(rest.substr(0, i)) <= room)
        fits[priority] = i;
      else if (first == std::string::npos)
        first = i;
    }
    size_t at = fits[0] != std::string::npos ? fits[0] : fits[1] != std::string::npos ? fits[1] : first;
    if (at == std::string::npos)
      break;
    out.push_back(lead + rest.substr(0, at));
    rest = rest.substr(rest[at] == ' ' ? at + 1 : at);
    lead = std::string(indent, ' ');
  }
  out.push_back(lead + rest);
  return out;
}

/// Words of a paragraph filled to `width`, every line starting with `indent` spaces.
std::string fill(const std::string &text, size_t width, size_t indent) {
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && indent + columns(line) + 1 + columns(word) > width) {
      out += std::string(indent, ' ') + soften(line) + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty())
    out += std::string(indent, ' ') + soften(line) + "\n";
  return out;
}

/// One displayed formula `lhs op rhs` with its equation label and an optional tag ([alg1]).
struct Formula {
  std::string tag;
  std::string label;
  const Expr *lhs = nullptr; ///< nullptr: 0 (or the variable lhsVar)
  int lhsVar = -1;
  const Expr *rhs = nullptr;
  std::string op = "=";
};

/// Roughly the printed width of math-mode LaTeX: a command counts as one character, braces and
/// script markers as none.
size_t latexWidth(const std::string &tex) {
  size_t width = 0;
  for (size_t i = 0; i < tex.size(); ++i) {
    if (tex[i] == '\\') {
      while (i + 1 < tex.size() && std::isalpha(static_cast<unsigned char>(tex[i + 1])))
        ++i;
      ++width;
    } else if (tex[i] != '{' && tex[i] != '}' && tex[i] != '^' && tex[i] != '_') {
      ++width;
    }
  }
  return width;
}

/// A long sum cut before top-level ` + ` / ` - ` into pieces of about `width` printed characters,
/// for the continuation lines of align*.
std::vector<std::string> splitLatexSum(const std::string &tex, size_t width) {
  std::vector<std::string> pieces;
  size_t start = 0, lastCut = std::string::npos;
  int depth = 0;
  for (size_t i = 0; i + 2 < tex.size(); ++i) {
    char ch = tex[i];
    depth += ch == '(' || ch == '{' || ch == '[';
    depth -= ch == ')' || ch == '}' || ch == ']';
    bool cut = depth == 0 && ch == ' ' && (tex[i + 1] == '+' || tex[i + 1] == '-') && tex[i + 2] == ' ';
    if (!cut)
      continue;
    if (latexWidth(tex.substr(start, i - start)) > width && lastCut != std::string::npos) {
      pieces.push_back(tex.substr(start, lastCut - start));
      start = lastCut + 1;
    }
    lastCut = i;
  }
  if (latexWidth(tex.substr(start)) > width && lastCut != std::string::npos && lastCut > start) {
    pieces.push_back(tex.substr(start, lastCut - start));
    start = lastCut + 1;
  }
  pieces.push_back(tex.substr(start));
  return pieces;
}

/// Math-mode LaTeX of an equation label: "d^2/dt^2 equation 5 (Baumgarte)" → \tfrac{d^2}{dt^2}…
std::string latexLabel(const std::string &label) {
  std::string rest = label, prefix;
  if (rest.rfind("d/dt ", 0) == 0) {
    prefix = "\\tfrac{\\mathrm{d}}{\\mathrm{d}t}\\,";
    rest = rest.substr(5);
  } else if (rest.rfind("d^", 0) == 0 && rest.find("/dt^") != std::string::npos && rest.find(' ') != std::string::npos) {
    std::string k = rest.substr(2, rest.find('/') - 2);
    prefix = "\\tfrac{\\mathrm{d}^{" + latexEscape(k) + "}}{\\mathrm{d}t^{" + latexEscape(k) + "}}\\,";
    rest = rest.substr(rest.find(' ') + 1);
  }
  return prefix + "\\text{" + latexEscape(rest) + "}";
}

class Renderer {
public:
  Renderer(ReportFormat format, const FlatSystem &flat, std::ostream &out) : format_(format), flat_(flat), out_(out) {
    namer_ = [&flat](int v) { return flat.varName(v); };
    if (latex())
      for (size_t v = 0; v < flat.vars.size(); ++v)
        if (flat.vars[v].relation)
          conditions_.emplace(static_cast<int>(v), flat.vars[v].relation);
  }

  bool latex() const { return format_ == ReportFormat::Latex; }
  bool markdown() const { return format_ == ReportFormat::Markdown; }
  bool text() const { return format_ == ReportFormat::Text; }

  // ---- inline pieces ----
  /// Prose, escaped for the format.
  std::string t(const std::string &s) const { return latex() ? latexEscape(s) : s; }
  /// A variable name.
  std::string var(int v) const {
    if (latex())
      return "$" + latexVarName(flat_.varName(v)) + "$";
    return markdown() ? "`" + flat_.varName(v) + "`" : flat_.varName(v);
  }
  /// Inline mathematics: the plain form for text and Markdown, `tex` for LaTeX.
  std::string math(const std::string &plain, const std::string &tex) const {
    if (latex())
      return "$" + tex + "$";
    if (markdown())
      return "`" + plain + "`";
    std::string unbreakable = plain; // fill() breaks lines at spaces, never inside a formula
    std::replace(unbreakable.begin(), unbreakable.end(), ' ', kHardSpace);
    return unbreakable;
  }
  /// A command line or option: `code` in Markdown, \\texttt in LaTeX, unbroken in text.
  std::string code(const std::string &s) const {
    if (latex())
      return "\\texttt{" + latexEscape(s) + "}";
    return markdown() ? "`" + s + "`" : keep(s);
  }
  /// An equation label within prose.
  std::string label(const std::string &s) const { return latex() ? "$" + latexLabel(s) + "$" : keep(s); }
  /// Text kept on one line (an item of a list in prose).
  std::string keep(const std::string &s) const {
    if (!text())
      return t(s);
    std::string unbreakable = s;
    std::replace(unbreakable.begin(), unbreakable.end(), ' ', kHardSpace);
    return unbreakable;
  }
  std::string vars(const std::vector<int> &vs) const {
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i)
      s += (i ? ", " : "") + var(vs[i]);
    return s;
  }
  std::string expr(const Expr *e) const { return latex() ? tex(e) : toString(e, namer_); }
  /// An expression within prose.
  std::string inlineExpr(const Expr *e) const {
    return latex() ? "$" + tex(e) + "$" : markdown() ? "`" + toString(e, namer_) + "`" : toString(e, namer_);
  }
  /// LaTeX of `e`, with each event condition written as its relation (its name, `h < 0`, is the
  /// relation's text, which the other formats print as is).
  std::string tex(const Expr *e) const {
    return toLatex(conditions_.empty() ? e : substitute(*flat_.ctx, e, conditions_), namer_);
  }

  // ---- blocks ----
  void title(const std::string &model) {
    if (latex()) {
      out_ << "% eqc reduce: the index reduction of model " << model << " (a fragment; needs amsmath)\n";
      return;
    }
    std::string line = "Index reduction of model " + model;
    if (markdown())
      out_ << "# " << line << "\n";
    else
      out_ << line << "\n" << std::string(columns(line), '=') << "\n";
  }

  void section(int number, const std::string &heading) {
    std::string h = std::to_string(number) + ". " + heading;
    if (latex())
      out_ << "\n\\section*{" << latexEscape(h) << "}\n";
    else if (markdown())
      out_ << "\n## " << h << "\n";
    else
      out_ << "\n" << h << "\n";
  }

  /// A paragraph of prose made of pieces from t(), var(), math().
  void para(const std::string &s) {
    if (text())
      out_ << fill(s, kWidth, 2);
    else
      out_ << "\n" << s << "\n";
  }

  /// A WARNING line (stands out in every format).
  void warning(const std::string &s) {
    if (latex())
      out_ << "\n\\textbf{WARNING:} " << s << "\n";
    else if (markdown())
      out_ << "\n**WARNING:** " << s << "\n";
    else
      out_ << fill("WARNING: " + s, kWidth, 2);
  }

  /// An itemized list; `rows` are (first column, rest) pairs, aligned in text.
  void list(const std::vector<std::pair<std::string, std::string>> &rows) {
    if (latex()) {
      out_ << "\\begin{itemize}\n";
      for (auto &[a, b] : rows)
        out_ << "  \\item " << a << (b.empty() ? "" : " " + b) << "\n";
      out_ << "\\end{itemize}\n";
      return;
    }
    if (markdown()) {
      out_ << "\n";
      for (auto &[a, b] : rows)
        out_ << "- " << a << (b.empty() ? "" : " " + b) << "\n";
      return;
    }
    size_t w = 0;
    for (auto &row : rows)
      w = std::max(w, columns(row.first));
    for (auto &[a, b] : rows)
      for (const std::string &l : wrapFormula(b.empty() ? a : padRight(a, w) + "  " + b, kWidth - 4, w + 4))
        out_ << "    " << soften(l) << "\n";
  }

  void formulas(const std::vector<Formula> &rows) {
    if (rows.empty())
      return;
    if (latex()) {
      out_ << "\\begin{align*}\n";
      for (size_t i = 0; i < rows.size(); ++i) {
        const Formula &f = rows[i];
        std::string lhs = f.lhsVar >= 0 ? latexVarName(flat_.varName(f.lhsVar)) : f.lhs ? tex(f.lhs) : "0";
        std::vector<std::string> pieces = splitLatexSum(tex(f.rhs), 50);
        out_ << "  " << (f.tag.empty() ? "" : "\\text{" + latexEscape(f.tag) + "}\\quad ") << lhs << " &"
             << (f.op == ":=" ? ":=" : "=") << " " << pieces[0] << " && " << latexLabel(f.label);
        for (size_t k = 1; k < pieces.size(); ++k)
          out_ << " \\\\\n    &\\quad " << pieces[k];
        out_ << (i + 1 < rows.size() ? " \\\\" : "") << "\n";
      }
      out_ << "\\end{align*}\n";
      return;
    }
    size_t tagWidth = 0, labelWidth = 0;
    for (const Formula &f : rows) {
      tagWidth = std::max(tagWidth, columns(f.tag));
      labelWidth = std::max(labelWidth, columns(f.label));
    }
    size_t indent = text() ? 4 : 0;
    std::vector<std::string> lines;
    for (const Formula &f : rows) {
      std::string lhs = f.lhsVar >= 0 ? flat_.varName(f.lhsVar) : f.lhs ? toString(f.lhs, namer_) : "0";
      std::string head = (tagWidth ? padRight(f.tag, tagWidth) + "  " : "") + padRight(f.label, labelWidth) + "  ";
      size_t cont = columns(head) + 4 < 60 ? columns(head) + 4 : 8;
      for (const std::string &l : wrapFormula(head + lhs + " " + f.op + " " + toString(f.rhs, namer_), kWidth - indent, cont))
        lines.push_back(l);
    }
    if (markdown())
      out_ << "\n```text\n";
    for (const std::string &l : lines)
      out_ << std::string(indent, ' ') << l << "\n";
    if (markdown())
      out_ << "```\n";
  }

  /// A grid: header row, body rows, a last (footer) row after a rule; cells right-aligned except the
  /// first column. Text falls back to `sparse` when the grid is wider than the page.
  void table(const std::vector<std::string> &header, const std::vector<std::vector<std::string>> &body,
             const std::vector<std::string> &footer, const std::vector<std::string> &sparse) {
    if (latex()) {
      out_ << "\\begin{center}\n\\begin{tabular}{l|" << std::string(header.size() - 2, 'c') << "|c}\n";
      auto row = [&](const std::vector<std::string> &r) {
        for (size_t j = 0; j < r.size(); ++j)
          out_ << (j ? " & " : "  ") << r[j];
        out_ << " \\\\\n";
      };
      row(header);
      out_ << "  \\hline\n";
      for (auto &r : body)
        row(r);
      out_ << "  \\hline\n";
      row(footer);
      out_ << "\\end{tabular}\n\\end{center}\n";
      return;
    }
    if (markdown()) {
      auto row = [&](const std::vector<std::string> &r) {
        out_ << "|";
        for (const std::string &cell : r)
          out_ << " " << cell << " |";
        out_ << "\n";
      };
      out_ << "\n";
      row(header);
      out_ << "|---|";
      for (size_t j = 1; j < header.size(); ++j)
        out_ << "---:|";
      out_ << "\n";
      for (auto &r : body)
        row(r);
      row(footer);
      return;
    }
    std::vector<size_t> w(header.size(), 0);
    auto measure = [&](const std::vector<std::string> &r) {
      for (size_t j = 0; j < r.size(); ++j)
        w[j] = std::max(w[j], columns(r[j]));
    };
    measure(header);
    for (auto &r : body)
      measure(r);
    measure(footer);
    size_t total = 4 + std::accumulate(w.begin(), w.end(), size_t(0)) + 2 * (w.size() - 1);
    if (total > kWidth) {
      for (const std::string &l : sparse)
        for (const std::string &piece : wrapFormula(l, kWidth - 4, 8))
          out_ << "    " << piece << "\n";
      return;
    }
    auto row = [&](const std::vector<std::string> &r) {
      std::string line;
      for (size_t j = 0; j < r.size(); ++j)
        line += j == 0 ? padRight(r[j], w[j]) : "  " + padLeft(r[j], w[j]);
      line.erase(line.find_last_not_of(' ') + 1);
      out_ << "    " << line << "\n";
    };
    row(header);
    for (auto &r : body)
      row(r);
    row(footer);
  }

private:
  ReportFormat format_;
  const FlatSystem &flat_;
  std::ostream &out_;
  VarNamer namer_;
  std::unordered_map<int, const Expr *> conditions_; ///< LaTeX: condition variable → relation
};

class RowReport {
public:
  RowReport(const Compilation &c, const RowReduction &rows, const FlatSystem &flat, ReportFormat format,
            std::ostream &out, int &section)
      : c_(c), rows_(rows), flat_(flat), ctx_(*flat.ctx), r_(format, flat, out), section_(section) {}

  void print() {
    table();
    steps();
    constraints();
    states();
    ode();
  }

private:
  std::string rowName(int i) const { return "row " + std::to_string(i + 1); }

  /// Σ E_j z'_j of a row (0 for a zero row).
  const Expr *lhs(const TableRow &row) const {
    std::vector<const Expr *> terms;
    for (auto [col, e] : row.entries)
      terms.push_back(ctx_.mul(e, ctx_.var(rows_.derivative[col])));
    return terms.empty() ? ctx_.zero() : ctx_.add(std::move(terms));
  }

  Formula formula(const std::string &label, const TableRow &row) const {
    Formula f;
    f.label = label;
    f.lhs = lhs(row);
    f.rhs = row.rhs;
    return f;
  }

  void table() {
    r_.section(++section_, "The seeds' reduction: row operations on [E | G]");
    r_.para(r_.t("As in the seeds (Bertolazzi), the model is written ") +
            r_.math("E(z, t) z' = G(z, t)", "E(z, t)\\, z' = G(z, t)") +
            r_.t(": rows of the table [E | G] are combined until E is nonsingular; a row whose E part vanishes is "
                 "a hidden constraint [algK], replaced by its time derivative with the known z' substituted."));
    if (!rows_.aliases.empty() || !rows_.outputs.empty()) {
      std::vector<std::pair<std::string, std::string>> items;
      for (auto &[v, value] : rows_.aliases)
        items.emplace_back(r_.var(v), r_.t("= ") + r_.inlineExpr(value) + r_.t(" (an alias, eliminated)"));
      for (size_t k = 0; k < rows_.outputs.size(); ++k)
        items.emplace_back(r_.var(rows_.outputs[k].first),
                           r_.t("from " + rows_.outputLabels[k] + ", which no other equation needs (computed after the ODE)"));
      r_.para(r_.t("First, the unknowns that need not be states:"));
      r_.list(items);
    }
    r_.para(r_.t("The unknowns z (" + plural(rows_.columns.size(), "column") + "): ") + r_.vars(rows_.columns) +
            r_.t(". The table, one row per equation (") + r_.math("Σ E_j z_j' = G", "\\sum_j E_j z_j' = G") + r_.t("):"));
    std::vector<Formula> rows;
    for (size_t i = 0; i < rows_.initial.size(); ++i)
      rows.push_back(formula(rowName(static_cast<int>(i)) + " (" + rows_.initial[i].label + ")", rows_.initial[i]));
    r_.formulas(rows);
  }

  void steps() {
    std::vector<Formula> lines;
    std::vector<std::pair<std::string, std::string>> pivots;
    const std::vector<RowStep> &st = rows_.steps;
    for (size_t k = 0; k < st.size(); ++k) {
      const RowStep &s = st[k];
      std::string row = rowName(s.row);
      switch (s.kind) {
      case RowStep::Kind::Eliminate: {
        std::string by = s.factor->isConst(1)    ? row + " -= " + rowName(s.other)
                         : s.factor->isConst(-1) ? row + " += " + rowName(s.other)
                                                 : row + " -= (" + toString(s.factor, namer()) + ")*" + rowName(s.other);
        lines.push_back(formula(by, s.after));
        break;
      }
      case RowStep::Kind::Constraint: {
        std::string tag = "[alg" + std::to_string(s.constraint + 1) + "]";
        if (!lines.empty() && k > 0 && st[k - 1].kind == RowStep::Kind::Eliminate && st[k - 1].row == s.row) {
          lines.back().tag = tag;
        } else {
          Formula f = formula(row + " (" + rows_.constraints[s.constraint].origin + ")", s.after);
          f.tag = tag;
          lines.push_back(f);
        }
        break;
      }
      case RowStep::Kind::Differentiate:
        lines.push_back(formula(row + " := d/dt [alg" + std::to_string(s.constraint + 1) + "]", s.after));
        break;
      case RowStep::Kind::Pivot:
        pivots.emplace_back(r_.t(row + " (" + s.after.label + "):"),
                            r_.var(rows_.derivative[s.column]) + r_.t(", pivot ") + r_.inlineExpr(s.factor));
        break;
      }
    }
    if (lines.empty()) {
      r_.para(r_.t("Every row has a pivot as written: E is nonsingular."));
    } else {
      r_.para(r_.t("The row operations, in order (each line the row after the operation; a tag marks a row that "
                   "became 0 = G, the hidden constraint G = 0):"));
      r_.formulas(lines);
    }
    r_.para(r_.t("Pivots, in the order they were chosen (by structure, constants first, confirmed numerically at "
                 "the start point):"));
    r_.list(pivots);
    for (const PivotCondition &pc : rows_.pivotConditions) {
      std::string where;
      for (size_t i = 0; i < pc.factors.size(); ++i)
        where += r_.t(i ? " or " : "") + r_.inlineExpr(pc.factors[i]) + r_.t(" = 0");
      r_.para(r_.t("The pivot ") + r_.inlineExpr(pc.pivot) + r_.t(" of " + rowName(pc.row) + " is not constant: the "
                                                                  "ODE is singular where ") +
              where + r_.t(" (at the start point it is " + brief(pc.atStart, 6) + ")."));
    }
  }

  void constraints() {
    r_.section(++section_, "Hidden constraints");
    if (rows_.constraints.empty()) {
      r_.para(r_.t("None."));
      return;
    }
    r_.para(r_.t("Each [algK] holds along every solution: the invariants of the ODE below. Within a chain each is "
                 "the time derivative of the one before along the ODE."));
    std::vector<Formula> rows;
    for (size_t k = 0; k < rows_.constraints.size(); ++k) {
      const FoundConstraint &fc = rows_.constraints[k];
      Formula f;
      f.tag = "[alg" + std::to_string(k + 1) + "]";
      f.label = "chain " + std::to_string(fc.chain + 1) + ", from " + fc.origin;
      f.rhs = fc.expr;
      rows.push_back(f);
    }
    r_.formulas(rows);
  }

  void states() {
    r_.section(++section_, "The state vector");
    size_t n = rows_.columns.size(), m = rows_.constraints.size();
    r_.para(r_.t(plural(n, "state") + " (the original unknowns): ") + r_.vars(rows_.columns) + r_.t("."));
    int count = static_cast<int>(n) - static_cast<int>(m);
    std::string check = plural(n, "state") + " − " + plural(m, "invariant") + " = " + std::to_string(count);
    std::string tex = std::to_string(n) + " - " + std::to_string(m) + " = " + std::to_string(count);
    if (!c_.sigma)
      r_.para(r_.t("Count: ") + r_.math(check, tex) + r_.t("."));
    else if (count == c_.sigma->dof)
      r_.para(r_.t("Count check: ") + r_.math(check + " = dof", tex + " = \\mathrm{dof}") + r_.t("."));
    else
      r_.warning(r_.t("count check failed: " + check + ", but the Σ-method gives dof = " +
                      std::to_string(c_.sigma->dof) + "."));
  }

  void ode() {
    r_.section(++section_, "The final ODE");
    r_.para(r_.t("The table's rows solved for their pivots: the ODE that ") +
            r_.code("eqc simulate --reduction invariants") + r_.t(" integrates."));
    r_.formulas(solved(nullptr));
    std::vector<Formula> after;
    for (auto &[v, value] : rows_.aliases) {
      Formula f;
      f.label = "alias";
      f.lhsVar = v;
      f.op = ":=";
      f.rhs = value;
      after.push_back(f);
    }
    for (size_t k = 0; k < rows_.outputs.size(); ++k) {
      Formula f;
      f.label = rows_.outputLabels[k];
      f.rhs = rows_.outputs[k].second;
      after.push_back(f);
    }
    if (!after.empty()) {
      r_.para(r_.t("Computed from the states and their derivatives:"));
      r_.formulas(after);
    }
    if (rows_.constraints.empty())
      return;
    const ReductionOptions &o = c_.reduction;
    switch (o.stabilization) {
    case Stabilization::None:
      r_.para(r_.t("Stabilization: none: the invariants are not enforced, so the solution may drift off them."));
      break;
    case Stabilization::Projection:
      r_.para(r_.t("Stabilization: projection of the state onto the invariants after every step."));
      break;
    case Stabilization::Baumgarte: {
      r_.para(r_.t("Stabilization: Baumgarte with ") +
              r_.math("η = " + formatNumber(o.eta) + ", ω = " + formatNumber(o.omega),
                      "\\eta = " + formatNumber(o.eta) + ", \\omega = " + formatNumber(o.omega)) +
              r_.t(": the last derivative of a chain C, C', …, C^(k-1) reads C^(k) + Σ a_l C^(l) = 0 with the "
                   "coefficients of (s² + 2ηωs + ω²)^floor(k/2) (s + ω)^(k mod 2), e.g. C'' + 2ηωC' + ω²C = 0; "
                   "solved for the pivots, the stabilized rows are:"));
      r_.formulas(solved(&o));
      break;
    }
    }
  }

  /// The rows solved for their pivots; with `baumgarte`, only the rows that end a chain, stabilized.
  std::vector<Formula> solved(const ReductionOptions *baumgarte) const {
    std::vector<std::vector<const Expr *>> chains(static_cast<size_t>(rows_.chains));
    for (const FoundConstraint &k : rows_.constraints)
      chains[k.chain].push_back(k.expr);
    std::vector<Formula> out;
    for (size_t i = 0; i < rows_.rows.size(); ++i) {
      TableRow row = rows_.rows[i];
      if (baumgarte) {
        if (row.chain < 0)
          continue;
        const std::vector<const Expr *> &chain = chains[row.chain];
        std::vector<double> a = baumgarteCoefficients(static_cast<int>(chain.size()), baumgarte->eta, baumgarte->omega);
        std::vector<const Expr *> terms{row.rhs};
        for (size_t l = 0; l < chain.size(); ++l)
          terms.push_back(ctx_.mul(ctx_.constant(-row.sign * a[l]), chain[l]));
        row.rhs = ctx_.add(std::move(terms));
      }
      Formula f;
      f.label = rowName(static_cast<int>(i)) + " (" + row.label + ")";
      f.lhsVar = rows_.derivative[row.pivot];
      f.rhs = solvedRow(ctx_, rows_, row);
      out.push_back(f);
    }
    return out;
  }

  VarNamer namer() const {
    const FlatSystem &flat = flat_;
    return [&flat](int v) { return flat.varName(v); };
  }

  const Compilation &c_;
  const RowReduction &rows_;
  const FlatSystem &flat_;
  ExprContext &ctx_;
  Renderer r_;
  int &section_;
};

class Report {
public:
  Report(const Compilation &c, ReportFormat format, std::ostream &out)
      : c_(c), flat_(*c.flat), reduced_(*c.reduced), model_(*c.model), reduction_(c.reduction),
        r_(format, flat_, out), format_(format), out_(out) {}

  void print() {
    r_.title(flat_.modelName);
    theModel();
    sigmaMethod();
    pantelides();
    differentiatedEquations();
    if (c_.rows && c_.rows->applies()) {
      RowReport(c_, *c_.rows, *c_.rowFlat, format_, out_, section_).print();
    } else {
      if (c_.rows)
        r_.para(r_.t("The seeds' reduction by row operations does not apply: " + c_.rows->notApplicable +
                     ". The ODE with invariants is formed by Pantelides' highest-order equations."));
      hiddenConstraints();
      stateVector();
      finalOde();
    }
    dummyDerivatives();
  }

private:
  void theModel() {
    r_.section(++section_, "The model");
    std::vector<int> order = flat_.sourceOrders();
    std::vector<int> unknowns, params;
    size_t differentiated = 0;
    for (size_t v = 0; v < flat_.vars.size(); ++v) {
      if (flat_.vars[v].role == VarRole::Unknown) {
        unknowns.push_back(static_cast<int>(v));
        differentiated += order[v] > 0;
      } else if (flat_.vars[v].role == VarRole::Parameter) {
        params.push_back(static_cast<int>(v));
      }
    }
    std::string description = flat_.description.empty() ? ""
                              : r_.latex()             ? " ``" + latexEscape(flat_.description) + "''"
                                                       : " \"" + flat_.description + "\"";
    r_.para(r_.t("Model " + flat_.modelName) + description + r_.t(": " + plural(unknowns.size(), "unknown") + " (" +
                 std::to_string(differentiated) + " differentiated, " +
                 std::to_string(unknowns.size() - differentiated) + " algebraic), " +
                 plural(params.size(), "parameter") + ", " + plural(flat_.equations.size(), "equation") + "."));
    std::vector<std::pair<std::string, std::string>> rows;
    for (int v : unknowns) {
      const Variable &var = flat_.vars[v];
      std::string kind = order[v] == 0   ? "algebraic"
                         : order[v] == 1 ? "differentiated"
                                         : "differentiated (order " + std::to_string(order[v]) + ")";
      std::string start = var.hasStart ? r_.t(", start ") + r_.inlineExpr(var.binding) + r_.t(var.fixed ? " (fixed)" : "") : "";
      rows.emplace_back(r_.var(v), r_.t(kind) + start);
    }
    r_.para(r_.t("Unknowns:"));
    r_.list(rows);
    if (!params.empty()) {
      std::vector<double> values = startPoint(flat_, 0);
      rows.clear();
      for (int v : params) {
        const Expr *b = flat_.vars[v].binding;
        std::string value = !b ? r_.t("(no value)") : r_.t("= ") + r_.inlineExpr(b);
        if (b && !b->isConst())
          value += r_.t(" = " + formatNumber(values[v]));
        rows.emplace_back(r_.var(v), value);
      }
      r_.para(r_.t("Parameters:"));
      r_.list(rows);
    }
    r_.para(r_.t("Equations (numbered as in the source):"));
    std::vector<Formula> eqs;
    for (const Equation &eq : flat_.equations) {
      Formula f;
      f.label = flat_.equationLabel(eq) + (eq.loc.valid() ? " (line " + std::to_string(eq.loc.line) + ")" : "");
      f.lhs = eq.lhs;
      f.rhs = eq.rhs;
      eqs.push_back(f);
    }
    r_.formulas(eqs);
    events();
  }

  /// The event part of the model: conditions, discrete variables, discrete equations and
  /// when-clauses. They are known between events, so the sections below treat them as parameters.
  void events() {
    std::vector<int> conditions, discretes;
    for (size_t v = 0; v < flat_.vars.size(); ++v) {
      const Variable &var = flat_.vars[v];
      if (var.role != VarRole::Discrete)
        continue;
      if (var.relation)
        conditions.push_back(static_cast<int>(v));
      else if (!var.generated)
        discretes.push_back(static_cast<int>(v));
    }
    if (conditions.empty() && discretes.empty() && flat_.whens.empty())
      return;
    r_.para(r_.t("Events: " + plural(conditions.size(), "condition") + ", " +
                 plural(discretes.size(), "discrete variable") + ", " + plural(flat_.whens.size(), "when-clause") +
                 ". Conditions and discrete variables change only at events and are constant in between, so the "
                 "index reduction below treats them as parameters; ") +
            r_.code("eqc simulate") + r_.t(" locates the events."));
    if (!conditions.empty()) {
      std::vector<std::pair<std::string, std::string>> rows;
      for (int v : conditions) {
        const Expr *r = flat_.vars[v].relation;
        rows.emplace_back(r_.inlineExpr(r), r_.t("indicator ") + r_.inlineExpr(flat_.ctx->sub(r->op(1), r->op(0))));
      }
      r_.para(r_.t("Conditions (each holds where its indicator is positive; an event is where an indicator changes "
                   "sign):"));
      r_.list(rows);
    }
    if (!discretes.empty()) {
      std::vector<std::pair<std::string, std::string>> rows;
      for (int v : discretes) {
        const Variable &var = flat_.vars[v];
        const char *type = valueTypeName(var.type);
        rows.emplace_back(r_.var(v), r_.t(type) + (var.hasStart && var.binding ? r_.t(", start ") + r_.inlineExpr(var.binding) : ""));
      }
      r_.para(r_.t("Discrete variables:"));
      r_.list(rows);
    }
    std::vector<Formula> defined;
    std::unordered_map<int, const Expr *> whenConditions; // generated variable → the condition as written
    for (const DiscreteEquation &eq : flat_.discreteEquations) {
      if (flat_.vars[eq.var].generated) {
        whenConditions.emplace(eq.var, eq.value); // shown with its when-clause
        continue;
      }
      Formula f;
      f.label = "discrete equation" + (eq.loc.valid() ? " (line " + std::to_string(eq.loc.line) + ")" : "");
      f.lhsVar = eq.var;
      f.rhs = eq.value;
      defined.push_back(f);
    }
    if (!defined.empty()) {
      r_.para(r_.t("Discrete equations (evaluated at events):"));
      r_.formulas(defined);
    }
    auto asWritten = [&](const Expr *c) {
      auto it = c->kind() == ExprKind::Var ? whenConditions.find(c->var()) : whenConditions.end();
      return it == whenConditions.end() ? c : it->second;
    };
    for (size_t w = 0; w < flat_.whens.size(); ++w) {
      const WhenClause &clause = flat_.whens[w];
      for (size_t b = 0; b < clause.branches.size(); ++b) {
        const WhenBranch &br = clause.branches[b];
        std::string head = b ? r_.t("elsewhen ") : r_.t("When-clause " + std::to_string(w + 1)) +
                                                       (clause.loc.valid() ? r_.t(" (line " + std::to_string(clause.loc.line) + ")") : "") +
                                                       r_.t(": when ");
        for (size_t k = 0; k < br.conditions.size(); ++k)
          head += (k ? r_.t(" or ") : "") + r_.inlineExpr(asWritten(br.conditions[k])) +
                  (br.initial[k] ? r_.t(" (also at initialization)") : "");
        r_.para(head + r_.t(" becomes true:"));
        std::vector<Formula> rows;
        for (const char *kind : {"assign", "reinit"})
          for (auto &[v, e] : kind[0] == 'a' ? br.assignments : br.reinits) {
            Formula f;
            f.label = kind;
            f.lhsVar = v;
            f.rhs = e;
            f.op = ":=";
            rows.push_back(f);
          }
        r_.formulas(rows);
        if (br.terminates)
          r_.list({{r_.t("terminate"), r_.code("\"" + br.terminate + "\"")}});
      }
    }
  }


  void sigmaMethod() {
    r_.section(++section_, "Structural analysis (Pryce's Σ-method)");
    if (!c_.conversions.empty()) {
      r_.para(r_.t("Structural-analysis conversion first: the matrix of the highest derivatives is singular although "
                   "every equation has its own highest derivative in the structure (seed 002's \"not SA-friendly\" "
                   "class). Row reduction finds a combination of equations without highest derivatives, which "
                   "replaces one of them (the linear-combination method); the analysis below is of the converted "
                   "system:"));
      std::vector<Formula> rows;
      for (const StructureConversion &cv : c_.conversions) {
        Formula f;
        f.label = flat_.equationLabel(flat_.equations[cv.equation]) + " := " + cv.combination;
        f.rhs = cv.residual;
        rows.push_back(f);
      }
      r_.formulas(rows);
    }
    if (!c_.sigma) {
      r_.warning(r_.t("the Σ-method found no finite transversal (or was not run): the system is structurally "
                      "singular."));
      return;
    }
    const SigmaResult &s = *c_.sigma;
    const bool tex = r_.latex(), md = r_.markdown();
    r_.para(r_.t("Signature matrix: ") + r_.math("σ_ij", "\\sigma_{ij}") +
            r_.t(" is the highest derivative of unknown j in equation i (- where it does not occur); ") +
            (tex || md ? r_.t("bold") : r_.t("*")) + r_.t(" marks a highest-value transversal (value " +
                                                          std::to_string(s.transversalValue) + "). ") +
            r_.t("The offsets are the smallest with ") +
            r_.math("d_j − c_i ≥ σ_ij", "d_j - c_i \\ge \\sigma_{ij}") +
            r_.t(", equality on the transversal: equation i is differentiated ") + r_.math("c_i", "c_i") +
            r_.t(" times, and ") + r_.math("d_j", "d_j") +
            r_.t(" is the highest derivative of unknown j in the reduced system."));
    std::vector<std::string> header{tex ? "$\\Sigma$" : "Σ"};
    for (int v : s.variables)
      header.push_back(tex ? "$" + latexVarName(flat_.varName(v)) + "$" : md ? "`" + flat_.varName(v) + "`" : flat_.varName(v));
    if (r_.text()) // values carry a trailing blank or the transversal mark
      for (size_t j = 1; j < header.size(); ++j)
        header[j] += " ";
    header.push_back(tex ? "$c_i$" : "c");
    std::vector<std::vector<std::string>> body;
    std::vector<std::string> sparse;
    for (size_t i = 0; i < s.sigma.size(); ++i) {
      std::vector<std::string> row(s.variables.size() + 2, tex ? "$-$" : "- ");
      if (md)
        std::fill(row.begin(), row.end(), "-");
      row.front() = flat_.equationLabel(flat_.equations[i]);
      std::string entries;
      for (auto [j, sigma] : s.sigma[i]) {
        bool onTransversal = s.transversal[i] == j;
        std::string n = std::to_string(sigma);
        row[j + 1] = tex ? (onTransversal ? "$\\mathbf{" + n + "}$" : "$" + n + "$")
                     : md ? (onTransversal ? "**" + n + "**" : n)
                          : n + (onTransversal ? "*" : " ");
        entries += (entries.empty() ? "" : ", ") + flat_.varName(s.variables[j]) + " " + n + (onTransversal ? "*" : "");
      }
      row.back() = std::to_string(s.c[i]);
      body.push_back(row);
      sparse.push_back(flat_.equationLabel(flat_.equations[i]) + " (c = " + std::to_string(s.c[i]) + "): " + entries);
    }
    std::vector<std::string> footer{tex ? "$d_j$" : "d"};
    std::string dList;
    for (size_t j = 0; j < s.variables.size(); ++j) {
      footer.push_back(r_.text() ? std::to_string(s.d[j]) + " " : std::to_string(s.d[j]));
      dList += (j ? ", " : "") + flat_.varName(s.variables[j]) + " " + std::to_string(s.d[j]);
    }
    footer.push_back("");
    sparse.push_back("d: " + dList);
    r_.table(header, body, footer, sparse);

    int maxC = s.c.empty() ? 0 : *std::max_element(s.c.begin(), s.c.end());
    std::vector<int> algebraic;
    for (size_t j = 0; j < s.variables.size(); ++j)
      if (s.d[j] == 0)
        algebraic.push_back(s.variables[j]);
    std::string why = algebraic.empty() ? r_.t(", no unknown has ") + r_.math("d_j = 0", "d_j = 0")
                                        : r_.t(", plus 1 for the algebraic unknowns (") + r_.math("d_j = 0", "d_j = 0") +
                                              r_.t("): ") + r_.vars(algebraic);
    r_.para(r_.t("Structural index " + std::to_string(s.index) + " (max ") + r_.math("c_i", "c_i") +
            r_.t(" = " + std::to_string(maxC)) + why + r_.t(")."));
    int sumD = std::accumulate(s.d.begin(), s.d.end(), 0), sumC = std::accumulate(s.c.begin(), s.c.end(), 0);
    r_.para(r_.t("Degrees of freedom: ") +
            r_.math("dof = Σd − Σc = " + std::to_string(sumD) + " − " + std::to_string(sumC) + " = " +
                        std::to_string(sumD - sumC),
                    "\\mathrm{dof} = \\sum_j d_j - \\sum_i c_i = " + std::to_string(sumD) + " - " +
                        std::to_string(sumC) + " = " + std::to_string(sumD - sumC)) +
            r_.t("."));
    if (sumD - sumC != s.dof)
      r_.warning(r_.t("the Σ-method reports dof = " + std::to_string(s.dof) + ", not Σd − Σc = " +
                      std::to_string(sumD - sumC) + "."));
    if (s.index != maxC + (algebraic.empty() ? 0 : 1))
      r_.warning(r_.t("the Σ-method reports index " + std::to_string(s.index) + ", not " +
                      std::to_string(maxC + (algebraic.empty() ? 0 : 1)) + "."));
  }

  void pantelides() {
    r_.section(++section_, "Pantelides' algorithm");
    const PantelidesResult &p = reduced_.pantelides;
    int total = std::accumulate(p.differentiations.begin(), p.differentiations.end(), 0);
    std::string perEquation;
    for (size_t i = 0; i < flat_.equations.size(); ++i)
      perEquation += r_.t(i ? ", " : "") +
                     r_.keep(flat_.equationLabel(flat_.equations[i]) + ": " + std::to_string(p.differentiations[i]));
    r_.para(r_.t(plural(static_cast<size_t>(p.iterations), "failed augmenting path") + ", " +
                 plural(static_cast<size_t>(total), "differentiation") + ". Differentiations per equation: ") +
            perEquation + r_.t("."));
    if (!c_.sigma)
      return;
    std::string differences;
    for (size_t i = 0; i < flat_.equations.size(); ++i)
      if (p.differentiations[i] != c_.sigma->c[i])
        differences += (differences.empty() ? "" : ", ") + flat_.equationLabel(flat_.equations[i]) + " (Pantelides " +
                       std::to_string(p.differentiations[i]) + ", c = " + std::to_string(c_.sigma->c[i]) + ")";
    if (differences.empty())
      r_.para(r_.t("Pantelides and the Σ-method agree: every equation i is differentiated ") + r_.math("c_i", "c_i") +
              r_.t(" times."));
    else
      r_.warning(r_.t("Pantelides and the Σ-method disagree: " + differences + "."));
  }

  void differentiatedEquations() {
    r_.section(++section_, "The differentiated equations");
    const PantelidesResult &p = reduced_.pantelides;
    std::vector<Formula> rows;
    for (size_t e = 0; e < p.equations.size(); ++e) {
      if (p.equations[e].order == 0)
        continue;
      Formula f;
      f.label = reduced_.labels[e];
      f.rhs = p.equations[e].residual;
      rows.push_back(f);
    }
    if (rows.empty()) {
      r_.para(r_.t("None: the highest-order equations already determine the highest derivatives and the "
                   "algebraic unknowns (structural index ≤ 1)."));
      return;
    }
    r_.para(r_.t("In the order Pantelides created them (each the total time derivative of the one before; "
                 "residual form 0 = lhs - rhs):"));
    r_.formulas(rows);
  }

  void hiddenConstraints() {
    r_.section(++section_, "Hidden constraints");
    const EquationSystem &inv = model_.invariants;
    if (inv.residuals.empty()) {
      r_.para(r_.t("None."));
      return;
    }
    r_.para(r_.t("Every equation that was differentiated further holds along all solutions: it is an invariant "
                 "of the ODE below."));
    std::vector<Formula> rows;
    for (size_t k = 0; k < inv.residuals.size(); ++k) {
      Formula f;
      f.tag = "[alg" + std::to_string(k + 1) + "]";
      f.label = inv.labels[k];
      f.rhs = inv.residuals[k];
      rows.push_back(f);
    }
    r_.formulas(rows);
  }

  void stateVector() {
    r_.section(++section_, "The state vector");
    size_t states = model_.states.size(), invariants = model_.invariants.residuals.size();
    r_.para(r_.t(plural(states, "state") + ": ") + r_.vars(model_.states) + r_.t("."));
    int count = static_cast<int>(states) - static_cast<int>(invariants);
    std::string check = plural(states, "state") + " − " + plural(invariants, "invariant") + " = " + std::to_string(count);
    std::string checkTex = std::to_string(states) + " - " + std::to_string(invariants) + " = " + std::to_string(count);
    if (!c_.sigma) {
      r_.para(r_.t("Count: ") + r_.math(check, checkTex) + r_.t("."));
      return;
    }
    if (count == c_.sigma->dof)
      r_.para(r_.t("Count check: ") + r_.math(check + " = dof", checkTex + " = \\mathrm{dof}") + r_.t("."));
    else
      r_.warning(r_.t("count check failed: " + check + ", but the Σ-method gives dof = " +
                      std::to_string(c_.sigma->dof) + "."));
  }

  void finalOde() {
    r_.section(++section_, "The final ODE");
    const EquationSystem &sys = model_.simulation;
    const CausalSystem &ode = model_.ode;
    r_.para(r_.t("The highest-order equations, solved for ") + r_.vars(sys.unknowns) +
            r_.t(" (" + plural(sys.unknowns.size(), "unknown") + "), in evaluation order:"));
    std::vector<Formula> pending;
    auto flush = [&] {
      r_.formulas(pending);
      pending.clear();
    };
    for (const CausalStep &step : ode.steps) {
      if (step.loop < 0) {
        Formula f;
        f.label = sys.labels[step.equation];
        f.lhsVar = step.var;
        f.op = ":=";
        f.rhs = step.value;
        pending.push_back(f);
        continue;
      }
      flush();
      const AlgebraicLoop &loop = ode.loops[step.loop];
      r_.para(r_.t("solve for ") + r_.vars(loop.vars) + r_.t(loop.vars.size() > 1 ? " together" : "") +
              r_.t(loop.linear ? " (linear: by LU):" : " (nonlinear: by Newton):"));
      if (!loop.tornVars.empty())
        r_.para(r_.t("with ") + r_.vars(loop.tornVars) + r_.t(" computed from them (tearing), as assigned below:"));
      for (size_t i = 0; i < loop.residuals.size(); ++i) {
        Formula f;
        f.label = sys.labels[loop.equations[i]];
        f.rhs = loop.residuals[i];
        pending.push_back(f);
      }
      flush();
    }
    flush();
    if (!model_.chainCopies.empty()) {
      std::vector<int> derivativeStates, computed;
      for (auto [dx, x] : model_.chainCopies) {
        derivativeStates.push_back(model_.states[x]);
        computed.push_back(flat_.vars[model_.states[x]].derivative);
      }
      r_.para(r_.t("First-order form: ") + r_.vars(derivativeStates) +
              r_.t(derivativeStates.size() == 1 ? " is a state itself; its derivative " : " are states themselves; their derivatives ") +
              r_.vars(computed) + r_.t(derivativeStates.size() == 1 ? " is computed above." : " are computed above."));
    }
    size_t k = model_.invariants.residuals.size();
    if (k == 0) {
      r_.para(r_.t("No invariants; no stabilization needed."));
      return;
    }
    std::string tags;
    for (size_t i = 1; i <= k; ++i)
      tags += (i > 1 ? ", " : "") + std::string("[alg") + std::to_string(i) + "]";
    r_.para(r_.t("The ODE comes with invariants " + tags + " (section 5). It is the ODE that ") +
            r_.code("eqc simulate --reduction invariants") +
            r_.t(" integrates; dummy derivatives (the default reduction of simulate) choose their states "
                 "numerically instead (section 8)."));
    switch (model_.stabilization) {
    case Stabilization::None:
      r_.para(r_.t("Stabilization: none: the invariants are not enforced, so the solution may drift off them."));
      break;
    case Stabilization::Projection:
      r_.para(r_.t("Stabilization: projection of the state onto the invariants after every step."));
      break;
    case Stabilization::Baumgarte:
      baumgarte();
      break;
    }
  }

  /// The default reduction of `simulate`: the states chosen at the consistent initial point.
  void dummyDerivatives() {
    if (!reduced_.differentiated())
      return;
    r_.section(++section_, "Dummy derivatives (the default of simulate)");
    if (!c_.initialSelection) {
      r_.para(r_.t("No state selection: the start values give no consistent initial point, or no selection is "
                   "nonsingular there (see the messages of eqc)."));
      return;
    }
    const StateSelection &s = *c_.initialSelection;
    std::string values;
    for (int v : model_.states)
      // Round-off (4e-16 for a value that is 0) is not part of the derivation.
      values += (values.empty() ? "" : ", ") + flat_.vars[v].name + " = " +
                brief(std::fabs(c_.initialValues[v]) < 1e-12 ? 0.0 : c_.initialValues[v]);
    r_.para(r_.t("The consistent initial point at time " + formatNumber(c_.initialTime) +
                 " (start values moved as little as possible onto every constraint): " + values + "."));
    r_.para(r_.t("At that point the Jacobians of the differentiated equations, factored level by level with "
                 "column pivoting (weighted by stateSelect), make these derivatives dummies (algebraic): ") +
            r_.vars(s.dummies) + r_.t("."));
    r_.para(r_.t(s.states.size() == 1 ? "So the state integrated is " : "So the " + plural(s.states.size(), "state") + " integrated are ") + r_.vars(s.states) +
            r_.t(" (dof = " + std::to_string(s.states.size()) + "), and all equations with their derivatives "
                 "form an index-1 system in the other variables. The smallest relative pivot is " +
                 formatNumber(std::round(s.quality * 1e4) / 1e4) +
                 "; when it falls below 0.2 during the simulation, the selection is made again (eqc simulate "
                 "--stats lists every switch)."));
  }

  void baumgarte() {
    const double eta = reduction_.eta, omega = reduction_.omega;
    r_.para(r_.t("Stabilization: Baumgarte with ") +
            r_.math("η = " + formatNumber(eta) + ", ω = " + formatNumber(omega),
                    "\\eta = " + formatNumber(eta) + ", \\omega = " + formatNumber(omega)) +
            r_.t(": the highest-order equation ") + r_.math("C^(k) = 0", "C^{(k)} = 0") +
            r_.t(" of an equation C differentiated k times is replaced by ") +
            r_.math("p(d/dt) C = 0", "p(\\tfrac{\\mathrm{d}}{\\mathrm{d}t})\\, C = 0") + r_.t(" with ") +
            r_.math("p(s) = (s² + 2ηωs + ω²)^floor(k/2) (s + ω)^(k mod 2)",
                    "p(s) = (s^2 + 2\\eta\\omega s + \\omega^2)^{\\lfloor k/2 \\rfloor} (s + \\omega)^{k \\bmod 2}") +
            r_.t(":"));
    const PantelidesResult &p = reduced_.pantelides;
    std::vector<std::pair<std::string, std::string>> combos;
    for (size_t i = 0; i < flat_.equations.size(); ++i) {
      int order = p.differentiations[i];
      if (order == 0)
        continue;
      std::vector<double> a = baumgarteCoefficients(order, eta, omega);
      std::string base = flat_.equationLabel(flat_.equations[i]), sum;
      for (int l = order; l >= 0; --l) {
        std::string term = derivativeLabel(base, l);
        std::string coefficient = a[l] == 1 ? "" : formatNumber(a[l]) + "*";
        if (r_.latex())
          sum += (l == order ? "" : " + ") + (a[l] == 1 ? "" : formatNumber(a[l]) + "\\,") + latexLabel(term);
        else
          sum += r_.t(l == order ? "" : " + ") + r_.t(coefficient + "(") + r_.label(term) + r_.t(")");
      }
      if (r_.latex())
        sum = "$" + sum + "$";
      combos.emplace_back(r_.label(derivativeLabel(base, order)) + r_.t(":"), sum);
    }
    r_.list(combos);
    r_.para(r_.t("The stabilized highest-order equations (as solved above):"));
    std::vector<Formula> rows;
    const EquationSystem &sys = model_.simulation;
    for (size_t e = 0; e < sys.residuals.size(); ++e) {
      if (sys.labels[e].find("(Baumgarte)") == std::string::npos)
        continue;
      Formula f;
      f.label = sys.labels[e];
      f.rhs = sys.residuals[e];
      rows.push_back(f);
    }
    r_.formulas(rows);
  }

  const Compilation &c_;
  const FlatSystem &flat_;
  const ReducedSystem &reduced_;
  const OdeModel &model_;
  const ReductionOptions &reduction_;
  Renderer r_;
  ReportFormat format_;
  std::ostream &out_;
  int section_ = 0;
};

} // namespace

ExitCode printReductionReport(const Compilation &c, ReportFormat format, std::ostream &out) {
  if (!c.flat || !c.reduced || !c.model) {
    out.flush();
    return ExitInternal;
  }
  Report(c, format, out).print();
  return ExitOk;
}

} // namespace eqc
