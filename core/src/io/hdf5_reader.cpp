// HDF5 datasets (and MATLAB 7.3 variables, which are HDF5 datasets) read block by block: a
// hyperslab of whole chunks at a time, converted to float64 by the library.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "dataset_formats.hpp"
#include "hdf5_support.hpp"
#include "known_shape_stream.hpp"
#include "planar_frames.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/sample_rate.hpp"

namespace siglab {
namespace {

// A damaged header may claim numbers of any width and bit layout (fuzz-hdf5: an integer 131072
// bytes wide, a float whose exponent and mantissa fields are all zero: libhdf5's conversion to
// float64 then reads past its buffers). Only the layouts writers use are read: 8-64-bit integers
// with every bit significant, and IEEE half, single and double floats. Empty when usual.
std::string unusualNumberLayout(hid_t type) {
  const std::size_t bytes = H5Tget_size(type);
  const std::size_t precision = H5Tget_precision(type);
  const int offset = H5Tget_offset(type);
  if (H5Tget_class(type) == H5T_INTEGER) {
    if ((bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8) && precision == 8 * bytes && offset == 0) return {};
    return "holds " + std::to_string(8 * bytes) + "-bit integers of " + std::to_string(precision) +
           " significant bits, not a sample type SigLab reads (8-, 16-, 32- or 64-bit integers; the file may be damaged)";
  }
  std::size_t sign = 0, exponentAt = 0, exponentBits = 0, mantissaAt = 0, mantissaBits = 0;
  H5Tget_fields(type, &sign, &exponentAt, &exponentBits, &mantissaAt, &mantissaBits);
  const bool ieee = offset == 0 && mantissaAt == 0 && precision == 8 * bytes && sign == precision - 1 &&
                    ((bytes == 2 && exponentBits == 5 && mantissaBits == 10) ||
                     (bytes == 4 && exponentBits == 8 && mantissaBits == 23) ||
                     (bytes == 8 && exponentBits == 11 && mantissaBits == 52)) &&
                    exponentAt == mantissaBits;
  if (ieee) return {};
  return "holds " + std::to_string(8 * bytes) + "-bit floats of an unusual layout (exponent " + std::to_string(exponentBits) +
         " bits, mantissa " + std::to_string(mantissaBits) +
         " bits), not a sample type SigLab reads (IEEE 16-, 32- or 64-bit floats; the file may be damaged)";
}

using hdf5::Handle;

// Where frames and channels lie in a dataset's dimensions.
struct Hdf5Shape {
  int frameAxis = 0;
  int channelAxis = -1;  // -1: 1-D
  std::uint64_t frames = 0;
  std::uint64_t channels = 1;
  std::vector<std::uint64_t> shown;  // the shape as a listing shows it
};

// MATLAB's class of a 7.3 variable ("double", "cell", ...); empty where the attribute is absent.
std::string matlabClass(hid_t object) {
  if (H5Aexists(object, "MATLAB_class") <= 0) return {};
  const Handle attribute(H5Aopen(object, "MATLAB_class", H5P_DEFAULT), H5Aclose);
  const Handle type(H5Aget_type(attribute.get()), H5Tclose);
  if (!attribute || !type || H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0) return {};
  std::string text(H5Tget_size(type.get()), '\0');
  if (H5Aread(attribute.get(), type.get(), text.data()) < 0) return {};
  return text.substr(0, text.find('\0'));
}

// Why `dataset` is not a numeric 1-D or 2-D array SigLab reads, or empty; fills `shape` when it is.
std::string whyNotSignal(hid_t dataset, Hdf5Layout layout, Hdf5Shape& shape) {
  const Handle type(H5Dget_type(dataset), H5Tclose);
  if (layout == Hdf5Layout::matlab) {
    const std::string kind = matlabClass(dataset);
    if (kind == "cell") return "a MATLAB cell array, not a numeric matrix";
    if (kind == "char") return "MATLAB text (char), not a numeric matrix";
    if (kind == "struct" || kind == "function_handle") return "a MATLAB " + kind + ", not a numeric matrix";
    if (H5Aexists(dataset, "MATLAB_empty") > 0) return "an empty MATLAB matrix";
  }
  switch (H5Tget_class(type.get())) {
    case H5T_INTEGER:
    case H5T_FLOAT: {
      const std::string why = unusualNumberLayout(type.get());
      if (!why.empty()) return why;
      break;
    }
    case H5T_STRING: return "holds strings, not numbers";
    case H5T_COMPOUND:
      return layout == Hdf5Layout::matlab ? "a complex matrix (SigLab reads real signals)"
                                          : "holds compound records (complex or table rows), not numbers";
    case H5T_REFERENCE: return "holds references (a MATLAB cell array or struct?), not numbers";
    default: return "holds values of a type that is not a number";
  }
  const Handle space(H5Dget_space(dataset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0 || H5Sget_simple_extent_type(space.get()) != H5S_SIMPLE) return "has no shape (a null dataspace)";
  std::array<hsize_t, 2> dims{};
  if (rank == 0) return "is a single number (a scalar), not a signal";
  if (rank > 2) {
    return "is " + std::to_string(rank) + "-D; SigLab reads 1-D signals and 2-D frames x channels";
  }
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  if (rank == 1) {
    shape = {0, -1, dims[0], 1, {dims[0]}};
  } else if (layout == Hdf5Layout::plain) {
    shape = {0, 1, dims[0], dims[1], {dims[0], dims[1]}};
  } else {  // MATLAB: rows x columns stored as columns x rows; a row or column vector is one channel
    const hsize_t rows = dims[1];
    const hsize_t columns = dims[0];
    if (columns == 1) shape = {1, 0, rows, 1, {rows, columns}};
    else if (rows == 1) shape = {0, 1, columns, 1, {rows, columns}};
    else shape = {1, 0, rows, columns, {rows, columns}};
  }
  return {};
}

Handle openFile(const std::string& path) {
  const Handle access = hdf5::fileAccess();
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get()), H5Fclose);
  if (!file) throw InputError(path, "cannot open it as an HDF5 file (damaged or cut short): " + hdf5::lastError());
  return file;
}

// The numeric 1-D/2-D datasets below the root (MATLAB: the variables at the root); a group
// structure the library cannot walk is an error, not a file without datasets.
std::vector<DatasetEntry> listSignals(hid_t file, Hdf5Layout layout, const std::string& path) {
  struct Visit {
    Hdf5Layout layout;
    std::vector<DatasetEntry> entries;
  } visit{layout, {}};
  const auto each = [](hid_t root, const char* name, const H5L_info_t* info, void* data) -> herr_t {
    auto& v = *static_cast<Visit*>(data);
    if (info->type != H5L_TYPE_HARD) return 0;
    if (v.layout == Hdf5Layout::matlab && std::strchr(name, '/')) return 0;  // #refs# and the like
    const Handle object(H5Oopen(root, name, H5P_DEFAULT), H5Oclose);
    if (!object || H5Iget_type(object.get()) != H5I_DATASET) {
      H5Eclear2(H5E_DEFAULT);
      return 0;
    }
    Hdf5Shape shape;
    if (!whyNotSignal(object.get(), v.layout, shape).empty()) return 0;
    const Handle type(H5Dget_type(object.get()), H5Tclose);
    v.entries.push_back({v.layout == Hdf5Layout::matlab ? std::string(name) : std::string("/").append(name), shape.shown,
                         hdf5::numericTypeName(type.get()), shape.frames, shape.channels});
    return 0;
  };
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, each, &visit) < 0) {
    throw InputError(path, "cannot list what it holds (the file is damaged): " + hdf5::lastError());
  }
  return visit.entries;
}

std::string attributeNames(hid_t object) {
  std::string names;
  H5Aiterate2(
      object, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
        auto& text = *static_cast<std::string*>(data);
        text += (text.empty() ? "" : ", ") + std::string(name);
        return 0;
      },
      &names);
  return names.empty() ? "none" : names;
}

// The rate in the dataset's attribute `named` (else the first usual one present); nullopt when none.
std::optional<double> rateAttribute(hid_t dataset, const std::string& named, const std::string& where) {
  std::string name = named;
  if (name.empty()) {
    for (const char* usual : {"rate", "fs", "sampling_rate", "sample_rate"}) {
      if (H5Aexists(dataset, usual) > 0) {
        name = usual;
        break;
      }
    }
    if (name.empty()) return std::nullopt;
  } else if (H5Aexists(dataset, name.c_str()) <= 0) {
    throw InputError(where, "no attribute \"" + name + "\" to take the rate from (its attributes: " +
                                attributeNames(dataset) + ")");
  }
  const Handle attribute(H5Aopen(dataset, name.c_str(), H5P_DEFAULT), H5Aclose);
  const Handle type(H5Aget_type(attribute.get()), H5Tclose);
  const Handle space(H5Aget_space(attribute.get()), H5Sclose);
  const H5T_class_t kind = H5Tget_class(type.get());
  double rate = 0.0;
  if ((kind != H5T_INTEGER && kind != H5T_FLOAT) || H5Sget_simple_extent_npoints(space.get()) != 1 ||
      H5Aread(attribute.get(), H5T_NATIVE_DOUBLE, &rate) < 0) {
    H5Eclear2(H5E_DEFAULT);
    throw InputError(where, "attribute \"" + name + "\" is not one number, so not a sample rate (give it with --rate)");
  }
  if (!isValidSampleRate(rate)) {
    throw InputError(where, "attribute \"" + name + "\" holds " + std::to_string(rate) +
                                ", not a sample rate (a finite number of Hz greater than 0; give it with --rate)");
  }
  return rate;
}

// A filter the library lacks (a plugin not installed) said before any work.
void requireFilters(hid_t dataset, const std::string& where) {
  const Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  const int count = H5Pget_nfilters(plist.get());
  for (int i = 0; i < count; ++i) {
    unsigned flags = 0;
    std::size_t values = 0;
    char name[128] = {};
    unsigned config = 0;
    const H5Z_filter_t id = H5Pget_filter2(plist.get(), static_cast<unsigned>(i), &flags, &values, nullptr,
                                           sizeof name, name, &config);
    if (id >= 0 && H5Zfilter_avail(id) <= 0) {
      H5Eclear2(H5E_DEFAULT);
      throw InputError(where, "compressed with filter " + std::to_string(id) + (*name ? " (" + std::string(name) + ")" : "") +
                                  ", which this HDF5 library lacks (install its plugin, or HDF5_PLUGIN_PATH)");
    }
  }
}

// Sizes a damaged header may claim, refused before the library allocates them: a chunk over 256 MiB
// (writers use a few MiB at most), contiguous data the file does not hold, or more samples than
// 1024 times the file's bytes (deflate's best ratio is about 1032:1).
void requireSaneSizes(hid_t dataset, const Hdf5Shape& shape, const std::string& path, const std::string& where) {
  const Handle type(H5Dget_type(dataset), H5Tclose);
  const std::uint64_t sampleBytes = H5Tget_size(type.get());
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(shape.frames, shape.channels, &bytes) || __builtin_mul_overflow(bytes, sampleBytes, &bytes)) {
    throw InputError(where, "its shape claims more samples than any file holds (the file is damaged)");
  }
  struct stat info {};
  const std::uint64_t fileBytes = ::stat(path.c_str(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
  if (bytes / 1024 > fileBytes + 1024) {  // 1024:1, and 1 MiB of samples for any file
    throw InputError(where, "claims " + std::to_string(bytes) + " bytes of samples in a file of " +
                                std::to_string(fileBytes) + " bytes (damaged, or mostly never written)");
  }
  const Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  const H5D_layout_t layout = H5Pget_layout(plist.get());
  if (layout == H5D_CHUNKED) {
    std::array<hsize_t, 2> chunk{1, 1};
    const int rank = H5Pget_chunk(plist.get(), 2, chunk.data());
    std::uint64_t chunkBytes = sampleBytes;
    for (int i = 0; i < rank && i < 2; ++i) {
      if (__builtin_mul_overflow(chunkBytes, chunk[static_cast<std::size_t>(i)], &chunkBytes)) chunkBytes = UINT64_MAX;
    }
    if (rank < 1 || chunkBytes > (std::uint64_t{256} << 20)) {
      throw InputError(where, "its chunks of " + std::to_string(chunkBytes) + " bytes are more than SigLab reads at once "
                              "(256 MiB; the file is damaged, or rewrite it with smaller chunks)");
    }
    // The library refuses to make chunks larger than a fixed dimension, and reads freed memory on
    // such a file (found by fuzz-hdf5: chunks of 8 x 131072 in a 32 x 2 dataset).
    const Handle space(H5Dget_space(dataset), H5Sclose);
    std::array<hsize_t, 2> dims{};
    std::array<hsize_t, 2> maxDims{};
    if (H5Sget_simple_extent_ndims(space.get()) == rank && H5Sget_simple_extent_dims(space.get(), dims.data(), maxDims.data()) == rank) {
      for (std::size_t i = 0; i < static_cast<std::size_t>(rank); ++i) {
        if (maxDims[i] != H5S_UNLIMITED && chunk[i] > maxDims[i]) {
          std::string chunkShape = std::to_string(chunk[0]);
          if (rank > 1) chunkShape.append(" x ").append(std::to_string(chunk[1]));  // appended: GCC 12's false -Wrestrict
          throw InputError(where, "its chunks (" + chunkShape + ") are larger than its fixed shape allows (the file is damaged)");
        }
      }
    }
  } else if (layout == H5D_CONTIGUOUS && H5Dget_storage_size(dataset) < bytes) {
    throw InputError(where, "the file is damaged or cut short: its samples need " + std::to_string(bytes) +
                                " bytes, " + std::to_string(H5Dget_storage_size(dataset)) + " are stored (or it was never written)");
  }
  H5Eclear2(H5E_DEFAULT);
}

// How `dataset`'s chunks lie as stored, where this process's parent can decode them (chunked; deflate,
// shuffle then deflate, or no filter; little-endian integers or 32/64-bit floats; every chunk written;
// whyNotDecodable's sizes); nullopt otherwise: libhdf5 decodes them here.
std::optional<StoredChunkLayout> storedLayoutOf(hid_t dataset, const Hdf5Shape& shape, std::span<const std::size_t> keep) {
  const Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  if (H5Pget_layout(plist.get()) != H5D_CHUNKED) return std::nullopt;
  StoredChunkLayout layout;
  const int filters = H5Pget_nfilters(plist.get());
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0;
    std::size_t values = 0;
    unsigned config = 0;
    const H5Z_filter_t id = H5Pget_filter2(plist.get(), static_cast<unsigned>(i), &flags, &values, nullptr, 0, nullptr, &config);
    if (id == H5Z_FILTER_SHUFFLE && layout.shuffleAt < 0 && layout.deflateAt < 0) layout.shuffleAt = i;
    else if (id == H5Z_FILTER_DEFLATE && layout.deflateAt < 0) layout.deflateAt = i;
    else return std::nullopt;
  }
  const Handle type(H5Dget_type(dataset), H5Tclose);
  const H5T_class_t kind = H5Tget_class(type.get());
  layout.valueBytes = static_cast<std::uint32_t>(H5Tget_size(type.get()));
  const H5T_order_t order = H5Tget_order(type.get());
  if (order != H5T_ORDER_LE && !(order == H5T_ORDER_NONE && layout.valueBytes == 1)) return std::nullopt;
  if (kind == H5T_FLOAT) layout.number = StoredChunkLayout::Number::floating;
  else if (kind == H5T_INTEGER && H5Tget_sign(type.get()) == H5T_SGN_2) layout.number = StoredChunkLayout::Number::signedInteger;
  else if (kind == H5T_INTEGER) layout.number = StoredChunkLayout::Number::unsignedInteger;
  else return std::nullopt;
  const Handle space(H5Dget_space(dataset), H5Sclose);
  layout.rank = H5Sget_simple_extent_ndims(space.get());
  std::array<hsize_t, 2> dims{1, 1};
  std::array<hsize_t, 2> chunk{1, 1};
  if (layout.rank < 1 || layout.rank > 2 || H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) != layout.rank ||
      H5Pget_chunk(plist.get(), 2, chunk.data()) != layout.rank) {
    H5Eclear2(H5E_DEFAULT);
    return std::nullopt;
  }
  layout.dims = {dims[0], dims[1]};
  layout.chunk = {chunk[0], chunk[1]};
  layout.frameAxis = shape.frameAxis;
  layout.channelAxis = shape.channelAxis;
  if (!whyNotDecodable(layout, shape.frames, shape.channels, keep.size()).empty()) return std::nullopt;
  hsize_t written = 0;  // a chunk never written reads as the fill value: libhdf5 knows it (H5S_ALL counts none)
  const std::uint64_t channelChunks = (layout.channels() + layout.chunkChannels() - 1) / layout.chunkChannels();
  if (H5Dget_num_chunks(dataset, space.get(), &written) < 0 || written != layout.slabs() * channelChunks) {
    H5Eclear2(H5E_DEFAULT);
    return std::nullopt;
  }
  return layout;
}

class Hdf5ChannelStream final : public KnownShapeChannelStream, public StoredChunkSource {
 public:
  Hdf5ChannelStream(Handle file, Handle dataset, std::string where, Hdf5Shape shape, std::vector<std::size_t> keep,
                    std::optional<double> rate, bool allowNonFinite)
      : KnownShapeChannelStream(keep.size(), shape.frames, rate), file_(std::move(file)), dataset_(std::move(dataset)),
        where_(std::move(where)), shape_(std::move(shape)), keep_(std::move(keep)), allowNonFinite_(allowNonFinite) {
    const auto held = hdf5::lock();
    type_ = Handle(H5Dget_type(dataset_.get()), H5Tclose);
    fileSpace_ = Handle(H5Dget_space(dataset_.get()), H5Sclose);
    blockFrames_ = chooseBlockFrames();
    storedLayout_ = storedLayoutOf(dataset_.get(), shape_, keep_);
  }
  ~Hdf5ChannelStream() override {
    const auto held = hdf5::lock();
    fileSpace_.reset();
    type_.reset();
    dataset_.reset();
    file_.reset();
  }
  Hdf5ChannelStream(const Hdf5ChannelStream&) = delete;
  Hdf5ChannelStream& operator=(const Hdf5ChannelStream&) = delete;

  // What reading meets first, met before the stream is handed on (in the child process): every node
  // of the chunk index (H5Dget_num_chunks walks it; with H5S_ALL libhdf5 1.10.8 counts none and walks
  // nothing) and, where the library decodes the chunks, the first block through the filters.
  void readStructure() {
    {
      const auto held = hdf5::lock();
      const Handle plist(H5Dget_create_plist(dataset_.get()), H5Pclose);
      hsize_t chunks = 0;
      if (H5Pget_layout(plist.get()) == H5D_CHUNKED && H5Dget_num_chunks(dataset_.get(), fileSpace_.get(), &chunks) < 0) {
        H5Eclear2(H5E_DEFAULT);  // the read meets it again, and says so
      }
    }
    if (shape_.frames > 0 && !storedLayout_) loadBlock(0);
  }

  const std::string& where() const { return where_; }

  // Where its chunks can be sent as stored (storedLayoutOf), this stream as their source.
  StoredChunkSource* storedChunks() { return storedLayout_ ? this : nullptr; }
  const StoredChunkLayout& storedLayout() const override { return *storedLayout_; }
  std::span<const std::size_t> keptChannels() const override { return keep_; }

  std::uint32_t readStoredChunk(const std::array<std::uint64_t, 2>& offset, std::vector<unsigned char>& bytes) override {
    samplesAboutToBeRead(offset[static_cast<std::size_t>(shape_.frameAxis)] == 0);
    const auto held = hdf5::lock();
    const std::array<hsize_t, 2> at{offset[0], offset[1]};
    hsize_t size = 0;
    std::uint32_t skipped = 0;
    std::string why;
    if (H5Dget_chunk_storage_size(dataset_.get(), at.data(), &size) < 0) {
      why = hdf5::lastError();
    } else if (size > maxStoredBytes(*storedLayout_)) {
      why = "it claims " + std::to_string(size) + " bytes, more than its " + std::to_string(storedLayout_->chunkBytes()) + " compress to";
    } else {
      bytes.resize(static_cast<std::size_t>(size));
      if (H5Dread_chunk(dataset_.get(), H5P_DEFAULT, at.data(), &skipped, bytes.data()) >= 0) return skipped;
      why = hdf5::lastError();
    }
    const std::uint64_t first = offset[static_cast<std::size_t>(shape_.frameAxis)];
    throw InputError(where_, "cannot read its chunk at frame " + std::to_string(first + 1) + " (the file is damaged): " + why);
  }


 protected:
  void fillFrames(std::span<const std::span<double>> out, std::size_t n) override {
    for (std::uint64_t next = nextFrame(), done = 0; done < n;) {
      if (next >= blockFirst_ + blockCount_) loadBlock(next);
      const std::size_t at = static_cast<std::size_t>(next - blockFirst_);
      const std::size_t take = std::min<std::size_t>(n - done, blockCount_ - at);
      for (std::size_t c = 0; c < keep_.size(); ++c) {
        std::memcpy(out[c].data() + done, block_.data() + c * blockCount_ + at, take * sizeof(double));
      }
      done += take;
      next += take;
    }
  }

 private:
  // About 8 MiB of samples a read, rounded up to whole chunks along the frames.
  std::size_t chooseBlockFrames() const {
    const std::uint64_t target = std::max<std::uint64_t>(1, (std::uint64_t{1} << 20) / keep_.size());
    const Handle plist(H5Dget_create_plist(dataset_.get()), H5Pclose);
    std::uint64_t chunkFrames = 1;
    if (H5Pget_layout(plist.get()) == H5D_CHUNKED) {
      std::array<hsize_t, 2> chunk{1, 1};
      H5Pget_chunk(plist.get(), 2, chunk.data());
      chunkFrames = chunk[static_cast<std::size_t>(shape_.frameAxis)];
    }
    std::uint64_t frames = (target + chunkFrames - 1) / chunkFrames * chunkFrames;
    if (frames * keep_.size() > (std::uint64_t{8} << 20)) frames = target;  // huge chunks: the chunk cache serves
    return static_cast<std::size_t>(std::max<std::uint64_t>(1, std::min(frames, shape_.frames)));
  }

  void loadBlock(std::uint64_t first) {
    samplesAboutToBeRead(first == 0);
    const auto held = hdf5::lock();
    const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(blockFrames_, shape_.frames - first));
    const bool one = keep_.size() == 1;
    const std::size_t width = keep_.size();  // all channels, or the one picked
    std::array<hsize_t, 2> start{0, 0};
    std::array<hsize_t, 2> extent{1, 1};
    const auto f = static_cast<std::size_t>(shape_.frameAxis);
    start[f] = first;
    extent[f] = count;
    if (shape_.channelAxis >= 0) {
      const auto c = static_cast<std::size_t>(shape_.channelAxis);
      start[c] = one ? keep_.front() : 0;
      extent[c] = width;
    }
    const int rank = shape_.channelAxis >= 0 ? 2 : 1;
    block_.resize(count * width);
    const bool interleaved = rank == 2 && shape_.frameAxis == 0 && width > 1;
    if (interleaved) scratch_.resize(count * width);
    double* into = interleaved ? scratch_.data() : block_.data();  // channel-major: already planar
    const Handle memory(H5Screate_simple(rank, extent.data(), nullptr), H5Sclose);
    if (H5Sselect_hyperslab(fileSpace_.get(), H5S_SELECT_SET, start.data(), nullptr, extent.data(), nullptr) < 0 ||
        H5Dread(dataset_.get(), H5T_NATIVE_DOUBLE, memory.get(), fileSpace_.get(), H5P_DEFAULT, into) < 0) {
      throw InputError(where_, "cannot read frames " + std::to_string(first + 1) + " to " +
                                   std::to_string(first + count) + " (the file is damaged or cut short): " +
                                   hdf5::lastError());
    }
    if (interleaved) {
      std::vector<std::span<double>> planar(width);
      for (std::size_t c = 0; c < width; ++c) planar[c] = std::span(block_).subspan(c * count, count);
      deinterleaveFrames(scratch_.data(), count, planar);
    }
    if (!allowNonFinite_) {
      for (std::size_t c = 0; c < width; ++c) requireFinite(std::span(block_).subspan(c * count, count), where_, first);
    }
    blockFirst_ = first;
    blockCount_ = count;
  }

  Handle file_;
  Handle dataset_;
  Handle type_;
  Handle fileSpace_;
  std::string where_;
  Hdf5Shape shape_;
  std::vector<std::size_t> keep_;
  bool allowNonFinite_;
  std::size_t blockFrames_ = 1;
  std::uint64_t blockFirst_ = 0;
  std::size_t blockCount_ = 0;
  std::vector<double> block_;    // planar: channel c at c * blockCount_
  std::vector<double> scratch_;  // frame-major frames as read
  std::optional<StoredChunkLayout> storedLayout_;
};

}  // namespace

std::vector<DatasetEntry> listHdf5Datasets(const std::string& path, Hdf5Layout layout) {
  const auto held = hdf5::lock();
  const Handle file = openFile(path);
  return listSignals(file.get(), layout, path);
}

namespace {

std::unique_ptr<Hdf5ChannelStream> openStream(const std::string& path, const ReadOptions& options, Hdf5Layout layout) {
  if (options.sampleRate) checkSampleRate(*options.sampleRate);
  const auto held = hdf5::lock();
  Handle file = openFile(path);
  const char* word = layout == Hdf5Layout::matlab ? "variable" : "dataset";
  std::string name = options.dataset;
  Handle dataset;
  if (name.empty()) {
    name = chooseDataset(listSignals(file.get(), layout, path), name, path, word).name;
  }
  Handle object(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object) {
    H5Eclear2(H5E_DEFAULT);
    chooseDataset(listSignals(file.get(), layout, path), name, path, word);  // throws, listing what there is
  }
  const std::string where = path + ":" + name;
  if (H5Iget_type(object.get()) != H5I_DATASET) {
    throw InputError(where, layout == Hdf5Layout::matlab ? "a MATLAB struct or other group, not a numeric matrix"
                                                         : "a group, not a dataset (its numeric datasets: " +
                                                               describeDatasets(listSignals(file.get(), layout, path)) + ")");
  }
  dataset = Handle(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  Hdf5Shape shape;
  if (const std::string why = whyNotSignal(dataset.get(), layout, shape); !why.empty()) throw InputError(where, why);
  requireFilters(dataset.get(), where);
  requireSaneSizes(dataset.get(), shape, path, where);
  std::vector<std::size_t> keep = datasetChannelsToKeep(options, shape.channels, where);
  const std::optional<double> rate =
      options.sampleRate ? options.sampleRate
                         : (layout == Hdf5Layout::plain ? rateAttribute(dataset.get(), options.rateAttribute, where)
                                                        : std::nullopt);
  return std::make_unique<Hdf5ChannelStream>(std::move(file), std::move(dataset), where, std::move(shape),
                                             std::move(keep), rate, options.allowNonFinite);
}

}  // namespace

std::unique_ptr<ChannelStream> openHdf5ChannelStream(const std::string& path, const ReadOptions& options,
                                                     Hdf5Layout layout) {
  if (options.sampleRate) checkSampleRate(*options.sampleRate);
  // Everything libhdf5 does with the file (its header, the rate attribute, the samples) happens in
  // the child: the library reads past its buffers on some damaged files (fuzz/corpus/hdf5/regression-h5*).
  return openChannelStreamInChild(path, "HDF5", options, [&](const ReadOptions& chosen) {
    std::unique_ptr<Hdf5ChannelStream> stream = openStream(path, chosen, layout);
    stream->readStructure();
    std::string where = stream->where();
    StoredChunkSource* stored = stream->storedChunks();
    return NamedChannelStream{std::move(stream), std::move(where), stored};
  });
}

}  // namespace siglab
