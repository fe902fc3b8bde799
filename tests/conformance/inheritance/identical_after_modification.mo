// MLS 3.5, 7.3.3: two bases that declare one name are one element when the declarations are
// identical as modified: here one base declares stateSelect and the extends clause of the other
// gives its declaration the same (MSL's SimpleGenericOrifice, from PartialTwoPortTransport and
// PartialLumpedFlow). One that stays different is an error (different_after_modification.mo).
// EXPECT: simulate
model IdenticalAfterModification
  partial model A
    Real m_flow(start = 1);
  end A;
  partial model B
    Real m_flow(start = 1, stateSelect = StateSelect.prefer);
  end B;
  model C
    extends A(m_flow(stateSelect = StateSelect.prefer));
    extends B;
  equation
    der(m_flow) = -m_flow;
  end C;
  C c;
equation
  assert(abs(c.m_flow - exp(-time)) < 1e-5, "one m_flow");
end IdenticalAfterModification;
