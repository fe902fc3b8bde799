// MLS 3.5, 12.9.7: a class extending ExternalObject has no other elements than its functions
// constructor and destructor.
// EXPECT: error external object class 'ExternalObjectClass.Handle': it has no components, only its functions constructor and destructor
model ExternalObjectClass
  class Handle
    extends ExternalObject;
    Real size;
    function constructor
      output Handle h;
    external "C" h = malloc(8) annotation(Include = "#include <stdlib.h>");
    end constructor;
    function destructor
      input Handle h;
    external "C" free(h);
    end destructor;
  end Handle;
  parameter Handle h = Handle();
  Real x = time;
end ExternalObjectClass;
