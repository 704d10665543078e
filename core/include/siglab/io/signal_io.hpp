#pragma once
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "siglab/io/atomic_file.hpp"
#include "siglab/io/file_format.hpp"
#include "siglab/io/sample_type.hpp"
#include "siglab/io/signal.hpp"
#include "siglab/progress.hpp"

namespace siglab {

/// How a signal file is read: its format and the choices that format leaves open.
struct ReadOptions {
  FileFormat format = FileFormat::automatic;  // automatic: a format recognising the bytes (.npy, WAV, FLAC, ...), raw when rawType is set, else text
  std::size_t column = 0;                     // text: 1-based column of a CSV/TSV/blank-separated file; 0: one number a line
  bool skipHeader = false;                    // text: ignore the first line that is neither blank nor a comment
  char decimal = '.';                         // text: the decimal mark, '.' or ',' (then ',' never separates fields)
  std::optional<SampleType> rawType;          // raw: the little-endian sample type (setting it selects raw)
  std::uint64_t rawOffset = 0;                // raw: bytes to skip before the first sample
  std::size_t channel = 1;                    // WAV: 1-based channel (with oneChannel: of any format)
  bool oneChannel = false;                    // only `channel` of what readChannels would read (readSignal, openSampleStream
                                              // and readSignalTail then pick it of a 2-D .npy, raw or CSV too)
  std::vector<std::size_t> columns;           // readChannels, text: 1-based columns, one a channel; empty: `column`,
                                              // else every numeric column of a file with several fields a line
  std::size_t rawChannels = 1;                // raw: channels interleaved frame by frame
  bool allowNonFinite = false;                // keep NaN and infinities instead of rejecting them
  std::optional<double> sampleRate;           // Hz: the rate of a text, .npy or raw file (for WAV, replaces its own)
  std::pmr::memory_resource* hostMemory = nullptr;  // where the samples go (and an apply's result); nullptr: ordinary
                                                    // memory; pinnedHostMemory() when a GPU engine will copy them
  std::string dataset;                        // HDF5/MAT: the dataset or variable (as FILE:NAME); empty: the only one
  std::size_t timeColumn = 0;                 // text: 1-based column of time stamps (seconds, or ISO 8601 date-times)
                                              // that sets the rate; 0: the first column where its header names a time
                                              // or its first field is an ISO 8601 date-time, else none
  std::optional<double> resampleTo;           // text with time stamps: Hz of a uniform grid the channels are linearly
                                              // interpolated onto; unset: irregular time stamps are an error
  std::vector<std::string> edfSignals;        // EDF: the signals to read as channels, by label or 1-based number;
                                              // empty: every one (they must share one rate)
  std::string rateAttribute;                  // HDF5: the dataset's attribute holding the rate; empty: the first of
                                              // rate, fs, sampling_rate, sample_rate present
};

/// How a text file writes each number.
enum class TextStyle {
  seed,       // printf("%2.16f\n"): the original program's format, byte for byte
  shortest,   // the shortest text that reads back to the same double (std::to_chars)
};

/// How a signal file is written: its format and that format's choices.
struct WriteOptions {
  FileFormat format = FileFormat::automatic;  // automatic: by extension (.npy, .wav, .flac, .raw/.bin, ...), else text
  TextStyle textStyle = TextStyle::seed;
  SampleType rawType = SampleType::f64;       // raw: f64 or f32
  double sampleRate = 48000.0;                // WAV and FLAC (WAV: 32-bit float samples; 64-bit where a value needs them)
  unsigned bits = 0;                          // the sample width where a format has a choice: WAV 32 or 64 (float),
                                              // FLAC 16 or 24 (integers: quantised); 0: the format's default
  Durability durability = Durability::flushed;
  std::string dataset;                        // HDF5 (.h5, .hdf5) and MAT (.mat) output: the dataset or variable
                                              // (as FILE:NAME); empty: /signal, signal
  std::string rateAttribute = "rate";         // HDF5 output: the attribute that holds sampleRate
  std::vector<std::string> channelNames;      // EDF output: each channel's label (where given), else its number
  std::vector<std::string> channelUnits;      // EDF output: each channel's physical dimension (where given)
};

// Reads one channel of a signal from `path` ("-": standard input, read to its end) in the format
// the options and the file choose (with rawChannels or columns set: the one readChannels with
// oneChannel reads; channel_io.hpp reads them all). Throws InputError
// naming the file (and the line and column for text) on any problem, Cancelled when cancelled;
// either way no partial signal is returned. An invalid options.sampleRate throws
// std::invalid_argument before the file is opened.
Signal readSignal(const std::string& path, const ReadOptions& options = {}, const Progress& progress = {});

// Writes `values` to `path` atomically (the old file survives any failure or cancellation, and no
// temporary is left behind). Throws InputError naming the file, or Cancelled.
void writeSignal(const std::string& path, std::span<const double> values, const WriteOptions& options = {},
                 const Progress& progress = {});

// The same into `file`, which the caller commits (alone or with others in an OutputSet); the
// format follows file.path() ("-", standard output, is text unless options.format says otherwise).
void appendSignal(AtomicFileWriter& file, std::span<const double> values, const WriteOptions& options = {},
                  const Progress& progress = {});

// The format `writeSignal` picks for `path` when options.format is automatic.
FileFormat formatForOutput(const std::string& path);

}  // namespace siglab
