// modelDescription.xml and the FMU's zip archive.
#include "driver/Fmu.h"
#include "support/Xml.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace eqc {

namespace {


std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

uint64_t fnv1a(const std::string &s, uint64_t h) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

uint32_t crc32(const std::string &data) {
  static uint32_t table[256];
  static bool ready = false;
  if (!ready) {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = true;
  }
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data)
    c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put16(std::string &out, uint32_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string &out, uint32_t v) {
  put16(out, v & 0xFFFF);
  put16(out, v >> 16);
}

} // namespace

std::string fmuGuid(const ModelDescription &d) {
  std::string all = "eqc fmu 1\n" + d.name;
  for (auto *names : {&d.stateNames, &d.algebraicNames, &d.paramNames})
    for (const std::string &n : *names)
      all += "\n" + n;
  for (auto *values : {&d.params, &d.states, &d.algebraics})
    for (double v : *values)
      all += "\n" + number(v);
  uint64_t a = fnv1a(all, 14695981039346656037ull), b = fnv1a(all, 0x9e3779b97f4a7c15ull);
  char buf[64];
  // Version 4 / variant 1 layout, with the hash for the random bits.
  std::snprintf(buf, sizeof buf, "{%08x-%04x-4%03x-%04x-%012llx}", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xFFFF), static_cast<unsigned>(a & 0xFFF),
                static_cast<unsigned>(0x8000 | ((b >> 48) & 0x3FFF)),
                static_cast<unsigned long long>(b & 0xFFFFFFFFFFFFull));
  return buf;
}

std::string fmuModelDescription(const ModelDescription &d, const FlatSystem &flat, const OdeModel &model) {
  const size_t n = d.stateNames.size(), m = d.algebraicNames.size();
  // chainOf[i] = j when the derivative of state i is state j.
  std::vector<int> chainOf(n, -1);
  for (auto [to, from] : model.chainCopies)
    chainOf[to] = from;
  std::vector<int> derivativeOf(n, -1); // state j is the derivative of state derivativeOf[j]
  for (size_t i = 0; i < n; ++i)
    if (chainOf[i] >= 0)
      derivativeOf[chainOf[i]] = static_cast<int>(i);

  auto describe = [](const std::vector<std::string> &texts, size_t i) {
    return i < texts.size() && !texts[i].empty() ? " description=\"" + xmlEscape(texts[i]) + "\"" : std::string();
  };
  std::ostringstream x;
  const Experiment &ex = flat.experiment;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<fmiModelDescription fmiVersion=\"2.0\" modelName=\"" << xmlEscape(d.name) << "\" guid=\"" << d.fmuGuid
    << "\"";
  if (!flat.description.empty())
    x << " description=\"" << xmlEscape(flat.description) << "\"";
  x << " generationTool=\"eqc 0.1.0\" variableNamingConvention=\"flat\" numberOfEventIndicators=\"0\">\n";
  const std::string id = xmlEscape(d.name);
  x << "  <ModelExchange modelIdentifier=\"" << id
    << "\" canGetAndSetFMUstate=\"false\" canSerializeFMUstate=\"false\" providesDirectionalDerivative=\"false\"/>\n";
  x << "  <CoSimulation modelIdentifier=\"" << id
    << "\" canHandleVariableCommunicationStepSize=\"true\" canGetAndSetFMUstate=\"false\" "
       "canSerializeFMUstate=\"false\" providesDirectionalDerivative=\"false\"/>\n";
  x << "  <DefaultExperiment startTime=\"" << number(ex.hasStartTime ? ex.startTime : 0.0) << "\"";
  if (ex.stopTime > 0)
    x << " stopTime=\"" << number(ex.stopTime) << "\"";
  if (ex.tolerance > 0)
    x << " tolerance=\"" << number(ex.tolerance) << "\"";
  x << "/>\n  <ModelVariables>\n";
  // Indices (1-based, in order of appearance) of the ScalarVariables.
  int index = 0;
  std::vector<int> stateIndex(n), derivativeIndex(n), outputs, initialUnknowns;
  for (size_t i = 0; i < n; ++i) {
    stateIndex[i] = ++index;
    x << "    <ScalarVariable name=\"" << xmlEscape(d.stateNames[i]) << "\" valueReference=\"" << i << "\""
      << describe(d.stateDescriptions, i) << " causality=\"local\" variability=\"continuous\" initial=\"exact\"><Real start=\"" << number(d.states[i])
      << "\"";
    if (derivativeOf[i] >= 0)
      x << " derivative=\"" << stateIndex[derivativeOf[i]] << "\"";
    x << "/></ScalarVariable>\n";
  }
  // A chain's derivative was written above as a state; the others get variables of their own.
  for (size_t i = 0; i < n; ++i) {
    if (chainOf[i] >= 0) {
      derivativeIndex[i] = stateIndex[chainOf[i]];
      continue;
    }
    derivativeIndex[i] = ++index;
    initialUnknowns.push_back(index);
    x << "    <ScalarVariable name=\"der(" << xmlEscape(d.stateNames[i]) << ")\" valueReference=\"" << n + i
      << "\" causality=\"local\" variability=\"continuous\" initial=\"calculated\"><Real derivative=\""
      << stateIndex[i] << "\"/></ScalarVariable>\n";
  }
  for (size_t i = 0; i < m; ++i) {
    outputs.push_back(++index);
    initialUnknowns.push_back(index);
    x << "    <ScalarVariable name=\"" << xmlEscape(d.algebraicNames[i]) << "\" valueReference=\"" << 2 * n + i
      << "\"" << describe(d.algebraicDescriptions, i) << " causality=\"output\" variability=\"continuous\" initial=\"calculated\"><Real/></ScalarVariable>\n";
  }
  for (size_t i = 0; i < d.paramNames.size(); ++i) {
    ++index;
    x << "    <ScalarVariable name=\"" << xmlEscape(d.paramNames[i]) << "\" valueReference=\"" << 2 * n + m + i
      << "\"" << describe(d.paramDescriptions, i) << " causality=\"parameter\" variability=\"fixed\" initial=\"exact\"><Real start=\"" << number(d.params[i])
      << "\"/></ScalarVariable>\n";
  }
  x << "  </ModelVariables>\n  <ModelStructure>\n";
  auto unknowns = [&](const char *tag, const std::vector<int> &list) {
    if (list.empty())
      return;
    x << "    <" << tag << ">\n";
    for (int k : list)
      x << "      <Unknown index=\"" << k << "\"/>\n";
    x << "    </" << tag << ">\n";
  };
  unknowns("Outputs", outputs);
  unknowns("Derivatives", derivativeIndex);
  std::sort(initialUnknowns.begin(), initialUnknowns.end());
  unknowns("InitialUnknowns", initialUnknowns);
  x << "  </ModelStructure>\n</fmiModelDescription>\n";
  return x.str();
}

bool writeZip(const std::string &path, const std::vector<std::pair<std::string, std::string>> &entries,
              std::string &error) {
  constexpr uint32_t DosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01: reproducible archives
  std::string out, directory;
  for (const auto &[name, data] : entries) {
    const uint32_t crc = crc32(data), offset = static_cast<uint32_t>(out.size());
    const uint32_t size = static_cast<uint32_t>(data.size());
    put32(out, 0x04034b50); // local file header
    put16(out, 20);         // version needed: 2.0
    put16(out, 0);          // flags
    put16(out, 0);          // stored
    put16(out, 0);          // time
    put16(out, DosDate);
    put32(out, crc);
    put32(out, size);
    put32(out, size);
    put16(out, static_cast<uint32_t>(name.size()));
    put16(out, 0);
    out += name;
    out += data;
    put32(directory, 0x02014b50); // central directory header
    put16(directory, (3 << 8) | 20); // made by: Unix, 2.0
    put16(directory, 20);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, DosDate);
    put32(directory, crc);
    put32(directory, size);
    put32(directory, size);
    put16(directory, static_cast<uint32_t>(name.size()));
    put16(directory, 0); // extra
    put16(directory, 0); // comment
    put16(directory, 0); // disk
    put16(directory, 0); // internal attributes
    put32(directory, (0100644u) << 16); // external: a regular file, rw-r--r--
    put32(directory, offset);
    directory += name;
  }
  const uint32_t directoryOffset = static_cast<uint32_t>(out.size());
  out += directory;
  put32(out, 0x06054b50); // end of central directory
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(entries.size()));
  put16(out, static_cast<uint32_t>(entries.size()));
  put32(out, static_cast<uint32_t>(directory.size()));
  put32(out, directoryOffset);
  put16(out, 0);

  std::string temp = path + ".tmp-XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok = ::write(fd, out.data(), out.size()) == static_cast<ssize_t>(out.size()) && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  mode_t mask = umask(0);
  umask(mask);
  ok = ok && ::chmod(temp.c_str(), 0666 & ~mask) == 0 && std::rename(temp.c_str(), path.c_str()) == 0;
  if (!ok) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    std::remove(temp.c_str());
  }
  return ok;
}

} // namespace eqc
