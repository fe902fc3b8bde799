// The SVG writer: nice tick steps (1, 2, 5 x 10^k), thinning to the pixel grid, atomic output.
#include "driver/SvgPlot.h"
#include "support/Xml.h"

#include "driver/OutputFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace eqc {
namespace {

constexpr double kWidth = 900, kHeight = 540;
constexpr double kLeft = 80, kRight = 190, kTop = 50, kBottom = 60; // plot margins (legend at the right)
const char *const kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                               "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};


std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", std::fabs(v) < 1e-300 ? 0.0 : v);
  return buf;
}

/// Tick positions covering [lo, hi] with a step of 1, 2 or 5 times a power of ten.
std::vector<double> ticks(double lo, double hi, int target = 6) {
  double span = hi - lo;
  double raw = span / target;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  std::vector<double> out;
  for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 * span; t += step)
    out.push_back(std::fabs(t) < 1e-12 * step ? 0.0 : t);
  return out;
}

} // namespace

bool writeSvgPlot(const std::string &path, const std::string &title, const std::vector<double> &time,
                  const std::vector<PlotSeries> &series, std::ostream &err) {
  if (time.empty() || series.empty()) {
    err << "eqc: error: --plot: nothing to plot\n";
    return false;
  }
  double t0 = time.front(), t1 = time.back();
  if (!(t1 > t0))
    t1 = t0 + 1;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const PlotSeries &s : series)
    for (double v : s.values)
      if (std::isfinite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!(lo <= hi)) {
    lo = -1;
    hi = 1;
  }
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) { // a constant: give it some room
    lo -= 0.5 * std::max(1.0, std::fabs(lo));
    hi += 0.5 * std::max(1.0, std::fabs(hi));
  }
  double pad = 0.05 * (hi - lo);
  lo -= pad;
  hi += pad;
  const double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;
  auto px = [&](double t) { return kLeft + (t - t0) / (t1 - t0) * pw; };
  auto py = [&](double v) { return kTop + (hi - v) / (hi - lo) * ph; };

  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
      << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << kLeft + pw / 2 << "\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">" << xmlEscape(title)
      << "</text>\n";
  // Grid, ticks and labels.
  svg << "<g stroke=\"#dddddd\" stroke-width=\"1\">\n";
  for (double t : ticks(t0, t1))
    svg << "<line x1=\"" << px(t) << "\" y1=\"" << kTop << "\" x2=\"" << px(t) << "\" y2=\"" << kTop + ph << "\"/>\n";
  for (double v : ticks(lo, hi))
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << py(v) << "\" x2=\"" << kLeft + pw << "\" y2=\"" << py(v) << "\"/>\n";
  svg << "</g>\n<g>\n";
  for (double t : ticks(t0, t1))
    svg << "<text x=\"" << px(t) << "\" y=\"" << kTop + ph + 18 << "\" text-anchor=\"middle\">" << number(t)
        << "</text>\n";
  for (double v : ticks(lo, hi))
    svg << "<text x=\"" << kLeft - 8 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">" << number(v) << "</text>\n";
  svg << "<text x=\"" << kLeft + pw / 2 << "\" y=\"" << kHeight - 15 << "\" text-anchor=\"middle\">time</text>\n"
      << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << pw << "\" height=\"" << ph
      << "\" fill=\"none\" stroke=\"black\"/>\n</g>\n";
  // Curves: per pixel column, the first, lowest, highest and last point (the picture is unchanged).
  for (size_t k = 0; k < series.size(); ++k) {
    const std::vector<double> &v = series[k].values;
    svg << "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"" << kColors[k % 10] << "\" points=\"";
    size_t i = 0;
    while (i < time.size()) {
      long column = std::lround(px(time[i]));
      size_t j = i, low = i, high = i;
      while (j < time.size() && std::lround(px(time[j])) == column) {
        if (v[j] < v[low])
          low = j;
        if (v[j] > v[high])
          high = j;
        ++j;
      }
      std::vector<size_t> keep{i, low, high, j - 1};
      std::sort(keep.begin(), keep.end());
      keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
      for (size_t m : keep)
        if (std::isfinite(v[m]))
          svg << number(px(time[m])) << "," << number(py(v[m])) << " ";
      i = j;
    }
    svg << "\"/>\n";
  }
  // Legend.
  double ly = kTop + 10;
  for (size_t k = 0; k < series.size(); ++k, ly += 20) {
    double lx = kLeft + pw + 20;
    svg << "<line x1=\"" << lx << "\" y1=\"" << ly << "\" x2=\"" << lx + 24 << "\" y2=\"" << ly << "\" stroke=\""
        << kColors[k % 10] << "\" stroke-width=\"2\"/>\n"
        << "<text x=\"" << lx + 30 << "\" y=\"" << ly + 4 << "\">" << xmlEscape(series[k].name) << "</text>\n";
  }
  svg << "</svg>\n";

  OutputFile out;
  if (!out.open(path, err))
    return false;
  std::string text = svg.str();
  if (std::fwrite(text.data(), 1, text.size(), out.get()) != text.size()) {
    err << "eqc: error: cannot write '" << path << "'\n";
    return false;
  }
  return out.commit(path, err);
}

} // namespace eqc
