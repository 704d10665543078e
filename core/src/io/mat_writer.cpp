// A signal written as one MATLAB double matrix, N x C (a column vector for one channel): v5, or
// v7.3 where it is too large for v5's 32-bit sizes. matio writes a whole variable at once, so the
// frames are gathered in memory; the file appears at commit (AtomicFileWriter's temporary).
#include <cctype>

#include "dataset_formats.hpp"
#include "mat_support.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"

namespace siglab {
namespace {

bool isMatlabName(const std::string& name) {
  if (name.empty() || name.size() > 63 || !std::isalpha(static_cast<unsigned char>(name.front()))) return false;
  for (const char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

class MatSink final : public ChannelSink {
 public:
  MatSink(const std::string& path, const WriteOptions& options, std::size_t channels)
      : output_(path, options.durability), name_(options.dataset.empty() ? "signal" : options.dataset),
        channels_(channels) {
    if (!isMatlabName(name_)) {
      throw InputError(path, "\"" + name_ + "\" is not a MATLAB variable name (a letter, then letters, digits or _; "
                                            "at most 63)");
    }
    if (output_.temporaryPath().empty()) {
      throw InputError(path, "a .mat file is written to a file, not to standard output, a pipe or a device");
    }
  }
  std::size_t channels() const override { return channels_; }

  void commit() override {
    const std::size_t frames = columns_.front().size();
    std::vector<double>& columnMajor = columns_.front();  // the channels one after another
    for (std::size_t c = 1; c < channels_; ++c) {
      columnMajor.insert(columnMajor.end(), columns_[c].begin(), columns_[c].end());
      std::vector<double>().swap(columns_[c]);
    }
    const bool large = columnMajor.size() * sizeof(double) >= (std::size_t{1} << 31) - 1024;
    const std::string where = output_.path() + ":" + name_;
    {
      const auto held = mat::lock();
      mat::File file(Mat_CreateVer(output_.temporaryPath().c_str(), nullptr, large ? MAT_FT_MAT73 : MAT_FT_MAT5));
      if (!file) throw InputError(where, "cannot create the file: " + mat::takeLastMessage());
      std::size_t dims[2] = {frames, channels_};
      const mat::Variable v(Mat_VarCreate(name_.c_str(), MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, columnMajor.data(),
                                          MAT_F_DONT_COPY_DATA));
      if (!v || Mat_VarWrite(file.get(), v.get(), MAT_COMPRESSION_NONE) != 0) {
        throw InputError(where, "cannot write the variable (is the disk full?): " + mat::takeLastMessage());
      }
      if (Mat_Close(file.release()) != 0) throw InputError(where, "cannot finish the file: " + mat::takeLastMessage());
    }
    output_.commit();
  }

 protected:
  void writeFrames(std::span<const std::span<const double>> block) override {
    for (std::size_t c = 0; c < channels_; ++c) columns_[c].insert(columns_[c].end(), block[c].begin(), block[c].end());
  }

 private:
  AtomicFileWriter output_;
  std::string name_;
  std::size_t channels_;
  std::vector<std::vector<double>> columns_ = std::vector<std::vector<double>>(channels_);
};

}  // namespace

std::unique_ptr<ChannelSink> openMatSink(const std::string& path, const WriteOptions& options, std::size_t channels) {
  return std::make_unique<MatSink>(path, options, channels);
}

}  // namespace siglab
