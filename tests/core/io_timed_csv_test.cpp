// Time-stamped CSV (issue 26 item 5): a time column of ISO 8601 date-times (found by itself) or
// seconds sets the rate; irregular stamps are an error naming the line unless resampled onto a
// uniform grid; decimal commas; header names become channel names; pandas reads the same.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>

#include "input_error.hpp"
#include "scipy_support.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::errorOf;

// Rows of 4 ms (250 Hz) from 2026-11-27T23:59:59.992+01:00, crossing a second and midnight.
std::string isoCsv(std::size_t rows) {
  std::string csv = "time,pressure,\"temperature\"\n";
  for (std::size_t i = 0; i < rows; ++i) {
    const int ms = 992 + 4 * static_cast<int>(i);
    char line[128];
    std::snprintf(line, sizeof line, "2026-11-%02dT%s:%02d.%03d+01:00,%zu.5,%d\n", ms >= 1000 ? 28 : 27,
                  ms >= 1000 ? "00:00" : "23:59", ms >= 1000 ? (ms - 1000) / 1000 : 59, ms % 1000, i, -static_cast<int>(i));
    csv += line;
  }
  return csv;
}

TEST(TimedCsv, IsoDateTimesSetTheRateAndHeaderNamesNameTheChannels) {
  test::TempDir dir;
  const std::string path = dir.file("iso.csv");
  test::writeFile(path, isoCsv(10));
  ReadOptions options;
  options.skipHeader = true;
  const Channels read = readChannels(path, options);
  ASSERT_EQ(read.channels.size(), 2u);
  ASSERT_TRUE(read.sampleRate);
  EXPECT_NEAR(*read.sampleRate, 250.0, 1e-6);
  EXPECT_EQ(read.names, (std::vector<std::string>{"pressure", "temperature"}));
  EXPECT_EQ(read.channels[0][9], 9.5);
  EXPECT_EQ(read.channels[1][9], -9.0);
  const Signal one = readSignal(path, options);  // the first channel beside the time stamps
  EXPECT_NEAR(*one.sampleRate, 250.0, 1e-6);
  EXPECT_EQ(one.samples.toVector(), read.channels[0].toVector());
}

TEST(TimedCsv, SecondsWithDecimalCommasAndSemicolons) {
  test::TempDir dir;
  const std::string path = dir.file("comma.csv");
  test::writeFile(path, "t;x\n0,000;1,5\n0,001;2,5\n0,002;-3,25\n0,0030001;4\n");
  ReadOptions options;
  options.skipHeader = true;
  options.decimal = ',';
  options.timeColumn = 1;
  const Channels read = readChannels(path, options);
  ASSERT_EQ(read.channels.size(), 1u);
  EXPECT_NEAR(*read.sampleRate, 1000.0, 0.1);
  EXPECT_EQ(read.channels[0].toVector(), (std::vector<double>{1.5, 2.5, -3.25, 4}));
  EXPECT_EQ(read.names, std::vector<std::string>{"x"});
}

TEST(TimedCsv, IrregularOrFallingStampsAreErrorsNamingTheLine) {
  test::TempDir dir;
  const std::string path = dir.file("gap.csv");
  test::writeFile(path, "0,1\n1,2\n2,3\n3.5,4\n4.5,5\n");
  ReadOptions options;
  options.timeColumn = 1;
  const std::string gap = errorOf([&] { readChannels(path, options); });
  EXPECT_NE(gap.find(path + ":4:"), std::string::npos) << gap;
  EXPECT_NE(gap.find("irregular time stamps"), std::string::npos) << gap;
  EXPECT_NE(gap.find("--resample-to"), std::string::npos) << gap;
  test::writeFile(path, "2026-01-01T00:00:01Z,1\n2026-01-01T00:00:00Z,2\n");
  const std::string falling = errorOf([&] { readChannels(path); });
  EXPECT_NE(falling.find(path + ":2:"), std::string::npos) << falling;
  EXPECT_NE(falling.find("must rise"), std::string::npos) << falling;
  test::writeFile(path, "0,1\n0.5,2\nsoon,3\n");
  const std::string word = errorOf([&] { readChannels(path, options); });
  EXPECT_NE(word.find(path + ":3:"), std::string::npos) << word;
  EXPECT_NE(word.find("\"soon\""), std::string::npos) << word;
}

// The first lines give the rate and the stream starts without scanning the whole column; a later
// irregular step is met while the stream reads that line, the same error naming it.
TEST(TimedCsv, ALaterIrregularStepIsMetWhileStreamingNamingItsLine) {
  test::TempDir dir;
  const std::string path = dir.file("late-gap.csv");
  std::string csv = "t,x\n";
  for (int i = 0; i < 6000; ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "%.3f,%d\n", i < 5000 ? i * 0.002 : i * 0.002 + 0.5, i);
    csv += line;
  }
  test::writeFile(path, csv);
  ReadOptions options;
  options.skipHeader = true;
  options.timeColumn = 1;
  std::unique_ptr<ChannelStream> stream;
  ASSERT_NO_THROW(stream = openChannelStream(path, options, 4096));
  ASSERT_TRUE(stream->sampleRate());
  EXPECT_NEAR(*stream->sampleRate(), 500.0, 1e-9);
  std::vector<double> block(1000);
  const std::span<double> out[] = {block};
  std::size_t read = 0;
  const std::string error = errorOf([&] {
    for (std::size_t got; (got = stream->read(out)) > 0;) read += got;
  });
  EXPECT_EQ(read, 5000u);  // the blocks before the one holding line 5002 (the 5001st row, 0.502 s on)
  EXPECT_NE(error.find(path + ":5002:"), std::string::npos) << error;
  EXPECT_NE(error.find("irregular time stamps"), std::string::npos) << error;
  const std::string whole = errorOf([&] { readChannels(path, options); });
  EXPECT_NE(whole.find(path + ":5002:"), std::string::npos) << whole;
}

TEST(TimedCsv, ResampledLinearlyOntoAUniformGrid) {
  test::TempDir dir;
  const std::string path = dir.file("irregular.csv");
  test::writeFile(path, "time,a,b\n0,0,10\n1,2,10\n3,6,0\n3.5,7,-1\n");
  ReadOptions options;
  options.skipHeader = true;
  options.timeColumn = 1;
  options.resampleTo = 2.0;
  const Channels read = readChannels(path, options);
  EXPECT_EQ(read.sampleRate, 2.0);
  EXPECT_EQ(read.names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read.channels[0].toVector(), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(read.channels[1].toVector(), (std::vector<double>{10, 10, 10, 7.5, 5, 2.5, 0, -1}));
  const std::unique_ptr<ChannelStream> stream = openChannelStream(path, options);
  std::vector<double> a(3), b(3);
  const std::span<double> block[] = {a, b};
  std::vector<double> streamed;
  for (std::size_t got; (got = stream->read(block)) > 0;) streamed.insert(streamed.end(), a.begin(), a.begin() + got);
  EXPECT_EQ(streamed, read.channels[0].toVector());
}

// pandas (python3-pandas) parses the same date-times, zones and decimal commas to the same rate and
// values, and numpy.interp resamples as SigLab does.
TEST(TimedCsv, PandasReadsTheSame) {
  test::TempDir dir;
  const std::string uniform = dir.file("uniform.csv");
  std::string csv = "stamp;volts;amps\n";
  for (int i = 0; i < 50; ++i) {
    char line[128];
    std::snprintf(line, sizeof line, "2026-03-29 01:59:59.%03d-02:00;%d,%02d;%d\n", 10 * i, i, i % 7, i * i);
    csv += line;  // 100 Hz over 0.5 s, a zone behind UTC
  }
  test::writeFile(uniform, csv);
  const std::string irregular = dir.file("irregular.csv");
  test::writeFile(irregular, "t,x\n0.0,1\n0.13,-2\n0.25,5\n0.61,0.5\n1.0,3\n");
  const std::string script = dir.file("read_with_pandas.py");
  std::ofstream(script) << "import numpy as np, pandas as pd\n"
                        << "d = pd.read_csv('" << uniform << "', sep=';', decimal=',')\n"
                        << "t = pd.to_datetime(d['stamp'], utc=True).astype('int64').to_numpy()\n"
                        << "np.save('" << dir.file("uniform.npy") << "', d[['volts', 'amps']].to_numpy(dtype=float))\n"
                        << "open('" << dir.file("rate") << "', 'w').write(repr(1e9 / np.mean(np.diff(t))))\n"
                        << "d = pd.read_csv('" << irregular << "')\n"
                        << "grid = np.arange(0, 1.0 + 1e-9, 1 / 20)\n"
                        << "np.save('" << dir.file("irregular.npy") << "', np.interp(grid, d['t'], d['x']))\n";
  std::string error;
  if (!test::runPython(script, &error)) {
    if (error.find("No module named") != std::string::npos) GTEST_SKIP() << "/usr/bin/python3 has no pandas";
    FAIL() << error;
  }
  ReadOptions options;
  options.skipHeader = true;
  options.decimal = ',';
  const Channels ours = readChannels(uniform, options);
  const Channels theirs = readChannels(dir.file("uniform.npy"));
  EXPECT_NEAR(*ours.sampleRate, std::stod(test::readFile(dir.file("rate"))), 1e-6);
  ASSERT_EQ(ours.channels.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(ours.channels[c].toVector(), theirs.channels[c].toVector());
  ReadOptions resample;
  resample.skipHeader = true;
  resample.timeColumn = 1;
  resample.resampleTo = 20.0;
  const std::vector<double> resampled = readSignal(irregular, resample).samples.toVector();
  const std::vector<double> interp = readSignal(dir.file("irregular.npy")).samples.toVector();
  ASSERT_EQ(resampled.size(), interp.size());
  for (std::size_t i = 0; i < interp.size(); ++i) EXPECT_NEAR(resampled[i], interp[i], 1e-12) << i;
}

}  // namespace
}  // namespace siglab
