// Reading the HDF5 files eqc writes, for the tests (HDF5's C API, as any reader of the file would).
#pragma once

#include <gtest/gtest.h>
#include <hdf5.h>

#include <string>
#include <vector>

namespace eqc::test {

/// An HDF5 file opened read-only; datasets read whole.
class H5File {
public:
  explicit H5File(const std::string &path) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    id_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  }
  ~H5File() {
    if (id_ >= 0)
      H5Fclose(id_);
  }
  H5File(const H5File &) = delete;
  H5File &operator=(const H5File &) = delete;
  bool ok() const { return id_ >= 0; }
  bool exists(const std::string &path) const { return H5Lexists(id_, path.c_str(), H5P_DEFAULT) > 0; }

  /// A dataset's values as `type` (H5T_NATIVE_DOUBLE, _INT, _SCHAR), row-major; `dims` its shape.
  template <typename T> std::vector<T> read(const std::string &path, hid_t type, std::vector<hsize_t> *dims = nullptr) const {
    std::vector<T> out;
    hid_t d = H5Dopen2(id_, path.c_str(), H5P_DEFAULT);
    EXPECT_GE(d, 0) << "no dataset " << path;
    if (d < 0)
      return out;
    hid_t sp = H5Dget_space(d);
    int rank = H5Sget_simple_extent_ndims(sp);
    std::vector<hsize_t> shape(static_cast<size_t>(rank));
    H5Sget_simple_extent_dims(sp, shape.data(), nullptr);
    hsize_t n = 1;
    for (hsize_t s : shape)
      n *= s;
    out.resize(n);
    if (n) {
      EXPECT_GE(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0) << path;
    }
    if (dims)
      *dims = shape;
    H5Sclose(sp);
    H5Dclose(d);
    return out;
  }
  std::vector<double> doubles(const std::string &path, std::vector<hsize_t> *dims = nullptr) const {
    return read<double>(path, H5T_NATIVE_DOUBLE, dims);
  }
  std::vector<int> ints(const std::string &path) const { return read<int>(path, H5T_NATIVE_INT); }
  std::vector<signed char> bytes(const std::string &path) const { return read<signed char>(path, H5T_NATIVE_SCHAR); }
  /// A dataset of variable-length strings.
  std::vector<std::string> strings(const std::string &path) const {
    std::vector<std::string> out;
    hid_t d = H5Dopen2(id_, path.c_str(), H5P_DEFAULT);
    EXPECT_GE(d, 0) << "no dataset " << path;
    if (d < 0)
      return out;
    hid_t type = H5Dget_type(d); // variable-length, with the file's character set
    hid_t sp = H5Dget_space(d);
    std::vector<char *> ptrs(static_cast<size_t>(H5Sget_simple_extent_npoints(sp)), nullptr);
    if (!ptrs.empty() && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) >= 0) {
      for (char *p : ptrs)
        out.push_back(p ? p : "");
      H5Dvlen_reclaim(type, sp, H5P_DEFAULT, ptrs.data());
    }
    H5Sclose(sp);
    H5Tclose(type);
    H5Dclose(d);
    return out;
  }

private:
  hid_t id_ = -1;
};

} // namespace eqc::test
