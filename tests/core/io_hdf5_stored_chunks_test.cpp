// HDF5 chunks decoded in this process (stored_chunks.hpp, issue 26): the child process sends a
// deflate, shuffle+deflate or unfiltered dataset's chunks as stored and zlib inflates them here, on
// every core. Files h5py writes (chunk shapes, a last partial chunk, float and integer types, several
// channels, MATLAB's layout) read as NumPy holds them; damaged chunks (cut short, bit-flipped,
// inflating to more or less than their size) are errors naming the file and the chunk.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "input_error.hpp"
#include "scipy_support.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/dataset_files.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::errorOf;

// Runs the h5py `script` in `dir`; false where /usr/bin/python3 lacks h5py (the caller skips).
bool runH5py(const test::TempDir& dir, const std::string& script) {
  const std::string path = dir.file("write.py");
  std::ofstream(path) << "import numpy as np, h5py, zlib\n" << script;
  std::string error;
  if (test::runPython(path, &error)) return true;
  if (error.find("No module named") == std::string::npos) ADD_FAILURE() << error;
  return false;
}

std::vector<std::vector<double>> planarOf(const Channels& read) {
  std::vector<std::vector<double>> planar;
  for (const SampleVector& channel : read.channels) planar.push_back(channel.toVector());
  return planar;
}

TEST(Hdf5StoredChunks, DeflateShuffleAndPlainChunksReadAsNumPyHoldsThem) {
  if (!hdf5Supported()) GTEST_SKIP() << "this SigLab was built without hdf5 support";
  const test::TempDir dir;
  const std::string h5 = dir.file("py.h5");
  const std::string mat = dir.file("py73.mat");
  // name, values, chunks, filters: one of each kind the parent decodes, each with a last partial chunk.
  if (!runH5py(dir, "rng = np.random.default_rng(3)\n"
                    "sets = {\n"
                    "  'f64': (np.round(rng.standard_normal(10007), 3), (1000,), dict(compression='gzip')),\n"
                    "  'f64s': (rng.standard_normal(5000), (777,), dict(compression='gzip', shuffle=True)),\n"
                    "  'f32': (rng.standard_normal(3001).astype('<f4'), (500,), dict(compression='gzip', compression_opts=9, shuffle=True)),\n"
                    "  'i16': (rng.integers(-30000, 30000, (3001, 3)).astype('<i2'), (256, 2), dict(compression='gzip', shuffle=True)),\n"
                    "  'u8': (rng.integers(0, 255, (1000, 2)).astype('u1'), (96, 2), {}),\n"
                    "  'i64': (rng.integers(-2**40, 2**40, 2000).astype('<i8'), (333,), dict(compression='gzip')),\n"
                    "  'u32': (rng.integers(0, 2**32 - 1, (2000, 4)).astype('<u4'), (700, 1), dict(compression='gzip')),\n"
                    "  'f64x3': (np.round(rng.standard_normal((5000, 3)), 2), (1024, 3), dict(compression='gzip')),\n"
                    "  'f64cols': (rng.standard_normal((4000, 2)), (1000, 1), dict(compression='gzip')),\n"
                    "  'big': (np.round(np.sin(np.arange(1100000) / 50.0), 3), (65536,), dict(compression='gzip', compression_opts=1)),\n"
                    "  'shuffleonly': (rng.standard_normal(999), (100,), dict(shuffle=True)),\n"
                    "}\n"
                    "with h5py.File('" + h5 + "', 'w') as f:\n"
                    "    for name, (data, chunks, filters) in sets.items():\n"
                    "        f.create_dataset(name, data=data, chunks=chunks, **filters)\n"
                    "        np.save('" + dir.path().string() + "/' + name + '.npy', data.astype('f8'))\n"
                    "    n = np.zeros(3000); n[1234] = np.nan\n"
                    "    f.create_dataset('nan', data=n, chunks=(1000,), compression='gzip')\n"
                    "m = np.round(rng.standard_normal((2, 2500)), 3)\n"  // MATLAB's 2500 x 2, stored as 2 x 2500
                    "with h5py.File('" + mat + "', 'w', userblock_size=512) as f:\n"
                    "    d = f.create_dataset('m', data=m, chunks=(1, 1000), compression='gzip', shuffle=True)\n"
                    "    d.attrs['MATLAB_class'] = np.bytes_('double')\n"
                    "np.save('" + dir.file("m.npy") + "', m.T.copy())\n"
                    "with open('" + mat + "', 'r+b') as f:\n"
                    "    f.write(b'MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Nov 26 00:00:00 2026 HDF5 schema 1.00 .'.ljust(116))\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no h5py";
  }
  for (const char* name : {"f64", "f64s", "f32", "i16", "u8", "i64", "u32", "f64x3", "f64cols", "big", "shuffleonly"}) {
    EXPECT_EQ(planarOf(readChannels(h5 + ":/" + name)), planarOf(readChannels(dir.file(std::string(name) + ".npy")))) << name;
  }
  EXPECT_EQ(planarOf(readChannels(mat + ":m")), planarOf(readChannels(dir.file("m.npy"))));
  ReadOptions third;  // the second chunk along the channels, alone
  third.oneChannel = true;
  third.channel = 3;
  EXPECT_EQ(planarOf(readChannels(h5 + ":/i16", third)), planarOf(readChannels(dir.file("i16.npy"), third)));
  EXPECT_EQ(errorOf([&] { readChannels(h5 + ":/nan"); }), h5 + ":/nan: sample 1235 is NaN: expected finite numbers");

  // Streamed in blocks that cross the decoded blocks (1,048,576 frames) and the chunks.
  const std::vector<double> big = planarOf(readChannels(dir.file("big.npy"))).front();
  const auto stream = openChannelStream(h5 + ":/big");
  std::vector<double> got;
  std::vector<double> buffer(40'009);
  const std::span<double> out[] = {std::span(buffer)};
  for (std::size_t n; (n = stream->read(out)) > 0;) got.insert(got.end(), buffer.begin(), buffer.begin() + n);
  EXPECT_EQ(got, big);
}

// A dataset of 1000 float64 in gzip chunks of 100 (and one of 200 x 3 int64 in chunks of 100 x 1), one
// chunk rewritten as stored (h5py's write_direct_chunk) with damaged bytes: the read is an error
// naming the file, the dataset and the chunk, never a signal.
TEST(Hdf5StoredChunks, DamagedChunksAreErrorsNamingTheFileAndTheChunk) {
  if (!hdf5Supported()) GTEST_SKIP() << "this SigLab was built without hdf5 support";
  const test::TempDir dir;
  if (!runH5py(dir, "good = np.arange(100.0) + 300\n"
                    "packed = zlib.compress(good.tobytes())\n"
                    "damage = {\n"
                    "  'cut': (packed[: len(packed) // 2], 0),\n"
                    "  'flipped': (packed[:-1] + bytes([packed[-1] ^ 1]), 0),\n"
                    "  'longer': (zlib.compress(np.arange(101.0).tobytes()), 0),\n"
                    "  'shorter': (zlib.compress(np.arange(50.0).tobytes()), 0),\n"
                    "  'garbage': (b'not a zlib stream at all', 0),\n"
                    "  'unfiltered': (np.arange(50.0).tobytes(), 1),\n"  // deflate skipped: the bytes as they are
                    "}\n"
                    "for name, (data, skipped) in damage.items():\n"
                    "    with h5py.File('" + dir.path().string() + "/' + name + '.h5', 'w') as f:\n"
                    "        d = f.create_dataset('x', data=np.arange(1000.0), chunks=(100,), compression='gzip')\n"
                    "        d.id.write_direct_chunk((300,), data, skipped)\n"
                    "        y = f.create_dataset('y', data=np.ones((200, 3), '<i8'), chunks=(100, 1), compression='gzip')\n"
                    "        y.id.write_direct_chunk((100, 2), data, skipped)\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no h5py";
  }
  const std::vector<std::pair<const char*, std::string>> expected = {
      {"cut", "its compressed data is cut short"},
      {"flipped", "its compressed data is damaged (zlib: incorrect data check)"},
      {"longer", "it inflates to more than its 800 bytes"},
      {"shorter", "it inflates to 400 bytes, fewer than its 800"},
      {"garbage", "its compressed data is damaged (zlib: incorrect header check)"},
      {"unfiltered", "it holds 400 bytes, not its 800"},
  };
  for (const auto& [name, why] : expected) {
    const std::string path = dir.file(std::string(name) + ".h5");
    EXPECT_EQ(errorOf([&] { readChannels(path + ":/x"); }), path + ":/x: its chunk of frames 301 to 400 is damaged: " + why);
    EXPECT_EQ(errorOf([&] { readChannels(path + ":/y"); }),
              path + ":/y: its chunk of frames 101 to 200, channel 3 is damaged: " + why);
    ReadOptions first;  // the damaged chunk holds channel 3 only: channel 1 reads whole
    first.oneChannel = true;
    first.channel = 1;
    EXPECT_EQ(readChannels(path + ":/y", first).channels.front().toVector(), std::vector<double>(200, 1.0));
  }
}

}  // namespace
}  // namespace siglab
