// Result files Modelica users' tools read: the MAT v4 layout of Dymola and OpenModelica (through
// Debian's libmatio) and the same contents as HDF5 (driver-internal).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// How `eqc simulate -o FILE` writes, chosen by FILE's extension (or --binary).
enum class ResultFormat { Csv, EqcRes, Mat, Hdf5 };

/// .mat, .h5/.hdf5, .eqcres, else CSV.
ResultFormat resultFormatOf(const std::string &path);

/// One run's results, held in memory until written whole.
struct ResultTable {
  std::string model;
  std::vector<std::string> names, descriptions;           ///< the trajectories (time not included)
  std::vector<std::string> paramNames, paramDescriptions; ///< the parameters
  std::vector<double> paramValues;
  std::vector<double> rows; ///< row-major: time, then one value per name, per output point
  double tStart = 0, tEnd = 0;
};

/// Writes `table` to `path` (a temporary file the caller renames into place) as MAT v4:
/// Aclass ("Atrajectory", "1.1", "", "binTrans"), name, description, dataInfo, data_1 (time and
/// the parameters at the start and stop time) and data_2 (time and the trajectories, one column
/// per output point). False with the reason.
bool writeMat(const std::string &path, const ResultTable &table, std::ostream &err);

/// Writes `table` to `path` as HDF5: /time, /variables and /descriptions, /trajectories/<name>
/// (one dataset per variable, with a "description" attribute), /parameter_names,
/// /parameter_descriptions and /parameters. False with the reason.
bool writeHdf5(const std::string &path, const ResultTable &table, std::ostream &err);

} // namespace eqc
