// Plain values to bytes and back, for serialized states (eqc_sim_serialize, FMU states): each
// field copied as it is in memory, so the bytes are for the same build on the same machine.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace eqc::rt {

/// A vector whose length the reader does not know: written as its length, then its elements.
template <typename T> struct Sized {
  std::vector<T> &v;
};
template <typename T> Sized<T> sized(std::vector<T> &v) { return {v}; }
template <typename T> Sized<T> sized(const std::vector<T> &v) { return {const_cast<std::vector<T> &>(v)}; }

/// Writes fields into `out` (size bytes; NULL only counts); `used` is the bytes they take.
struct ByteWriter {
  unsigned char *out = nullptr;
  size_t size = 0, used = 0;
  template <typename T> void operator()(const T &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (out && used + sizeof(T) <= size)
      std::memcpy(out + used, &v, sizeof(T));
    used += sizeof(T);
  }
  template <typename T> void operator()(const std::vector<T> &v) {
    for (const T &e : v)
      (*this)(e);
  }
  template <typename T> void operator()(Sized<T> s) {
    (*this)(static_cast<unsigned long long>(s.v.size()));
    (*this)(s.v);
  }
};

/// Reads fields from `in` in the order they were written; `ok` turns false when the bytes end
/// early. Vectors keep their sizes (the reader knows them).
struct ByteReader {
  const unsigned char *in = nullptr;
  size_t size = 0, used = 0;
  bool ok = true;
  template <typename T> void operator()(T &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (used + sizeof(T) > size) {
      ok = false;
      return;
    }
    std::memcpy(&v, in + used, sizeof(T));
    used += sizeof(T);
  }
  template <typename T> void operator()(std::vector<T> &v) {
    for (T &e : v)
      (*this)(e);
  }
  template <typename T> void operator()(Sized<T> s) {
    unsigned long long count = 0;
    (*this)(count);
    if (!ok || count > (size - used) / (sizeof(T) > 0 ? sizeof(T) : 1)) {
      ok = false;
      return;
    }
    s.v.resize(static_cast<size_t>(count));
    (*this)(s.v);
  }
};

} // namespace eqc::rt
