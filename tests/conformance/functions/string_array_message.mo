// MLS 3.5, 12.2 and 8.3.7: a message built in a function from an array of Strings it was given
// is made when the assertion fails.
// EXPECT: error assertion failed in function 'StringArrayMessage.check': no name 4 in a;b;c;
model StringArrayMessage
  function check
    input String names[:];
    input Integer i;
    output Integer n;
  protected
    String s = "";
  algorithm
    for k in 1:size(names, 1) loop
      s := s + names[k] + ";";
    end for;
    assert(i <= size(names, 1), "no name " + String(i) + " in " + s);
    n := i;
  end check;
  constant String names[:] = {"a", "b", "c"};
  Integer n = check(names, if time < 0.5 then 1 else 4);
end StringArrayMessage;
