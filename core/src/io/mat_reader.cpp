// MATLAB v5 variables through matio, read whole (v7.3 files are HDF5: hdf5_reader.cpp streams them).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include <zlib.h>

#include "dataset_formats.hpp"
#include "known_shape_stream.hpp"
#include "mat_support.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/sample_rate.hpp"

namespace siglab {
namespace {

std::string typeName(const matvar_t& v) {
  switch (v.class_type) {
    case MAT_C_DOUBLE: return "float64";
    case MAT_C_SINGLE: return "float32";
    case MAT_C_INT8: return "int8";
    case MAT_C_UINT8: return v.isLogical ? "logical" : "uint8";
    case MAT_C_INT16: return "int16";
    case MAT_C_UINT16: return "uint16";
    case MAT_C_INT32: return "int32";
    case MAT_C_UINT32: return "uint32";
    case MAT_C_INT64: return "int64";
    case MAT_C_UINT64: return "uint64";
    default: return {};
  }
}

// Why variable `v` is not a numeric vector or matrix SigLab reads; empty when it is.
std::string whyNotSignal(const matvar_t& v) {
  switch (v.class_type) {
    case MAT_C_CELL: return "a MATLAB cell array, not a numeric matrix";
    case MAT_C_STRUCT: return "a MATLAB struct, not a numeric matrix";
    case MAT_C_OBJECT:
    case MAT_C_OPAQUE: return "a MATLAB object, not a numeric matrix";
    case MAT_C_CHAR: return "MATLAB text (char), not a numeric matrix";
    case MAT_C_SPARSE: return "a sparse matrix (save full(x) instead)";
    case MAT_C_FUNCTION: return "a MATLAB function handle, not a numeric matrix";
    case MAT_C_EMPTY: return "an empty MATLAB matrix";
    default: break;
  }
  if (typeName(v).empty()) return "of a MATLAB class SigLab does not read";
  if (v.isComplex) return "a complex matrix (SigLab reads real signals)";
  if (v.rank != 2) return "is " + std::to_string(v.rank) + "-D; SigLab reads vectors and 2-D samples x channels";
  if (v.dims[0] == 0 || v.dims[1] == 0) return "an empty MATLAB matrix";
  return {};
}

DatasetEntry entryOf(const matvar_t& v) {
  const std::uint64_t rows = v.dims[0];
  const std::uint64_t columns = v.dims[1];
  const bool vector = rows == 1 || columns == 1;
  return {v.name ? v.name : "", {rows, columns}, typeName(v), vector ? rows * columns : rows, vector ? 1 : columns};
}

// Reads `size` bytes at `offset` of a matrix's contents; false where they are not there.
using PartReader = std::function<bool(void* into, std::size_t size, std::uint64_t offset)>;

// A matrix's parts (array flags, dimensions, name) lie within its `bytes`, and a numeric matrix's
// samples (the real part) hold as many values as its dimensions say: matio allocates what the
// dimensions claim and fills only what the file holds (found by fuzz-mat: a 280-byte file read as
// 3 x 33554436 samples), or what a damaged dimensions tag claims (4 GiB). Throws through `fail`.
void requireWholeParts(const PartReader& read, std::uint64_t bytes, const std::function<void(const std::string&)>& fail) {
  std::uint64_t at = 0;
  std::uint32_t arrayClass = 0;
  std::uint64_t values = 1;
  std::uint64_t samples = 0;  // what the real part holds, in values of its stored type (none: not numeric)
  for (int part = 0; part < 4 && at + 8 <= bytes; ++part) {
    std::array<std::uint32_t, 2> tag{};
    if (!read(tag.data(), 8, at)) return;  // the element check says why
    const bool small = (tag[0] >> 16) != 0;  // type and size in the tag's first word, data in its second
    const std::uint64_t length = small ? 0 : (std::uint64_t{tag[1]} + 7) / 8 * 8;
    if (at + 8 + length > bytes) {
      fail("a part of its header claims " + std::to_string(tag[1]) + " bytes, more than the variable's " +
           std::to_string(bytes));
    }
    if (part == 0 && (small || tag[0] != MAT_T_UINT32 || tag[1] != 8)) {
      fail("its array flags are damaged (matio reads them as 8 bytes of uint32)");  // and the parts after them from there
    }
    std::array<std::uint32_t, 8> words{};
    const std::size_t wordCount = small ? 1 : std::min<std::size_t>(words.size(), tag[1] / 4);
    if (small) words[0] = tag[1];
    else if (!read(words.data(), wordCount * 4, at + 8)) return;
    if (part == 0) arrayClass = words[0] & 0xff;
    if (part == 1) {
      for (std::size_t d = 0; d < wordCount; ++d) {
        if (__builtin_mul_overflow(values, std::uint64_t{words[d]}, &values)) values = UINT64_MAX;
      }
    }
    if (part == 3) {
      const std::uint32_t stored = small ? (tag[0] & 0xffff) : tag[0];  // any number: not cast to the enum unchecked
      const std::uint64_t storedBytes = small ? (tag[0] >> 16) : tag[1];
      const std::size_t size = stored <= MAT_T_UINT64 ? Mat_SizeOf(static_cast<matio_types>(stored)) : 0;
      samples = size > 0 ? storedBytes / size : 0;
    }
    at += 8 + length;
  }
  const bool numeric = arrayClass >= MAT_C_DOUBLE && arrayClass <= MAT_C_UINT64;
  if (numeric && samples < values) {
    fail("its dimensions say " + std::to_string(values) + " values, its samples hold " + std::to_string(samples));
  }
}

// A compressed element inflated: its first bytes (the matrix's tag and header parts) and the length
// of all it inflates to, without keeping the rest; `complete` when the stream ends as deflate's do.
struct InflatedElement {
  std::string head;
  std::uint64_t length = 0;
  bool complete = false;
};

InflatedElement inflateElement(int fd, std::uint64_t first, std::uint64_t bytes) {
  constexpr std::size_t kHead = 1 << 16;
  InflatedElement inflated;
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return inflated;
  std::vector<unsigned char> in(1 << 16);
  std::vector<unsigned char> out(1 << 16);
  std::uint64_t consumed = 0;
  for (int status = Z_OK; status != Z_STREAM_END;) {
    if (z.avail_in == 0) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), bytes - consumed));
      if (n == 0 || ::pread(fd, in.data(), n, static_cast<off_t>(first + consumed)) != static_cast<ssize_t>(n)) break;
      consumed += n;
      z.next_in = in.data();
      z.avail_in = static_cast<uInt>(n);
    }
    z.next_out = out.data();
    z.avail_out = static_cast<uInt>(out.size());
    status = inflate(&z, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) break;
    const std::size_t produced = out.size() - z.avail_out;
    inflated.head.append(reinterpret_cast<const char*>(out.data()), std::min(produced, kHead - inflated.head.size()));
    inflated.length += produced;
    inflated.complete = status == Z_STREAM_END;
  }
  inflateEnd(&z);
  return inflated;
}

// A compressed element holds one matrix whose parts and samples are checked as an uncompressed one's,
// within what the stream inflates to (matio fills a stream that ends early with zeros).
void requireWholeCompressed(int fd, std::uint64_t first, std::uint64_t bytes,
                            const std::function<void(const std::string&)>& fail) {
  const InflatedElement inflated = inflateElement(fd, first, bytes);
  if (!inflated.complete) fail("its compressed data is damaged or cut short");
  std::array<std::uint32_t, 2> tag{};
  if (inflated.head.size() < 8) fail("its compressed data holds no variable");
  std::memcpy(tag.data(), inflated.head.data(), 8);
  if (tag[0] != MAT_T_MATRIX) return;  // matio says what it is
  if (tag[1] > inflated.length - 8) {
    fail("it claims " + std::to_string(tag[1]) + " bytes, its compressed data holds " + std::to_string(inflated.length - 8));
  }
  const std::string& head = inflated.head;
  requireWholeParts(
      [&](void* into, std::size_t size, std::uint64_t offset) {
        if (8 + offset + size > head.size()) return false;
        std::memcpy(into, head.data() + 8 + offset, size);
        return true;
      },
      tag[1], fail);
}

// A v5 file whose last element runs past its end (cut short) is refused before matio reads it:
// every element's tag says how many bytes follow it.
void requireWholeElements(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, "cannot open it: " + std::string(std::strerror(errno)));
  struct stat info {};
  ::fstat(fd, &info);
  const auto size = static_cast<std::uint64_t>(info.st_size);
  std::uint64_t at = 128;  // the text header
  for (std::size_t element = 1; at < size; ++element) {
    std::array<std::uint32_t, 2> tag{};
    if (size - at < 8 || ::pread(fd, tag.data(), 8, static_cast<off_t>(at)) != 8) {
      ::close(fd);
      throw InputError(path, "the file is cut short inside variable " + std::to_string(element) + "'s header");
    }
    std::uint64_t next = at + 8 + tag[1];
    if ((tag[0] >> 16) != 0) next = at + 8;                // a small element: tag and data in 8 bytes
    else if (tag[0] != MAT_T_COMPRESSED) next = (next + 7) / 8 * 8;  // padded to 8 bytes
    if (next > size + ((tag[0] == MAT_T_COMPRESSED) ? 0 : 7)) {
      ::close(fd);
      throw InputError(path, "the file is cut short: variable " + std::to_string(element) + " needs " +
                                 std::to_string(next - at) + " bytes, " + std::to_string(size - at) + " are left");
    }
    const auto fail = [&](const std::string& why) {
      ::close(fd);
      throw InputError(path, "variable " + std::to_string(element) + " is damaged: " + why);
    };
    const std::uint64_t first = at + 8;
    if (tag[0] == MAT_T_MATRIX) {
      requireWholeParts(
          [&](void* into, std::size_t count, std::uint64_t offset) {
            return ::pread(fd, into, count, static_cast<off_t>(first + offset)) == static_cast<ssize_t>(count);
          },
          tag[1], fail);
    } else if (tag[0] == MAT_T_COMPRESSED) {
      requireWholeCompressed(fd, first, tag[1], fail);
    }
    at = next;
  }
  ::close(fd);
}

mat::File openFile(const std::string& path) {
  requireWholeElements(path);
  mat::File file(Mat_Open(path.c_str(), MAT_ACC_RDONLY));
  if (!file) throw InputError(path, "cannot open it as a MATLAB .mat file: " + mat::takeLastMessage());
  return file;
}

std::vector<DatasetEntry> listSignals(mat_t* file) {
  std::vector<DatasetEntry> entries;
  Mat_Rewind(file);
  while (true) {
    const mat::Variable v(Mat_VarReadNextInfo(file));
    if (!v) break;
    if (whyNotSignal(*v.get()).empty()) entries.push_back(entryOf(*v.get()));
  }
  mat::takeLastMessage();
  return entries;
}

template <typename T>
void convert(const void* data, std::size_t first, std::size_t count, double* out) {
  const T* in = static_cast<const T*>(data) + first;
  for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(in[i]);
}

// The variable's samples as float64, column-major (channel after channel), handed to `sink` in blocks.
void sendSamples(const matvar_t& v, const std::string& where, const SampleBlockSink& sink) {
  const std::size_t count = static_cast<std::size_t>(v.dims[0]) * v.dims[1];
  if (!v.data) throw InputError(where, "matio read no data for it (the file is damaged): " + mat::takeLastMessage());
  if (typeName(v).empty()) throw InputError(where, whyNotSignal(v));
  // matio converts to the class's type; check it held that many bytes (a damaged element holds fewer).
  if (v.nbytes < count * Mat_SizeOf(v.data_type) && v.data_type != MAT_T_UNKNOWN) {
    throw InputError(where, "the variable holds fewer samples than its shape says (the file is damaged)");
  }
  constexpr std::size_t kBlock = 1 << 16;
  std::vector<double> block(std::min(count, kBlock));
  for (std::size_t first = 0; first < count; first += kBlock) {
    const std::size_t n = std::min(kBlock, count - first);
    double* out = block.data();
    switch (v.class_type) {
      case MAT_C_DOUBLE: convert<double>(v.data, first, n, out); break;
      case MAT_C_SINGLE: convert<float>(v.data, first, n, out); break;
      case MAT_C_INT8: convert<std::int8_t>(v.data, first, n, out); break;
      case MAT_C_UINT8: convert<std::uint8_t>(v.data, first, n, out); break;
      case MAT_C_INT16: convert<std::int16_t>(v.data, first, n, out); break;
      case MAT_C_UINT16: convert<std::uint16_t>(v.data, first, n, out); break;
      case MAT_C_INT32: convert<std::int32_t>(v.data, first, n, out); break;
      case MAT_C_UINT32: convert<std::uint32_t>(v.data, first, n, out); break;
      case MAT_C_INT64: convert<std::int64_t>(v.data, first, n, out); break;
      case MAT_C_UINT64: convert<std::uint64_t>(v.data, first, n, out); break;
      default: break;  // refused above
    }
    sink(std::span<const double>(out, n));
  }
}

// Planar channels held in memory, handed out block by block.
class MatChannelStream final : public KnownShapeChannelStream {
 public:
  MatChannelStream(std::vector<double> samples, std::uint64_t frames, std::vector<std::size_t> keep,
                   std::optional<double> rate)
      : KnownShapeChannelStream(keep.size(), frames, rate), samples_(std::move(samples)), keep_(std::move(keep)) {}

 protected:
  void fillFrames(std::span<const std::span<double>> out, std::size_t n) override {
    for (std::size_t c = 0; c < keep_.size(); ++c) {
      std::memcpy(out[c].data(), samples_.data() + keep_[c] * frames() + nextFrame(), n * sizeof(double));
    }
  }

 private:
  std::vector<double> samples_;
  std::vector<std::size_t> keep_;
};

}  // namespace

std::vector<DatasetEntry> listMatVariables(const std::string& path) {
  const auto held = mat::lock();
  const mat::File file = openFile(path);
  return listSignals(file.get());
}

std::unique_ptr<ChannelStream> openMatChannelStream(const std::string& path, const ReadOptions& options) {
  if (options.sampleRate) checkSampleRate(*options.sampleRate);
  const auto held = mat::lock();
  const mat::File file = openFile(path);
  std::string name = options.dataset;
  if (name.empty()) name = chooseDataset(listSignals(file.get()), name, path, "variable").name;
  const mat::Variable info(Mat_VarReadInfo(file.get(), name.c_str()));
  if (!info) {
    mat::takeLastMessage();
    chooseDataset(listSignals(file.get()), name, path, "variable");  // throws, listing what there is
    throw InputError(path + ":" + name, "cannot read its header (the file is damaged)");  // listed, yet unreadable
  }
  const std::string where = path + ":" + name;
  if (const std::string why = whyNotSignal(*info.get()); !why.empty()) throw InputError(where, why);
  const DatasetEntry entry = entryOf(*info.get());
  // A damaged header may claim any size: refused before matio allocates it (deflate packs at most
  // about 1032:1, so more than 1024 bytes of samples a byte of file is not a real file).
  struct stat file_info {};
  const std::uint64_t fileBytes = ::stat(path.c_str(), &file_info) == 0 ? static_cast<std::uint64_t>(file_info.st_size) : 0;
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(info->dims[0], info->dims[1], &bytes) ||
      __builtin_mul_overflow(bytes, std::uint64_t{Mat_SizeOfClass(info->class_type)}, &bytes) ||
      bytes / 1024 > fileBytes + (std::uint64_t{1} << 20)) {
    throw InputError(where, "claims more samples than a file of " + std::to_string(fileBytes) +
                                " bytes holds (the file is damaged)");
  }
  std::vector<std::size_t> keep = datasetChannelsToKeep(options, entry.channels, where);
  // Read whole in a child process (its data may be damaged where its header is not), the lock held:
  // the child calls matio without taking it.
  const auto count = static_cast<std::size_t>(info->dims[0] * info->dims[1]);
  std::vector<double> samples = readSamplesInChild(where, "matio", count, [&](const SampleBlockSink& sink) {
    samplesAboutToBeRead();
    const mat::Variable whole(Mat_VarRead(file.get(), name.c_str()));
    if (!whole) throw InputError(where, "cannot read it (the file is damaged): " + mat::takeLastMessage());
    sendSamples(*whole.get(), where, sink);
  });
  if (!options.allowNonFinite) requireFinite(samples, where);
  return std::make_unique<MatChannelStream>(std::move(samples), entry.frames, std::move(keep), options.sampleRate);
}

}  // namespace siglab
