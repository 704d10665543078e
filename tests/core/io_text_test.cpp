#include "siglab/io/text_format.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>

#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"
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
  std::uniform_int_distribution<std::int64_t> odd(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
  while (values.size() < count) {
    // An odd multiple of 2^-17 or 2^-18 has its 17th fractional digit a 5 followed by nothing (or 25):
    // exact ties and near-ties for the rounding at 16 digits.
    values.push_back(std::ldexp(static_cast<double>(odd(rng) | 1), -17 - static_cast<int>(values.size() % 2)));
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
  const std::vector<double> values = awkwardDoubles(rng, 1000000);
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

TEST(TextFormat, ParallelFormattingGivesTheSerialText) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{32767}, std::size_t{32768}, std::size_t{500003}}) {
    const std::vector<double> values = test::randomSignal(n, rng);
    writeTextFile(dir.file("s.txt"), values, TextStyle::seed, Durability::buffered);
    EXPECT_TRUE(test::readFile(dir.file("s.txt")) == seedFormat(values)) << n;
  }
}

TEST(TextFormat, ShortestFormatRoundTripsEveryDoubleBitForBit) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<double> values = awkwardDoubles(rng, 300000);
  std::uniform_int_distribution<std::uint64_t> subnormal(1, (std::uint64_t{1} << 52) - 1);
  for (int i = 0; i < 1000; ++i) values.push_back(std::bit_cast<double>(subnormal(rng)) * (i % 2 ? -1.0 : 1.0));
  std::string text;
  appendShortestFormat(values, text);
  TextReadOptions options;
  options.chunkBytes = 4096;
  const SampleVector parsed = parseTextSignal(text, "mem.txt", options);
  ASSERT_EQ(parsed.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(parsed[i]), std::bit_cast<std::uint64_t>(values[i])) << "value " << i;
  }
}

TEST(TextFormat, ReadingWhatWasWrittenGivesWhatStrtodGives) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<double> values = test::randomSignal(5000, rng, 1e6);
  const std::string text = seedFormat(values);
  const SampleVector parsed = parseTextSignal(text, "mem.txt");
  ASSERT_EQ(parsed.size(), values.size());
  std::size_t pos = 0;
  for (double v : parsed) {
    const std::size_t eol = text.find('\n', pos);
    EXPECT_EQ(v, std::strtod(text.substr(pos, eol - pos).c_str(), nullptr));
    pos = eol + 1;
  }
  EXPECT_EQ(seedFormat(parsed.toVector()), text);  // the text is a fixed point of format(parse(.))
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

// The serial reference for the parallel reader: line by line, strtod, the first error wins.
struct Expected {
  std::vector<double> values;
  std::uint64_t errorLine = 0;  // 0: no error
  std::uint64_t errorColumn = 0;
};

Expected referenceParse(const std::string& text) {
  Expected expected;
  std::size_t pos = 0;
  for (std::uint64_t line = 1; pos < text.size(); ++line) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    const std::string content = text.substr(pos, eol - pos);
    pos = eol + 1;
    const std::size_t first = content.find_first_not_of(" \t\r");
    if (first == std::string::npos || content[first] == '#') continue;
    const std::size_t last = content.find_last_not_of(" \t\r");
    const std::string token = content.substr(first, last - first + 1);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || !std::isfinite(v) || errno == ERANGE || token[0] == '+' ||
        token.find_first_of("xXpP") != std::string::npos) {
      expected.errorLine = line;
      expected.errorColumn = first + 1;
      return expected;
    }
    expected.values.push_back(v);
  }
  return expected;
}

// Random lines of numbers, blanks, comments, CRLF and (sometimes) bad tokens.
std::string randomText(std::mt19937_64& rng, std::size_t lines, double badChance) {
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::normal_distribution<double> value(0.0, 1e3);
  const char* const bad[] = {"1.5x", "abc", "--1", "1e999", "nan", "1,5", "0x1p3", "+"};
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) {
    const double kind = coin(rng);
    if (kind < 0.05) {
      text += "   ";
    } else if (kind < 0.08) {
      text += "# comment 1.0";
    } else if (coin(rng) < badChance) {
      text += std::string(i % 3 ? "  " : "") + bad[rng() % std::size(bad)];
    } else {
      char number[64];
      std::snprintf(number, sizeof number, kind < 0.5 ? "%.17g" : "%2.16f", value(rng));
      text += (kind < 0.2 ? "\t" : "") + std::string(number) + (kind > 0.9 ? " " : "");
    }
    text += kind > 0.95 ? "\r\n" : "\n";
  }
  return text;
}

TEST(TextFormat, ParallelChunksAgreeWithTheSerialReferenceAndReportTheFirstError) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 300; ++round) {
    const std::size_t lines = 1 + rng() % 400;
    const std::string text = randomText(rng, lines, round % 2 ? 0.0 : 0.01);
    const Expected expected = referenceParse(text);
    TextReadOptions options;
    options.chunkBytes = 1 + rng() % 300;  // chunks of a few lines: many joins to get wrong
    SCOPED_TRACE("round " + std::to_string(round) + ", chunk bytes " + std::to_string(options.chunkBytes));
    try {
      const SampleVector parsed = parseTextSignal(text, "r.txt", options);
      EXPECT_EQ(expected.errorLine, 0u) << "missed the error on line " << expected.errorLine;
      EXPECT_EQ(parsed, expected.values);
    } catch (const InputError& e) {
      if (expected.errorLine == 0 && expected.values.empty()) continue;  // "no numbers found"
      EXPECT_EQ(e.line(), expected.errorLine) << e.what();
      EXPECT_EQ(e.column(), expected.errorColumn) << e.what();
    }
  }
}

TEST(TextFormat, ErrorLineNumbersCountFromTheFileStartAcrossChunks) {
  std::string text = "\xEF\xBB\xBF# header comment\n";
  for (int i = 0; i < 10000; ++i) text += (i % 7 == 0 ? "\n" : "1.25\n");
  text += "  2.5q\n3\n4x\n";
  TextReadOptions options;
  options.chunkBytes = 64;
  try {
    parseTextSignal(text, "big.txt", options);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "big.txt:10002:3: expected a number, found \"2.5q\"");
  }
}

TEST(TextFormat, ColumnsOfCsvTsvAndBlankSeparatedFiles) {
  TextReadOptions second;
  second.column = 2;
  second.skipHeader = true;
  const std::vector<double> expected = {2.5, -4.0, 6.0};
  EXPECT_EQ(parseTextSignal("# exported\ntime,volts\n0,2.5\n1 , -4 \r\n\n2,+6,extra\n", "a.csv", second), expected);
  EXPECT_EQ(parseTextSignal("t\tv\n0\t2.5\n1\t-4\n2\t6\n", "a.tsv", second), expected);
  EXPECT_EQ(parseTextSignal("t v\n0   2.5\n\t1 -4\n2 6   \n", "a.dat", second), expected);
  EXPECT_EQ(parseTextSignal("t;v\n0;2.5\n1;-4\n2;6\n", "a.csv", second), expected);
  second.skipHeader = false;
  EXPECT_EQ(parseTextSignal("0,2.5\n1,-4\n2,6", "a.csv", second), expected);
  TextReadOptions first;
  first.column = 1;
  EXPECT_EQ(parseTextSignal("7\n8\n", "one.txt", first), (std::vector<double>{7.0, 8.0}));
}

void expectColumnError(const std::string& text, std::size_t column, const std::string& message) {
  TextReadOptions options;
  options.column = column;
  try {
    parseTextSignal(text, "a.csv", options);
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(TextFormat, ColumnErrorsNameLineColumnAndText) {
  expectColumnError("1,2,3\n4,5\n", 3, "a.csv:2:1: expected at least 3 columns separated by ',', found 2 in \"4,5\"");
  expectColumnError("1,2\n4, 5x\n", 2, "a.csv:2:4: expected a number, found \"5x\"");
  expectColumnError("1,2\n4,,6\n", 2, "a.csv:2:3: expected a number, found \"\"");
  expectColumnError("1 2\n3 inf\n", 2, "a.csv:2:3: expected a finite number, found \"inf\"");
}

// "1,5;2,5" is two fields with decimal commas (issue 24: column 1 read as 1): with the decimal
// mark ',' they are read whole, in every column and one number a line; with '.', a field that is
// not wholly a number is an error naming its line and column, with the hint.
TEST(TextFormat, DecimalCommasAreReadWholeOrRefusedNeverCut) {
  TextReadOptions comma;
  comma.decimal = ',';
  comma.column = 2;
  comma.skipHeader = true;
  EXPECT_EQ(parseTextSignal("t;v\n0,5;1,5\n1;-2,25\n", "a.csv", comma), (std::vector<double>{1.5, -2.25}));
  EXPECT_EQ(parseTextSignal("t\tv\n0,5\t1,5\n1\t-2,25e1\n", "a.tsv", comma), (std::vector<double>{1.5, -22.5}));
  EXPECT_EQ(parseTextSignal("t v\n0,5  1,5\n1 -2,25\n", "a.dat", comma), (std::vector<double>{1.5, -2.25}));
  comma.column = 0;
  comma.skipHeader = false;
  EXPECT_EQ(parseTextSignal("1,5\n-2\n+3,25\n", "one.txt", comma), (std::vector<double>{1.5, -2.0, 3.25}));
  try {
    parseTextSignal("1,5\n2.5\n", "one.txt", comma);
    ADD_FAILURE() << "a decimal point was read with --decimal ,";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "one.txt:2:1: expected a number with a decimal comma, found \"2.5\"");
  }
  const std::string hint = " (a decimal comma? read it with --decimal ,)";
  expectColumnError("1,5;2,5\n", 1, "a.csv:1:1: expected a number, found \"1,5\"" + hint);
  expectColumnError("0;0\n1,5;2,5\n", 2, "a.csv:2:5: expected a number, found \"2,5\"" + hint);
  expectColumnError("1,5\t2,5\n", 1, "a.csv:1:1: expected a number, found \"1,5\"" + hint);
  expectError("1\n1,5\n", "noise.txt:2:1: expected a number, found \"1,5\"" + hint, 2);
  expectColumnError("1,5x;2\n", 1, "a.csv:1:1: expected a number, found \"1,5x\"");
}

TEST(TextFormat, NonFiniteValuesAreKeptWhenAllowed) {
  TextReadOptions options;
  options.allowNonFinite = true;
  const SampleVector parsed = parseTextSignal("nan\ninf\n-Infinity\n1\n", "x.txt", options);
  ASSERT_EQ(parsed.size(), 4u);
  EXPECT_TRUE(std::isnan(parsed[0]));
  EXPECT_EQ(parsed[1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(parsed[2], -std::numeric_limits<double>::infinity());
  expectError("1\n-inf\n", "noise.txt:2:1: expected a finite number, found \"-inf\"", 2);
}

TEST(TextFormat, ReportsProgressAndStopsWhenCancelled) {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "0.5\n";
  TextReadOptions options;
  options.chunkBytes = 1000;
  std::atomic<double> highest{0.0};
  std::atomic<int> calls{0};
  Progress progress;
  progress.onProgress = [&](double f) {
    EXPECT_GE(f, 0.0);
    EXPECT_LE(f, 1.0);
    double seen = highest.load();
    while (f > seen && !highest.compare_exchange_weak(seen, f)) {
    }
    ++calls;
  };
  EXPECT_EQ(parseTextSignal(text, "p.txt", options, progress).size(), 5000u);
  EXPECT_EQ(highest.load(), 1.0);
  EXPECT_GE(calls.load(), 10);

  std::atomic<bool> cancel{false};
  Progress cancelling;
  cancelling.cancelFlag = &cancel;
  cancelling.onProgress = [&](double f) {
    if (f > 0.2) cancel = true;
  };
  EXPECT_THROW(parseTextSignal(text, "p.txt", options, cancelling), Cancelled);
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
