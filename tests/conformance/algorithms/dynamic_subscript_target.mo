// MLS 3.5, 11.1.2 and 10.5: an assignment to an element chosen by a subscript that changes when
// the model runs (`buf[k] := x` at the samples, `m[k, 1:2] := {k, -k}`) assigns that element and
// keeps the others; the algorithm's unknowns are the whole arrays. With x = exp(-t) sampled at
// t = 0, 0.1, 0.2, 0.3 (k = 1..4): buf[k] = exp(-0.1 (k - 1)), and at the end m[k, :] = {k, -k}.
// EXPECT: simulate
model DynamicSubscriptTarget
  Real x(start = 1, fixed = true);
  Real buf[4](each start = 0, each fixed = true);
  Integer m[4, 2](each start = 0, each fixed = true);
  Integer k(start = 0, fixed = true);
algorithm
  when sample(0, 0.1) then
    k := pre(k) + 1;
    if k <= 4 then
      buf[k] := x;
      m[k, 1:2] := {k, -k};
    end if;
  end when;
  when terminal() then
    for i in 1:4 loop
      assert(abs(buf[i] - exp(-0.1*(i - 1))) < 1e-5, "buf[" + String(i) + "] = " + String(buf[i]));
      assert(m[i, 1] == i and m[i, 2] == -i, "m[" + String(i) + ", :] is wrong");
    end for;
  end when;
equation
  der(x) = -x;
  annotation(experiment(StopTime = 0.55));
end DynamicSubscriptTarget;
