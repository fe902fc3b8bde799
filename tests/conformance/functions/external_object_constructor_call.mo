// MLS 3.5, 12.9.7: the constructor of an external object is called only by the declaration of
// the object (a parameter of its class bound to a call of the class); a call elsewhere is an error.
// EXPECT: error is an external object class: it is called only as the value of a parameter of its class
model ExternalObjectCall
  class Counter
    extends ExternalObject;
    function constructor
      input Integer start;
      output Counter c;
    external "C" c = counter_new(start) annotation(Include = "
#include <stdlib.h>
void *counter_new(int start) { int *c = malloc(sizeof *c); *c = start; return c; }
double counter_value(void *c) { return *(int *)c; }");
    end constructor;
    function destructor
      input Counter c;
    external "C" free(c);
    end destructor;
  end Counter;
  function value
    input Counter c;
    output Real v;
  external "C" v = counter_value(c);
  end value;
  Real x = value(Counter(3)) * time;
end ExternalObjectCall;
