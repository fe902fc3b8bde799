// The histories behind delay() (see Delays.h).
#include "Delays.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace eqc::rt {

DelayHistories::DelayHistories() {
  context_.value = &DelayHistories::value;
  context_.self = this;
}

DelayHistories::DelayHistories(const DelayHistories &other) : histories_(other.histories_), reach_(other.reach_) {
  context_.value = &DelayHistories::value;
  context_.self = this;
}

DelayHistories &DelayHistories::operator=(const DelayHistories &other) {
  histories_ = other.histories_;
  reach_ = other.reach_;
  return *this;
}

void DelayHistories::reset(int n) {
  histories_.assign(static_cast<size_t>(n > 0 ? n : 0), {});
  reach_.assign(histories_.size(), 0.0);
}

double DelayHistories::contextBits() const {
  const eqc_delay_context *address = &context_;
  static_assert(sizeof(address) == sizeof(double), "a pointer is kept in a double of p");
  double bits;
  std::memcpy(&bits, &address, sizeof bits);
  return bits;
}

double DelayHistories::value(eqc_delay_context *context, int k, double t, double v, double delay, double delayMax) {
  DelayHistories &self = *static_cast<Context *>(context)->self;
  if (k < 0 || static_cast<size_t>(k) >= self.histories_.size())
    return v;
  if (!(delay > 0)) // MLS 3.5, 3.7.2: delayTime >= 0 (an assertion reports a negative one)
    delay = 0;
  double &reach = self.reach_[static_cast<size_t>(k)];
  reach = std::max({reach, delay, std::isfinite(delayMax) ? delayMax : 0.0});
  return interpolate(self.histories_[static_cast<size_t>(k)], t - delay, t, v);
}

void DelayHistories::record(double t, const double *v, const double *dv) {
  if (!std::isfinite(t))
    return;
  for (size_t k = 0; k < histories_.size(); ++k) {
    std::vector<Point> &h = histories_[k];
    while (!h.empty() && h.back().t > t)
      h.pop_back();
    if (!h.empty() && h.back().t == t && h.back().v == v[k]) {
      h.back().dv = dv[k];
      continue;
    }
    h.push_back({t, v[k], dv[k]});
    // Points older than the longest reach before the previous point (the last step is still read:
    // its output points and event location come after the step), less the one an interpolation
    // starts from, go, in batches, so that this costs O(1) per point.
    const double oldest = (h.size() > 1 ? h[h.size() - 2].t : t) - reach_[k];
    auto needed = std::upper_bound(h.begin(), h.end(), oldest, [](double a, const Point &p) { return a < p.t; });
    const size_t stale = needed - h.begin() > 1 ? static_cast<size_t>(needed - h.begin()) - 1 : 0;
    if (stale > 16 && 2 * stale > h.size())
      h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(stale));
  }
}

double DelayHistories::interpolate(const std::vector<Point> &h, double tau, double t, double v) {
  if (h.empty() || tau >= t)
    return v;
  if (tau <= h.front().t)
    return h.front().v;
  const Point &last = h.back();
  if (tau >= last.t) {
    const double span = t - last.t, s = tau - last.t;
    if (!(span > 0))
      return last.v;
    const double c = (v - last.v - last.dv * span) / (span * span);
    return last.v + s * (last.dv + c * s);
  }
  // a: the last point at or before tau (at a jump, the right limit), b the next.
  const size_t i = static_cast<size_t>(std::upper_bound(h.begin(), h.end(), tau, [](double x, const Point &p) { return x < p.t; }) -
                                       h.begin()) - 1;
  const Point &a = h[i], &b = h[i + 1];
  // A jump (two points at one time) a few ulps after tau: tau is the jump's time less rounding
  // (an event located at te + delay reads te - 1 ulp), so the right limit.
  if (i + 2 < h.size() && h[i + 2].t == b.t && b.t - tau <= 1e-14 * std::max(1.0, std::fabs(t))) {
    size_t j = i + 2;
    while (j + 1 < h.size() && h[j + 1].t == b.t)
      ++j;
    return h[j].v;
  }
  const double span = b.t - a.t;
  if (!(span > 0))
    return b.v;
  const double s = (tau - a.t) / span, s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * a.v + (s3 - 2 * s2 + s) * span * a.dv + (-2 * s3 + 3 * s2) * b.v +
         (s3 - s2) * span * b.dv;
}

} // namespace eqc::rt
