// modelDescription.xml and the FMU's zip archive.
#include "driver/Fmu.h"
#include "middle/JacobianPattern.h"
#include "runtime/include/eqc/eqc_model.h"
#include "support/Xml.h"

#include <zip.h>

#include <algorithm>
#include <map>
#include <set>
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

} // namespace

std::string fmuGuid(const ModelDescription &d) {
  std::string all = "eqc fmu 1\n" + d.name;
  for (auto *names : {&d.stateNames, &d.algebraicNames, &d.paramNames, &d.events.discreteNames})
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
  x << " generationTool=\"eqc 0.1.0\" variableNamingConvention=\"flat\" numberOfEventIndicators=\""
    << d.events.indicatorDiscrete.size() << "\">\n";
  const std::string id = xmlEscape(d.name);
  x << "  <ModelExchange modelIdentifier=\"" << id
    << "\" canGetAndSetFMUstate=\"true\" canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"true\"/>\n";
  x << "  <CoSimulation modelIdentifier=\"" << id
    << "\" canHandleVariableCommunicationStepSize=\"true\" canGetAndSetFMUstate=\"true\" "
       "canSerializeFMUstate=\"true\" providesDirectionalDerivative=\"true\"/>\n";
  x << "  <LogCategories>\n";
#define FMI2_LOG_CATEGORY(Name, Description)                                                                  \
  x << "    <Category name=\"" #Name "\" description=\"" << xmlEscape(Description) << "\"/>\n";
#include "runtime/fmi2/LogCategories.def"
  x << "  </LogCategories>\n";
  x << "  <DefaultExperiment startTime=\"" << number(ex.hasStartTime ? ex.startTime : 0.0) << "\"";
  if (ex.hasStopTime)
    x << " stopTime=\"" << number(ex.stopTime) << "\"";
  if (ex.tolerance > 0)
    x << " tolerance=\"" << number(ex.tolerance) << "\"";
  if (ex.interval > 0)
    x << " stepSize=\"" << number(ex.interval) << "\"";
  x << "/>\n  <ModelVariables>\n";
  // Indices (1-based, in order of appearance) of the ScalarVariables.
  int index = 0;
  std::vector<int> stateIndex(n), derivativeIndex(n), outputs, initialUnknowns;
  std::map<int, int> indexOfInput;      // flat variable -> ScalarVariable index
  std::map<int, int> computedAt;        // ScalarVariable index of an output or derivative -> flat variable
  // A fixed start is exact; another is a guess that initialization moves (FMI 2.0: approx, an
  // initial unknown).
  // A state declared output is an output (FMI 2.0 allows its initial to be exact or approx).
  for (size_t i = 0; i < n; ++i) {
    stateIndex[i] = ++index;
    const bool exact = i < d.stateFixed.size() && d.stateFixed[i];
    const bool output = i < d.stateOutputs.size() && d.stateOutputs[i];
    if (!exact)
      initialUnknowns.push_back(index);
    if (output) {
      outputs.push_back(index);
      computedAt[index] = model.states[i];
    }
    x << "    <ScalarVariable name=\"" << xmlEscape(d.stateNames[i]) << "\" valueReference=\"" << i << "\""
      << describe(d.stateDescriptions, i) << " causality=\"" << (output ? "output" : "local")
      << "\" variability=\"continuous\" initial=\""
      << (exact ? "exact" : "approx") << "\"><Real start=\"" << number(d.states[i]) << "\"";
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
  // The declared outputs are the outputs; a model that declares none has every algebraic variable
  // as an output.
  for (size_t i = 0; i < m; ++i) {
    const bool output = d.algebraicOutputs.empty() || d.algebraicOutputs[i];
    ++index;
    if (output) {
      outputs.push_back(index);
      computedAt[index] = model.algebraics[i];
      initialUnknowns.push_back(index); // outputs are initial unknowns; locals are not listed
    }
    x << "    <ScalarVariable name=\"" << xmlEscape(d.algebraicNames[i]) << "\" valueReference=\"" << 2 * n + i
      << "\"" << describe(d.algebraicDescriptions, i) << " causality=\"" << (output ? "output" : "local")
      << "\" variability=\"continuous\" initial=\"calculated\"><Real/></ScalarVariable>\n";
  }
  // Free parameters are settable; dependent ones are calculated from them (FMI 2.0:
  // calculatedParameter, an initial unknown); structural ones are constants.
  for (size_t i = 0; i < d.paramNames.size(); ++i) {
    const unsigned char kind = i < d.paramKinds.size() ? d.paramKinds[i] : static_cast<unsigned char>(EQC_PARAM_FREE);
    if (kind == EQC_PARAM_OBJECT) // an external object's address is no value of the model's
      continue;
    ++index;
    x << "    <ScalarVariable name=\"" << xmlEscape(d.paramNames[i]) << "\" valueReference=\"" << 2 * n + m + i
      << "\"" << describe(d.paramDescriptions, i);
    if (kind == EQC_PARAM_DEPENDENT) {
      initialUnknowns.push_back(index);
      x << " causality=\"calculatedParameter\" variability=\"fixed\" initial=\"calculated\"><Real/></ScalarVariable>\n";
      continue;
    }
    if (kind == EQC_PARAM_INPUT) { // a top-level input: set by the environment at any time
      indexOfInput[model.params[i]] = index;
      x << " causality=\"input\" variability=\"continuous\"><Real start=\"" << number(d.params[i])
        << "\"/></ScalarVariable>\n";
      continue;
    }
    x << (kind == EQC_PARAM_STRUCTURAL ? " causality=\"local\" variability=\"constant\""
                                       : " causality=\"parameter\" variability=\"fixed\"")
      << " initial=\"exact\"><Real start=\"" << number(d.params[i]) << "\"/></ScalarVariable>\n";
  }
  // Discrete variables, computed by the model (its conditions are eqc's own and not listed):
  // Real ones after the parameters; Integer, Boolean and String ones by their index among the
  // discretes (value references are per type, FMI 2.0, 2.2.7).
  const EventDescription &ev = d.events;
  for (size_t j = 0; j < ev.discreteNames.size(); ++j) {
    const unsigned char kind = ev.discreteKinds[j];
    if (kind == EQC_DISCRETE_CONDITION || kind == EQC_DISCRETE_TERMINAL || kind == EQC_DISCRETE_ONCE)
      continue;
    ++index;
    const size_t vr = kind == EQC_DISCRETE_REAL ? 2 * n + m + d.paramNames.size() + j : j;
    x << "    <ScalarVariable name=\"" << xmlEscape(ev.discreteNames[j]) << "\" valueReference=\"" << vr
      << "\" causality=\"local\" variability=\"discrete\" initial=\"calculated\"><"
      << (kind == EQC_DISCRETE_REAL      ? "Real"
          : kind == EQC_DISCRETE_INTEGER ? "Integer"
          : kind == EQC_DISCRETE_STRING  ? "String"
                                         : "Boolean")
      << "/></ScalarVariable>\n";
  }
  x << "  </ModelVariables>\n  <ModelStructure>\n";
  // Dependencies of outputs and derivatives on states and inputs (FMI 2.0, 2.2.8): through the
  // steps of the evaluation sequence that each state or input reaches.
  for (size_t i = 0; i < n; ++i)
    computedAt[derivativeIndex[i]] = flat.vars[model.states[i]].derivative;
  std::map<int, std::set<int>> dependsOn; // flat variable -> ScalarVariable indices of states and inputs
  {
    StepDependencies steps(flat, model.ode);
    std::vector<int> reached;
    std::vector<std::pair<int, int>> knowns; // flat variable, ScalarVariable index
    for (size_t i = 0; i < n; ++i)
      knowns.emplace_back(model.states[i], stateIndex[i]);
    for (auto [var, at] : indexOfInput)
      knowns.emplace_back(var, at);
    for (auto [var, at] : knowns) {
      dependsOn[var].insert(at); // a derivative that is itself a state (a chain) depends on it
      steps.reachableSteps(var, reached);
      for (int s : reached)
        for (int t : steps.targets(s))
          dependsOn[t].insert(at);
    }
  }
  auto unknowns = [&](const char *tag, const std::vector<int> &list) {
    if (list.empty())
      return;
    x << "    <" << tag << ">\n";
    for (int k : list) {
      x << "      <Unknown index=\"" << k << "\"";
      if (auto it = computedAt.find(k); it != computedAt.end() && std::string(tag) != "InitialUnknowns") {
        std::string deps;
        for (int dep : dependsOn[it->second])
          deps += (deps.empty() ? "" : " ") + std::to_string(dep);
        x << " dependencies=\"" << deps << "\"";
      }
      x << "/>\n";
    }
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
  // libzip writes to a temporary file next to `path` and renames it in zip_close.
  int code = 0;
  zip_t *archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!archive) {
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    error = "cannot write '" + path + "': " + zip_error_strerror(&e);
    zip_error_fini(&e);
    return false;
  }
  auto fail = [&] {
    error = "cannot write '" + path + "': " + zip_strerror(archive);
    zip_discard(archive);
    return false;
  };
  constexpr uint16_t DosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01, 00:00: reproducible archives
  for (const auto &[name, data] : entries) {
    zip_source_t *source = zip_source_buffer(archive, data.data(), data.size(), 0);
    if (!source)
      return fail();
    zip_int64_t index = zip_file_add(archive, name.c_str(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (index < 0) {
      zip_source_free(source);
      return fail();
    }
    const auto i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(archive, i, ZIP_CM_DEFLATE, 9) != 0 ||
        zip_file_set_dostime(archive, i, 0, DosDate, 0) != 0 ||
        zip_file_set_external_attributes(archive, i, 0, ZIP_OPSYS_UNIX, 0100644u << 16) != 0)
      return fail();
  }
  if (zip_close(archive) != 0)
    return fail();
  return true;
}

} // namespace eqc
