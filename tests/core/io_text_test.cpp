#include "siglab/io/text_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>

#include "siglab/errors.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::string printfSeed(double v) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%2.16f\n", v);
  return buffer;
}

std::string seedFormat(const std::vector<double>& values) {
  std::string text;
  appendSeedFormat(values, text);
  return text;
}

// Values of every magnitude and sign, with exact binary ties and specials mixed in.
std::vector<double> awkwardDoubles(std::mt19937_64& rng, std::size_t count) {
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.5, 1e-17, 5e-17, 0.99999999999999995, 123456789.123456789,
                                std::numeric_limits<double>::max(), std::numeric_limits<double>::lowest(),
                                std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                                0.00000000000000005, 2.5e-16, 1.5e-16, -7.5e-17};
  std::uniform_int_distribution<int> exponent(-60, 60);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<std::uint64_t> bits;
  while (values.size() < count) {
    values.push_back(std::ldexp(mantissa(rng), exponent(rng)));
    const double raw = std::bit_cast<double>(bits(rng));  // any finite bit pattern at all
    if (std::isfinite(raw)) values.push_back(raw);
  }
  return values;
}

TEST(TextFormat, SeedFormatIsByteIdenticalToPrintf) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<double> values = awkwardDoubles(rng, 200000);
  std::string expected;
  for (double v : values) expected += printfSeed(v);
  const std::string actual = seedFormat(values);
  ASSERT_EQ(actual.size(), expected.size());
  EXPECT_TRUE(actual == expected);
  for (double special : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_EQ(seedFormat({special}), printfSeed(special));
  }
}

TEST(TextFormat, ReadingWhatWasWrittenGivesWhatStrtodGives) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<double> values = test::randomSignal(5000, rng, 1e6);
  const std::string text = seedFormat(values);
  const std::vector<double> parsed = parseTextSignal(text, "mem.txt");
  ASSERT_EQ(parsed.size(), values.size());
  std::size_t pos = 0;
  for (double v : parsed) {
    const std::size_t eol = text.find('\n', pos);
    EXPECT_EQ(v, std::strtod(text.substr(pos, eol - pos).c_str(), nullptr));
    pos = eol + 1;
  }
  EXPECT_EQ(seedFormat(parsed), text);  // the text is a fixed point of format(parse(.))
}

TEST(TextFormat, AcceptsWhatRealFilesContain) {
  const std::string text = "\xEF\xBB\xBF# exported by a scope\r\n  1.5  \r\n\r\n+2\n\t-3e2\n# end\n4";
  EXPECT_EQ(parseTextSignal(text, "x.txt"), (std::vector<double>{1.5, 2.0, -300.0, 4.0}));
}

void expectError(const std::string& text, const std::string& message, std::uint64_t line) {
  try {
    parseTextSignal(text, "noise.txt");
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(e.path(), "noise.txt");
  }
}

TEST(TextFormat, ErrorsNameFileLineColumnAndTheText) {
  expectError("1.0\n2.0\n3.0\n4.0\n  0.1x\n", "noise.txt:5:3: expected a number, found \"0.1x\"", 5);
  expectError("1\nabc def\n", "noise.txt:2:1: expected a number, found \"abc def\"", 2);
  expectError("1\n2\n1e400\n", "noise.txt:3:1: number out of the float64 range, found \"1e400\"", 3);
  expectError("nan\n", "noise.txt:1:1: expected a finite number, found \"nan\"", 1);
  expectError("1\n++2\n", "noise.txt:2:1: expected a number, found \"++2\"", 2);
  expectError("1\n2\x01\n", "noise.txt:2:1: expected a number, found \"2\\x01\"", 2);
  expectError(std::string(100, '7') + "z\n", "noise.txt:1:1: expected a number, found \"" + std::string(40, '7') + "...\"", 1);
  expectError("", "noise.txt: the file is empty: expected one number per line", 0);
  expectError("# only a comment\n\n", "noise.txt: no numbers found: expected one number per line", 0);
}

TEST(TextFormat, MissingFileAndDirectoryAreClearErrors) {
  test::TempDir dir;
  EXPECT_THROW(
      {
        try {
          readTextSignal(dir.file("absent.txt"));
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find("absent.txt: cannot open: No such file"), std::string::npos);
          throw;
        }
      },
      InputError);
  EXPECT_THROW(readTextSignal(dir.path().string()), InputError);
}

TEST(TextFormat, WriteThenReadRoundTripsThroughAFile) {
  test::TempDir dir;
  const std::vector<double> values = {0.25, -1.5, 1000.125};
  writeTextSignal(dir.file("result.txt"), values);
  EXPECT_EQ(test::readFile(dir.file("result.txt")), printfSeed(0.25) + printfSeed(-1.5) + printfSeed(1000.125));
  EXPECT_EQ(readTextSignal(dir.file("result.txt")), values);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1u) << "a temporary file was left behind";
}

TEST(TextFormat, FailedWriteLeavesNothingAndKeepsTheOldFile) {
  test::TempDir dir;
  EXPECT_THROW(writeTextSignal(dir.file("missing-folder/result.txt"), std::vector<double>{1.0}), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing-folder")));
  // A directory in the way of the target: the write fails and the directory is untouched.
  std::filesystem::create_directory(dir.file("taken"));
  test::writeFile(dir.file("taken/keep.txt"), "old");
  EXPECT_THROW(writeTextSignal(dir.file("taken"), std::vector<double>{1.0}), InputError);
  EXPECT_EQ(test::readFile(dir.file("taken/keep.txt")), "old");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1u) << "a temporary file was left behind";
}

}  // namespace
}  // namespace siglab
