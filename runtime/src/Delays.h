// The histories behind a model's delay() (MLS 3.5, 3.7.2; eqc_model.h, eqc_delay_context): what
// a simulation keeps per delay, and the value a delay reads from it.
#pragma once

#include "eqc/eqc_model.h"

#include "Bytes.h"

#include <vector>

namespace eqc::rt {

/// Per delay, the points (t, v, dv/dt) of its expression recorded at accepted points, in time
/// order (a value that jumps at an event has two points at that time), reaching back at least
/// as far as the delay has been asked to reach. Copies are independent and get a context of
/// their own.
class DelayHistories {
public:
  struct Point {
    double t, v, dv;
  };

  DelayHistories();
  DelayHistories(const DelayHistories &other);
  DelayHistories &operator=(const DelayHistories &other);

  /// n histories, all empty.
  void reset(int n);
  int size() const { return static_cast<int>(histories_.size()); }
  /// The context's address as the bits of a double, for p[eqc_model.delay_context].
  double contextBits() const;
  /// Appends (t, v[k], dv[k]) to every history k; a point before the newest one first drops the
  /// newer ones (the simulation went back in time). Drops what no read can reach any more.
  void record(double t, const double *v, const double *dv);

  /// Every field that a serialized simulation keeps.
  template <typename Self, typename Field> static void fields(Self &s, Field &&f) {
    f(s.reach_);
    for (auto &h : s.histories_)
      f(sized(h));
  }

  /// The expression at tau from history h, at time t where its value is v: the cubic Hermite
  /// interpolant of the two recorded points around tau (the right limit at a jump), the earliest
  /// point's value before it (the start time's), past the newest point the quadratic through it
  /// (with its slope) and (t, v); v where there is no history (initialization).
  static double interpolate(const std::vector<Point> &h, double tau, double t, double v);

private:
  struct Context : eqc_delay_context {
    DelayHistories *self;
  };
  static double value(eqc_delay_context *context, int k, double t, double v, double delay, double delayMax);

  Context context_{};
  std::vector<std::vector<Point>> histories_;
  std::vector<double> reach_; ///< per history: the longest delay read from it so far
};

} // namespace eqc::rt
