// siglab-cli on audio besides WAV (issue 26): a FLAC named anything is read by content with every
// channel; --bits chooses FLAC's and WAV's sample width; FLAC's quantisation is said.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cli_run.hpp"
#include "siglab/io/channel_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::runCli;
using test::TempDir;

TEST(AudioCli, FlacInByContentFlacAndWav64OutWithTheNoteAndBadBitsRefused) {
  TempDir dir;
  std::vector<double> left(2000), right(2000);
  for (std::size_t i = 0; i < left.size(); ++i) {
    left[i] = 0.5 * std::sin(0.01 * static_cast<double>(i));
    right[i] = 0.25 * std::cos(0.03 * static_cast<double>(i));
  }
  const std::span<const double> channels[] = {left, right};
  WriteOptions options;
  options.sampleRate = 44100;
  writeChannels(dir.file("in.flac"), channels, options);
  std::filesystem::rename(dir.file("in.flac"), dir.file("recording.dat"));  // no audio extension

  const auto flac = runCli("filter " + dir.file("recording.dat") + " --median 3 --bits 16 -o " + dir.file("out.flac"), dir);
  ASSERT_EQ(flac.exitCode, 0) << flac.err;
  EXPECT_NE(flac.out.find("note: " + dir.file("out.flac") + ": FLAC audio holds 16-bit integers"), std::string::npos)
      << flac.out;
  const Channels out = readChannels(dir.file("out.flac"));
  EXPECT_EQ(out.channels.size(), 2u);
  EXPECT_EQ(out.sampleRate, 44100.0);

  const auto wide = runCli("filter " + dir.file("recording.dat") + " --median 3 --bits 64 -o " + dir.file("out.wav"), dir);
  ASSERT_EQ(wide.exitCode, 0) << wide.err;
  EXPECT_EQ(wide.out.find("note:"), std::string::npos) << wide.out;
  EXPECT_EQ(readChannels(dir.file("out.wav")).channels.size(), 2u);
  EXPECT_GE(std::filesystem::file_size(dir.file("out.wav")), 2000u * 2 * sizeof(double));  // 64-bit samples

  const auto bad = runCli("filter " + dir.file("recording.dat") + " --median 3 --bits 16 -o " + dir.file("out.npy"), dir);
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_NE(bad.err.find(dir.file("out.npy")), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("no 16-bit samples"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
}

}  // namespace
}  // namespace siglab
