#pragma once
// The ends of a pipeline's run: samples in memory as a stream and a result in memory as a sink,
// and a file source's and sink's streams: one channel through readSignal and SampleStream (today's
// bytes and speed), several through readChannels, ChannelStream and ChannelSink.
#include <span>

#include "pipeline_steps.hpp"

namespace siglab::detail {

// A streamed run's ends on one channel in memory, its result into `result`.
StreamEnds memoryEnds(std::span<const double> channel, SampleVector& result, const std::string& name);

// The same with the result written into the caller's `into` (the channel's length).
StreamEnds memoryIntoEnds(std::span<const double> channel, std::span<double> into, const std::string& name);

// The same with the result into `sink`'s file (one channel).
StreamEnds memoryToFileEnds(std::span<const double> channel, const FileSink& sink, std::optional<double> sampleRate,
                            const std::string& name);

// A file source's stream into a file or into `result`.
StreamEnds fileEnds(const FileSource& source, const PipelineSink& sink, SampleVector& result);

// `source` reading only channel `channel` (0-based).
FileSource oneChannelOf(const FileSource& source, std::size_t channel);

// Every channel of a file source, streamed into a file or into the report.
ChannelEnds fileChannelEnds(const FileSource& source, std::size_t channels, const PipelineSink& sink);
// Channels in memory streamed into a file.
ChannelEnds memoryChannelEnds(std::span<const std::span<const double>> channels, const FileSink& sink,
                              std::optional<double> sampleRate, const std::string& name);

// The whole file, as readSignal reads it (readChannels where `channels` > 1): channels planar.
using ReadChannels = SourceChannels;
ReadChannels readSource(const FileSource& source, std::size_t channels, const Progress& progress);

// Writes the channels to the file, atomically (one channel as writeSignal, several as writeChannels). Throws InputError, Cancelled.
void writeSink(const FileSink& sink, std::span<const SampleVector> channels, std::optional<double> sampleRate,
               const Progress& progress);

}  // namespace siglab::detail
