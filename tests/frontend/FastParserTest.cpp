// The hand-written parser (frontend/FastParser.h) against ANTLR's parser lowered by TreeLowering:
// the same AST, every range included, whenever it accepts an input; on the models of the
// repository it declines only those with syntax errors.
#include "frontend/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace eqc {
namespace {

/// Parses `text` both ways; returns whether the fast parser accepted it. Any difference fails.
bool compareParsers(const std::string &text) {
  bool accepted = false;
  if (std::optional<std::string> difference = fastParserDifference(text, &accepted))
    ADD_FAILURE() << "the fast parser " << *difference << "\nin:\n" << text;
  return accepted;
}

/// Whether ANTLR's parse (parseBuffer after a decline) reports an error.
bool hasSyntaxError(const std::string &text) {
  SourceManager sources;
  std::ostringstream sink;
  Diagnostics diags(sources, &sink);
  return !parseBuffer(sources, sources.addBuffer("m.eq", text), diags).has_value();
}

TEST(FastParser, SameAstAsAntlrOnEveryModelOfTheRepository) {
  int files = 0, accepted = 0;
  for (const char *dir : {"examples", "tests", "bench"})
    for (const auto &e : std::filesystem::recursive_directory_iterator(std::string(EQC_SOURCE_DIR) + "/" + dir)) {
      if ((e.path().extension() != ".eq" && e.path().extension() != ".mo") || e.path().filename() == "not_utf8.eq")
        continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      ++files;
      if (compareParsers(text))
        ++accepted;
      else // declined: only a model with a syntax (or lexical, or size) error
        EXPECT_TRUE(hasSyntaxError(text)) << "declined a model that ANTLR parses: " << e.path();
    }
  EXPECT_GT(files, 60);
  EXPECT_GT(accepted, files * 3 / 4) << accepted << " of " << files;
}

// MLS 3.5, 7.3.1, 7.3.2 and 12.4.2.1: `redeclare model extends M (mods)`, `constrainedby` in a
// redeclaration of a modification and `function f(k = 2)` as an argument (MSL 4.0.0's Media, Fluid
// and Math.Nonlinear use them).
TEST(FastParser, ClassExtendsAndConstrainedbyInRedeclarations) {
  EXPECT_TRUE(compareParsers("package P\n"
                             "  redeclare record extends State \"more\" Real T; end State;\n"
                             "  redeclare replaceable model extends Base(p(start = 1)) Real T; equation T = 1; end Base;\n"
                             "  model M\n"
                             "    Pipe pipe(redeclare package Medium = Water constrainedby PartialMedium \"m\",\n"
                             "              redeclare Real x constrainedby Real);\n"
                             "  end M;\n"
                             "  Real y = solve(function f(k = 2, g = function h()), 1, u = 3);\n"
                             "end P;\n"));
}

TEST(FastParser, PrecedenceAndTheAmbiguousFormsAsAntlrParsesThem) {
  for (const char *expr :
       {"-a^b", "-a*b", "- -a", "not a and b", "not a < b or c", "a < b < c", "2^-x*y", "a^b^c", "a.^b.^c",
        "a - b - c", "a / b * c", "a .* b ./ c .+ d .- e", "if c then a else b + 1", "x + if c then a else b",
        "if a then 1 elseif b then 2 else if c then 3 else 4", "1:2:10", "1:n-1", "a or b:c", "(a)",
        "((a + b)) * c", "{i for i in 1:3}", "{1, 2, 3}", "[1, 2; 3, 4]", "[a]", "a[:, end]", "a.b[1].c",
        "f(x for i in 1:n, j in 1:m)", "f(x, y = 2, z = {1})", "f()", "initial()", "\"s\\\"t\" + \"u\"",
        "1e3 + 2.5 + .5 + 7", "true and false", "a <> b == c >= d <= e > f", "der(x)", "-(-a)", "+a"})
    EXPECT_TRUE(compareParsers(std::string("model M\n  Real y;\nequation\n  y = ") + expr + ";\nend M;\n"))
        << expr;
}

TEST(FastParser, EveryConstructOfTheGrammar) {
  const char *model = R"(within Lib.Sub;
encapsulated partial package P "a package" + " described"
  import A.B;
  import A.*;
  import A.B.*;
  import X = A.B "alias";
  type Voltage = Real(unit = "V", final quantity = "U") "volts" annotation(x = 1);
  connector Pin
    flow Real i;
    Voltage v;
  end Pin;
  record R
    parameter Real a[2, :] = {{1}, {2}};
  end R;
  function f "f"
    input Real x;
    output Real y, z;
  protected
    Real t := 2;
  algorithm
    t := x;
    (y, z) := g(t, n = 2);
    (y, , z) := g(t);
    (, z) := g(t);
    (y) := g(t);
    h(t);
    if t > 1 then y := 1; elseif t > 0 then y := 2; else y := 3; end if;
    for i in 1:3, j loop t := t + i; end for;
    while t < 10 loop t := t * 2; if t > 5 then break; end if; end while;
    return;
  initial algorithm
    t := 0;
  end f;
  model M "m"
    extends Base(k = 3, each b.c(start = 1) = 2) annotation(y = 2);
    parameter Real k = 1 "k" annotation(Evaluate = true);
    constant Integer n = 3;
    discrete Real d;
    input Real u;
    output Real w;
    final parameter Real q(min = 0, max = 1) = 0.5;
    Real[3] x(each start = 0, each fixed = true), v[3];
    Pin p, n;
  public
    Real z;
  initial equation
    x[1] = 0;
  equation
    der(x) = -k * x "decay" annotation(z = 1);
    for i in 1:n loop
      v[i] = x[i] + u;
    end for;
    if k > 1 then w = 1; elseif k > 0 then w = 2; else w = 3; end if;
    when sample(0, 1) then d = pre(d) + 1; elsewhen initial() then d = 0; end when;
    connect(p, n) "wire";
    assert(k > 0, "positive") annotation(x = 1);
    (z, d) = f(u);
    z = if u > 0 then u else -u;
    z = sum(x[i] for i in 1:3) + {1, 2} * [1; 2] + x[end] + x[2:end];
  annotation(experiment(StopTime = 10));
  end M;
end P;
model Short = M(k = 2);
)";
  EXPECT_TRUE(compareParsers(model));
}

// MLS 3.5, 4.6 class prefixes, 2.3.1 quoted identifiers, 11.2.7 when-statements and algorithm
// sections of models, `within;` of a library's top level.
TEST(FastParser, ClassPrefixesQuotedNamesAndModelAlgorithms) {
  const char *model = R"(within;
class 'A b' "quoted"
  expandable connector Bus
  end Bus;
  operator record Complex
    Real re, im;
    encapsulated operator 'constructor'
      function fromReal
        input Real re;
        output Complex c;
      algorithm
        c := Complex(re, 0);
      end fromReal;
    end 'constructor';
  end Complex;
  type E = enumeration(a "first", b annotation(x = 1), 'c d') "three";
  function ext
    input Real x;
    output Real y;
  external "C" y = c_ext(x, 2) annotation(Library = "m", Include = "#include <m.h>");
  end ext;
  function ext2
    input Real x;
    output Real y;
  external;
  annotation(derivative = ext);
  end ext2;
  function ext3 input Real x; output Real y[2]; external "FORTRAN 77" f(y, x); end ext3;
  .Lib.T global = .Lib.pi;
  type Open = enumeration(:);
  type None = enumeration();
  pure function p input Real x; output Real y; algorithm y := x; end p;
  impure function q input Real x; output Real y; algorithm y := x; end q;
  operator function r input Real x; output Real y; algorithm y := x; end r;
  impure operator function s input Real x; output Real y; algorithm y := x; end s;
  Real 'x\'y'(start = 1), 'a.b';
  Resistor r2(R = 2) if useR2 and not useR3 "conditional";
  Real y = 1 if c;
  inner World world;
  outer Real T;
  inner outer Env env(g = 2);
  replaceable Resistor r(R = 1) constrainedby TwoPin(R = 2) "replaceable";
  final replaceable parameter Real k = 1;
  replaceable model Inner = Resistor constrainedby TwoPin;
  redeclare replaceable package Medium = Water;
  final inner model Loc = R;
  Holder h(redeclare Resistor2 r(R = 3), redeclare each final replaceable Real x[2] = {1, 2},
           redeclare model M = B(k = 2), redeclare package Medium = Air "air", k = 1);
equation
  der('x\'y') = -'a.b';
algorithm
  'a.b' := 'x\'y';
  when 'a.b' < 0.5 then
    reinit('x\'y', 1);
  elsewhen time > 2 then
    terminate("done");
  end when;
initial algorithm
  'a.b' := 0;
end 'A b';
)";
  EXPECT_TRUE(compareParsers(model));
  // Errors are ANTLR's (the fast parser declines).
  for (const char *bad : {"pure record R end R;", "operator operator R end R;", "expandable model M end M;",
                          "impure package P end P;"})
    EXPECT_FALSE(compareParsers(bad)) << bad;
}

/// A random token-level model: every expression form of the grammar, nested at random.
class RandomModel {
public:
  explicit RandomModel(unsigned seed) : gen_(seed) {}

  std::string model() {
    std::string s = "model M\n  Real x[3], y(start = " + expr(2) + ");\nequation\n";
    for (int n = pick(1, 4); n > 0; --n)
      s += "  " + expr(3) + " = " + expr(3) + ";\n";
    return s + "end M;\n";
  }

  /// The model with a few tokens removed, repeated or swapped: mostly syntax errors, some valid.
  std::string mutated() {
    std::istringstream in(model());
    std::vector<std::string> words;
    for (std::string w; in >> w;)
      words.push_back(w);
    for (int n = pick(1, 3); n > 0; --n) {
      size_t i = static_cast<size_t>(pick(0, static_cast<int>(words.size()) - 1));
      switch (pick(0, 2)) {
      case 0: words.erase(words.begin() + static_cast<long>(i)); break;
      case 1: words.insert(words.begin() + static_cast<long>(i), words[i]); break;
      default: std::swap(words[i], words[static_cast<size_t>(pick(0, static_cast<int>(words.size()) - 1))]);
      }
    }
    std::string s;
    for (const auto &w : words)
      s += w + ' ';
    return s;
  }

private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(gen_); }
  std::string expr(int depth) {
    static const char *binary[] = {" + ", " - ", " * ", " / ", " ^ ", " .* ", " ./ ", " .^ ", " .+ ", " .- ",
                                   " < ", " <= ", " > ", " >= ", " == ", " <> ", " and ", " or "};
    static const char *atoms[] = {"x", "y", "x[1]", "x[end]", "x[:]", "a.b", "1", "2.5", ".5", "1e3", "true",
                                  "\"s\"", "time", "initial()"};
    if (depth <= 0)
      return atoms[pick(0, 13)];
    switch (pick(0, 11)) {
    case 0: case 1: case 2: return expr(depth - 1) + binary[pick(0, 17)] + expr(depth - 1);
    case 3: return std::string(pick(0, 1) ? "-" : pick(0, 1) ? "+" : "not ") + expr(depth - 1);
    case 4: return "(" + expr(depth - 1) + ")";
    case 5: return "if " + expr(depth - 1) + " then " + expr(depth - 1) + (pick(0, 1) ? " elseif " + expr(depth - 1) + " then " + expr(depth - 1) : "") + " else " + expr(depth - 1);
    case 6: return "f(" + expr(depth - 1) + (pick(0, 1) ? ", k = " + expr(depth - 1) : "") + ")";
    case 7: return "{" + expr(depth - 1) + (pick(0, 1) ? " for i in " + expr(depth - 1) : ", " + expr(depth - 1)) + "}";
    case 8: return "[" + expr(depth - 1) + ", " + expr(depth - 1) + "; " + expr(depth - 1) + "]";
    case 9: return "(" + ref() + ", , " + ref() + ")";
    case 10: return "sum(" + expr(depth - 1) + " for i in 1:3)";
    default: // operands that are not if-expressions (a range in an else branch is left to ANTLR)
      return "x[" + operand(depth) + ":" + operand(depth) + (pick(0, 1) ? ":" + operand(depth) : "") + "]";
    }
  }
  std::string operand(int depth) { return pick(0, 1) ? expr(0) : "(" + expr(depth - 1) + ")"; }
  std::string ref() { return pick(0, 1) ? "x" : "a.b[1]"; }
  std::mt19937 gen_;
};

TEST(FastParser, SameAstAsAntlrOnRandomModels) {
  RandomModel random(2026);
  int valid = 0, declinedValid = 0, mutated = 0;
  for (int k = 0; k < 1000 && !HasFailure(); ++k) {
    std::string text = random.model();
    if (compareParsers(text))
      ++valid;
    else if (!hasSyntaxError(text))
      ++declinedValid; // a range in an if-expression's else branch (left to ANTLR)
    mutated += compareParsers(random.mutated());
  }
  // Most generated models are accepted; mutations exercise both outcomes.
  EXPECT_GT(valid, 800);
  EXPECT_LT(declinedValid, 20);
  EXPECT_GT(mutated, 10);
  EXPECT_LT(mutated, 900);
}

} // namespace
} // namespace eqc
