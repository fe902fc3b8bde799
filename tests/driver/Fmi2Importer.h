// The FMI 2.0 side of the driver tests' own FMU importers: the types and functions of the
// standard they call (looked up with dlsym, no code of eqc's runtime), what they read from
// modelDescription.xml, and an archive entry read with libzip.
#pragma once

#include <gtest/gtest.h>
#include <zip.h>

#include <cstdarg>
#include <cstdio>
#include <dlfcn.h>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace fmi2test {

typedef void *fmi2Component;
typedef unsigned int fmi2ValueReference;
typedef int fmi2Status;
struct EventInfo {
  int newDiscreteStatesNeeded, terminateSimulation, nominalsOfContinuousStatesChanged,
      valuesOfContinuousStatesChanged, nextEventTimeDefined;
  double nextEventTime;
};
struct Callbacks {
  void (*logger)(void *, const char *, int, const char *, const char *, ...);
  void *(*allocateMemory)(size_t, size_t);
  void (*freeMemory)(void *);
  void (*stepFinished)(void *, int);
  void *componentEnvironment;
};
inline std::string fmuLog;
inline void logger(void *, const char *instance, int status, const char *category, const char *format, ...) {
  char buf[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  fmuLog += std::string(instance) + " [" + std::to_string(status) + " " + category + "] " + buf + "\n";
}

/// The FMI 2.0 functions the importers call.
struct Fmi2 {
  explicit Fmi2(void *lib) : lib(lib) {}
  void *lib;
  template <typename Fn> Fn get(const char *name) const {
    void *f = dlsym(lib, name);
    EXPECT_TRUE(f) << name;
    return reinterpret_cast<Fn>(f);
  }
#define FMI2_FN(name, ...)                                                                                     \
  using name##Fn = __VA_ARGS__;                                                                                  \
  name##Fn name = get<name##Fn>("fmi2" #name);
  FMI2_FN(Instantiate, fmi2Component (*)(const char *, int, const char *, const char *, const Callbacks *, int, int))
  FMI2_FN(FreeInstance, void (*)(fmi2Component))
  FMI2_FN(SetupExperiment, fmi2Status (*)(fmi2Component, int, double, double, int, double))
  FMI2_FN(EnterInitializationMode, fmi2Status (*)(fmi2Component))
  FMI2_FN(ExitInitializationMode, fmi2Status (*)(fmi2Component))
  FMI2_FN(EnterEventMode, fmi2Status (*)(fmi2Component))
  FMI2_FN(NewDiscreteStates, fmi2Status (*)(fmi2Component, EventInfo *))
  FMI2_FN(EnterContinuousTimeMode, fmi2Status (*)(fmi2Component))
  FMI2_FN(CompletedIntegratorStep, fmi2Status (*)(fmi2Component, int, int *, int *))
  FMI2_FN(SetTime, fmi2Status (*)(fmi2Component, double))
  FMI2_FN(SetContinuousStates, fmi2Status (*)(fmi2Component, const double *, size_t))
  FMI2_FN(GetContinuousStates, fmi2Status (*)(fmi2Component, double *, size_t))
  FMI2_FN(GetDerivatives, fmi2Status (*)(fmi2Component, double *, size_t))
  FMI2_FN(GetEventIndicators, fmi2Status (*)(fmi2Component, double *, size_t))
  FMI2_FN(GetReal, fmi2Status (*)(fmi2Component, const fmi2ValueReference *, size_t, double *))
  FMI2_FN(GetInteger, fmi2Status (*)(fmi2Component, const fmi2ValueReference *, size_t, int *))
  FMI2_FN(DoStep, fmi2Status (*)(fmi2Component, double, double, int))
  FMI2_FN(SetReal, fmi2Status (*)(fmi2Component, const fmi2ValueReference *, size_t, const double *))
  FMI2_FN(GetDirectionalDerivative, fmi2Status (*)(fmi2Component, const fmi2ValueReference *, size_t,
                                                   const fmi2ValueReference *, size_t, const double *, double *))
#undef FMI2_FN
};

/// What the importers need from modelDescription.xml.
struct Description {
  std::string guid;
  size_t states = 0, indicators = 0;
  std::vector<std::string> stateNames; ///< in value-reference order (0 .. states-1)
  std::map<std::string, std::pair<std::string, unsigned>> variables; ///< name -> type, value reference
};
inline Description describe(const std::string &xml) {
  Description d;
  std::smatch m;
  if (std::regex_search(xml, m, std::regex("guid=\"([^\"]*)\"")))
    d.guid = m[1];
  if (std::regex_search(xml, m, std::regex("numberOfEventIndicators=\"([0-9]+)\"")))
    d.indicators = std::stoul(m[1]);
  std::regex variable("<ScalarVariable name=\"([^\"]*)\" valueReference=\"([0-9]+)\"[^>]*><(Real|Integer|Boolean)");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), variable); it != std::sregex_iterator(); ++it)
    d.variables[(*it)[1]] = {(*it)[3], static_cast<unsigned>(std::stoul((*it)[2]))};
  std::regex derivative("<Derivatives>([\\s\\S]*?)</Derivatives>");
  if (std::regex_search(xml, m, derivative)) {
    std::string block = m[1];
    for (size_t at = block.find("<Unknown"); at != std::string::npos; at = block.find("<Unknown", at + 1))
      ++d.states;
  }
  d.stateNames.resize(d.states);
  for (auto &[name, typeRef] : d.variables)
    if (typeRef.first == "Real" && typeRef.second < d.states)
      d.stateNames[typeRef.second] = name;
  return d;
}

inline std::string unzipEntry(const std::string &archive, const std::string &name) {
  int code = 0;
  zip_t *z = zip_open(archive.c_str(), ZIP_RDONLY, &code);
  if (!z)
    return "";
  std::string data;
  zip_stat_t st;
  if (zip_stat(z, name.c_str(), 0, &st) == 0) {
    data.resize(st.size);
    zip_file_t *file = zip_fopen(z, name.c_str(), 0);
    if (file) {
      zip_fread(file, data.data(), st.size);
      zip_fclose(file);
    }
  }
  zip_discard(z);
  return data;
}

} // namespace fmi2test
