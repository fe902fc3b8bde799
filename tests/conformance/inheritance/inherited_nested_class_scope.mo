// MLS 3.5, 5.3 and 7.1: a class nested in a base class names what its own enclosing scopes hold,
// even where the class that inherits it is in a package that has a class of the same name (MSL's
// StateGraph: CompositeStepState.OuterState names `Interfaces.CompositeStepStatePort_in`, used in
// a model of Modelica.Fluid, which has its own Interfaces).
// EXPECT: simulate
// ARGS: --model InheritedNestedClassScope.Other.User
package InheritedNestedClassScope
  package Lib
    package Interfaces
      record Port
        Real v = 2;
      end Port;
    end Interfaces;
    model Base
      model Inner
        Interfaces.Port port;
      end Inner;
      Inner inner1;
    end Base;
  end Lib;
  package Other
    package Interfaces
      record Unrelated
        Real w = 0;
      end Unrelated;
    end Interfaces;
    model User
      extends Lib.Base;
      Real y = inner1.port.v*time;
    equation
      assert(abs(y - 2*time) < 1e-12, "Lib's port");
    end User;
  end Other;
end InheritedNestedClassScope;
