#pragma once
// Runs the siglab-cli under test (SIGLAB_CLI_PATH, set for siglab-cli-tests) with its standard
// output and error in files of a temporary folder.
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>

#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab::test {

struct CliOutcome {
  int exitCode = -1;
  std::string out;
  std::string err;
};

// `PREFIX siglab-cli ARGS` in sh (ARGS may quote, pipe or redirect its input; the output and errors
// of the whole command line are kept).
inline CliOutcome runCli(const std::string& args, const TempDir& dir, const std::string& prefix = "") {
  const std::string outPath = dir.file("stdout.log"), errPath = dir.file("stderr.log");
  const std::string command =
      "{ " + prefix + std::string(SIGLAB_CLI_PATH) + " " + args + "; } >" + outPath + " 2>" + errPath;
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, readFile(outPath), readFile(errPath)};
}

// Whether DIR holds a temporary file a write left behind (the ".tmp-" files outputs are written to).
inline bool hasTemporaries(const TempDir& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) return true;
  }
  return false;
}

// The generator's default signal of COUNT samples as DIR/in.npy; returns its path.
inline std::string writeInput(const TempDir& dir, std::uint64_t count) {
  GenerateOptions options;
  options.count = count;
  const std::string path = dir.file("in.npy");
  writeSignal(path, generateSignal(options));
  return path;
}

// How many entries DIR holds.
inline std::size_t entriesIn(const TempDir& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir.path()),
                                                std::filesystem::directory_iterator()));
}

}  // namespace siglab::test
