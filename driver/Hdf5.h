// Small helpers over HDF5's C API shared by eqc's HDF5 files (driver-internal).
#pragma once

#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace eqc::h5 {

/// An HDF5 identifier closed by its own function.
class Handle {
public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  Handle(Handle &&o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle &operator=(Handle &&o) noexcept {
    reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_)
      close_(id_);
    id_ = -1;
  }
  operator hid_t() const { return id_; }
  bool ok() const { return id_ >= 0; }

private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

inline Handle space(std::initializer_list<hsize_t> dims) {
  std::vector<hsize_t> d(dims);
  return {H5Screate_simple(static_cast<int>(d.size()), d.data(), nullptr), H5Sclose};
}

inline Handle stringType() {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

/// A dataset path component for a variable name ('/' is HDF5's separator).
inline std::string component(const std::string &name) {
  std::string out;
  for (char ch : name)
    out += ch == '/' ? std::string("%2F") : ch == '%' ? std::string("%25") : std::string(1, ch);
  return out;
}

inline bool attrString(hid_t obj, const char *name, const std::string &value) {
  Handle type = stringType(), sp(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a(H5Acreate2(obj, name, type, sp, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const char *p = value.c_str();
  return a.ok() && H5Awrite(a, type, &p) >= 0;
}

inline bool attrU64(hid_t obj, const char *name, std::uint64_t value) {
  Handle sp(H5Screate(H5S_SCALAR), H5Sclose);
  Handle a(H5Acreate2(obj, name, H5T_NATIVE_UINT64, sp, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  return a.ok() && H5Awrite(a, H5T_NATIVE_UINT64, &value) >= 0;
}

inline bool writeStrings(hid_t loc, const char *name, const std::vector<std::string> &strings) {
  Handle type = stringType(), sp = space({std::max<hsize_t>(strings.size(), 0)});
  Handle d(H5Dcreate2(loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  std::vector<const char *> ptrs;
  for (const std::string &s : strings)
    ptrs.push_back(s.c_str());
  return d.ok() && (strings.empty() || H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) >= 0);
}

inline bool writeDoubles(hid_t loc, const char *name, const std::vector<double> &values, std::vector<hsize_t> dims) {
  Handle sp(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose);
  Handle d(H5Dcreate2(loc, name, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  return d.ok() && (values.empty() || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
}

} // namespace eqc::h5
