// MLS 3.5, 11.2.5: a function without outputs called as a statement; its assertion fails at
// initialization (the table is not increasing), which stops the run with its message.
// EXPECT: error not increasing at 3
model CallWithoutOutputsFails
  function increasing
    input Real t[:];
  algorithm
    for i in 2:size(t, 1) loop
      assert(t[i] > t[i - 1], "not increasing at " + String(i));
    end for;
  end increasing;
  parameter Real table[:] = {0, 2, 1};
  Real x(start = 0, fixed = true);
initial algorithm
  increasing(table);
equation
  der(x) = 1;
end CallWithoutOutputsFails;
