#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>

#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::span<const std::byte> asBytes(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

template <typename T>
std::string bytesOf(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// A .npy file as NumPy writes it: magic, version, header length (2 bytes in version 1, 4 after),
// the dictionary padded with blanks and a newline to `alignment`, then the data.
std::string npyFile(int major, const std::string& dict, const std::string& data, std::size_t alignment = 64) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((prefix + header.size() + 1) % alignment != 0) header += ' ';
  header += '\n';
  std::string file = "\x93NUMPY";
  file += static_cast<char>(major);
  file += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) file += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return file + header + data;
}

std::string dictFor(const std::string& descr, const std::string& shape, const std::string& fortran = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }";
}

std::string npyError(const std::string& file) {
  try {
    parseNpy(asBytes(file), "x.npy");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Npy, ReadsEveryVersionTypeAndShape) {
  const std::vector<double> f8 = {1.5, -2.25, 1e300, std::numeric_limits<double>::denorm_min()};
  for (int major : {1, 2, 3}) {
    for (std::size_t alignment : {16u, 64u}) {
      EXPECT_EQ(parseNpy(asBytes(npyFile(major, dictFor("<f8", "(4,)"), bytesOf(f8), alignment)), "x.npy"), f8);
    }
  }
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("<f8", "(4, 1)"), bytesOf(f8))), "x.npy"), f8);
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, "{\"descr\":\"<f8\",\"fortran_order\":False,\"shape\":(4,)}", bytesOf(f8))), "x.npy"), f8);
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("<f4", "(2,)"), bytesOf(std::vector<float>{0.5f, -3.0f}))), "x.npy"),
            (std::vector<double>{0.5, -3.0}));
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("<i2", "(3,)"), bytesOf(std::vector<std::int16_t>{-32768, 0, 32767}))), "x.npy"),
            (std::vector<double>{-32768.0, 0.0, 32767.0}));
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("<i4", "(2,)"), bytesOf(std::vector<std::int32_t>{-7, 1 << 30}))), "x.npy"),
            (std::vector<double>{-7.0, 1073741824.0}));
  EXPECT_EQ(parseNpy(asBytes(npyFile(2, dictFor("<i8", "(1,)"), bytesOf(std::vector<std::int64_t>{-(std::int64_t{1} << 40)}))), "x.npy"),
            (std::vector<double>{-1099511627776.0}));
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("|u1", "(3,)"), std::string("\x00\x7f\xff", 3))), "x.npy"),
            (std::vector<double>{0.0, 127.0, 255.0}));
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("<u2", "(1,)"), bytesOf(std::vector<std::uint16_t>{65535}))), "x.npy"),
            (std::vector<double>{65535.0}));
}

TEST(Npy, RejectsWhatItCannotReadWithAReason) {
  const std::string data = bytesOf(std::vector<double>{1.0, 2.0, 3.0});
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(3,)", "True"), data)),
            "x.npy: .npy array is in Fortran order; only C order is supported: save np.ascontiguousarray(arr)");
  EXPECT_EQ(npyError(npyFile(1, dictFor(">f8", "(3,)"), data)),
            "x.npy: .npy data is big-endian (\">f8\"); only little-endian is supported: save it with arr.astype('<f8')");
  EXPECT_EQ(npyError(npyFile(1, dictFor("<c16", "(3,)"), data)),
            "x.npy: .npy dtype \"<c16\" is not supported: expected float64, float32 or an integer type");
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(3, 2)"), data)),
            "x.npy: .npy array has shape \"(3, 2)\": expected one dimension, (N,) or (N, 1)");
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(0,)"), "")), "x.npy: the .npy array holds no samples");
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(4,)"), data)),
            "x.npy: truncated .npy file: the header says 4 samples of 8 bytes but only 24 bytes of data follow it "
            "(8 bytes missing)");
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(2,)"), data)),
            "x.npy: the header says 2 samples of 8 bytes (16 bytes) but 24 bytes of data follow it");
  // 64-bit sizes: a header claiming more than 2^32 samples (or an overflowing byte count) is read exactly.
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(4294967297,)"), data)),
            "x.npy: truncated .npy file: the header says 4294967297 samples of 8 bytes but only 24 bytes of data follow it "
            "(34359738352 bytes missing)");
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(9223372036854775807,)"), data)),
            "x.npy: truncated .npy file: the header says 9223372036854775807 samples of 8 bytes but only 24 bytes of data follow it");
  const std::string good = npyFile(1, dictFor("<f8", "(3,)"), data);
  EXPECT_EQ(npyError(good.substr(0, 40)), "x.npy: truncated .npy file: the header claims 118 bytes but the file ends before them");
  EXPECT_EQ(npyError(good.substr(0, 9)), "x.npy: truncated .npy file: the header is incomplete");
  EXPECT_EQ(npyError("\x93NUMPX" + good.substr(6)), "x.npy: not a .npy file: it does not start with \\x93NUMPY");
  EXPECT_EQ(npyError(""), "x.npy: the file is empty: expected a .npy array");
  std::string version4 = good;
  version4[6] = 4;
  EXPECT_EQ(npyError(version4), "x.npy: .npy format version 4.0 is not supported (1.0 to 3.0 are)");
  EXPECT_TRUE(npyError(npyFile(1, "{'descr': '<f8', 'shape': (3,)}", data))
                  .starts_with("x.npy: .npy header lacks 'descr', 'fortran_order' or 'shape': \"{'descr': '<f8', 'shape': (3,)}"));
  EXPECT_EQ(npyError(npyFile(1, dictFor("<f8", "(3,)"), bytesOf(std::vector<double>{1.0, NAN, 3.0}))),
            "x.npy: sample 2 is NaN: expected finite numbers");
  EXPECT_EQ(parseNpy(asBytes(npyFile(1, dictFor("<f8", "(1,)"), bytesOf(std::vector<double>{INFINITY}))), "x.npy", true),
            (std::vector<double>{INFINITY}));
}

TEST(Npy, WrittenFilesHaveAnAlignedVersion1HeaderAndReadBackBitForBit) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t n : {1u, 2u, 1000u, 100003u}) {
    std::vector<double> values = test::randomSignal(n, rng);
    values[0] = -0.0;
    writeSignal(dir.file("s.npy"), values);
    const std::string file = test::readFile(dir.file("s.npy"));
    const std::size_t headerLength = static_cast<unsigned char>(file[8]) | (static_cast<unsigned char>(file[9]) << 8);
    EXPECT_EQ((10 + headerLength) % 64, 0u);
    EXPECT_EQ(file.size(), 10 + headerLength + n * 8);
    const SampleVector back = readSignal(dir.file("s.npy")).samples;
    ASSERT_EQ(back.size(), n);
    EXPECT_EQ(std::memcmp(back.data(), values.data(), n * 8), 0);
  }
}

std::string rawError(const std::string& file, SampleType type, std::uint64_t offset) {
  try {
    parseRaw(asBytes(file), "x.raw", type, offset);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Raw, ReadsEachTypeAfterAnOffset) {
  const std::string junk = "HEADER";
  EXPECT_EQ(parseRaw(asBytes(junk + bytesOf(std::vector<double>{1.5, -2.0})), "x.raw", SampleType::f64, 6),
            (std::vector<double>{1.5, -2.0}));
  EXPECT_EQ(parseRaw(asBytes(bytesOf(std::vector<float>{0.25f, 8.0f})), "x.raw", SampleType::f32, 0),
            (std::vector<double>{0.25, 8.0}));
  EXPECT_EQ(parseRaw(asBytes(junk + bytesOf(std::vector<std::int16_t>{-32768, 12})), "x.raw", SampleType::i16, 6),
            (std::vector<double>{-32768.0, 12.0}));
  const std::string oneByte = "x";  // a named string: GCC 12 warns falsely (-Wrestrict) on "x" + string
  EXPECT_EQ(parseRaw(asBytes(oneByte + bytesOf(std::vector<std::int32_t>{-2147483647 - 1, 5})), "x.raw", SampleType::i32, 1),
            (std::vector<double>{-2147483648.0, 5.0}));
}

TEST(Raw, RejectsOffsetsAndSizesThatDoNotFit) {
  const std::string six = "abcdef";
  EXPECT_EQ(rawError(six, SampleType::f64, 7), "x.raw: offset 7 is past the end of the file (6 bytes)");
  EXPECT_EQ(rawError(six, SampleType::f64, 6), "x.raw: no f64 samples after offset 6");
  EXPECT_EQ(rawError(six, SampleType::i32, 0),
            "x.raw: the 6 bytes after offset 0 are not a whole number of 4-byte i32 samples (2 bytes left over)");
  EXPECT_EQ(rawError(bytesOf(std::vector<float>{1.0f, -INFINITY}), SampleType::f32, 0),
            "x.raw: sample 2 is infinite: expected finite numbers");
  EXPECT_EQ(rawError(six, SampleType::f64, std::uint64_t{1} << 40),
            "x.raw: offset 1099511627776 is past the end of the file (6 bytes)");
}

// 64-bit offsets through the whole path (file size, mapping, offset arithmetic): a sparse file of
// 5 GiB costs no disk and no memory but the last page.
TEST(Raw, ReadsPastFourGibibytesOfASparseFile) {
  test::TempDir dir;
  const std::string path = dir.file("sparse.raw");
  const std::uint64_t offset = (std::uint64_t{5} << 30) + 3;
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  const std::vector<double> tail = {3.25, -1.0};
  if (::pwrite(fd, tail.data(), 16, static_cast<off_t>(offset)) != 16) {
    ::close(fd);
    GTEST_SKIP() << "this file system cannot hold a 5 GiB sparse file";
  }
  ::close(fd);
  ReadOptions options;
  options.rawType = SampleType::f64;
  options.rawOffset = offset;
  EXPECT_EQ(readSignal(path, options).samples, tail);
  options.rawOffset = offset + 16 - 2;
  options.rawType = SampleType::i16;
  EXPECT_EQ(readSignal(path, options).samples.size(), 1u);
}

// More than 2^31 samples, end to end: a sparse file of 2^31 + 5 int8 samples becomes 16 GiB of
// doubles, so this runs only where asked (SIGLAB_LARGE_TESTS=1; scripts/gpu-check.sh sets it on a
// machine with the memory for it).
TEST(Raw, LoadsMoreThanTwoToTheThirtyOneSamples) {
  if (std::getenv("SIGLAB_LARGE_TESTS") == nullptr) {
    GTEST_SKIP() << "needs about 18 GiB of memory: set SIGLAB_LARGE_TESTS=1 to run it";
  }
  test::TempDir dir;
  const std::string path = dir.file("huge.raw");
  const std::uint64_t count = (std::uint64_t{1} << 31) + 5;
  const std::vector<std::pair<std::uint64_t, std::int8_t>> marks = {
      {0, 7}, {(std::uint64_t{1} << 31) - 1, -3}, {std::uint64_t{1} << 31, 100}, {count - 1, -128}};
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  for (const auto& [index, value] : marks) {
    ASSERT_EQ(::pwrite(fd, &value, 1, static_cast<off_t>(index)), 1);
  }
  ::close(fd);
  ReadOptions options;
  options.rawType = SampleType::i8;
  const SampleVector samples = readSignal(path, options).samples;
  ASSERT_EQ(samples.size(), count);
  for (const auto& [index, value] : marks) EXPECT_EQ(samples[index], value) << "sample " << index;
  EXPECT_EQ(samples[count - 2], 0.0);
}

TEST(Raw, WritesF64AndF32) {
  test::TempDir dir;
  const std::vector<double> values = {0.1, -2.5, 1e10};
  writeSignal(dir.file("a.raw"), values);
  EXPECT_EQ(test::readFile(dir.file("a.raw")), bytesOf(values));
  WriteOptions f32;
  f32.rawType = SampleType::f32;
  writeSignal(dir.file("b.bin"), values, f32);
  EXPECT_EQ(test::readFile(dir.file("b.bin")), bytesOf(std::vector<float>{0.1f, -2.5f, 1e10f}));
}

}  // namespace
}  // namespace siglab
