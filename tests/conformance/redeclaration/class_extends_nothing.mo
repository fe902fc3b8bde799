// MLS 3.5, 7.3.1: `model extends M` needs an M that the enclosing class inherits.
// EXPECT: error 'B' extends the class 'B' that 'Lonely' inherits, but it inherits no such long class
// ARGS: --model Lonely.M
package Lonely
  redeclare model extends B
    Real x = 1;
  end B;
  model M
    B b;
  end M;
end Lonely;
