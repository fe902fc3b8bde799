// RUN: check
// Fuzzing finding (middle target, a timeout under load): nested brackets and parentheses with
// syntax errors on many lines; ANTLR error recovery must report them all and end quickly.
// RUNent "a component that contains itself, and a cless that eetndxs itself"
  model Node
   // RUNenhat eetndxs itself"
  model Node
    Real v;
    Node next;
  equation
    v = 1;
  en 2, 3};
  N6antlr411TokenSReal z;
  Real w[n];
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[cos(eal that contains itself, and a cless that eetndxs itself"
  model Node
   /& RUNenhat eetndxs itself"
  model Node
    Real v;
    Node next;
  equation
    v = 1;
  en 2, 3};
  N6antlr411TokenSReal z;
  Real w[n];
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[ Real v;
    Node next;
  equation
    v = 1;
  en 2, 3};
  N6antlr411TokenSReal z;
  Real w[n];ains itself, and a cless that eetndxs itself;
  equation
    v = 1;
  en 2, 3};
  N6antlr411TokenSReal z;
  Real w[n];
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[ Real v;
    Node next;
  equation
    v = 1;
  en 2, s};
  N6antlr411TokenSReal z;
  Real w[n];
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[[[[[not[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{1, 2};
  z = x[4] + x
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[[[[[not[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{1, 2};
  z = x[4 v;
    Node next;
  equation
    v = 1;
  en 2, 3};
  N6antlr411TokenSReal z;
  Real w[n];ains itself, and a cless that eetndxs itself;
  equation
    v = 1;
  en 2, 3};
  N6antlr411TokenSReal z;
  Real w[n];
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[ Real;
  N6antlr411TokenSReal z;
  Real w[n];
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[[[[[not[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{1, 2};
  z = x[4] + x
[[[[[[[[[[[[[[[[[[[[[[[[[[[[[al z;
  Real w[n];
[[[[[[[[[[[not[[[[[[[[[[[[[[[[[[[[[[[Z[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{[[[[[[[[[[[[[{1, 2};
  z = x[4] + x w
[] 0; = x pes;
