#pragma once
#include <memory>
#include <string>

#include "file_bytes.hpp"
#include "siglab/io/sample_stream.hpp"

namespace siglab {

// A WAV file's `channel` (1-based) through libsndfile, block by block (parseWav's checks and values).
std::unique_ptr<SampleStream> openWavStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                            std::size_t channel, bool allowNonFinite);
// Its last `count` samples of `channel`.
std::vector<double> readWavTail(const FileBytes& file, const std::string& path, std::size_t channel, std::size_t count);

}  // namespace siglab
