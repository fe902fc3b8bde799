// MLS 3.5, 7.3 and 7.2.4: the modifiers of a class given in a redeclaration are evaluated where the
// redeclaration is written: `redeclare model FlowModel = Flow(k = eps*2)` reads the model's eps,
// not a name of the pipe that uses it (MSL's InverseParameterization gives its pipe's flow model
// m_flow_turbulent = eps_m_flow_turbulent*1).
// EXPECT: simulate
model RedeclaredClassModifierScope
  model Flow
    parameter Real k = 1;
    Real y = k*time;
  end Flow;
  model Pipe
    replaceable model FlowModel = Flow;
    FlowModel flowModel;
  end Pipe;
  parameter Real eps = 0.3;
  Pipe pipe(redeclare model FlowModel = Flow(k = eps*2));
equation
  assert(abs(pipe.flowModel.y - 0.6*time) < 1e-12, "k from the model's eps");
end RedeclaredClassModifierScope;
