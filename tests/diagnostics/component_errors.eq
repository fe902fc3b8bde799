// RUN: check
model ComponentErrors "errors inside components name the component; modifiers must name elements"
  model Joint
    parameter Real k = 1;
    Real phi(start = 0);
    Real w;
  equation
    der(phi) = w;
    w = k*undefinedName;
  end Joint;
  model Arm
    Joint joint;
  end Arm;
  Arm a1(joint(kk = 2)), a2(joint(phi(start = 0.1)));
  Arm arms[100];
end ComponentErrors;
