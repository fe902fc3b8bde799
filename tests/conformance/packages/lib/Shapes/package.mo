within;
package Shapes
  constant Real pi = 3.141592653589793;
end Shapes;
