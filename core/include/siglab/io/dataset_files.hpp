#pragma once
// HDF5 and MATLAB .mat files: many named arrays in one file, of which a signal is one (an HDF5
// dataset, a MATLAB variable). They are read and written by the ordinary readers and writers, named
// "FILE:NAME" (data.h5:/group/x, rec.mat:x) or with ReadOptions::dataset / WriteOptions::dataset;
// this header says what a file holds and how such a name splits.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace siglab {

// One array a reader can take as a signal: numeric, 1-D or 2-D.
struct DatasetEntry {
  std::string name;                  // HDF5: "/group/dataset"; MAT: the variable's name
  std::vector<std::uint64_t> shape;  // as the file shows it (MAT: rows x columns as MATLAB shows them)
  std::string type;                  // "float64", "int16", ...
  std::uint64_t frames = 0;          // as SigLab reads it: samples a channel
  std::uint64_t channels = 0;
};

enum class DatasetFileKind { none, hdf5, mat5, mat73 };

// By content: the first bytes of a file (at least 1032 of them to see an HDF5 file's signature at
// 512 or 1024, where a MATLAB 7.3 file has it).
DatasetFileKind datasetFileKind(std::span<const std::byte> start);
// The same for a file by name; none when it cannot be read or is not a regular file.
DatasetFileKind datasetFileKindOf(const std::string& path);

// "FILE:NAME" split where FILE is an existing file and the whole is not; otherwise the path whole
// and an empty name.
struct DatasetPath {
  std::string file;
  std::string dataset;
};
DatasetPath splitDatasetPath(const std::string& path);
// The file an output name writes: FILE of FILE.h5:NAME or FILE.mat:NAME, else the name itself.
std::string datasetOutputFile(const std::string& path);

// The numeric 1-D and 2-D arrays of an HDF5 or MAT file, in the file's order, for a picker. Throws
// InputError naming the file when it is neither, is damaged, or this SigLab was built without the
// library that reads it.
std::vector<DatasetEntry> listDatasets(const std::string& path);

// "/group/x: 1000 x 2 float64 (2 channels of 1000 samples)", for a picker.
std::string datasetLabel(const DatasetEntry& entry);

// Whether this build reads and writes the formats (the libraries were found at build time).
bool hdf5Supported();
bool matSupported();

}  // namespace siglab
