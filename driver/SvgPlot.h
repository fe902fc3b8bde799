// Line plots of simulation results as SVG, written by eqc itself (no plotting dependency).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// One curve: a name and its values at the common time points.
struct PlotSeries {
  std::string name;
  std::vector<double> values;
};

/// Requires: every series has as many values as `time`. Ensures: `path` holds a complete SVG
/// document (axes with ticks, one polyline per series, a legend, the title) or is left untouched
/// and false is returned with a message on `err`. Long series are thinned per pixel column to
/// their extremes, so the picture is the same and the file stays small.
bool writeSvgPlot(const std::string &path, const std::string &title, const std::vector<double> &time,
                  const std::vector<PlotSeries> &series, std::ostream &err);

} // namespace eqc
