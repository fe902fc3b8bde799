// MAT v4 through libmatio, HDF5 through libhdf5: one run's results written whole.
#include "driver/ResultFile.h"

#include "driver/Hdf5.h"

#include <hdf5.h>
#include <matio.h>

#include <algorithm>
#include <cstdint>

namespace eqc {
namespace {

bool endsWith(const std::string &s, const char *suffix) {
  std::string x(suffix);
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

/// A text matrix whose columns are the strings, padded with blanks (MATLAB's char(), read by
/// Dymola, OpenModelica, DyMat and scipy alike): binTrans stores one string per column.
std::vector<char> textColumns(const std::vector<std::string> &strings, size_t &width) {
  width = 1;
  for (const std::string &s : strings)
    width = std::max(width, s.size());
  std::vector<char> text(width * strings.size(), ' ');
  for (size_t k = 0; k < strings.size(); ++k)
    std::copy(strings[k].begin(), strings[k].end(), text.begin() + static_cast<long>(k * width));
  return text;
}

/// One matrix of the MAT v4 file: rows x cols, column-major `data`.
bool writeMatrix(mat_t *mat, const char *name, enum matio_classes cls, enum matio_types type, size_t rows, size_t cols,
                 void *data) {
  size_t dims[2] = {rows, cols};
  matvar_t *var = Mat_VarCreate(name, cls, type, 2, dims, data, MAT_F_DONT_COPY_DATA);
  if (!var)
    return false;
  bool ok = Mat_VarWrite(mat, var, MAT_COMPRESSION_NONE) == 0;
  Mat_VarFree(var);
  return ok;
}

} // namespace

ResultFormat resultFormatOf(const std::string &path) {
  if (endsWith(path, ".mat"))
    return ResultFormat::Mat;
  if (endsWith(path, ".h5") || endsWith(path, ".hdf5"))
    return ResultFormat::Hdf5;
  if (endsWith(path, ".eqcres"))
    return ResultFormat::EqcRes;
  return ResultFormat::Csv;
}

bool writeMat(const std::string &path, const ResultTable &t, std::ostream &err) {
  mat_t *mat = Mat_CreateVer(path.c_str(), nullptr, MAT_FT_MAT4);
  if (!mat) {
    err << "eqc: error: cannot write '" << path << "' (MAT)\n";
    return false;
  }
  const size_t nv = t.names.size(), np = t.paramNames.size(), columns = 1 + nv;
  const size_t points = t.rows.size() / columns;
  // Every name: time, the parameters (data_1), the trajectories (data_2).
  std::vector<std::string> names = {"time"}, descriptions = {"Time in [s]"};
  names.insert(names.end(), t.paramNames.begin(), t.paramNames.end());
  descriptions.insert(descriptions.end(), t.paramDescriptions.begin(), t.paramDescriptions.end());
  names.insert(names.end(), t.names.begin(), t.names.end());
  descriptions.insert(descriptions.end(), t.descriptions.begin(), t.descriptions.end());
  // dataInfo (4 x names, binTrans): the matrix (0: the abscissa), the 1-based row in it, 0 (linear
  // interpolation), and outside the time range 0 (hold: a parameter) or -1 (undefined).
  std::vector<int32_t> info = {0, 1, 0, -1};
  for (size_t k = 0; k < np; ++k)
    info.insert(info.end(), {1, static_cast<int32_t>(k + 2), 0, 0});
  for (size_t k = 0; k < nv; ++k)
    info.insert(info.end(), {2, static_cast<int32_t>(k + 2), 0, -1});
  // data_1: (1 + np) x 2, the values at the start and the stop time.
  std::vector<double> data1 = {t.tStart};
  data1.insert(data1.end(), t.paramValues.begin(), t.paramValues.end());
  data1.push_back(t.tEnd);
  data1.insert(data1.end(), t.paramValues.begin(), t.paramValues.end());
  std::vector<double> data2 = t.rows; // (1 + nv) x points, column-major: the rows as they are
  // Aclass: 4 rows of 11 characters, "Atrajectory", "1.1", "", "binTrans" (the matrices below are
  // stored transposed: one variable per column).
  const char *aclassRows[4] = {"Atrajectory", "1.1", "", "binTrans"};
  std::vector<char> aclass(44, ' ');
  for (size_t row = 0; row < 4; ++row)
    for (size_t col = 0; aclassRows[row][col]; ++col)
      aclass[col * 4 + row] = aclassRows[row][col];
  size_t nameWidth = 0, descriptionWidth = 0;
  std::vector<char> nameText = textColumns(names, nameWidth), descriptionText = textColumns(descriptions, descriptionWidth);
  bool ok = writeMatrix(mat, "Aclass", MAT_C_CHAR, MAT_T_UINT8, 4, 11, aclass.data()) &&
            writeMatrix(mat, "name", MAT_C_CHAR, MAT_T_UINT8, nameWidth, names.size(), nameText.data()) &&
            writeMatrix(mat, "description", MAT_C_CHAR, MAT_T_UINT8, descriptionWidth, names.size(),
                        descriptionText.data()) &&
            writeMatrix(mat, "dataInfo", MAT_C_INT32, MAT_T_INT32, 4, names.size(), info.data()) &&
            writeMatrix(mat, "data_1", MAT_C_DOUBLE, MAT_T_DOUBLE, 1 + np, 2, data1.data()) &&
            writeMatrix(mat, "data_2", MAT_C_DOUBLE, MAT_T_DOUBLE, columns, points, data2.data());
  ok = Mat_Close(mat) == 0 && ok;
  if (!ok)
    err << "eqc: error: writing '" << path << "' failed (MAT)\n";
  return ok;
}

bool writeHdf5(const std::string &path, const ResultTable &t, std::ostream &err) {
  using namespace h5;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  const size_t nv = t.names.size(), columns = 1 + nv, points = t.rows.size() / columns;
  bool ok = file.ok() && attrString(file, "model", t.model) && attrString(file, "generator", "eqc simulate");
  std::vector<double> series(points);
  auto column = [&](size_t c) {
    for (size_t i = 0; i < points; ++i)
      series[i] = t.rows[i * columns + c];
    return series;
  };
  ok = ok && writeDoubles(file, "time", column(0), {points}) && writeStrings(file, "variables", t.names) &&
       writeStrings(file, "descriptions", t.descriptions) && writeStrings(file, "parameter_names", t.paramNames) &&
       writeStrings(file, "parameter_descriptions", t.paramDescriptions) &&
       writeDoubles(file, "parameters", t.paramValues, {t.paramValues.size()});
  Handle group(ok ? H5Gcreate2(file, "trajectories", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1, H5Gclose);
  ok = ok && group.ok();
  for (size_t v = 0; v < nv && ok; ++v) {
    std::string name = component(t.names[v]);
    ok = writeDoubles(group, name.c_str(), column(v + 1), {points});
    Handle d(ok ? H5Dopen2(group, name.c_str(), H5P_DEFAULT) : -1, H5Dclose);
    ok = ok && d.ok() && attrString(d, "description", t.descriptions[v]);
  }
  group.reset();
  ok = ok && H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0;
  if (!ok)
    err << "eqc: error: writing '" << path << "' failed (HDF5)\n";
  return ok;
}

} // namespace eqc
