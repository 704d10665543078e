#include "input_options.hpp"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "option_checks.hpp"
#include "siglab/sample_rate.hpp"

namespace siglab::cli {

void addInputOptions(CLI::App& command, ReadOptions& options) {
  CLI::Option* column = command.add_option("--column", options.column,
                                           "Text input: read this 1-based column of a CSV, TSV or blank-separated file")
                            ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max(), "2^63 - 1"));
  command.add_option("--columns", options.columns,
                     "Text input: these 1-based columns, one channel each (2,3); without it or --column, a file of "
                     "several numeric columns gives all of them")
      ->delimiter(',')
      ->excludes(column)
      ->check(wholeNumber(1, std::numeric_limits<std::int64_t>::max(), "2^63 - 1"));
  command.add_flag("--skip-header", options.skipHeader, "Text input: ignore the first line that is not a comment");
  command
      .add_option_function<std::string>(
          "--decimal", [&options](const std::string& mark) { options.decimal = mark.front(); },
          "Text input: the decimal mark, . (default) or , (as in 1,5;2,5: fields are then separated by ;, tabs or blanks)")
      ->check(oneOf({".", ","}));
  const std::vector<std::string> types = {"f64", "f32", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"};
  CLI::Option* raw = command
                         .add_option_function<std::string>(
                             "--raw", [&options](const std::string& name) { options.rawType = parseSampleTypeName(name); },
                             "Input is raw little-endian binary of this sample type (f64, f32, i16, i32, ...)")
                         ->check(oneOf(types));
  command.add_option("--offset", options.rawOffset, "Raw input: bytes to skip before the first sample")
      ->needs(raw)->check(wholeNumber(0, std::numeric_limits<std::int64_t>::max(), "2^63 - 1"));
  command.add_option("--channels", options.rawChannels, "Raw input: channels interleaved frame by frame")
      ->needs(raw)->check(wholeNumber(1, 1024));
  command
      .add_option_function<std::size_t>(
          "--channel",
          [&options](std::size_t channel) {
            options.channel = channel;
            options.oneChannel = true;
          },
          "Read this 1-based channel only (of a WAV, a 2-D .npy, --channels raw or the columns of a CSV); "
          "without it every channel is read")
      ->check(wholeNumber(1, 65535));
  command.add_option("--dataset", options.dataset,
                     "HDF5/MAT input: the dataset or variable to read (also as FILE:NAME); default: the file's only "
                     "numeric one");
  command.add_option("--rate-attribute", options.rateAttribute,
                     "HDF5 input: the dataset's attribute holding the sample rate (default: the first of rate, fs, "
                     "sampling_rate, sample_rate present)");
  command.add_option("--time-column", options.timeColumn,
                     "CSV input: this 1-based column holds time stamps (seconds, or ISO 8601 date-times such as "
                     "2026-11-27T10:00:00.25+01:00, found without it in the first column that holds them): their "
                     "spacing, uniform within 1%, sets the rate")
      ->check(wholeNumber(1, 65535));
  command.add_option_function<double>("--resample-to", [&options](double hz) { options.resampleTo = hz; },
                                      "CSV input with time stamps: interpolate the columns linearly onto a uniform "
                                      "grid of this many Hz (irregular time stamps are otherwise an error)")
      ->check(sampleRateValidator());
  command.add_option("--signals", options.edfSignals,
                     "EDF input: the signals to read as channels, by label or 1-based number (\"EEG Fz,EEG Cz\" or 1,3); "
                     "default: every signal, which must share one rate")
      ->delimiter(',');
  command.add_flag("--allow-nonfinite", options.allowNonFinite, "Keep NaN and infinite samples instead of rejecting them");
  command.add_option_function<double>("--rate", [&options](double hz) { options.sampleRate = hz; },
                                      "Sample rate in Hz of a text, CSV, .npy, raw, HDF5 or MAT input (replaces a WAV file's or an HDF5 attribute's)")
      ->check(sampleRateValidator());
}

CLI::Validator sampleRateValidator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double hz = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !isValidSampleRate(hz)) {
          return "must be a finite number of Hz greater than 0, got \"" + text + "\"";
        }
        return {};
      },
      "HZ > 0");
}

}  // namespace siglab::cli
