// EDF/EDF+ (issue 26 item 4): round trips of 1-3 channels, signals of their own rates picked by
// label or number, physical scaling as the header says, EDF+ annotations skipped, block-by-block
// reads equal to whole ones, MNE's reader agreeing, and damaged headers and records refused by name.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>

#include "input_error.hpp"
#include "scipy_support.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

struct TestSignal {
  std::string label;
  std::string unit;
  std::string physicalMin, physicalMax, digitalMin, digitalMax;
  int samplesPerRecord;
};

std::string field(const std::string& value, std::size_t width) {
  std::string out = value.substr(0, width);
  return out + std::string(width - out.size(), ' ');
}

// An EDF file of `records` records of 1 s; sample i of signal s in record r is digital
// (s * 1000 + r * 100 + i) % 2000 - 1000. `recordsField` replaces the header's record count.
std::string edfBytes(const std::vector<TestSignal>& signals, int records, const std::string& recordsField = {},
                     const std::string& reserved = "EDF+C") {
  std::string h = field("0", 8) + field("X X X X", 80) + field("Startdate X", 80) + "01.01.85" + "00.00.00";
  h += field(std::to_string(256 * (signals.size() + 1)), 8) + field(reserved, 44);
  h += field(recordsField.empty() ? std::to_string(records) : recordsField, 8) + field("1", 8) +
       field(std::to_string(signals.size()), 4);
  for (const auto& s : signals) h += field(s.label, 16);
  for (std::size_t i = 0; i < signals.size(); ++i) h += field("", 80);
  for (const auto& s : signals) h += field(s.unit, 8);
  for (const auto& s : signals) h += field(s.physicalMin, 8);
  for (const auto& s : signals) h += field(s.physicalMax, 8);
  for (const auto& s : signals) h += field(s.digitalMin, 8);
  for (const auto& s : signals) h += field(s.digitalMax, 8);
  for (std::size_t i = 0; i < signals.size(); ++i) h += field("", 80);
  for (const auto& s : signals) h += field(std::to_string(s.samplesPerRecord), 8);
  for (std::size_t i = 0; i < signals.size(); ++i) h += field("", 32);
  for (int r = 0; r < records; ++r) {
    for (std::size_t s = 0; s < signals.size(); ++s) {
      for (int i = 0; i < signals[s].samplesPerRecord; ++i) {
        const auto digital = static_cast<std::uint16_t>(static_cast<std::int16_t>((s * 1000 + r * 100 + i) % 2000) - 1000);
        h += static_cast<char>(digital & 0xff);
        h += static_cast<char>(digital >> 8);
      }
    }
  }
  return h;
}

double expectedPhysical(std::size_t s, int r, int i, double pmin, double pmax, double dmin, double dmax) {
  const double digital = static_cast<double>(static_cast<int>((s * 1000 + r * 100 + i) % 2000) - 1000);
  return pmin + (digital - dmin) * (pmax - pmin) / (dmax - dmin);
}

// Two EEG signals at 8 Hz (uV and mV, different scalings), a respiration signal at 4 Hz and EDF+ annotations.
std::vector<TestSignal> mixedSignals() {
  return {{"EEG Fz", "uV", "-3200", "3200", "-32768", "32767", 8},
          {"EEG Cz", "mV", "-1", "1", "-2048", "2047", 8},
          {"Resp", "", "0", "100", "-1000", "1000", 4},
          {"EDF Annotations", "", "-1", "1", "-32768", "32767", 6}};
}

using test::errorOf;

TEST(EdfFiles, RoundTripOneTwoThreeChannelsWithTheRate) {
  std::mt19937_64 rng(test::freshSeed());
  test::TempDir dir;
  for (const std::size_t channels : {1, 2, 3}) {
    std::vector<std::vector<double>> planar;
    for (std::size_t c = 0; c < channels; ++c) planar.push_back(test::randomSignal(1000, rng, 50.0 * static_cast<double>(c + 1)));
    const std::vector<std::span<const double>> spans(planar.begin(), planar.end());
    const std::string path = dir.file("round" + std::to_string(channels) + ".edf");
    WriteOptions options;
    options.sampleRate = 250.0;
    writeChannels(path, spans, options);
    const Channels read = readChannels(path);
    ASSERT_EQ(read.channels.size(), channels);
    ASSERT_EQ(read.frames(), 1000u);  // 4 records of 250 samples
    EXPECT_EQ(read.sampleRate, 250.0);
    for (std::size_t c = 0; c < channels; ++c) {
      const auto [lo, hi] = std::minmax_element(planar[c].begin(), planar[c].end());
      const double step = (*hi - *lo) / 65535;
      for (std::size_t f = 0; f < 1000; ++f) ASSERT_NEAR(read.channels[c][f], planar[c][f], step) << c << " " << f;
    }
    EXPECT_EQ(readSignal(path).samples.size(), 1000u);
  }
}

// A physical minimum whose 8-character field rounds towards zero (-149.70300182 prints as -149.703)
// was moved outward by steps finer than that last digit, never got past it, and was written as
// -1e+99: every sample read back as 0.
TEST(EdfFiles, APhysicalBoundJustInsideItsPrintedDigitsStillHoldsEverySample) {
  test::TempDir dir;
  std::vector<double> x(250);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 100.0 * std::sin(0.1 * static_cast<double>(i));
  x[3] = -149.70300182;
  x[7] = 149.92960107;
  const std::string path = dir.file("bound.edf");
  WriteOptions options;
  options.sampleRate = 250.0;
  const std::vector<std::span<const double>> channels{x};
  writeChannels(path, channels, options);
  const Channels read = readChannels(path);
  ASSERT_EQ(read.frames(), x.size());
  const double step = (149.92960107 + 149.70300182) / 65535;
  for (std::size_t f = 0; f < x.size(); ++f) ASSERT_NEAR(read.channels[0][f], x[f], step) << f;
}

TEST(EdfFiles, SignalsOfOneRatePickedByLabelOrNumberWithTheHeadersScaling) {
  test::TempDir dir;
  const std::string path = dir.file("mixed.edf");
  test::writeFile(path, edfBytes(mixedSignals(), 3));

  const std::string mixed = errorOf([&] { readChannels(path); });
  EXPECT_NE(mixed.find(path), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("different rates"), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("signal 3 (\"Resp\") 4 Hz"), std::string::npos) << mixed;
  EXPECT_NE(mixed.find("signal 1 (\"EEG Fz\") 8 Hz"), std::string::npos) << mixed;

  ReadOptions eeg;
  eeg.edfSignals = {"EEG Fz", "2"};
  const Channels read = readChannels(path, eeg);
  ASSERT_EQ(read.channels.size(), 2u);
  EXPECT_EQ(read.sampleRate, 8.0);
  EXPECT_EQ(read.names, (std::vector<std::string>{"EEG Fz", "EEG Cz"}));
  ASSERT_EQ(read.frames(), 24u);
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < 8; ++i) {
      EXPECT_DOUBLE_EQ(read.channels[0][r * 8 + i], expectedPhysical(0, r, i, -3200, 3200, -32768, 32767));
      EXPECT_DOUBLE_EQ(read.channels[1][r * 8 + i], expectedPhysical(1, r, i, -1, 1, -2048, 2047));
    }
  }
  ReadOptions resp;
  resp.edfSignals = {"Resp"};
  const Signal respiration = readSignal(path, resp);
  EXPECT_EQ(respiration.sampleRate, 4.0);
  ASSERT_EQ(respiration.samples.size(), 12u);
  EXPECT_DOUBLE_EQ(respiration.samples[5], expectedPhysical(2, 1, 1, 0, 100, -1000, 1000));

  ReadOptions annotations;
  annotations.edfSignals = {"EDF Annotations"};
  EXPECT_NE(errorOf([&] { readChannels(path, annotations); }).find("annotations"), std::string::npos);
  ReadOptions missing;
  missing.edfSignals = {"EEG Oz"};
  const std::string notFound = errorOf([&] { readChannels(path, missing); });
  EXPECT_NE(notFound.find("\"EEG Oz\" not found"), std::string::npos) << notFound;
  EXPECT_NE(notFound.find("signal 3 (\"Resp\")"), std::string::npos) << notFound;
}

TEST(EdfFiles, StreamedInSmallWindowsAsReadWhole) {
  test::TempDir dir;
  const std::string path = dir.file("stream.edf");
  std::vector<TestSignal> two = {{"A", "", "-10", "10", "-1000", "1000", 10}, {"B", "", "0", "1", "0", "1999", 10}};
  test::writeFile(path, edfBytes(two, 7));
  const Channels whole = readChannels(path);
  const std::unique_ptr<ChannelStream> stream = openChannelStream(path, {}, 64);  // one record at a time
  EXPECT_EQ(stream->knownFrames(), 70u);
  EXPECT_EQ(stream->channelNames(), (std::vector<std::string>{"A", "B"}));
  std::vector<double> a(3), b(3);
  const std::span<double> block[] = {a, b};
  for (std::size_t done = 0; done < 70;) {
    const std::size_t got = stream->read(block);
    ASSERT_GT(got, 0u);
    for (std::size_t f = 0; f < got; ++f) {
      ASSERT_EQ(a[f], whole.channels[0][done + f]);
      ASSERT_EQ(b[f], whole.channels[1][done + f]);
    }
    done += got;
  }
  EXPECT_EQ(stream->read(block), 0u);
}

TEST(EdfFiles, DamagedHeadersAndRecordsAreRefusedByName) {
  test::TempDir dir;
  const std::vector<TestSignal> one = {{"A", "", "-10", "10", "-1000", "1000", 10}};
  const auto refusal = [&](const std::string& name, const std::string& bytes) {
    const std::string path = dir.file(name);
    test::writeFile(path, bytes);
    const std::string message = errorOf([&] { readChannels(path); });
    EXPECT_NE(message.find(path), std::string::npos) << message;
    return message;
  };
  EXPECT_NE(refusal("more.edf", edfBytes(one, 3, "5")).find("cut short: the header says 5 data records, the file ends in record 4"),
            std::string::npos);
  EXPECT_NE(refusal("fewer.edf", edfBytes(one, 3, "2")).find("record count inconsistent"), std::string::npos);
  const std::string whole = edfBytes(one, 3);
  EXPECT_NE(refusal("cut.edf", whole.substr(0, whole.size() - 3)).find("cut short"), std::string::npos);
  EXPECT_NE(refusal("unknown-count-cut.edf", edfBytes(one, 3, "-1").substr(0, whole.size() - 3)).find("record 3 holds 17 of its 20 bytes"),
            std::string::npos);
  std::vector<TestSignal> bad = one;
  bad[0].physicalMin = "-1O";
  EXPECT_NE(refusal("letter.edf", edfBytes(bad, 1)).find("the physical minimum of signal 1 (\"A\") is \"-1O\", not a number"),
            std::string::npos);
  bad = one;
  bad[0].digitalMax = "-2000";
  EXPECT_NE(refusal("digital.edf", edfBytes(bad, 1)).find("digital minimum -1000 and maximum -2000"), std::string::npos);
  bad = one;
  bad[0].physicalMin = "-1e308";
  bad[0].physicalMax = "1e308";
  EXPECT_NE(refusal("huge.edf", edfBytes(bad, 1)).find("beyond the largest number"), std::string::npos);
  bad = one;
  bad[0].samplesPerRecord = 0;
  EXPECT_NE(refusal("samples.edf", edfBytes(bad, 1)).find("0 samples a record"), std::string::npos);
  std::string header = edfBytes(one, 1);
  header.replace(184, 8, field("768", 8));
  EXPECT_NE(refusal("header-bytes.edf", header).find("header bytes is 768, but 1 signals need 512"), std::string::npos);
  EXPECT_NE(refusal("short-header.edf", edfBytes(one, 1).substr(0, 300)).find("cut short"), std::string::npos);
}

TEST(EdfFiles, NothingWrittenAtARateNoRecordHoldsWholeSamplesOf) {
  test::TempDir dir;
  const std::vector<double> values(10, 1.0);
  WriteOptions options;
  options.sampleRate = 1000.0 / 3.0;
  const std::string path = dir.file("third.edf");
  EXPECT_NE(errorOf([&] { writeSignal(path, values, options); }).find("whole number of samples"), std::string::npos);
  EXPECT_FALSE(std::ifstream(path).good());
}

// MNE (python3-mne) reads what SigLab writes, and SigLab reads a file of several scalings as MNE does.
TEST(EdfFiles, MneReadsTheSameValues) {
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<std::vector<double>> planar = {test::randomSignal(512, rng, 3.0), test::randomSignal(512, rng, 700.0)};
  const std::string ours = dir.file("ours.edf");
  WriteOptions options;
  options.sampleRate = 128.0;
  options.channelNames = {"Respiration belt (chest)", "Respiration belt (abdomen)"};
  writeChannels(ours, std::vector<std::span<const double>>(planar.begin(), planar.end()), options);
  const std::string theirs = dir.file("theirs.edf");
  std::vector<TestSignal> eeg = mixedSignals();
  eeg.resize(2);
  eeg[0].unit = eeg[1].unit = "";  // MNE scales uV and mV to volts; these stay as written
  test::writeFile(theirs, edfBytes(eeg, 4));
  const std::string script = dir.file("read_with_mne.py");
  std::ofstream(script) << "import numpy as np, mne\n"
                        << "for name in ['" << ours << "', '" << theirs << "']:\n"
                        << "    raw = mne.io.read_raw_edf(name, preload=True, verbose='error')\n"
                        << "    np.save(name + '.npy', raw.get_data().T.copy())\n"
                        << "    open(name + '.rate', 'w').write(repr(raw.info['sfreq']))\n"
                        << "    open(name + '.labels', 'w').write('|'.join(raw.ch_names))\n";
  std::string error;
  if (!test::runPython(script, &error)) {
    if (error.find("No module named") != std::string::npos) GTEST_SKIP() << "/usr/bin/python3 has no mne";
    FAIL() << error;
  }
  for (const std::string& path : {ours, theirs}) {
    const Channels siglab = readChannels(path);
    const Channels mne = readChannels(path + ".npy");
    std::string labels;
    for (const std::string& name : siglab.names) labels += (labels.empty() ? "" : "|") + name;
    EXPECT_EQ(test::readFile(path + ".labels"), labels);
    EXPECT_EQ(std::stod(test::readFile(path + ".rate")), *siglab.sampleRate);
    ASSERT_EQ(mne.channels.size(), siglab.channels.size());
    ASSERT_EQ(mne.frames(), siglab.frames());
    for (std::size_t c = 0; c < mne.channels.size(); ++c) {
      for (std::size_t f = 0; f < mne.frames(); ++f) {
        ASSERT_NEAR(mne.channels[c][f], siglab.channels[c][f], 1e-9 * (1 + std::abs(siglab.channels[c][f]))) << path;
      }
    }
  }
}

// The writer labels each signal by its channel's name (printable ASCII, cut to EDF's 16
// characters, made unique) and writes the physical dimension where known (MNE reads the labels
// in MneReadsTheSameValues).
TEST(EdfFiles, ChannelNamesAndUnitsBecomeLabelsAndDimensions) {
  test::TempDir dir;
  const std::vector<std::vector<double>> planar = {{1, 2, 3, 4}, {-1, 0, 1, 2}, {5, 5, 6, 6}, {0, 1, 0, 1}};
  WriteOptions options;
  options.sampleRate = 4.0;
  options.channelNames = {"EEG Fz", "Respiration belt (chest)", "Respiration belt (abdomen)", ""};
  options.channelUnits = {"\xC2\xB5V", "mV", "", ""};
  const std::string path = dir.file("named.edf");
  writeChannels(path, std::vector<std::span<const double>>(planar.begin(), planar.end()), options);
  const std::unique_ptr<ChannelStream> stream = openChannelStream(path);
  EXPECT_EQ(stream->channelNames(), (std::vector<std::string>{"EEG Fz", "Respiration belt", "Respiration be~2", "4"}));
  EXPECT_EQ(stream->channelUnits(), (std::vector<std::string>{"uV", "mV", "", ""}));
  const std::string note = outputNote(path, options);
  EXPECT_NE(note.find("\"Respiration belt (abdomen)\" as \"Respiration be~2\""), std::string::npos) << note;
}

}  // namespace
}  // namespace siglab
