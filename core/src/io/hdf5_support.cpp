#include "hdf5_support.hpp"

#include <unistd.h>

#include "dataset_formats.hpp"
#include "siglab/io/dataset_files.hpp"

namespace siglab::hdf5 {

namespace {
std::recursive_mutex* libraryMutex = new std::recursive_mutex;  // replaced in a forked child (forkOutsideHdf5)
}  // namespace

std::unique_lock<std::recursive_mutex> lock() {
  std::unique_lock<std::recursive_mutex> held(*libraryMutex);
  static const bool quiet = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become our messages, not lines on stderr
    return true;
  }();
  (void)quiet;
  return held;
}

std::string lastError() {
  std::string innermost;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* error, void* data) -> herr_t {
        if (error->desc && *error->desc) *static_cast<std::string*>(data) = error->desc;
        return 0;
      },
      &innermost);
  H5Eclear2(H5E_DEFAULT);
  return innermost.empty() ? "the HDF5 library gave no reason" : innermost;
}

Handle fileAccess() {
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
#if H5_VERSION_GE(1, 10, 7)
  H5Pset_file_locking(access.get(), false, true);
#endif
  return access;
}

std::string numericTypeName(hid_t type) {
  const std::string bits = std::to_string(8 * H5Tget_size(type));
  switch (H5Tget_class(type)) {
    case H5T_FLOAT: return "float" + bits;
    case H5T_INTEGER: return (H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + bits;
    default: return {};
  }
}

}  // namespace siglab::hdf5

namespace siglab {

pid_t forkOutsideHdf5() {
  std::unique_lock<std::recursive_mutex> held = hdf5::lock();
  const pid_t pid = ::fork();
  if (pid == 0) {
    held.release();  // the parent's thread holds it, and no thread of this child ever will unlock it
    hdf5::libraryMutex = new std::recursive_mutex;
  }
  return pid;
}

}  // namespace siglab

namespace siglab {
bool hdf5Supported() { return true; }
}  // namespace siglab
