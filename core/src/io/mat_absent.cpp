// Built without matio: a MATLAB v5 file is a clear error (v7.3 files are HDF5 and need only it).
#include "dataset_formats.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {
[[noreturn]] void refuse(const std::string& path) {
  throw InputError(path, "a MATLAB .mat file, but this SigLab was built without MAT support (libmatio-dev)");
}
}  // namespace

bool matSupported() { return false; }
std::vector<DatasetEntry> listMatVariables(const std::string& path) { refuse(path); }
std::unique_ptr<ChannelStream> openMatChannelStream(const std::string& path, const ReadOptions&) { refuse(path); }
std::unique_ptr<ChannelSink> openMatSink(const std::string& path, const WriteOptions&, std::size_t) { refuse(path); }

}  // namespace siglab
