#pragma once
#include <CLI/CLI.hpp>

#include "siglab/io/signal_io.hpp"

namespace siglab::cli {

// Registers the options that say how to read an input signal (--column, --columns, --skip-header, --decimal,
// --raw, --offset, --channels, --channel, --dataset, --rate-attribute, --allow-nonfinite, --rate) on `command`, storing them in `options`, which
// must outlive the parse.
void addInputOptions(CLI::App& command, ReadOptions& options);

// Accepts a finite number of Hz greater than 0 (for --rate), with a message saying so otherwise.
CLI::Validator sampleRateValidator();

}  // namespace siglab::cli
