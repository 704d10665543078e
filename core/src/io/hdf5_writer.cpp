// A signal written as one float64 HDF5 dataset (N, or N x C), chunked and extended block by block,
// with its rate in an attribute; the file appears whole at commit (AtomicFileWriter's temporary).
#include <algorithm>
#include <array>
#include <cstdint>

#include "dataset_formats.hpp"
#include "hdf5_support.hpp"
#include "planar_frames.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"

namespace siglab {
namespace {

using hdf5::Handle;

class Hdf5Sink final : public ChannelSink {
 public:
  Hdf5Sink(const std::string& path, const WriteOptions& options, std::size_t channels)
      : output_(path, options.durability), channels_(channels), rate_(options.sampleRate),
        rateAttribute_(options.rateAttribute.empty() ? "rate" : options.rateAttribute) {
    name_ = options.dataset.empty() ? "/signal" : options.dataset;
    where_ = path + ":" + name_;
    if (output_.temporaryPath().empty()) {
      throw InputError(path, "an HDF5 file is written to a file, not to standard output, a pipe or a device");
    }
    const auto held = hdf5::lock();
    const Handle access = hdf5::fileAccess();
    file_ = Handle(H5Fcreate(output_.temporaryPath().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose);
    if (!file_) fail("cannot create the file");
    const int rank = channels == 1 ? 1 : 2;
    const std::array<hsize_t, 2> dims{0, channels};
    const std::array<hsize_t, 2> most{H5S_UNLIMITED, channels};
    // 1 MiB chunks: large enough for fast reads, small enough that reading a few samples is cheap.
    const std::array<hsize_t, 2> chunk{std::max<hsize_t>(1, (hsize_t{1} << 17) / channels), channels};
    const Handle space(H5Screate_simple(rank, dims.data(), most.data()), H5Sclose);
    const Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    const Handle links(H5Pcreate(H5P_LINK_CREATE), H5Pclose);
    if (H5Pset_chunk(create.get(), rank, chunk.data()) < 0 || H5Pset_create_intermediate_group(links.get(), 1) < 0) {
      fail("cannot set up the dataset");
    }
    dataset_ = Handle(H5Dcreate2(file_.get(), name_.c_str(), H5T_IEEE_F64LE, space.get(), links.get(), create.get(),
                                 H5P_DEFAULT),
                      H5Dclose);
    if (!dataset_) fail("cannot create the dataset (is the name a valid HDF5 path?)");
  }
  ~Hdf5Sink() override {
    const auto held = hdf5::lock();
    dataset_.reset();
    file_.reset();
  }  // output_ then removes the temporary unless committed
  Hdf5Sink(const Hdf5Sink&) = delete;
  Hdf5Sink& operator=(const Hdf5Sink&) = delete;

  std::size_t channels() const override { return channels_; }

  void commit() override {
    {
      const auto held = hdf5::lock();
      const Handle scalar(H5Screate(H5S_SCALAR), H5Sclose);
      const Handle rate(H5Acreate2(dataset_.get(), rateAttribute_.c_str(), H5T_IEEE_F64LE, scalar.get(), H5P_DEFAULT,
                                   H5P_DEFAULT),
                        H5Aclose);
      if (!rate || H5Awrite(rate.get(), H5T_NATIVE_DOUBLE, &rate_) < 0) fail("cannot write the rate attribute");
    }
    {
      const auto held = hdf5::lock();
      dataset_.reset();
      if (H5Fclose(file_.release()) < 0) fail("cannot finish the file");  // closed here, where a failure is seen
    }
    output_.commit();
  }

 protected:
  void writeFrames(std::span<const std::span<const double>> block) override {
    const std::size_t count = block.front().size();
    if (count == 0) return;
    const double* from = block.front().data();
    if (channels_ > 1) {
      interleaved_.resize(count * channels_);
      interleaveFrames(block, 0, count, interleaved_.data());
      from = interleaved_.data();
    }
    const auto held = hdf5::lock();
    const int rank = channels_ == 1 ? 1 : 2;
    const std::array<hsize_t, 2> size{frames_ + count, channels_};
    const std::array<hsize_t, 2> start{frames_, 0};
    const std::array<hsize_t, 2> extent{count, channels_};
    if (H5Dset_extent(dataset_.get(), size.data()) < 0) fail("cannot extend the dataset");
    const Handle fileSpace(H5Dget_space(dataset_.get()), H5Sclose);
    const Handle memory(H5Screate_simple(rank, extent.data(), nullptr), H5Sclose);
    if (H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr, extent.data(), nullptr) < 0 ||
        H5Dwrite(dataset_.get(), H5T_NATIVE_DOUBLE, memory.get(), fileSpace.get(), H5P_DEFAULT, from) < 0) {
      fail("cannot write frames (is the disk full?)");
    }
    frames_ += count;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw InputError(where_, what + ": " + hdf5::lastError()); }

  AtomicFileWriter output_;
  std::size_t channels_;
  double rate_;
  std::string rateAttribute_;
  std::string name_;
  std::string where_;
  Handle file_;
  Handle dataset_;
  std::uint64_t frames_ = 0;
  std::vector<double> interleaved_;
};

}  // namespace

std::unique_ptr<ChannelSink> openHdf5Sink(const std::string& path, const WriteOptions& options, std::size_t channels) {
  return std::make_unique<Hdf5Sink>(path, options, channels);
}

}  // namespace siglab
