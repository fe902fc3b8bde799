// `eqc reduce`: the index-reduction derivation of a model as a report (text, Markdown or LaTeX).
#pragma once

#include "driver/ExitCodes.h"
#include "driver/Pipeline.h"

#include <ostream>
#include <string>

namespace eqc {

enum class ReportFormat { Text, Markdown, Latex };

/// Parses "text", "markdown" (or "md"), "latex" (or "tex"); false for anything else.
bool parseReportFormat(const std::string &name, ReportFormat &out);

/// Prints, deterministically: the model; the Σ-method (signature matrix, offsets c and d,
/// structural index, dof = Σd − Σc); Pantelides' differentiations and whether they agree with c;
/// the differentiated equations; the hidden constraints [alg1], [alg2], …; the state vector with
/// the count check states − invariants = dof; the final ODE (evaluation sequence, invariants,
/// stabilization). LaTeX output is a fragment (no \documentclass) using amsmath.
/// Requires: runPipeline returned ExitOk with PipelineOptions::sigmaMethod and jit = false (the
/// flat system, the reduced system, the ODE model and the reduction options in effect are set).
/// Ensures: ExitOk (the report also states any disagreement it finds, as a WARNING line).
ExitCode printReductionReport(const Compilation &c, ReportFormat format, std::ostream &out);

} // namespace eqc
