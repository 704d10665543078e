#pragma once
// EDF's data records read block by block (the chosen signals of one rate as channels, scaled to
// physical values) and written from float64 frames quantised to 16 bits.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "edf_header.hpp"
#include "edf_labels.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/channel_stream.hpp"

namespace siglab {

// The signals options.edfSignals chooses (options.oneChannel: its options.channel alone) of the EDF
// file `file`, read through pread about `windowBytes` at a time. `owned`, where given, is `file`
// and lives as long as the stream.
std::unique_ptr<ChannelStream> openEdfChannelStream(const FileBytes& file, std::unique_ptr<FileBytes> owned,
                                                    const std::string& path, const ReadOptions& options,
                                                    std::size_t windowBytes);

// A record layout for `frames` frames at `rate` Hz: records of a duration written exactly in 8
// characters, dividing `frames` where one does (else the last record is padded with zeros).
// InputError naming `path` for a rate no such record holds a whole number of samples of.
struct EdfRecordPlan {
  std::uint64_t samplesPerRecord = 1;
  std::uint64_t records = 0;
  double recordSeconds = 1.0;
};
EdfRecordPlan planEdfRecords(double rate, std::uint64_t frames, const std::string& path);

// Writes an EDF file of `channels` channels and `frames` frames into `out`: `fill(first, block)`
// puts frames [first, first + block[c].size()) of every channel into `block`; `low` and `high`
// bound each channel's samples (the physical range mapped onto -32768..32767); `fields` gives each
// signal's label and physical dimension.
using EdfFrameSource = std::function<void(std::uint64_t first, std::span<const std::span<double>> block)>;
void writeEdf(AtomicFileWriter& out, double rate, std::uint64_t frames, std::span<const double> low,
              std::span<const double> high, const EdfLabels& fields, const EdfFrameSource& fill);

}  // namespace siglab
