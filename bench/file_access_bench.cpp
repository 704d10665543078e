// Why SigLab maps regular files instead of reading them (see core/src/io/truncation_guard.hpp):
// loads a seed-format text file by mmap + parse and by read() into a fresh buffer + parse,
// interleaved in the same run, and prints the medians. Usage: siglab-file-access-bench FILE [rounds=7]
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "siglab/io/text_format.hpp"
#include "siglab/timing.hpp"

namespace {

std::size_t loadMapped(const char* path, int fd, std::size_t size) {
  void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (mapping == MAP_FAILED) return 0;
  ::madvise(mapping, size, MADV_SEQUENTIAL);
  const std::size_t count = siglab::parseTextSignal({static_cast<const char*>(mapping), size}, path).size();
  ::munmap(mapping, size);
  return count;
}

std::size_t loadRead(const char* path, int fd, std::size_t size) {
  auto buffer = std::make_unique_for_overwrite<char[]>(size);
  std::size_t used = 0;
  for (ssize_t got = 0; used < size && (got = ::read(fd, buffer.get() + used, size - used)) > 0;) used += got;
  return siglab::parseTextSignal({buffer.get(), used}, path).size();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: siglab-file-access-bench FILE [rounds=7]\n");
    return 2;
  }
  const char* path = argv[1];
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  using Loader = std::size_t (*)(const char*, int, std::size_t);
  const Loader loaders[] = {loadMapped, loadRead};
  const char* names[] = {"mmap + parse", "read() into a buffer + parse"};
  std::vector<double> millis[2];
  std::size_t counts[2] = {};
  for (int round = -1; round < rounds; ++round) {  // round -1 warms the page cache
    for (int way = 0; way < 2; ++way) {
      const auto start = std::chrono::steady_clock::now();
      const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
      struct stat info {};
      if (fd < 0 || ::fstat(fd, &info) != 0) {
        std::perror(path);
        return 1;
      }
      counts[way] = loaders[way](path, fd, static_cast<std::size_t>(info.st_size));
      ::close(fd);
      if (round >= 0) millis[way].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
  std::printf("siglab-file-access-bench: %s, %zu samples, %d interleaved rounds after a warm-up\n", path, counts[0], rounds);
  for (int way = 0; way < 2; ++way) {
    const siglab::TimingStats t = siglab::summarize(millis[way]);
    std::printf("  %-30s median %8.1f ms  (min %8.1f, max %8.1f)\n", names[way], t.medianMs, t.minMs, t.maxMs);
  }
  return counts[0] == counts[1] ? 0 : 1;
}
