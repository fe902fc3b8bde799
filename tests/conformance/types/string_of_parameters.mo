// MLS 3.5, 3.7.1 (String conversion) and 4.8.4: String(x) of a value known when the model is
// compiled (a constant or parameters, with the conversion's options) is a String value: in a
// String parameter, and in the message of a function call (MSL's Polyphase MultiDelta prints
// "MultiDelta: replaced erroneous kPolygon = " + String(kPolygon) + ...).
// EXPECT: simulate
model StringOfParameters
  type Mode = enumeration(off, on);
  parameter Integer k = 3;
  parameter Real r = 0.25;
  parameter Mode m = Mode.on;
  parameter String s = "k = " + String(k) + ", r = " + String(r, significantDigits = 3) + ", " + String(k > 2) +
    " [" + String(k, minimumLength = 4, leftJustified = false) + "] " + String(m) + " " + String(2 * r, format = ".3f");
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  assert(s == "k = 3, r = 0.25, true [   3] on 0.500", "got " + s);
  annotation(experiment(StopTime = 0.1));
end StringOfParameters;
