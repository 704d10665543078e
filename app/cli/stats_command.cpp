#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "cancel_on_signals.hpp"
#include "chain_output.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channels.hpp"
#include "siglab/json_number.hpp"
#include "siglab/statistics.hpp"
#include "siglab/stream_statistics.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

struct StatsOptions {
  std::string input;
  ReadOptions read;
  std::string range;
  bool json = false;
  bool quiet = false;
  PipelineChoice pipeline;  // --chain, --pipeline: the statistics of the chain's output
};

// "A:B" (samples A..B-1, counted from 0); either end may be left out. Throws std::invalid_argument.
SampleRange parseRange(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw std::invalid_argument("--range must be A:B, got \"" + text + "\"");
  const auto number = [&](std::string_view part, std::size_t fallback) {
    if (part.empty()) return fallback;
    std::size_t value = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || end != part.data() + part.size()) {
      throw std::invalid_argument("--range must be A:B with non-negative integers, got \"" + text + "\"");
    }
    return value;
  };
  const std::string_view all(text);
  return SampleRange{number(all.substr(0, colon), 0), number(all.substr(colon + 1), SampleRange{}.end)};
}

std::string formatNumber(double v) {
  if (std::isnan(v)) return "nan";  // as numpy prints it, whatever the NaN's sign bit
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// Which of several channels: its number from 1, and its name where the file gives one.
struct ChannelOf {
  std::size_t index = 0;
  const std::vector<std::string>* names = nullptr;
};

// One channel's statistics: name: value lines, or a JSON object (with "channel", and "name" where
// the file names it, on one line, where there are several).
void printStatistics(const Statistics& s, const std::string& input, const SampleRange& range, bool json,
                     std::optional<ChannelOf> channel) {
  if (json) {
    nlohmann::json j = {{"input", input},
                        {"range_begin", range.begin},
                        {"count", s.count},
                        {"sum", jsonNumber(s.sum)},
                        {"mean", jsonNumber(s.mean)},
                        {"sumsq", jsonNumber(s.sumsq)},
                        {"rms", jsonNumber(s.rms)},
                        {"variance", jsonNumber(s.variance)},
                        {"std", jsonNumber(s.stddev)},
                        {"min", jsonNumber(s.min)},
                        {"min_index", s.minIndex},
                        {"max", jsonNumber(s.max)},
                        {"max_index", s.maxIndex}};
    if (channel) {
      j["channel"] = channel->index + 1;
      if (channel->index < channel->names->size()) j["name"] = (*channel->names)[channel->index];
    }
    std::cout << (channel ? j.dump() : j.dump(2)) << "\n";  // several: JSON Lines, one object a line
    return;
  }
  if (channel) std::cout << "channel: " << channelLabel(channel->index, *channel->names) << "\n";
  std::cout << "count: " << s.count << "\n"
            << "sum: " << formatNumber(s.sum) << "\n"
            << "mean: " << formatNumber(s.mean) << "\n"
            << "sumsq: " << formatNumber(s.sumsq) << "\n"
            << "rms: " << formatNumber(s.rms) << "\n"
            << "variance: " << formatNumber(s.variance) << "\n"
            << "std: " << formatNumber(s.stddev) << "\n"
            << "min: " << formatNumber(s.min) << "\n"
            << "min_index: " << s.minIndex << "\n"
            << "max: " << formatNumber(s.max) << "\n"
            << "max_index: " << s.maxIndex << "\n";
}

// The statistics of each channel of the chain's output, run in memory (streamStatistics reads a
// file, not a run).
ChannelStatistics chainStatistics(const StatsOptions& o, const CLI::App& command, const SampleRange& range,
                                  const Progress& progress, int& code) {
  SourceChannels output;
  code = signalOrChainOutput(command, o.pipeline, "stats", FileSource{o.input, o.read}, progress, output);
  if (code != kExitOk) return {};
  ChannelStatistics all{{}, output.names};
  for (const SampleVector& channel : output.channels) {
    all.each.push_back(statisticsParallel(std::span<const double>(channel.data(), channel.size()), range));
  }
  return all;
}

int runStats(const StatsOptions& o, const CLI::App& command) {
  SampleRange range;
  try {
    if (!o.range.empty()) range = parseRange(o.range);
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli stats: " << e.what() << "\n";
    return kExitUsage;
  }
  CancelOnSignals signals;
  auto anyTime = std::make_unique<ExitOnCancel>(signals, "stats", std::vector<std::string>{});  // writes no file
  // One pass over the file with bounded memory, whatever its size (statisticsParallel's bounds).
  ChannelStatistics stats;
  {
    TerminalProgress progress(o.quiet);
    try {
      const Progress reading = progress.stage("reading " + o.input, signals.flag());
      if (fromOneStageOptions(o.pipeline)) {
        stats = streamChannelStatistics(o.input, o.read, range, reading);
      } else {
        int code = kExitOk;
        stats = chainStatistics(o, command, range, reading, code);
        if (code != kExitOk) {
          progress.clear();
          return code;
        }
      }
    } catch (const Cancelled&) {
      anyTime.reset();  // one line only: the watcher's, or this one
      progress.clear();
      std::cerr << interruptedLine("stats", signals, {}) << "\n";
      return signals.exitCode();
    } catch (const InputError& e) {
      progress.clear();
      std::cerr << "siglab-cli stats: " << e.what() << "\n";
      return kExitInputOutput;
    } catch (const std::out_of_range& e) {
      progress.clear();
      std::cerr << "siglab-cli stats: --range " << o.range << ": " << e.what() << "\n";
      return kExitUsage;
    }
  }
  // Several channels: one block of lines a channel (a blank line between), or one JSON object a line each.
  for (std::size_t c = 0; c < stats.each.size(); ++c) {
    if (c > 0 && !o.json) std::cout << "\n";
    printStatistics(stats.each[c], o.input, range, o.json,
                    stats.each.size() > 1 ? std::optional<ChannelOf>(ChannelOf{c, &stats.names}) : std::nullopt);
  }
  return kExitOk;
}

}  // namespace

void addStatsCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<StatsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "stats", "Count, sum, mean, sum of squares, RMS, variance, std, min and max (with indices) of a signal");
  cmd->add_option("input", o->input, "Signal file (- for standard input): text (one number a line, or --column of a CSV/TSV), .npy, audio (WAV, FLAC, Ogg, AIFF, CAF, W64, AU: by content) or --raw")
      ->required();
  addInputOptions(*cmd, o->read);
  cmd->add_option("--range", o->range, "Samples A..B-1 only (0-based, half-open A:B; A: or :B for one end)");
  cmd->add_flag("--json", o->json, "Print JSON instead of name: value lines");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress on the terminal");
  addChainOptions(*cmd, o->pipeline);
  cmd->callback([o, cmd, &exitCode] { exitCode = runStats(*o, *cmd); });
}

}  // namespace siglab::cli
