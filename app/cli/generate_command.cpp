#include <sys/stat.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <iostream>
#include <limits>
#include <stdexcept>

#include "cancel_on_signals.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "option_checks.hpp"
#include "path_checks.hpp"
#include "siglab/errors.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/work_bounds.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

struct Options {
  GenerateOptions generate;
  std::string output;
  bool quiet = false;
};

// Every "%2.16f" line is at least "0." and 16 digits and a newline.
constexpr double kMinBytesPerSample = 19;

// Throws InputError when the file system holding `path` (a new or regular file) has no room
// for `bytes`.
void requireDiskSpace(const std::string& path, double bytes) {
  if (path == "-") return;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) return;
  const std::filesystem::path p(path);
  const std::string folder = p.has_parent_path() ? p.parent_path().string() : ".";
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) != 0) return;
  const std::uint64_t free = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (bytes > static_cast<double>(free)) {
    throw InputError(path, "not enough disk space: needs at least " + formatBytes(bytes) + ", " + formatBytes(static_cast<double>(free)) +
                               " free");
  }
}

int runGenerate(const Options& o) {
  const std::string count = std::to_string(o.generate.count) + " samples";
  try {
    checkGenerateOptions(o.generate);  // before any file is touched
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli generate: " << e.what() << "\n";
    return kExitUsage;
  }
  if (const int code = checkPathsBeforeWork("generate", {{"-o", o.output}}, {}); code != kExitOk) return code;
  try {
    requireMemory(o.generate.count, sizeof(double), count);
    requireDiskSpace(o.output, static_cast<double>(o.generate.count) * kMinBytesPerSample);
  } catch (const NotEnoughMemory& e) {
    std::cerr << "siglab-cli generate: -n " << o.generate.count << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli generate: " << e.what() << "\n";
    return kExitInputOutput;
  }
  CancelOnSignals signals;
  TerminalProgress progress(o.quiet);
  try {
    std::vector<double> values;
    {
      const ExitOnCancel computing(signals, "generate", {o.output});  // nothing on disk yet
      progress.stage("generating " + count, signals.flag()).report(0.0);
      values = generateSignal(o.generate);
    }
    WriteOptions write;
    write.format = FileFormat::text;
    writeSignal(o.output, values, write, progress.stage("writing " + o.output, signals.flag()));
    return kExitOk;
  } catch (const Cancelled&) {
    progress.clear();
    std::cerr << interruptedLine("generate", signals, {o.output}) << "\n";
    return signals.exitCode();
  } catch (const InputError& e) {
    progress.clear();
    std::cerr << "siglab-cli generate: " << e.what() << "\n";
    return kExitInputOutput;
  } catch (const std::bad_alloc&) {
    progress.clear();
    std::cerr << "siglab-cli generate: not enough memory for " << count << "\n";
    return kExitUsage;
  }
}

}  // namespace

void addGenerateCommand(CLI::App& app, int& exitCode) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("generate", "Write a sine + Gaussian noise signal, one %2.16f value a line");
  cmd->add_option("-n,--samples", options->generate.count,
                  "Number of samples, at least 1 (SigLab reads no empty signal): up to what fits in memory (8 bytes each) and on disk (19 bytes or more each)")
      ->required()->check(wholeNumber(1, std::uint64_t{1} << 62, "2^62"));
  cmd->add_option("--seed", options->generate.seed, "Random seed: the same arguments give the same bytes")
      ->capture_default_str()->check(wholeNumber(0, std::numeric_limits<std::uint64_t>::max(), "2^64 - 1"));
  cmd->add_option("--period", options->generate.period, "Samples per sine cycle")
      ->capture_default_str()->check(finiteNumber(0.0, false, std::numeric_limits<double>::max()));
  cmd->add_option("--noise", options->generate.noiseSigma, "Standard deviation of the noise")
      ->capture_default_str()->check(finiteNumber(0.0, true, 1e100));
  cmd->add_option("-o,--output", options->output, "Output file, or - for standard output")->required();
  cmd->add_flag("-q,--quiet", options->quiet, "No progress on the terminal");
  cmd->callback([options, &exitCode] { exitCode = runGenerate(*options); });
}

}  // namespace siglab::cli
