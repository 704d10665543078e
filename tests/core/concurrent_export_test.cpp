// Two writers exporting to the same path at once (two SigLab windows, two CLI runs) while a third
// reads it: every read and the final file are one complete version, never a mix or a cut file,
// and no temporary file is left behind.
#include <atomic>
#include <filesystem>
#include <thread>
#include <vector>

#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(ConcurrentExport, TwoWritersToOnePathLeaveOneCompleteVersion) {
  test::TempDir dir;
  const std::string path = dir.file("result.txt");
  const std::size_t n = 20'011;
  const std::vector<std::vector<double>> versions = {std::vector<double>(n, 0.25), std::vector<double>(n, -7.5)};
  WriteOptions options;
  options.durability = Durability::buffered;  // atomicity comes from the rename, not from fsync

  std::atomic<int> writersLeft{2};
  std::vector<std::thread> writers;
  for (const auto& values : versions) {
    writers.emplace_back([&, &values = values] {
      for (int i = 0; i < 40; ++i) writeSignal(path, values, options);
      --writersLeft;
    });
  }
  int reads = 0;
  while (writersLeft.load() > 0) {
    if (!std::filesystem::exists(path)) continue;
    const SampleVector seen = readSignal(path).samples;
    ASSERT_TRUE(seen == versions[0] || seen == versions[1]) << "a read saw " << seen.size() << " samples of a mixed file";
    ++reads;
  }
  for (auto& w : writers) w.join();
  const SampleVector last = readSignal(path).samples;
  EXPECT_TRUE(last == versions[0] || last == versions[1]);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(entry.path().string(), path) << "left behind";
  }
  EXPECT_EQ(files, 1u);
  std::cout << "[          ] " << reads << " reads during the writes, each one whole version\n";
}

}  // namespace
}  // namespace siglab
