// The integrator's callbacks: right-hand side, CSV rows, projection and state-selection hooks.
#include "driver/RunState.h"

#include "driver/Interrupt.h"

#include "driver/Initialize.h"

#include "eqc/eqc_external.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <climits>
#include <cstdio>

namespace eqc {

void gather(const OdeModel &m, const double *x, const double *dx, const double *a, const double *p,
            std::vector<double> &values) {
  values.resize(m.slots.size());
  for (size_t v = 0; v < m.slots.size(); ++v) {
    const Slot &s = m.slots[v];
    values[v] = s.storage == Storage::Param        ? p[s.index]
                : s.storage == Storage::Discrete   ? p[m.discreteOffset() + s.index]
                : s.storage == Storage::State      ? x[s.index]
                : s.storage == Storage::Derivative ? dx[s.index]
                                                   : a[s.index];
  }
}

int projectAfterReinit(RunState &s, const OdeModel &base, double t, const std::vector<int> &reinitialized,
                       std::vector<double> &values) {
  int lowest = INT_MAX;
  for (int v : reinitialized)
    lowest = std::min(lowest, s.kinematicLevels[v]);
  auto isReinitialized = [&](int v) {
    return std::find(reinitialized.begin(), reinitialized.end(), v) != reinitialized.end();
  };
  std::vector<double> x(base.states.size());
  int status = EQC_OK;
  for (int attempt = 0; attempt < 3; ++attempt) {
    std::vector<int> movable;
    for (size_t i = 0; i < base.states.size(); ++i) {
      int v = base.states[i];
      x[i] = values[v];
      bool held = attempt < 2 && isReinitialized(v);
      held = held || (attempt == 0 && s.integrated[v] && s.kinematicLevels[v] < lowest);
      if (!held)
        movable.push_back(static_cast<int>(i));
    }
    double residual;
    ++s.projections;
    status = s.projector->project(t, x.data(), movable, kProjectionTol, &residual, /*reachableOnly=*/attempt == 0);
    if (status == EQC_OK) {
      for (size_t i = 0; i < base.states.size(); ++i)
        values[base.states[i]] = x[i];
      return 0;
    }
  }
  return kProjectionFailureBase + status;
}

/// Seconds on a monotonic clock.
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Redraws the progress line at most five times a second.
static void showProgress(RunState &s, double t) {
  double wall = now();
  if (wall - s.progressStart < 1.0 || wall - s.progressLast < 0.2)
    return;
  s.progressLast = wall;
  double done = std::clamp((t - s.tStart) / (s.tEnd - s.tStart), 0.0, 1.0);
  int filled = static_cast<int>(done * 30);
  std::fprintf(stderr, "\r[%.*s%.*s] time %.6g of %.6g (%3.0f%%), %.3g simulated s per s ", filled,
               "##############################", 30 - filled, "..............................", t, s.tEnd, done * 100,
               (t - s.tStart) / (wall - s.progressStart));
  std::fflush(stderr);
}

void finishProgress(RunState &s) {
  if (s.progress && s.progressLast > 0) {
    std::fprintf(stderr, "\r%*s\r", 110, "");
    std::fflush(stderr);
  }
}

void startProgress(RunState &s, double tStart, double tEnd) {
  s.tStart = tStart;
  s.tEnd = tEnd;
  s.progressStart = now();
  s.progressLast = 0;
}

bool startTierWhenDue(RunState &s) {
  if (!s.jit->tiered() || s.jit->tierStarted() || now() - s.runStart < s.tierAfter)
    return false;
  s.jit->startTier();
  return true;
}

static void appendNumber(std::string &line, double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  line.append(buf, res.ptr);
}

/// A String variable's text as a CSV field: in double quotes, a quote doubled (RFC 4180).
static void appendQuoted(std::string &line, const char *text) {
  line += '"';
  for (const char *c = text; *c; ++c) {
    if (*c == '"')
      line += '"';
    line += *c;
  }
  line += '"';
}

int writeRow(RunState &rs, double t, const double *x, const double *dx, const double *a, const double *p) {
  RunState *s = &rs;
  if (s->progress)
    showProgress(*s, t);
  // --every N: keep every N-th output row, and always the last one.
  if (s->every > 1 && (s->outputIndex++ % s->every) != 0 && t < s->tEnd)
    return 0;
  const bool text = !s->binary && !s->kept;
  s->line.clear();
  s->row.clear();
  if (text)
    appendNumber(s->line, t);
  s->row.push_back(t);
  for (size_t k = 0; k < s->columns.size(); ++k) {
    double v = slotValue((*s->slots)[s->columns[k]], x, dx, a, p, s->discreteOffset);
    if (text && k < s->texts.size() && s->texts[k]) {
      appendQuoted(s->line += ',', eqc_string_text(v));
    } else if (text) {
      s->line += ',';
      appendNumber(s->line, v);
    }
    s->row.push_back(v);
    if (s->recordForPlot)
      s->plotColumns[k].push_back(v);
  }
  if (s->recordForPlot)
    s->plotTime.push_back(t);
  bool ok = true;
  if (s->kept) {
    s->kept->insert(s->kept->end(), s->row.begin(), s->row.end());
  } else if (s->binary) {
    ok = std::fwrite(s->row.data(), sizeof(double), s->row.size(), s->file) == s->row.size();
  } else {
    s->line += '\n';
    ok = std::fwrite(s->line.data(), 1, s->line.size(), s->file) == s->line.size();
  }
  if (!ok) {
    s->writeFailed = true;
    return 1;
  }
  return 0;
}

std::string brief(double v, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

} // namespace eqc
