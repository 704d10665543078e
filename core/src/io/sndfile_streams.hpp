#pragma once
// The readers of a SignalFormat decoded by libsndfile (sndfile_reader.hpp): every channel, or
// ReadOptions::channel alone, in memory or block by block.
#include <memory>
#include <string>
#include <vector>

#include "file_bytes.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/signal.hpp"

namespace siglab {

// `what` names the format in messages ("FLAC").
std::unique_ptr<ChannelStream> openSndfileChannels(std::unique_ptr<FileBytes> file, const std::string& path,
                                                   const std::string& what, const ReadOptions& options);
// options.channel (1-based) alone.
std::unique_ptr<SampleStream> openSndfileSamples(std::unique_ptr<FileBytes> file, const std::string& path,
                                                 const std::string& what, const ReadOptions& options);
Signal readSndfileSignal(const FileBytes& file, const std::string& path, const std::string& what,
                         const ReadOptions& options, const Progress& progress);
// The last `count` samples of options.channel, through libsndfile's seek; empty where the tail
// cannot be decoded (the full read names the error).
std::vector<double> readSndfileTail(const FileBytes& file, const std::string& path, const std::string& what,
                                    const ReadOptions& options, std::size_t count);

}  // namespace siglab
