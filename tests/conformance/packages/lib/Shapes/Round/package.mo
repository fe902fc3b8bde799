within Shapes;
package Round
end Round;
