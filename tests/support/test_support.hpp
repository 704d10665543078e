#pragma once
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace siglab::test {

// Fresh random values every run; the seed goes into the failure message so a failure can be replayed
// with SIGLAB_TEST_SEED.
inline std::uint64_t freshSeed() {
  if (const char* fixed = std::getenv("SIGLAB_TEST_SEED")) return std::strtoull(fixed, nullptr, 10);
  return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
}

inline std::vector<double> randomSignal(std::size_t n, std::mt19937_64& rng, double scale = 100.0) {
  std::uniform_real_distribution<double> dist(-scale, scale);
  std::vector<double> values(n);
  for (double& v : values) v = dist(rng);
  return values;
}

// A scratch folder removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "siglab-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline void writeFile(const std::string& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

// A canonical 16-bit PCM WAV file (44-byte header) of `frames` frames of `channels` random samples.
inline void writeRandomPcm16Wav(const std::string& path, std::size_t channels, std::size_t frames, std::mt19937_64& rng) {
  const std::uint64_t dataBytes = frames * channels * 2;
  std::string bytes;
  const auto put = [&bytes](std::uint64_t value, int size) {
    for (int i = 0; i < size; ++i) bytes.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
  };
  bytes += "RIFF";
  put(36 + dataBytes, 4);
  bytes += "WAVEfmt ";
  put(16, 4);
  put(1, 2);  // PCM
  put(channels, 2);
  put(8000, 4);
  put(8000 * channels * 2, 4);
  put(channels * 2, 2);
  put(16, 2);
  bytes += "data";
  put(dataBytes, 4);
  std::uniform_int_distribution<int> sample(-32768, 32767);
  for (std::uint64_t i = 0; i < frames * channels; ++i) put(static_cast<std::uint16_t>(sample(rng)), 2);
  writeFile(path, bytes);
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Whether every page of [p, p + bytes) is mapped in this process (mincore fails with ENOMEM otherwise).
inline bool mapped(const void* p, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> residency((bytes + page - 1) / page);
  errno = 0;
  const int rc = mincore(const_cast<void*>(p), bytes, residency.data());
  return rc == 0 || errno != ENOMEM;
}

}  // namespace siglab::test
