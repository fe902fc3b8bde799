// EXPECT: simulate
// MLS 3.5, 12.6 with 7.2.5: a record local of a function starts with its class's declaration
// equations; so does every element of an array of records, nested records included with the
// modifiers of their declarations in the class (`Pt b(x = 10)`; the elements' fields were 0, and
// a nested record's modifiers were not applied).
model RecordArrayLocalDefaults
  record Pt
    Real x = 1;
    Real y = 2;
  end Pt;
  record Segment
    Pt a;
    Pt b(x = 10);
    Integer n = 3;
  end Segment;
  function f "q: 3; p[i]: 3 each; s[i, j]: (1 + 2) + (10 + 2) + 3 = 18 each; one.b.x: 10"
    input Real k;
    output Real sum;
  protected
    Pt p[3];
    Pt q;
    Segment s[2, 2];
    Segment one;
  algorithm
    sum := q.x + q.y;
    for i in 1:3 loop
      sum := sum + k*(p[i].x + p[i].y);
    end for;
    for i in 1:2 loop
      for j in 1:2 loop
        sum := sum + s[i, j].a.x + s[i, j].a.y + s[i, j].b.x + s[i, j].b.y + s[i, j].n;
      end for;
    end for;
    sum := sum + one.b.x;
  end f;
  Real z = f(time);
equation
  assert(abs(z - (3 + 9*time + 4*18 + 10)) < 1e-12, "record array defaults: z = " + String(z));
end RecordArrayLocalDefaults;
