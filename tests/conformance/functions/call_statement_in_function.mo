// MLS 3.5, 12.4.6 and 12.9: a function called as a statement inside a function runs for its
// effects (here an external C function that stores its argument, with no outputs); the call is
// made, in order, and another C function of the same code reads the stored value back.
// EXPECT: simulate
model CallStatementInFunction
  function store
    input Real x;
  external "C" eqc_store(x) annotation(Include = "
static double eqc_stored = -1;
void eqc_store(double x) { eqc_stored = x; }
double eqc_load(void) { return eqc_stored; }");
  end store;
  function load
    output Real y;
  external "C" y = eqc_load() annotation(Include = "
static double eqc_stored = -1;
void eqc_store(double x) { eqc_stored = x; }
double eqc_load(void) { return eqc_stored; }");
  end load;
  function roundTrip
    input Real x;
    output Real y;
  algorithm
    store(2 * x);
    y := load();
  end roundTrip;
  Real y = roundTrip(time);
equation
  assert(y == 2 * time, "the statement's call was made before the load");
  annotation(experiment(StopTime = 1));
end CallStatementInFunction;
