#pragma once
#include <CLI/CLI.hpp>

#include "siglab/io/signal_io.hpp"

namespace siglab::cli {

// Registers the options that say how to read an input signal (--column, --skip-header, --raw,
// --offset, --channel, --allow-nonfinite) on `command`, storing them in `options`, which must
// outlive the parse.
void addInputOptions(CLI::App& command, ReadOptions& options);

}  // namespace siglab::cli
