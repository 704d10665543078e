#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "siglab/io/dataset_files.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab {

// What the first bytes of a signal file say about the choices reading it needs: the columns and
// header of a text file, the channels of a WAV file, or bytes that are not text (raw samples).
struct FileProbe {
  FileFormat format = FileFormat::text;  // the format recognising the bytes (npy, wav, flac, ...), else text
  std::uint64_t bytes = 0;
  std::size_t wavChannels = 0;            // audio (WAV, FLAC, Ogg, ...) only
  std::optional<double> wavSampleRate;    // audio only: its own rate, Hz
  std::size_t columns = 0;                // text: fields on the first data line (as the reader splits them)
  bool header = false;                    // text: that line holds something other than numbers
  char decimal = '.';                     // text: ',' where the numbers have decimal commas ("1,5;2,5")
  std::vector<std::string> headerNames;   // text: its fields, when it is a header
  bool binary = false;                    // "text" holding NUL bytes or non-UTF-8 bytes: raw samples, probably
  std::vector<std::string> preview;       // text: the first lines, as written
  bool datasetFile = false;               // HDF5 or MATLAB .mat (format: "hdf5" or "mat")
  std::vector<DatasetEntry> datasets;     // theirs: the numeric 1-D/2-D arrays to pick from
};

// Looks at the first 64 KiB (and a WAV file's header). A stream (a pipe, a FIFO, standard input
// as "-" or /dev/stdin) is read to its end into the spool that every reader of it in this process
// then reads (file_bytes.hpp): probing never takes bytes from a stream a reader reads after it.
// Throws InputError naming the file when it cannot be opened.
FileProbe probeSignalFile(const std::string& path);

// Whether reading the file as probed needs a choice the defaults would get wrong: a column, a
// header or decimal commas in text, a channel of a multi-channel WAV, the sample type of raw bytes,
// the dataset of an HDF5/MAT file that holds several.
bool needsReadChoices(const FileProbe& probe);

// The options a reader would most likely want: skip a detected header, column 1 of a delimited
// file (the last, when a header names more than one), its decimal mark, raw f64 for binary bytes,
// an HDF5/MAT file's first dataset.
ReadOptions suggestedReadOptions(const FileProbe& probe);

}  // namespace siglab
