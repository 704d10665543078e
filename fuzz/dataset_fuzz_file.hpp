#pragma once
// Readers that open files by name (HDF5 and MAT through their libraries, EDF and time-stamped CSV
// through FileBytes): each input is written to one file in this process's own temporary folder,
// and every error must name that file.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/dataset_child.hpp"
#include "siglab/io/dataset_files.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::fuzz {

inline const std::string& datasetInputPath(const char* extension) {
  static const std::string path = [extension] {
    std::string folder = (std::filesystem::temp_directory_path() / "siglab-fuzz-XXXXXX").string();
    if (!::mkdtemp(folder.data())) std::abort();
    return folder + "/input" + extension;
  }();
  return path;
}

// Reads every channel `options` chooses of `data` written to that file: samples finite, or an
// InputError naming the file (or NotEnoughMemory: a resampling grid the bytes make too long).
inline void readFileAs(const std::uint8_t* data, std::size_t size, const char* extension, const ReadOptions& options) {
  const std::string& path = datasetInputPath(extension);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                static_cast<std::streamsize>(size));
  try {
    for (const SampleVector& channel : readChannels(path, options).channels) {
      for (const double v : channel) {
        if (!std::isfinite(v)) std::abort();
      }
    }
  } catch (const InputError& e) {
    if (e.path().rfind(path, 0) != 0) std::abort();
  } catch (const NotEnoughMemory&) {
  }
}

// Where the library reads the file: in child processes, as the program does (a crash of the
// library there is an error naming the file; only this process's crashes are findings), or in this
// process (every crash of the library is a finding).
enum class LibraryIn { childProcess, thisProcess };

// Lists the file's datasets and reads the first (or the only one): samples finite, or an InputError
// naming the file.
inline void readDatasetFile(const std::uint8_t* data, std::size_t size, const char* extension, LibraryIn library) {
  // A hung child is ended at 5 s, before libFuzzer's -timeout=10 would take this process for hung.
  setDatasetChildFaultForTests(library == LibraryIn::thisProcess ? DatasetChildFault::noChild : DatasetChildFault::none,
                               library == LibraryIn::thisProcess ? 0 : 5);
  const std::string& path = datasetInputPath(extension);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                static_cast<std::streamsize>(size));
  try {
    const std::vector<DatasetEntry> entries = listDatasets(path);
    ReadOptions options;
    if (!entries.empty()) options.dataset = entries.front().name;
    for (const SampleVector& channel : readChannels(path, options).channels) {
      for (const double v : channel) {
        if (!std::isfinite(v)) std::abort();
      }
    }
  } catch (const InputError& e) {
    if (e.path().rfind(path, 0) != 0) std::abort();
  }
}

}  // namespace siglab::fuzz
