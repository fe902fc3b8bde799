// MLS 3.5, 9.1.3: expandable connectors. A bus gets the elements connected to it (of the other
// end's type: Real, Integer, Boolean signals and a physical connector with a flow variable);
// connected buses and sub-buses have the union of their elements, each connected across the set;
// a declared element that nothing connects or names is not present (no unknown without an
// equation); a declared element may be read in an equation.
// EXPECT: simulate
model BusSignals
  connector RealOutput = output Real;
  connector RealInput = input Real;
  connector IntegerOutput = output Integer;
  connector IntegerInput = input Integer;
  connector BooleanOutput = output Boolean;
  connector BooleanInput = input Boolean;
  connector HeatPort
    Real T;
    flow Real Q_flow;
  end HeatPort;
  expandable connector SubBus
    Real level "declared: may be read in equations";
    Real declaredButUnused;
  end SubBus;
  expandable connector Bus
    Real speed "declared: present once connected";
    Real unused "declared and never connected: absent";
    SubBus sub;
  end Bus;
  model Heater "a port at a given temperature"
    HeatPort port;
  equation
    port.T = 300 + time;
  end Heater;
  model Sink "a port that takes a given heat flow"
    HeatPort port;
  equation
    port.Q_flow = 3;
  end Sink;
  model Sensor "puts signals on its bus"
    Bus bus;
    RealOutput w;
    IntegerOutput count;
    BooleanOutput fast;
    RealOutput level;
    Heater heater;
  equation
    w = 2 * time;
    count = integer(4 * time + 0.5);
    fast = time > 0.5;
    level = 1 - time;
    connect(w, bus.speed);
    connect(count, bus.count);
    connect(fast, bus.fast);
    connect(level, bus.sub.level);
    connect(heater.port, bus.heat);
  end Sensor;
  model Controller "takes signals off its bus"
    Bus bus;
    RealInput w;
    BooleanInput fast;
    Real twiceLevel;
    Real wFromBus;
    IntegerInput countSeen;
    Sink sink;
  equation
    connect(bus.speed, w);
    connect(bus.fast, fast);
    connect(bus.heat, sink.port);
    connect(bus.count, countSeen);
    twiceLevel = 2 * bus.sub.level;
    wFromBus = bus.speed;
  end Controller;
  model Consumer "takes the level off a sub-bus of its own"
    SubBus sub;
    Real level;
  equation
    level = sub.level;
  end Consumer;
  Sensor sensor;
  Controller controller;
  Consumer consumer;
  Bus bus;
equation
  connect(sensor.bus, bus);
  connect(bus, controller.bus);
  connect(consumer.sub, bus.sub);
  assert(abs(controller.w - 2 * time) < 1e-12, "speed through the bus");
  assert(abs(controller.wFromBus - 2 * time) < 1e-12, "a declared element read in an equation");
  assert(controller.countSeen == integer(4 * time + 0.5), "an Integer added by connect");
  assert(controller.fast == (time > 0.5), "a Boolean added by connect");
  assert(abs(controller.twiceLevel - 2 * (1 - time)) < 1e-12, "a Real on the sub-bus");
  assert(abs(consumer.level - (1 - time)) < 1e-12, "the sub-bus joined to another sub-bus");
  assert(abs(controller.sink.port.T - (300 + time)) < 1e-12, "a physical connector added to the bus");
  assert(abs(sensor.heater.port.Q_flow + 3) < 1e-12, "its flows sum to zero across the bus");
  annotation(experiment(StopTime = 1));
end BusSignals;
