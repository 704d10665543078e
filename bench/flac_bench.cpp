// siglab-flac-bench: reading a FLAC of N stereo frames (default 10M) with SigLab against the way
// without it: `flac -d` to WAV, then SigLab's WAV read. Both measured in one run, in turn, ROUNDS
// rounds (the order swapped every other round); the ratio is the median of each round's
// (flac -d + WAV read) / (SigLab FLAC read): at least 0.9 is issue 26's target.
// usage: siglab-flac-bench [FRAMES] [ROUNDS]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "siglab/io/channel_io.hpp"

namespace {

double seconds(const std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  in >> a >> b >> c;
  return a + " " + b + " " + c;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t frames = argc > 1 ? std::stoull(argv[1]) : 10'000'000;
  const int rounds = argc > 2 ? std::stoi(argv[2]) : 5;
  if (std::system("flac --version > /dev/null 2>&1") != 0) {
    std::fprintf(stderr, "siglab-flac-bench: the flac program is missing (apt-get install flac)\n");
    return 1;
  }
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "siglab-flac-bench";
  std::filesystem::create_directories(dir);
  const std::string flac = (dir / "input.flac").string(), wav = (dir / "decoded.wav").string();
  {  // a tone and noise, 16-bit: what a recording compresses like
    std::vector<double> left(frames), right(frames);
    std::mt19937_64 rng(1);
    std::normal_distribution<double> noise(0.0, 0.05);
    for (std::size_t i = 0; i < frames; ++i) {
      left[i] = 0.5 * std::sin(2 * M_PI * 440.0 * static_cast<double>(i) / 48000.0) + noise(rng);
      right[i] = 0.4 * std::sin(2 * M_PI * 660.0 * static_cast<double>(i) / 48000.0) + noise(rng);
    }
    const std::span<const double> channels[] = {left, right};
    siglab::WriteOptions options;
    options.bits = 16;
    siglab::writeChannels(flac, channels, options);
  }
  std::printf("siglab-flac-bench: %zu stereo frames, 16-bit FLAC of %.1f MB, %d rounds\n", frames,
              static_cast<double>(std::filesystem::file_size(flac)) / 1e6, rounds);
  std::printf("load average at start: %s\n", loadAverage().c_str());
  std::vector<double> ours, theirs, ratios;
  const std::string decode = "flac -d -f -s -o " + wav + " " + flac;
  for (int r = 0; r < rounds; ++r) {
    double a = 0, b = 0;
    for (int k = 0; k < 2; ++k) {
      if ((k == 0) == (r % 2 == 0)) {
        const auto start = std::chrono::steady_clock::now();
        const siglab::Channels read = siglab::readChannels(flac);
        a = seconds(start);
        if (read.channels.size() != 2 || read.channels[0].size() != frames) return 1;
      } else {
        const auto start = std::chrono::steady_clock::now();
        if (std::system(decode.c_str()) != 0) return 1;
        const siglab::Channels read = siglab::readChannels(wav);
        b = seconds(start);
        if (read.channels.size() != 2 || read.channels[0].size() != frames) return 1;
      }
    }
    ours.push_back(a);
    theirs.push_back(b);
    ratios.push_back(b / a);
    std::printf("round %d: SigLab FLAC read %.3f s; flac -d + SigLab WAV read %.3f s; ratio %.2f\n", r + 1, a, b, b / a);
  }
  std::printf("median: SigLab FLAC read %.3f s; flac -d + WAV read %.3f s\n", median(ours), median(theirs));
  std::printf("speed ratio (flac -d + WAV read) / (SigLab FLAC read): %.2f (target >= 0.9), range %.2f-%.2f\n",
              median(ratios), *std::min_element(ratios.begin(), ratios.end()),
              *std::max_element(ratios.begin(), ratios.end()));
  std::printf("load average at end: %s\n", loadAverage().c_str());
  std::filesystem::remove_all(dir);
  return 0;
}
