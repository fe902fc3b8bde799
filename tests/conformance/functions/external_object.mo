// MLS 3.5, 12.9.7: external objects. A class extending ExternalObject has only a constructor
// (one output of the class) and a destructor; a parameter of the class, bound to a call of the
// class, holds an object that its constructor made when the model runs, and external functions
// take it as `void *`. Parameters may read it; each component gets its own object; a String and
// an array go to the constructor. Here: a piecewise-linear table in C, against the interpolation
// written in Modelica. 12.9.4: the library "eqc_table" named by the annotations is built from
// its C source next to the header (external_object/eqc_table.c).
// EXPECT: simulate
model ExternalObjects
  class Table
    extends ExternalObject;
    function constructor
      input String name;
      input Real data[:, 2];
      output Table t;
    external "C" t = table_new(name, data, size(data, 1)) annotation(Include = "#include \"eqc_table.h\"",
                 IncludeDirectory = "modelica://ExternalObjects/external_object", Library = "eqc_table");
    end constructor;
    function destructor
      input Table t;
    external "C" table_free(t) annotation(Include = "#include \"eqc_table.h\"",
    IncludeDirectory = "modelica://ExternalObjects/external_object", Library = "eqc_table");
    end destructor;
  end Table;
  function at
    input Table t;
    input Real u;
    output Real y;
  external "C" y = table_at(t, u) annotation(Include = "#include \"eqc_table.h\"",
    IncludeDirectory = "modelica://ExternalObjects/external_object", Library = "eqc_table");
  end at;
  function last
    input Table t;
    output Real x;
  external "C" x = table_last(t) annotation(Include = "#include \"eqc_table.h\"",
    IncludeDirectory = "modelica://ExternalObjects/external_object", Library = "eqc_table");
  end last;
  function nameLength
    input Table t;
    output Integer n;
  external "C" n = table_name_length(t) annotation(Include = "#include \"eqc_table.h\"",
    IncludeDirectory = "modelica://ExternalObjects/external_object", Library = "eqc_table");
  end nameLength;
  function twice "a Modelica function passing the object on"
    input Table t;
    input Real u;
    output Real y = 2 * at(t, u);
  algorithm
  end twice;
  model Lookup
    parameter Real k = 1;
    parameter Real data[:, 2] = [0, 0; 1, k; 2, 4 * k];
    parameter Table tab = Table("lookup", data);
    parameter Real xMax = last(tab) "read from the object";
    parameter Integer len = nameLength(tab);
    Real u = time;
    Real y = at(tab, u);
    Real y2 = twice(tab, u);
  end Lookup;
  Lookup a;
  Lookup b(k = 3);
equation
  // The Modelica interpolation of the same tables.
  assert(abs(a.y - (if time <= 1 then time else 1 + 3 * (time - 1))) < 1e-12, "a: interpolation");
  assert(abs(b.y - 3 * (if time <= 1 then time else 1 + 3 * (time - 1))) < 1e-12, "b: its own table");
  assert(abs(a.y2 - 2 * a.y) < 1e-12, "through a Modelica function");
  assert(a.xMax == 2 and b.xMax == 2, "a parameter read from the object");
  assert(a.len == 6, "the String argument");
  annotation(experiment(StopTime = 2));
end ExternalObjects;
