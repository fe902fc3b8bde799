// eqc simulate -o run.mat / run.h5: the MAT v4 layout of Dymola and OpenModelica ("The MATv4
// Result File Format", OpenModelica User's Guide, technical details: Aclass, name, description,
// dataInfo, data_1, data_2, binTrans), read here byte by byte as OpenModelica's reader does and
// with libmatio, against the CSV of the same run.
#include "Hdf5.h"
#include "Run.h"

#include <matio.h>

#include <cstdint>
#include <cstring>
#include <fstream>

namespace eqc::test {
namespace {

/// One matrix of a MAT v4 file as stored: its type code (MOPT), rows, columns and bytes.
struct Matrix {
  int type = -1;
  uint32_t rows = 0, cols = 0;
  std::string name;
  std::vector<unsigned char> bytes;
  /// Column j of a text matrix, trailing blanks removed.
  std::string text(size_t j) const {
    std::string s(bytes.begin() + static_cast<long>(j * rows), bytes.begin() + static_cast<long>((j + 1) * rows));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0'))
      s.pop_back();
    return s;
  }
  template <typename T> T at(size_t i) const {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
  }
};

std::vector<Matrix> readMat4(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<Matrix> out;
  for (;;) {
    int32_t header[5];
    if (!in.read(reinterpret_cast<char *>(header), sizeof header))
      break;
    Matrix m;
    m.type = header[0];
    m.rows = static_cast<uint32_t>(header[1]);
    m.cols = static_cast<uint32_t>(header[2]);
    EXPECT_EQ(header[3], 0) << "imaginary part";
    std::string name(static_cast<size_t>(header[4]), '\0');
    in.read(name.data(), header[4]);
    m.name = name.c_str();
    size_t element = m.type == 0 ? 8 : m.type == 20 ? 4 : 1;
    m.bytes.resize(m.rows * m.cols * element);
    in.read(reinterpret_cast<char *>(m.bytes.data()), static_cast<long>(m.bytes.size()));
    out.push_back(std::move(m));
  }
  return out;
}

const char *kModel = R"(model Body "a falling body with drag"
  parameter Real m(unit = "kg") = 2 "mass";
  parameter Real c = 0.5;
  Real s(unit = "m", start = 10, fixed = true) "height";
  Real v(unit = "m/s", start = 0, fixed = true);
equation
  der(s) = v;
  m*der(v) = -m*9.81 - c*v;
  annotation(experiment(StopTime = 1, Interval = 0.1, Tolerance = 1e-8));
end Body;
)";

TEST(ResultFile, MatV4InTheLayoutOfModelicaTools) {
  std::string dir = scratchDir("result_mat");
  std::ofstream(dir + "/body.mo") << kModel;
  ASSERT_EQ(runEqc("simulate body.mo -p c=0.25 -o body.mat", dir).exitCode, 0);
  ASSERT_EQ(runEqc("simulate body.mo -p c=0.25 -o body.csv", dir).exitCode, 0);
  std::vector<Matrix> mat = readMat4(dir + "/body.mat");
  ASSERT_EQ(mat.size(), 6u);
  const char *names[6] = {"Aclass", "name", "description", "dataInfo", "data_1", "data_2"};
  const int types[6] = {51, 51, 51, 20, 0, 0}; // text (uint8), text, text, int32, double, double
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(mat[k].name, names[k]);
    EXPECT_EQ(mat[k].type, types[k]) << names[k];
  }
  // Aclass: 4 rows of 11 characters, stored by columns.
  ASSERT_EQ(mat[0].rows, 4u);
  ASSERT_EQ(mat[0].cols, 11u);
  std::string rows[4];
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 11; ++c)
      rows[r] += static_cast<char>(mat[0].bytes[c * 4 + r]);
    while (!rows[r].empty() && rows[r].back() == ' ')
      rows[r].pop_back();
  }
  EXPECT_EQ(rows[0], "Atrajectory");
  EXPECT_EQ(rows[1], "1.1");
  EXPECT_EQ(rows[2], "");
  EXPECT_EQ(rows[3], "binTrans");
  // name and description: one per column (binTrans); time, the parameters, the trajectories.
  const Matrix &name = mat[1], &description = mat[2], &info = mat[3];
  ASSERT_EQ(name.cols, 5u);
  std::vector<std::string> expected = {"time", "m", "c", "s", "v"};
  for (size_t j = 0; j < 5; ++j)
    EXPECT_EQ(name.text(j), expected[j]);
  EXPECT_EQ(description.text(1), "mass [kg]");
  EXPECT_EQ(description.text(3), "height [m]");
  EXPECT_EQ(description.text(4), "[m/s]");
  // dataInfo (4 x names): time is the abscissa, parameters rows of data_1, trajectories of data_2.
  ASSERT_EQ(info.rows, 4u);
  const int32_t infoExpected[5][4] = {{0, 1, 0, -1}, {1, 2, 0, 0}, {1, 3, 0, 0}, {2, 2, 0, -1}, {2, 3, 0, -1}};
  for (size_t j = 0; j < 5; ++j)
    for (size_t i = 0; i < 4; ++i)
      EXPECT_EQ(info.at<int32_t>(j * 4 + i), infoExpected[j][i]) << j << "," << i;
  // data_1: (1 + parameters) x 2, the values at the start and stop time.
  const Matrix &data1 = mat[4], &data2 = mat[5];
  ASSERT_EQ(data1.rows, 3u);
  ASSERT_EQ(data1.cols, 2u);
  EXPECT_EQ(data1.at<double>(0), 0.0);
  EXPECT_EQ(data1.at<double>(1), 2.0);
  EXPECT_EQ(data1.at<double>(2), 0.25);
  EXPECT_EQ(data1.at<double>(3), 1.0);
  EXPECT_EQ(data1.at<double>(5), 0.25);
  // data_2: (1 + trajectories) x points, bit for bit the CSV's rows.
  Csv csv = readCsv(dir + "/body.csv");
  ASSERT_EQ(data2.rows, 3u);
  ASSERT_EQ(data2.cols, csv.rows.size());
  for (size_t p = 0; p < csv.rows.size(); ++p)
    for (size_t i = 0; i < 3; ++i)
      EXPECT_EQ(data2.at<double>(p * 3 + i), csv.rows[p][i]) << p << "," << i;

  // libmatio reads the same six matrices.
  mat_t *file = Mat_Open((dir + "/body.mat").c_str(), MAT_ACC_RDONLY);
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(Mat_GetVersion(file), MAT_FT_MAT4);
  int count = 0;
  while (matvar_t *v = Mat_VarReadNextInfo(file)) {
    EXPECT_STREQ(v->name, names[count]);
    ++count;
    Mat_VarFree(v);
  }
  Mat_Close(file);
  EXPECT_EQ(count, 6);
}

TEST(ResultFile, Hdf5HoldsTheSameRun) {
  std::string dir = scratchDir("result_h5");
  std::ofstream(dir + "/body.mo") << kModel;
  ASSERT_EQ(runEqc("simulate body.mo -o body.h5", dir).exitCode, 0);
  ASSERT_EQ(runEqc("simulate body.mo -o body.csv", dir).exitCode, 0);
  Csv csv = readCsv(dir + "/body.csv");
  H5File f(dir + "/body.h5");
  ASSERT_TRUE(f.ok());
  std::vector<double> time = f.doubles("time"), s = f.doubles("trajectories/s"), v = f.doubles("trajectories/v");
  ASSERT_EQ(time.size(), csv.rows.size());
  for (size_t p = 0; p < time.size(); ++p) {
    EXPECT_EQ(time[p], csv.rows[p][0]);
    EXPECT_EQ(s[p], csv.at(p, "s"));
    EXPECT_EQ(v[p], csv.at(p, "v"));
  }
  EXPECT_EQ(f.strings("variables"), (std::vector<std::string>{"s", "v"}));
  EXPECT_EQ(f.strings("descriptions")[0], "height [m]");
  EXPECT_EQ(f.strings("parameter_names"), (std::vector<std::string>{"m", "c"}));
  EXPECT_EQ(f.doubles("parameters"), (std::vector<double>{2, 0.5}));
}

TEST(ResultFile, AFailedRunKeepsItsRowsInAPartialFile) {
  std::string dir = scratchDir("result_partial");
  std::ofstream(dir + "/grow.mo") << R"(model Grow
  Real x(start = 1, fixed = true);
equation
  der(x) = x;
  assert(x < 10, "x grew past 10");
  annotation(experiment(StopTime = 5, Interval = 0.1));
end Grow;
)";
  for (const char *file : {"grow.mat", "grow.h5", "grow.csv"}) {
    RunResult r = runEqc(std::string("simulate grow.mo -o ") + file, dir);
    EXPECT_EQ(r.exitCode, 5) << r.stderrText;
    EXPECT_NE(r.stderrText.find("assertion failed: x grew past 10"), std::string::npos) << r.stderrText;
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + file));
    ASSERT_TRUE(std::filesystem::exists(dir + "/" + file + ".partial")) << r.stderrText;
  }
  // The same rows as the CSV's partial file (x = e^t reaches 10 at t = ln 10).
  Csv csv = readCsv(dir + "/grow.csv.partial");
  std::vector<Matrix> mat = readMat4(dir + "/grow.mat.partial");
  ASSERT_EQ(mat.size(), 6u);
  const Matrix &data2 = mat[5];
  ASSERT_EQ(data2.cols, csv.rows.size());
  for (size_t p = 0; p < csv.rows.size(); ++p)
    EXPECT_EQ(data2.at<double>(p * 2 + 1), csv.rows[p][1]);
  double lastTime = csv.rows.back()[0];
  EXPECT_GT(lastTime, std::log(10.0) - 0.1);
  EXPECT_EQ(mat[4].at<double>(1), lastTime); // data_1's stop time: where the run ended
  H5File f(dir + "/grow.h5.partial");
  EXPECT_EQ(f.doubles("time").back(), lastTime);
}

} // namespace
} // namespace eqc::test
