// One libFuzzer entry point, built three times (fuzz/CMakeLists.txt): EQC_FUZZ_STAGE_parser runs
// the parser (and compares the hand-written lexer's tokens with ANTLR's lexer's), _frontend also flattening (names, types, balance), _middle also the Σ-method, index
// reduction (Pantelides), the ODE model and causalization. Any input must end in a result or in
// diagnostics: a crash, a sanitizer report, a leak or a hang is a finding. The frontend and middle
// targets see the component library of examples/lib too, so that inputs using its classes reach
// instantiation, modifications and connections.
#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/Events.h"
#include "middle/IndexReduction.h"
#include "middle/OdeModel.h"
#include "middle/SigmaMethod.h"
#include "support/Diagnostics.h"

#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// The texts of examples/lib/*.eq, read once.
const std::vector<std::string> &libraryTexts() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(EQC_FUZZ_LIBRARY_DIR, ec))
      if (entry.path().extension() == ".eq") {
        std::ifstream in(entry.path());
        std::stringstream ss;
        ss << in.rdbuf();
        out.push_back(ss.str());
      }
    return out;
  }();
  return texts;
}

#if defined(EQC_FUZZ_STAGE_parser)
/// The hand-written lexer and parser against ANTLR's (frontend/FastLexer.h, FastParser.h): a
/// difference is a finding.
void compareWithAntlr(const std::string &text) {
  std::optional<std::string> difference = eqc::fastLexerDifference(text);
  if (!difference)
    difference = eqc::fastParserDifference(text);
  if (difference) {
    std::fprintf(stderr, "difference from ANTLR: %s\n", difference->c_str());
    __builtin_trap();
  }
}
#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Very large inputs only measure the machine; the interesting ones are small.
  if (size > 64 * 1024)
    return 0;
  eqc::SourceManager sources;
  std::ostringstream messages;
  eqc::Diagnostics diags(sources, &messages);
  uint32_t buffer = sources.addBuffer("fuzz.eq", std::string(reinterpret_cast<const char *>(data), size));
  std::optional<eqc::ast::File> file = eqc::parseBuffer(sources, buffer, diags);
#if defined(EQC_FUZZ_STAGE_parser)
  compareWithAntlr(sources.text(buffer));
#endif
#if defined(EQC_FUZZ_STAGE_frontend) || defined(EQC_FUZZ_STAGE_middle)
  if (!file)
    return 0;
  std::vector<eqc::ast::File> libraries;
  for (const std::string &text : libraryTexts())
    if (std::optional<eqc::ast::File> lib = eqc::parseBuffer(sources, sources.addBuffer("lib.eq", text), diags))
      libraries.push_back(std::move(*lib));
  std::vector<const eqc::ast::File *> files{&*file};
  for (const eqc::ast::File &lib : libraries)
    files.push_back(&lib);
  std::optional<eqc::FlatSystem> flat = eqc::flattenModel(files, "", diags);
#if defined(EQC_FUZZ_STAGE_middle)
  if (!flat || diags.hasErrors())
    return 0;
  // Models this small are what the structural algorithms see in bulk; big ones are bench work.
  if (flat->vars.size() > 200)
    return 0;
  eqc::extractConditions(*flat);
  (void)eqc::runSigmaMethod(*flat);
  std::optional<eqc::ReducedSystem> reduced = eqc::reduceIndex(*flat, diags);
  if (!reduced)
    return 0;
  eqc::OdeModel model = eqc::setupOdeModel(*flat, *reduced, eqc::ReductionOptions{}, diags);
  if (!diags.hasErrors())
    (void)eqc::causalizeOdeModel(*flat, model, diags);
#endif
#endif
  (void)file;
  return 0;
}
