// One libFuzzer entry point, built three times (fuzz/CMakeLists.txt): EQC_FUZZ_STAGE_parser runs
// the parser (and compares the hand-written lexer's tokens with ANTLR's lexer's), _frontend also flattening (names, types, balance), _middle also the Σ-method, index
// reduction (Pantelides), the ODE model and causalization. Any input must end in a result or in
// diagnostics: a crash, a sanitizer report, a leak or a hang is a finding. The frontend and middle
// targets see the component library of examples/lib too, so that inputs using its classes reach
// instantiation, modifications and connections.
#include "frontend/FastLexer.h"
#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/Events.h"
#include "middle/IndexReduction.h"
#include "middle/OdeModel.h"
#include "middle/SigmaMethod.h"
#include "support/Diagnostics.h"

#include "EqcLexer.h"

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
struct CountErrors : antlr4::BaseErrorListener {
  int errors = 0;
  void syntaxError(antlr4::Recognizer *, antlr4::Token *, size_t, size_t, const std::string &,
                   std::exception_ptr) override {
    ++errors;
  }
};

bool validUtf8(const std::string &s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (!len || i + len > s.size())
      return false;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
        return false;
    i += len;
  }
  return true;
}

/// The hand-written lexer against ANTLR's (frontend/FastLexer.h): the same tokens when it accepts
/// the text, and an ANTLR lexer error when it declines. A difference is a finding (trap).
void compareLexers(const std::string &text) {
  if (!validUtf8(text))
    return; // the parser rejects it before lexing
  antlr4::ANTLRInputStream input(text);
  eqcgrammar::EqcLexer lexer(&input);
  CountErrors errors;
  lexer.removeErrorListeners();
  lexer.addErrorListener(&errors);
  antlr4::CommonTokenStream reference(&lexer);
  reference.fill();
  antlr4::ANTLRInputStream input2(text);
  eqc::FastTokenSource fast;
  if (!fast.lex(text, &input2, lexer.getVocabulary())) {
    if (errors.errors == 0)
      __builtin_trap();
    return;
  }
  if (errors.errors != 0)
    __builtin_trap();
  antlr4::CommonTokenStream ours(&fast);
  ours.fill();
  std::vector<antlr4::Token *> a = reference.getTokens(), b = ours.getTokens();
  if (a.size() != b.size())
    __builtin_trap();
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i]->getType() != b[i]->getType() || a[i]->getStartIndex() != b[i]->getStartIndex() ||
        a[i]->getStopIndex() != b[i]->getStopIndex() || a[i]->getLine() != b[i]->getLine() ||
        a[i]->getCharPositionInLine() != b[i]->getCharPositionInLine())
      __builtin_trap();
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
  compareLexers(sources.text(buffer));
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
