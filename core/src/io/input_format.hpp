#pragma once
#include <string>

#include "siglab/io/binary_formats.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab {

// The format readSignal reads `path` in: the options' choice, else .npy and WAV by their first
// bytes, else by extension; a .raw/.bin name without --raw is an InputError.
FileFormat detectInputFormat(const std::string& path, Bytes bytes, const ReadOptions& options);

}  // namespace siglab
