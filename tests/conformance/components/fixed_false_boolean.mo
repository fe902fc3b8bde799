// MLS 3.5, 8.6: a Boolean parameter with fixed = false gets its value from an initial equation
// of parameters, here from a function that chooses a branch of a quadratic's solutions as MSL's
// PrismaticWithLengthConstraint does (positiveBranch = selectBranch(...)).
// EXPECT: simulate
model FixedFalseBoolean
  function nearerRoot "true: the + root of x^2 + b x + c is nearer the guess than the - root"
    input Real b;
    input Real c;
    input Real guess;
    output Boolean plus;
  protected
    Real d = sqrt(b*b/4 - c);
  algorithm
    plus := abs(-b/2 + d - guess) <= abs(-b/2 - d - guess);
  end nearerRoot;
  parameter Real b = -1, c = -6 "roots 3 and -2";
  parameter Real guess = -1.5;
  final parameter Boolean plus(fixed = false);
  Real x "the chosen root, followed as c changes in time";
initial equation
  plus = nearerRoot(b, c, guess);
equation
  x = -b/2 + (if plus then 1 else -1)*sqrt(b*b/4 - (c - time));
  assert(not plus, "the guess is nearer the root -2");
  assert(abs(x - (0.5 - sqrt(6.25 + time))) < 1e-12, "the - branch is followed");
annotation(experiment(StopTime = 1));
end FixedFalseBoolean;
