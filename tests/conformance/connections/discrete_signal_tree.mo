// MLS 3.5, 9.2: a connection set of Boolean signals is equalities; the output that its block
// defines drives every input of the set, however the connects are written (inputs connected to
// an outer input first, the source last, as MSL's IdealTriac does with its gate), and 9.3: a
// connector connected to itself adds nothing.
// EXPECT: simulate
model GateTree
  connector BooleanInput = input Boolean;
  connector BooleanOutput = output Boolean;
  block Pulse
    parameter Real at = 0.5;
    BooleanOutput y;
  equation
    y = time > at;
  end Pulse;
  block Counter
    BooleanInput fire;
    Integer n(start = 0);
  equation
    when fire then
      n = pre(n) + 1;
    end when;
  end Counter;
  block Pair
    BooleanInput gate;
    Counter a, b;
  equation
    connect(a.fire, gate);
    connect(b.fire, gate);
    connect(gate, gate);
  end Pair;
  Pair pair;
  Pulse pulse;
equation
  connect(pair.gate, pulse.y);
  assert(pair.a.n == (if time > 0.5 then 1 else 0) and pair.b.n == pair.a.n, "both counters see the pulse");
end GateTree;
