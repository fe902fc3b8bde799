// MLS 3.5, 7.3.3: bases that declare one name differently, even once modified, conflict.
// EXPECT: error duplicate declaration of 'm_flow' (inherited, and not identical: MLS 3.5, 7.3.3)
model DifferentAfterModification
  partial model A
    Real m_flow(start = 1);
  end A;
  partial model B
    Real m_flow(start = 1, stateSelect = StateSelect.prefer);
  end B;
  model C
    extends A(m_flow(stateSelect = StateSelect.avoid));
    extends B;
  equation
    der(m_flow) = -m_flow;
  end C;
  C c;
end DifferentAfterModification;
