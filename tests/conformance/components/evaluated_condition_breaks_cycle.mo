// MLS 3.5, 4.4.4 and 18.3: a parameter with annotation(Evaluate = true) is known when the model
// is translated, so an if-expression on it has one branch; bindings that would depend on each
// other through the branch not taken are no cycle (MSL's vessels: T_start and h_start).
// EXPECT: simulate
model EvaluatedConditionBreaksCycle
  parameter Boolean use_T = true annotation(Evaluate = true);
  parameter Real T = if use_T then 300 else h/4;
  parameter Real h = if use_T then 4*T else 1000;
  Real x = h*time;
equation
  assert(abs(h - 1200) < 1e-12, "h follows from T");
end EvaluatedConditionBreaksCycle;
