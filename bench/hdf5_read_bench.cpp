// siglab-hdf5-bench FILE:NAME: seconds SigLab takes to read an HDF5 dataset into memory
// (readChannels), after one warm-up read; scripts/bench-hdf5.sh compares it with h5py's dataset[:].
#include <chrono>
#include <cstdio>

#include "siglab/io/channel_io.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: siglab-hdf5-bench FILE.h5:/DATASET\n");
    return 2;
  }
  siglab::readChannels(argv[1]);  // warm-up: the page cache, the library
  const auto start = std::chrono::steady_clock::now();
  const siglab::Channels read = siglab::readChannels(argv[1]);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.3f %zu\n", seconds, read.frames());
  return 0;
}
