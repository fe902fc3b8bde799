// MLS 3.5, 12.9.7: an external object is a parameter bound to a call of its class: a variable of
// an external object class is an error.
// EXPECT: error is an external object of class 'ExternalObjectVariable.Handle': declare it a parameter
model ExternalObjectVariable
  class Handle
    extends ExternalObject;
    function constructor
      output Handle h;
    external "C" h = malloc(8) annotation(Include = "#include <stdlib.h>");
    end constructor;
    function destructor
      input Handle h;
    external "C" free(h);
    end destructor;
  end Handle;
  Handle h = Handle();
  Real x = time;
end ExternalObjectVariable;
