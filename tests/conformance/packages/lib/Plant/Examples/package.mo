within Plant;
package Examples
end Examples;
