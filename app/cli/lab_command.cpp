#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "lab_ladders.hpp"
#include "ladder_table.hpp"
#include "option_checks.hpp"

namespace siglab::cli {
namespace {

constexpr std::int64_t kMaxReverseCount = std::int64_t{1} << 31;
constexpr std::int64_t kMaxMatrixSide = 32768;

struct LabOptions {
  std::string count = "2^28";
  std::string size = "1000,1000,1000";
  int repeat = 10;
  std::uint64_t seed = 1;
};

// A whole number in [1, max], or nothing.
std::optional<std::int64_t> parseCount(std::string_view text, std::int64_t max) {
  std::int64_t value = 0;
  if (text.starts_with("2^")) {
    int exponent = 0;
    const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), exponent);
    if (ec != std::errc() || end != text.data() + text.size() || exponent < 0 || exponent > 62) return std::nullopt;
    value = std::int64_t{1} << exponent;
  } else {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  }
  if (value < 1 || value > max) return std::nullopt;
  return value;
}

std::optional<MatmulShape> parseShape(const std::string& text) {
  std::vector<std::int64_t> sides;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const auto side = parseCount(std::string_view(text).substr(start, comma - start), kMaxMatrixSide);
    if (!side) return std::nullopt;
    sides.push_back(*side);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (sides.size() == 1) return MatmulShape{sides[0], sides[0], sides[0]};
  if (sides.size() == 3) return MatmulShape{sides[0], sides[1], sides[2]};
  return std::nullopt;
}

void addCommonOptions(CLI::App& cmd, LabOptions& o) {
  cmd.add_option("-r,--repeat", o.repeat, "Timed runs of each rung after one warm-up; the median is shown")
      ->capture_default_str()->check(wholeNumber(1, 10000));
  cmd.add_option("--seed", o.seed, "Seed of the random input")->capture_default_str();
}

}  // namespace

void addLabCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<LabOptions>();
  CLI::App* lab = app.add_subcommand("lab", "The Lab's CUDA experiments as ladders: each rung one change, timed, checked, "
                                            "against a yardstick measured in the same run");
  lab->require_subcommand(1);

  CLI::App* reverse = lab->add_subcommand("reverse", "Reverse N random int32: CPU, one block, many blocks, shared "
                                                     "memory, 16-byte accesses, against a device-to-device copy");
  reverse->add_option("-n,--count", o->count, "Elements, 1 to 2^31 (a number or 2^K)")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) {
            return parseCount(text, kMaxReverseCount) ? std::string()
                                                      : "expected a count from 1 to 2^31 (a number or 2^K), found \"" +
                                                            text + "\"";
          },
          "COUNT"));
  addCommonOptions(*reverse, *o);
  reverse->callback([o, &exitCode] {
    const auto count = static_cast<std::size_t>(*parseCount(o->count, kMaxReverseCount));
    exitCode = printLadderTable(runReversalLab(count, o->repeat, o->seed)) ? kExitOk : kExitDisagreement;
    std::printf("timing: CUDA events (CPU: wall clock), median of %d runs after a warm-up; target: fastest rung "
                ">= 0.95x d2d-copy at 2^28\n",
                o->repeat);
  });

  CLI::App* matmul = lab->add_subcommand("matmul", "Multiply random float32 matrices: CPU serial and blocked, then "
                                                   "the GPU rungs from one thread per output up, against cublasSgemm");
  matmul->add_option("--size", o->size, "M,N,K: C (M x N) = A (M x K) B (K x N), each 1 to 32768; or one side S")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& text) {
            return parseShape(text) ? std::string()
                                    : "expected M,N,K or S, each a whole number from 1 to 32768, found \"" + text + "\"";
          },
          "M,N,K"));
  addCommonOptions(*matmul, *o);
  matmul->callback([o, &exitCode] {
    exitCode = printLadderTable(runMatmulLab(*parseShape(o->size), o->repeat, o->seed)) ? kExitOk : kExitDisagreement;
    std::printf("timing: CUDA events (CPU: wall clock), median of %d runs after a warm-up (CPU rungs: at most 3); "
                "targets: fastest rung >= 0.70x cublas-sgemm at 4096^3, >= 0.50x at 1000^3\n",
                o->repeat);
  });
}

}  // namespace siglab::cli
