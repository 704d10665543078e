// Built without libhdf5: an HDF5 file (or MATLAB 7.3, which is HDF5) is a clear error.
#include <unistd.h>

#include "dataset_formats.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {
[[noreturn]] void refuse(const std::string& path) {
  throw InputError(path, "an HDF5 file, but this SigLab was built without HDF5 support (libhdf5-dev)");
}
}  // namespace

bool hdf5Supported() { return false; }
pid_t forkOutsideHdf5() { return ::fork(); }
std::vector<DatasetEntry> listHdf5Datasets(const std::string& path, Hdf5Layout) { refuse(path); }
std::unique_ptr<ChannelStream> openHdf5ChannelStream(const std::string& path, const ReadOptions&, Hdf5Layout) {
  refuse(path);
}
std::unique_ptr<ChannelSink> openHdf5Sink(const std::string& path, const WriteOptions&, std::size_t) { refuse(path); }

}  // namespace siglab
