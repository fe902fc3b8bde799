// Input values from CSV: parsing with positions for messages, and linear interpolation.
#include "driver/Inputs.h"
#include "middle/ExprOps.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace eqc {

bool InputSeries::read(const std::string &path, const FlatSystem &flat, const OdeModel &model, std::ostream &err) {
  std::ifstream in(path);
  if (!in) {
    err << "eqc: error: --input: cannot read '" << path << "': " << std::strerror(errno) << "\n";
    return false;
  }
  auto fail = [&](size_t line, size_t col, const std::string &what) {
    err << path << ":" << line << ":" << col << ": error: " << what << "\n";
    return false;
  };
  std::string text;
  size_t line = 1;
  if (!std::getline(in, text))
    return fail(1, 1, "the file is empty: it needs a header `time,<input>,...`");
  if (!text.empty() && text.back() == '\r')
    text.pop_back();
  // The header: time, then inputs of the model.
  std::vector<std::string> names;
  std::vector<size_t> columnsAt;
  for (size_t start = 0;;) {
    size_t end = text.find(',', start);
    std::string name = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    name.erase(0, name.find_first_not_of(" \t\""));
    name.erase(name.find_last_not_of(" \t\"") + 1);
    names.push_back(name);
    columnsAt.push_back(start + 1);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  if (names[0] != "time")
    return fail(1, 1, "the first column must be 'time', not '" + names[0] + "'");
  std::vector<char> named(flat.vars.size(), 0);
  for (size_t k = 1; k < names.size(); ++k) {
    int var = -1;
    for (size_t v = 0; v < flat.vars.size(); ++v)
      if (flat.vars[v].name == names[k])
        var = static_cast<int>(v);
    if (var < 0 || flat.vars[var].role != VarRole::Input)
      return fail(1, columnsAt[k], "'" + names[k] + "' is " +
                                       (var < 0 ? "not a variable of model '" + flat.modelName + "'"
                                                : "not an input of model '" + flat.modelName + "'"));
    if (named[var]++)
      return fail(1, columnsAt[k], "input '" + names[k] + "' is named twice");
    slots_.push_back(model.slots[var].index);
  }
  for (int v : model.params)
    if (flat.vars[v].role == VarRole::Input && !named[v])
      missing_.push_back(v);
  values_.assign(slots_.size(), {});
  // The rows.
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r')
      text.pop_back();
    if (text.find_first_not_of(" \t") == std::string::npos)
      continue;
    const char *p = text.c_str();
    for (size_t k = 0; k < names.size(); ++k) {
      const size_t col = static_cast<size_t>(p - text.c_str()) + 1;
      char *end = nullptr;
      errno = 0;
      double v = std::strtod(p, &end);
      if (end == p || !std::isfinite(v))
        return fail(line, col, "expected a finite number for '" + names[k] + "'");
      while (*end == ' ' || *end == '\t')
        ++end;
      if (k + 1 < names.size() && *end != ',')
        return fail(line, static_cast<size_t>(end - text.c_str()) + 1,
                    "expected " + std::to_string(names.size()) + " columns, found " + std::to_string(k + 1));
      if (k + 1 == names.size() && *end != '\0')
        return fail(line, static_cast<size_t>(end - text.c_str()) + 1,
                    "expected " + std::to_string(names.size()) + " columns, found more");
      p = *end == ',' ? end + 1 : end;
      if (k == 0) {
        if (!times_.empty() && v < times_.back())
          return fail(line, col, "the times must not decrease (" + formatNumber(v) + " after " +
                                     formatNumber(times_.back()) + ")");
        times_.push_back(v);
      } else {
        values_[k - 1].push_back(v);
      }
    }
  }
  if (times_.empty())
    return fail(line, 1, "no rows of values after the header");
  return true;
}

void InputSeries::apply(double t, double *p) const {
  const size_t rows = times_.size();
  size_t i; // times_[i] <= t < times_[i + 1], the last such i (a jump takes the later row)
  if (t < times_[0]) {
    i = 0;
  } else if (t >= times_[rows - 1]) {
    i = rows - 1;
  } else if (last_ + 1 < rows && times_[last_] <= t && t < times_[last_ + 1]) {
    i = last_;
  } else {
    i = static_cast<size_t>(std::upper_bound(times_.begin(), times_.end(), t) - times_.begin()) - 1;
  }
  last_ = i;
  for (size_t k = 0; k < slots_.size(); ++k) {
    const std::vector<double> &v = values_[k];
    double value = v[i];
    if (t > times_[i] && i + 1 < rows && times_[i + 1] > times_[i])
      value += (v[i + 1] - v[i]) * (t - times_[i]) / (times_[i + 1] - times_[i]);
    p[slots_[k]] = value;
  }
}

} // namespace eqc
