// MLS 3.5, 12.9: an external function is read (language, call, annotations); eqc reports that
// it does not call external functions yet.
// EXPECT: error function 'Ext.cbrt' is external ("C" cbrt); eqc does not call external functions yet
model Ext
  function cbrt
    input Real x;
    output Real y;
  external "C" y = cbrt(x) annotation(Library = "m");
  end cbrt;
  Real z = cbrt(8);
end Ext;
