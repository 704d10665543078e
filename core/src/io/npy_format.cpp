#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "binary_layout.hpp"

namespace siglab {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

std::uint64_t readLittleEndian(Bytes bytes, std::size_t at, std::size_t size) {
  std::uint64_t value = 0;
  for (std::size_t i = size; i-- > 0;) value = (value << 8) | std::to_integer<std::uint64_t>(bytes[at + i]);
  return value;
}

// The value text after `'key':` in the header dictionary, or nullopt when the key is absent.
std::optional<std::string_view> valueOf(std::string_view dict, std::string_view key) {
  for (const char quote : {'\'', '"'}) {
    const std::string quoted = std::string(1, quote) + std::string(key) + quote;
    std::size_t at = dict.find(quoted);
    if (at == std::string_view::npos) continue;
    at = dict.find(':', at + quoted.size());
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view value = dict.substr(at + 1);
    while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    return value;
  }
  return std::nullopt;
}

SampleType parseDescr(std::string_view value, const std::string& path) {
  if (value.empty() || (value.front() != '\'' && value.front() != '"')) {
    throw InputError(path, ".npy dtype is not a simple type (structured arrays are not supported)");
  }
  const std::size_t close = value.find(value.front(), 1);
  if (close == std::string_view::npos) throw InputError(path, ".npy header is malformed: unterminated dtype");
  const std::string_view descr = value.substr(1, close - 1);
  if (descr.size() < 3) throw InputError(path, ".npy dtype " + quoteExcerpt(descr) + " is not supported");
  const char order = descr[0];
  const std::string_view kind = descr.substr(1);
  static constexpr std::pair<std::string_view, SampleType> kKinds[] = {
      {"f8", SampleType::f64}, {"f4", SampleType::f32}, {"i1", SampleType::i8},  {"i2", SampleType::i16},
      {"i4", SampleType::i32}, {"i8", SampleType::i64}, {"u1", SampleType::u8},  {"u2", SampleType::u16},
      {"u4", SampleType::u32}, {"u8", SampleType::u64}, {"b1", SampleType::u8}};
  for (const auto& [name, type] : kKinds) {
    if (kind != name) continue;
    if (order == '>' && sampleSize(type) > 1) {
      throw InputError(path, ".npy data is big-endian (" + quoteExcerpt(descr) +
                                 "); only little-endian is supported: save it with arr.astype('<" +
                                 std::string(kind) + "')");
    }
    if (order != '<' && order != '|' && order != '=' && order != '>') break;
    return type;
  }
  throw InputError(path, ".npy dtype " + quoteExcerpt(descr) +
                             " is not supported: expected float64, float32 or an integer type");
}

std::vector<std::uint64_t> parseShape(std::string_view value, const std::string& path) {
  const std::size_t close = value.find(')');
  if (value.empty() || value.front() != '(' || close == std::string_view::npos) {
    throw InputError(path, ".npy header is malformed: no shape tuple");
  }
  const std::string_view tuple = value.substr(0, close + 1);
  std::vector<std::uint64_t> dims;
  const char* p = tuple.data() + 1;
  const char* const end = tuple.data() + tuple.size() - 1;
  while (p < end) {
    while (p < end && (*p == ' ' || *p == ',')) ++p;
    if (p == end) break;
    std::uint64_t dim = 0;
    const auto [stop, ec] = std::from_chars(p, end, dim);
    if (ec != std::errc()) throw InputError(path, ".npy shape " + quoteExcerpt(tuple) + " is not a tuple of sizes");
    dims.push_back(dim);
    p = stop;
    if (p < end && *p == 'L') ++p;  // Python 2's long suffix
  }
  return dims;
}

std::string shapeText(std::string_view value) { return std::string(value.substr(0, value.find(')') + 1)); }

// What the header says, checked only for being well formed.
struct NpyHeaderFields {
  SampleType type = SampleType::f64;
  bool fortran = false;
  std::vector<std::uint64_t> dims;
  std::string shape;  // as written, for messages
  std::uint64_t dataStart = 0;
};

NpyHeaderFields readNpyHeader(Bytes file, const std::string& path) {
  if (file.empty()) throw InputError(path, "the file is empty: expected a .npy array");
  const std::size_t compared = std::min(file.size(), kMagic.size());
  if (std::memcmp(file.data(), kMagic.data(), compared) != 0) {
    throw InputError(path, "not a .npy file: it does not start with \\x93NUMPY");
  }
  if (file.size() < 10) throw InputError(path, "truncated .npy file: the header is incomplete");
  const auto major = std::to_integer<int>(file[6]);
  const auto minor = std::to_integer<int>(file[7]);
  if (major < 1 || major > 3) {
    throw InputError(path, ".npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                               " is not supported (1.0 to 3.0 are)");
  }
  const std::size_t lengthSize = major == 1 ? 2 : 4;
  if (file.size() < 8 + lengthSize) throw InputError(path, "truncated .npy file: the header is incomplete");
  const std::uint64_t headerLength = readLittleEndian(file, 8, lengthSize);
  const std::uint64_t dataStart = 8 + lengthSize + headerLength;
  if (dataStart > file.size()) {
    throw InputError(path, "truncated .npy file: the header claims " + std::to_string(headerLength) +
                               " bytes but the file ends before them");
  }
  const std::string_view dict(reinterpret_cast<const char*>(file.data()) + 8 + lengthSize, headerLength);

  const auto descr = valueOf(dict, "descr");
  const auto fortran = valueOf(dict, "fortran_order");
  const auto shape = valueOf(dict, "shape");
  if (!descr || !fortran || !shape) {
    throw InputError(path, ".npy header lacks 'descr', 'fortran_order' or 'shape': " + quoteExcerpt(dict, 80));
  }
  NpyHeaderFields fields;
  fields.type = parseDescr(*descr, path);
  fields.fortran = fortran->starts_with("True");
  if (!fields.fortran && !fortran->starts_with("False")) {
    throw InputError(path, ".npy header is malformed: fortran_order is not True or False");
  }
  fields.dims = parseShape(*shape, path);
  fields.shape = shapeText(*shape);
  fields.dataStart = dataStart;
  return fields;
}

// `count` samples of `type` from `dataStart`: exactly what the file holds after its header.
void checkNpyDataSize(Bytes file, const std::string& path, SampleType type, std::uint64_t count,
                      std::uint64_t dataStart) {
  const std::uint64_t available = file.size() - dataStart;
  const std::size_t size = sampleSize(type);
  const std::string claim = "the header says " + std::to_string(count) + " samples of " + std::to_string(size) + " bytes";
  if (count > available / size) {
    const bool countable = count <= std::numeric_limits<std::uint64_t>::max() / size;
    throw InputError(path, "truncated .npy file: " + claim + " but only " + std::to_string(available) +
                               " bytes of data follow it" +
                               (countable ? " (" + std::to_string(count * size - available) + " bytes missing)" : ""));
  }
  if (count * size != available) {
    throw InputError(path, claim + " (" + std::to_string(count * size) + " bytes) but " + std::to_string(available) +
                               " bytes of data follow it");
  }
}

}  // namespace

BinaryLayout locateNpyData(Bytes file, const std::string& path) {
  const NpyHeaderFields header = readNpyHeader(file, path);
  if (header.fortran) {
    throw InputError(path, ".npy array is in Fortran order; only C order is supported: save np.ascontiguousarray(arr)");
  }
  const auto& dims = header.dims;
  if (!(dims.size() == 1 || (dims.size() == 2 && dims[1] == 1))) {
    throw InputError(path, ".npy array has shape " + quoteExcerpt(header.shape) +
                               ": expected one dimension, (N,) or (N, 1)");
  }
  const std::uint64_t count = dims[0];
  if (count == 0) throw InputError(path, "the .npy array holds no samples");
  checkNpyDataSize(file, path, header.type, count, header.dataStart);
  return BinaryLayout{header.type, count, header.dataStart};
}

NpyArray locateNpyArray(Bytes file, const std::string& path) {
  const NpyHeaderFields header = readNpyHeader(file, path);
  const auto& dims = header.dims;
  if (dims.empty() || dims.size() > 2) {
    throw InputError(path, ".npy array has shape " + quoteExcerpt(header.shape) +
                               ": expected (N,) or (N, C): N frames of C channels");
  }
  NpyArray array;
  array.rows = dims[0];
  array.columns = dims.size() == 2 ? dims[1] : 1;
  array.fortran = header.fortran && dims.size() == 2;
  if (array.rows == 0 || array.columns == 0) throw InputError(path, "the .npy array holds no samples");
  if (array.rows > std::numeric_limits<std::uint64_t>::max() / array.columns) {
    throw InputError(path, ".npy array has shape " + quoteExcerpt(header.shape) + ": more samples than can be counted");
  }
  const std::uint64_t count = array.rows * array.columns;
  checkNpyDataSize(file, path, header.type, count, header.dataStart);
  array.data = BinaryLayout{header.type, count, header.dataStart};
  return array;
}

SampleVector parseNpy(Bytes file, const std::string& path, bool allowNonFinite, const Progress& progress,
                      std::pmr::memory_resource* memory) {
  const BinaryLayout data = locateNpyData(file, path);
  return convertSamples(file.subspan(data.offset), data.type, data.count, path, allowNonFinite, progress, memory);
}

std::string npyHeader(std::uint64_t count) { return npyHeaderForShape(std::string(1, '(').append(std::to_string(count)).append(",)")); }

std::string npyHeader(std::uint64_t rows, std::uint64_t columns) {
  return npyHeaderForShape(std::string(1, '(').append(std::to_string(rows)).append(", ").append(std::to_string(columns)).append(")"));
}

std::string npyHeaderForShape(const std::string& shape) {
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version and length take 10 bytes; pad with blanks and a newline to a multiple of 64.
  const std::size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string header(kMagic);
  header += '\x01';
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xFF);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

}  // namespace siglab
