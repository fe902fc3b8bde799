// MLS 3.5, 11.2.3 and 12.3: a function with outputs called as a statement runs for its effects
// (its assertions, what it writes), its outputs discarded: checked after every step, its
// assertion stops the run at the first step past t = 1 (x = t) with its message.
// EXPECT: error exceeds 1
model CallWithOutputsFails
  function checked
    input Real x;
    output Boolean ok;
  algorithm
    assert(x <= 1, "x = " + String(x) + " exceeds 1");
    ok := true;
  end checked;
  Real x(start = 0, fixed = true);
algorithm
  checked(x);
equation
  der(x) = 1;
  annotation(experiment(StopTime = 2));
end CallWithOutputsFails;
