// HDF5 and MATLAB files (issue 26 items 2, 3): round trips of 1-3 channels, block-by-block reads
// equal to whole reads, files of h5py and scipy.io read and ours read by them, and damaged or
// unsuitable files refused with the file, the dataset and the reason.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input_error.hpp"
#include "scipy_support.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/cancel_waits.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/dataset_child.hpp"
#include "siglab/io/dataset_files.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/progress.hpp"
#include "siglab/session.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Planar = std::vector<std::vector<double>>;

Planar randomPlanar(std::size_t channels, std::size_t frames, std::mt19937_64& rng) {
  Planar planar;
  for (std::size_t c = 0; c < channels; ++c) planar.push_back(test::randomSignal(frames, rng));
  return planar;
}

Planar toPlanar(const Channels& read) {
  Planar planar;
  for (const SampleVector& c : read.channels) planar.push_back(c.toVector());
  return planar;
}

std::vector<std::span<const double>> spansOf(const Planar& planar) { return {planar.begin(), planar.end()}; }

using test::errorOf;

// Runs `script` with /usr/bin/python3 (h5py and scipy.io); false (with the test skipped) where missing.
bool python(const test::TempDir& dir, const std::string& script) {
  const std::string path = dir.file("script.py");
  std::ofstream(path) << "import numpy as np\n" << script;
  std::string error;
  if (!test::runPython(path, &error)) {
    if (error.find("No module named") != std::string::npos) return false;
    ADD_FAILURE() << error;
    return false;
  }
  return true;
}

#define SKIP_WITHOUT(library)                                                                      \
  do {                                                                                             \
    if (!library##Supported()) GTEST_SKIP() << "this SigLab was built without " #library " support"; \
  } while (0)

TEST(Hdf5Files, RoundTripOneTwoThreeChannelsWithTheRate) {
  SKIP_WITHOUT(hdf5);
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (const std::size_t channels : {1, 2, 3}) {
    const Planar planar = randomPlanar(channels, 1000 + channels, rng);
    WriteOptions write;
    write.sampleRate = 1234.5;
    const std::string path = dir.file("out" + std::to_string(channels) + ".h5");
    writeChannels(path + ":/group/sig", spansOf(planar), write);
    const Channels named = readChannels(path + ":/group/sig");
    EXPECT_EQ(toPlanar(named), planar) << "seed " << seed;
    EXPECT_EQ(named.sampleRate, 1234.5);
    EXPECT_EQ(toPlanar(readChannels(path)), planar) << "the only dataset, unnamed";
    ReadOptions last;
    last.dataset = "group/sig";
    last.oneChannel = true;
    last.channel = channels;
    EXPECT_EQ(readSignal(path, last).samples.toVector(), planar.back());
  }
  const std::vector<DatasetEntry> list = listDatasets(dir.file("out3.h5"));
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].name, "/group/sig");
  EXPECT_EQ(list[0].shape, (std::vector<std::uint64_t>{1003, 3}));
  EXPECT_EQ(list[0].type, "float64");
  EXPECT_EQ(list[0].channels, 3u);
}

TEST(MatFiles, RoundTripOneTwoThreeChannels) {
  SKIP_WITHOUT(mat);
  std::mt19937_64 rng(test::freshSeed());
  test::TempDir dir;
  for (const std::size_t channels : {1, 2, 3}) {
    const Planar planar = randomPlanar(channels, 777, rng);
    const std::string path = dir.file("out" + std::to_string(channels) + ".mat");
    writeChannels(path + ":x_" + std::to_string(channels), spansOf(planar));
    EXPECT_EQ(toPlanar(readChannels(path + ":x_" + std::to_string(channels))), planar);
    EXPECT_EQ(toPlanar(readChannels(path)), planar) << "the only variable, unnamed";
    const std::vector<DatasetEntry> list = listDatasets(path);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].shape, (std::vector<std::uint64_t>{777, channels}));
  }
  EXPECT_NE(errorOf([&] { writeChannels(dir.file("bad.mat:2x"), spansOf(randomPlanar(1, 5, rng))); })
                .find("not a MATLAB variable name"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.mat")));
}

// Blocks of any size, across the reader's own block and chunk boundaries, give the whole read.
TEST(Hdf5Files, StreamedEqualsInMemory) {
  SKIP_WITHOUT(hdf5);
  std::mt19937_64 rng(test::freshSeed());
  test::TempDir dir;
  const Planar planar = randomPlanar(3, 400'000, rng);  // past one block of the reader (about 1M samples)
  const std::string path = dir.file("big.h5");
  writeChannels(path, spansOf(planar));
  const Planar whole = toPlanar(readChannels(path));
  ASSERT_EQ(whole, planar);
  for (const std::size_t block : {std::size_t{1}, std::size_t{4093}, std::size_t{300'000}}) {
    const auto stream = openChannelStream(path);
    ASSERT_EQ(stream->knownFrames(), 400'000u);
    Planar got(3);
    std::vector<std::vector<double>> buffers(3, std::vector<double>(block));
    std::vector<std::span<double>> out(buffers.begin(), buffers.end());
    for (std::size_t n; (n = stream->read(out)) > 0;) {
      for (std::size_t c = 0; c < 3; ++c) got[c].insert(got[c].end(), buffers[c].begin(), buffers[c].begin() + n);
      if (block == 1 && got[0].size() == 5000) break;  // one sample at a time: the start is enough
    }
    for (std::size_t c = 0; c < 3; ++c) {
      EXPECT_TRUE(std::equal(got[c].begin(), got[c].end(), planar[c].begin())) << "block " << block;
    }
    if (block != 1) {
      EXPECT_EQ(got[0].size(), 400'000u);
    }
  }
}

// Files h5py writes (gzip, shuffle, integer and float32 types, rates in attributes) read as h5py
// reads them, and ours read by h5py.
TEST(Hdf5Files, CrossCheckedWithH5py) {
  SKIP_WITHOUT(hdf5);
  test::TempDir dir;
  const std::string h5 = dir.file("py.h5");
  if (!python(dir, "import h5py\n"
                   "rng = np.random.default_rng(7)\n"
                   "a = rng.integers(-30000, 30000, size=(5000, 2)).astype('<i2')\n"
                   "b = rng.standard_normal(3001).astype('>f4')\n"
                   "with h5py.File('" + h5 + "', 'w') as f:\n"
                   "    d = f.create_dataset('a', data=a, chunks=(512, 1), compression='gzip', shuffle=True)\n"
                   "    d.attrs['sampling_rate'] = np.int32(8000)\n"
                   "    e = f.create_dataset('deep/b', data=b, chunks=(100,), compression='gzip')\n"
                   "    e.attrs['fs'] = 250.0\n"
                   "    e.attrs['rate'] = 'not a number'\n"
                   "np.save('" + dir.file("a.npy") + "', a.astype('f8'))\n"
                   "np.save('" + dir.file("b.npy") + "', b.astype('f8'))\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no h5py";
  }
  const Channels a = readChannels(h5 + ":/a");
  EXPECT_EQ(toPlanar(a), toPlanar(readChannels(dir.file("a.npy"))));
  EXPECT_EQ(a.sampleRate, 8000.0);
  ReadOptions fs;
  fs.rateAttribute = "fs";
  const Channels b = readChannels(h5 + ":deep/b", fs);
  EXPECT_EQ(toPlanar(b), toPlanar(readChannels(dir.file("b.npy"))));
  EXPECT_EQ(b.sampleRate, 250.0);
  EXPECT_NE(errorOf([&] { readChannels(h5 + ":deep/b"); }).find("attribute \"rate\" is not one number"),
            std::string::npos);
  ReadOptions missing;
  missing.rateAttribute = "hz";
  const std::string noAttribute = errorOf([&] { readChannels(h5 + ":/a", missing); });
  EXPECT_NE(noAttribute.find(h5 + ":/a: no attribute \"hz\""), std::string::npos) << noAttribute;
  EXPECT_NE(noAttribute.find("sampling_rate"), std::string::npos) << noAttribute;

  const Planar ours = {{1.5, -2.0, 3.25}, {4.0, 5.0, 6.0}};
  WriteOptions write;
  write.sampleRate = 96000;
  writeChannels(dir.file("ours.h5:/x/y"), spansOf(ours), write);
  EXPECT_TRUE(python(dir, "import h5py\n"
                          "with h5py.File('" + dir.file("ours.h5") + "', 'r') as f:\n"
                          "    d = f['/x/y']\n"
                          "    assert d.dtype == np.float64 and d.chunks is not None, (d.dtype, d.chunks)\n"
                          "    assert (d[:] == np.array([[1.5, 4.0], [-2.0, 5.0], [3.25, 6.0]])).all(), d[:]\n"
                          "    assert d.attrs['rate'] == 96000.0\n"));
}

// scipy.io.savemat's v5 files (plain and compressed, row and column vectors, integer classes) read
// as loadmat reads them; ours read by loadmat; a v7.3 file (HDF5 inside) read with MATLAB's layout.
TEST(MatFiles, CrossCheckedWithScipyIo) {
  test::TempDir dir;
  const std::string v5 = dir.file("py.mat");
  const std::string v73 = dir.file("py73.mat");
  if (!python(dir, "import scipy.io, h5py\n"
                   "m = np.arange(12.0).reshape(4, 3) - 5\n"
                   "scipy.io.savemat('" + v5 + "', {'m': m, 'row': np.arange(5, dtype='<i2')}, do_compression=True)\n"
                   "with h5py.File('" + v73 + "', 'w', userblock_size=512) as f:\n"
                   "    d = f.create_dataset('m', data=m.T.copy())\n"
                   "    d.attrs['MATLAB_class'] = np.bytes_('double')\n"
                   "    c = f.create_dataset('col', data=np.arange(6.0).reshape(1, 6))\n"
                   "    c.attrs['MATLAB_class'] = np.bytes_('double')\n"
                   "with open('" + v73 + "', 'r+b') as f:\n"
                   "    f.write(b'MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Thu Nov 26 00:00:00 2026 HDF5 schema 1.00 .'.ljust(116))\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no scipy.io or h5py";
  }
  const Planar m = {{-5, -2, 1, 4}, {-4, -1, 2, 5}, {-3, 0, 3, 6}};  // 4 x 3: three channels of 4
  if (matSupported()) {
    EXPECT_EQ(toPlanar(readChannels(v5 + ":m")), m);
    EXPECT_EQ(toPlanar(readChannels(v5 + ":row")), (Planar{{0, 1, 2, 3, 4}}));
    const std::vector<DatasetEntry> list = listDatasets(v5);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[1].name, "row");
    EXPECT_EQ(list[1].type, "int16");
    EXPECT_EQ(list[1].shape, (std::vector<std::uint64_t>{1, 5}));
    writeChannels(dir.file("ours.mat:sig"), spansOf(m));
    EXPECT_TRUE(python(dir, "import scipy.io\n"
                            "s = scipy.io.loadmat('" + dir.file("ours.mat") + "')['sig']\n"
                            "assert s.shape == (4, 3) and (s == np.arange(12.0).reshape(4, 3) - 5).all(), s\n"));
  }
  if (hdf5Supported()) {
    EXPECT_EQ(toPlanar(readChannels(v73 + ":m")), m);
    EXPECT_EQ(toPlanar(readChannels(v73 + ":col")), (Planar{{0, 1, 2, 3, 4, 5}}));
    const std::vector<DatasetEntry> list = listDatasets(v73);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[1].name, "m");
    EXPECT_EQ(list[1].shape, (std::vector<std::uint64_t>{4, 3}));
  }
}

// Unsuitable or damaged files: an error naming the file, the dataset or variable and what is
// wrong; never a shorter signal.
TEST(DatasetFiles, HostileInputsAreRefusedWithTheirNames) {
  test::TempDir dir;
  const std::string h5 = dir.file("bad.h5");
  const std::string mat = dir.file("bad.mat");
  if (!python(dir, "import h5py, scipy.io\n"
                   "with h5py.File('" + h5 + "', 'w') as f:\n"
                   "    f['text'] = np.array([b'ab', b'cd'])\n"
                   "    f['cube'] = np.zeros((2, 3, 4))\n"
                   "    f['ok'] = np.arange(100000.0)\n"
                   "    f['also'] = np.arange(10.0)\n"
                   "    f['nan'] = np.array([1.0, np.nan])\n"
                   "    f.create_group('grp')\n"
                   "scipy.io.savemat('" + mat + "', {'c': np.array([[1, 'a']], dtype=object),\n"
                   "                 's': {'f': 1.0}, 'v': np.arange(100000.0)})\n")) {
    GTEST_SKIP() << "/usr/bin/python3 has no h5py or scipy.io";
  }
  const auto expectError = [](const std::function<void()>& read, const std::string& where, const std::string& what) {
    const std::string error = errorOf(read);
    EXPECT_NE(error.find(where), std::string::npos) << error;
    EXPECT_NE(error.find(what), std::string::npos) << error;
  };
  if (hdf5Supported()) {
    expectError([&] { readChannels(h5 + ":/text"); }, h5 + ":/text", "strings");
    expectError([&] { readChannels(h5 + ":/cube"); }, h5 + ":/cube", "3-D");
    expectError([&] { readChannels(h5 + ":/grp"); }, h5 + ":/grp", "a group");
    expectError([&] { readChannels(h5 + ":/nan"); }, h5 + ":/nan", "sample 2");
    expectError([&] { readChannels(h5 + ":/missing"); }, h5, "dataset \"/missing\" not found");
    expectError([&] { readChannels(h5 + ":/missing"); }, "\"/ok\" (100000 float64)", "\"/also\" (10 float64)");
    expectError([&] { readChannels(h5); }, h5, "several numeric datasets");
    ReadOptions third;
    third.oneChannel = true;
    third.channel = 3;
    expectError([&] { readChannels(h5 + ":/ok", third); }, h5 + ":/ok", "channel 3 asked for");
    // Cut short: refused, never read as fewer samples.
    const std::string whole = test::readFile(h5);
    test::writeFile(dir.file("cut.h5"), whole.substr(0, whole.size() - 50'000));
    expectError([&] { readChannels(dir.file("cut.h5:/ok")); }, dir.file("cut.h5"), "cut short");
  }
  if (matSupported()) {
    expectError([&] { readChannels(mat + ":c"); }, mat + ":c", "cell array");
    expectError([&] { readChannels(mat + ":s"); }, mat + ":s", "struct");
    expectError([&] { readChannels(mat + ":nope"); }, mat, "variable \"nope\" not found; the numeric variables are \"v\"");
    const std::string whole = test::readFile(mat);
    test::writeFile(dir.file("cut.mat"), whole.substr(0, whole.size() - 1000));
    expectError([&] { readChannels(dir.file("cut.mat:v")); }, dir.file("cut.mat"), "cut short");
  }
}

// The GUI's way in: the probe lists the datasets (a choice when there are several), and the mapped
// view of a large signal reads the chosen one through the float64 cache.
TEST(Hdf5Files, ProbedForTheDialogAndMappedThroughTheCache) {
  SKIP_WITHOUT(hdf5);
  std::mt19937_64 rng(test::freshSeed());
  test::TempDir dir;
  const std::string path = dir.file("two.h5");
  const Planar a = randomPlanar(2, 3000, rng);
  writeChannels(path + ":/a", spansOf(a));
  const FileProbe one = probeSignalFile(path);
  EXPECT_TRUE(one.datasetFile);
  EXPECT_FALSE(needsReadChoices(one));
  EXPECT_EQ(suggestedReadOptions(one).dataset, "/a");
  EXPECT_EQ(datasetLabel(one.datasets.at(0)), "/a: 3000 x 2 float64 (2 channels of 3000 samples)");

  ReadOptions second;
  second.dataset = "/a";
  second.oneChannel = true;
  second.channel = 2;
  const auto mapped = MappedSignal::open(path, second, dir.file("cache"));
  std::vector<double> viewed(mapped->size());
  mapped->read(0, viewed);
  EXPECT_EQ(viewed, a[1]);
  EXPECT_TRUE(mapped->fromCache());
}

// FILE.h5:NAME writes FILE.h5: the input's own file is refused as an output before any work.
TEST(Hdf5Files, OutputThatIsTheInputFileIsRefused) {
  SKIP_WITHOUT(hdf5);
  test::TempDir dir;
  const std::string path = dir.file("in.h5");
  const std::vector<double> x = {1, 2, 3};
  writeChannels(path + ":/x", std::vector<std::span<const double>>{x});
  const NamedPath outputs[] = {{"-o", path + ":/y"}};
  const NamedPath inputs[] = {{"INPUT", path + ":/x"}};
  EXPECT_THROW(checkOutputsBeforeWork(outputs, inputs), OutputConflict);
}

// From a pipe the library cannot read it: said so, never parsed as text or raw samples.
TEST(Hdf5Files, FromAPipeIsRefusedNotMisread) {
  SKIP_WITHOUT(hdf5);
  test::TempDir dir;
  const std::vector<double> x = {1, 2, 3};
  writeChannels(dir.file("x.h5"), std::vector<std::span<const double>>{x});
  const std::string bytes = test::readFile(dir.file("x.h5"));
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A writer open before the reader opens it (else the FIFO reads as empty), as file_probe_test does.
  const int keeper = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  const int writeEnd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(keeper, 0);
  ASSERT_GE(writeEnd, 0);
  std::thread writer([&] {
    EXPECT_EQ(::write(writeEnd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    ::close(writeEnd);
  });
  const std::string error = errorOf([&] { readChannels(fifo); });
  writer.join();
  ::close(keeper);
  EXPECT_NE(error.find(fifo + ": an HDF5 file, which SigLab reads from a file by name"), std::string::npos) << error;
}

// A session remembers which dataset of the file was open.
// The child process that reads an HDF5/MAT file's headers first (dataset_files.hpp): a crash or a
// hang there (made here by the test hook) is an error naming the file, and nothing is written.
TEST(DatasetFiles, ALibraryCrashOrHangInTheChildIsAnErrorNamingTheFile) {
  SKIP_WITHOUT(hdf5);
  SKIP_WITHOUT(mat);
  const test::TempDir dir;
  const std::vector<double> x = {1, 2, 3, 4};
  writeChannels(dir.file("x.h5"), std::vector<std::span<const double>>{x});
  writeChannels(dir.file("x.mat"), std::vector<std::span<const double>>{x});
  struct Reset {
    ~Reset() { setDatasetChildFaultForTests(DatasetChildFault::none); }
  } reset;
  setDatasetChildFaultForTests(DatasetChildFault::crash);
  const std::string crashed = errorOf([&] { readChannels(dir.file("x.h5")); });
  EXPECT_EQ(crashed, dir.file("x.h5") + ": the HDF5 library crashed reading it (SIGABRT): the file is damaged");
  const std::string listed = errorOf([&] { listDatasets(dir.file("x.mat")); });
  EXPECT_EQ(listed, dir.file("x.mat") + ": the matio library crashed reading it (SIGABRT): the file is damaged");
  const std::string piped = errorOf([&] {
    runPipeline(parseChain("envelope"), FileSource{dir.file("x.h5:/signal"), {}}, FileSink{dir.file("out.npy"), {}}, {});
  });
  EXPECT_NE(piped.find("the HDF5 library crashed"), std::string::npos) << piped;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
  setDatasetChildFaultForTests(DatasetChildFault::hang, 0.2);
  const std::string hung = errorOf([&] { readSignal(dir.file("x.mat")); });
  EXPECT_EQ(hung, dir.file("x.mat") + ": the matio library did not finish reading it in 0.2 s: the file is damaged");
  setDatasetChildFaultForTests(DatasetChildFault::none);
  EXPECT_EQ(readChannels(dir.file("x.h5")).channels.front().toVector(), x);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 2u);  // x.h5 and x.mat: no output, no temporary left behind
}

// The samples too are read outside the program: a MAT v5 variable's by matio in a child of their
// own, an HDF5 dataset's in the child that opens it (both passed back through a pipe). A crash there (made here by the test hook) is an error naming the file, the listing is not.
TEST(DatasetFiles, ALibraryCrashOnTheSamplesIsAnErrorNamingTheFile) {
  SKIP_WITHOUT(hdf5);
  SKIP_WITHOUT(mat);
  const test::TempDir dir;
  const std::vector<double> x = {1, 2, 3, 4};
  writeChannels(dir.file("x.h5"), std::vector<std::span<const double>>{x});
  writeChannels(dir.file("x.mat"), std::vector<std::span<const double>>{x});
  struct Reset {
    ~Reset() { setDatasetChildFaultForTests(DatasetChildFault::none); }
  } reset;
  setDatasetChildFaultForTests(DatasetChildFault::crashReadingSamples);
  EXPECT_EQ(listDatasets(dir.file("x.mat")).size(), 1u);
  EXPECT_EQ(listDatasets(dir.file("x.h5")).size(), 1u);
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("x.mat")); }),
            dir.file("x.mat") + ":signal: the matio library crashed reading it (SIGABRT): the file is damaged");
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("x.h5")); }),
            dir.file("x.h5") + ": the HDF5 library crashed reading it (SIGABRT): the file is damaged");
}

// Whether this process holds `path` open (a descriptor in /proc/self/fd naming it).
bool thisProcessHoldsOpen(const std::string& path) {
  const std::filesystem::path file = std::filesystem::canonical(path);
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code error;
    if (std::filesystem::read_symlink(entry.path(), error) == file) return true;
  }
  return false;
}

// An HDF5 dataset's samples are read by libhdf5 in a child process, block by block (the library's
// over-reads on damaged files, fuzz/corpus/hdf5/regression-h5dread-*, cannot reach this process):
// while the stream is read here this process does not even hold the file open, and a dataset of
// several blocks and three channels arrives whole, each channel in its place.
TEST(Hdf5Files, SamplesAreReadInAChildProcessAndArriveWhole) {
  SKIP_WITHOUT(hdf5);
  const test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::size_t frames = 400'003;  // over a block of 2^20 samples
  const Planar planar = randomPlanar(3, frames, rng);
  const std::string path = dir.file("big.h5");
  WriteOptions rate;
  rate.sampleRate = 250;
  writeChannels(path, spansOf(planar), rate);
  const std::unique_ptr<ChannelStream> stream = openChannelStream(path);
  EXPECT_EQ(stream->sampleRate(), 250.0);
  EXPECT_EQ(stream->knownFrames(), frames);
  Planar got(3, std::vector<double>(frames));
  std::size_t done = 0;
  for (const std::size_t step : {std::size_t{1000}, frames}) {  // a part of a block, then the rest
    std::vector<std::span<double>> out;
    for (auto& channel : got) out.push_back(std::span(channel).subspan(done, std::min(step, frames - done)));
    done += stream->read(out);
    EXPECT_FALSE(thisProcessHoldsOpen(path));
  }
  EXPECT_EQ(done, frames);
  EXPECT_EQ(got, planar);
  std::vector<double> more(1);
  EXPECT_EQ(stream->read(std::vector<std::span<double>>(3, std::span(more))), 0u);
}

// The child dies after the first block (the test hook): the read that meets it is an error naming
// the file, never a shorter signal.
TEST(Hdf5Files, AChildThatDiesAfterTheFirstBlockIsAnErrorNotAShorterSignal) {
  SKIP_WITHOUT(hdf5);
  const test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(3'000'000, rng);  // three blocks
  writeChannels(dir.file("x.h5"), std::vector<std::span<const double>>{x});
  struct Reset {
    ~Reset() { setDatasetChildFaultForTests(DatasetChildFault::none); }
  } reset;
  setDatasetChildFaultForTests(DatasetChildFault::crashReadingLaterSamples);
  EXPECT_EQ(errorOf([&] { readChannels(dir.file("x.h5")); }),
            dir.file("x.h5") + ": the HDF5 library crashed reading it (SIGABRT): the file is damaged");
}

// Cancelling (Esc, Ctrl-C: the flags of cancel_waits.hpp) ends the wait on a child that reads a
// file (the test hook makes it hang for 30 s): Cancelled, and the child is ended.
TEST(DatasetFiles, CancelEndsTheWaitOnTheChild) {
  SKIP_WITHOUT(hdf5);
  SKIP_WITHOUT(mat);
  const test::TempDir dir;
  const std::vector<double> x = {1, 2, 3, 4};
  writeChannels(dir.file("x.h5"), std::vector<std::span<const double>>{x});
  writeChannels(dir.file("x.mat"), std::vector<std::span<const double>>{x});
  struct Reset {
    ~Reset() { setDatasetChildFaultForTests(DatasetChildFault::none); }
  } reset;
  setDatasetChildFaultForTests(DatasetChildFault::hang, 30);
  std::atomic<bool> cancel{true};
  const CancelWaitsOnThread waits(&cancel);
  EXPECT_THROW(readChannels(dir.file("x.h5")), Cancelled);
  EXPECT_THROW(readChannels(dir.file("x.mat")), Cancelled);
  EXPECT_THROW(listDatasets(dir.file("x.h5")), Cancelled);
}

// A MAT variable larger than the pipe's buffer and the child's blocks of 64K samples arrives whole,
// each channel in its place.
TEST(MatFiles, SamplesReadInTheChildArriveWhole) {
  SKIP_WITHOUT(mat);
  const test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const Planar planar = randomPlanar(3, 100'003, rng);
  writeChannels(dir.file("big.mat"), spansOf(planar));
  EXPECT_EQ(toPlanar(readChannels(dir.file("big.mat"))), planar);
}

// A numeric matrix whose samples hold fewer values than its dimensions say is refused before matio
// reads it (matio fills the rest: fuzz-mat's regression-dims-beyond-samples.mat).
TEST(MatFiles, SamplesShorterThanTheDimensionsAreRefused) {
  SKIP_WITHOUT(mat);
  const test::TempDir dir;
  const std::string path = dir.file("short.mat");
  writeSignal(path, std::vector<double>{1, 2, 3, 4});
  std::string bytes = test::readFile(path);
  ASSERT_EQ(bytes.substr(184, 8), std::string("\x09\0\0\0\x20\0\0\0", 8));  // the samples' tag: 32 bytes of float64
  bytes[188] = '\x18';                                                          // now 24: 3 values
  test::writeFile(path, bytes);
  const std::string expected = path + ": variable 1 is damaged: its dimensions say 4 values, its samples hold 3";
  EXPECT_EQ(errorOf([&] { readChannels(path); }), expected);
  EXPECT_EQ(errorOf([&] { listDatasets(path); }), expected);
}

TEST(DatasetFiles, SessionKeepsTheDataset) {
  test::TempDir dir;
  Session session;
  session.signalPath = dir.file("data.h5");
  session.read.dataset = "/group/b";
  session.read.rateAttribute = "fs";
  saveSession(dir.file("s.siglab"), session);
  const Session loaded = loadSession(dir.file("s.siglab"));
  EXPECT_EQ(loaded.read.dataset, "/group/b");
  EXPECT_EQ(loaded.read.rateAttribute, "fs");
}

TEST(DatasetFiles, OutputNameSplitsAtTheFile) {
  EXPECT_EQ(datasetOutputFile("/tmp/a.h5:/g/x"), "/tmp/a.h5");
  EXPECT_EQ(datasetOutputFile("/tmp/a.MAT:x"), "/tmp/a.MAT");
  EXPECT_EQ(datasetOutputFile("/tmp/a:b.txt"), "/tmp/a:b.txt");
  EXPECT_EQ(splitDatasetPath("/nonexistent/a.h5:/x").file, "/nonexistent/a.h5:/x");
}

// The inputs the fuzzers found, and their kin (fuzz/corpus/*/regression-*), listed and read: each
// read an error naming the file, never a crash, libhdf5 reading freed memory (chunks larger than a
// fixed shape), an empty listing (a damaged local heap: libhdf5 cannot walk
// the root group, asking for 2^64 - 57 bytes; this was "holds no numeric 1-D or 2-D datasets"; on
// another, libhdf5 writes through NULL: the child's "crashed reading it (SIGSEGV)"), or samples the
// file does not hold (dimensions of 3 x 33554436 in 280 bytes, or 1000 x 1 over 4 values
// compressed, or over a compressed stream that ends early: matio read that many, zeros after the end),
// or libhdf5 reading past its buffers in this process (H5Dread's scatter-gather and select reads,
// H5Aexists looking for the rate attribute: regression-h5*; the library reads only in child
// processes now, and the ASan build shows no memory error in this one).
TEST(DatasetFiles, FuzzFindingsAreErrorsNamingTheFile) {
  SKIP_WITHOUT(hdf5);
  SKIP_WITHOUT(mat);
  std::size_t found = 0;
  for (const char* reader : {"hdf5", "mat"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(SIGLAB_FUZZ_CORPUS) / reader)) {
      if (entry.path().filename().string().rfind("regression-", 0) != 0) continue;
      ++found;
      const test::TempDir dir;
      const std::string path = dir.file("input" + entry.path().extension().string());
      std::filesystem::copy_file(entry.path(), path);
      const std::string listed = errorOf([&] { listDatasets(path); });  // a damaged dataset may still be listed
      EXPECT_TRUE(listed == "no error" || listed.starts_with(path)) << entry.path() << ": " << listed;
      const std::string read = errorOf([&] { readChannels(path); });
      EXPECT_TRUE(read.starts_with(path)) << entry.path() << ": " << read;
    }
  }
  EXPECT_GE(found, 14u);
}

// A matrix whose dimensions tag claims 2 GiB inside a 120-byte variable (found by fuzz-mat: matio
// allocated 4 GiB for it) is refused before matio reads it.
TEST(MatFiles, ADimensionsTagLargerThanItsVariableIsRefused) {
  SKIP_WITHOUT(mat);
  test::TempDir dir;
  const std::string path = dir.file("dims.mat");
  const std::vector<double> values = {1, 2, 3, 4};
  writeSignal(path, values);
  std::string bytes = test::readFile(path);
  ASSERT_EQ(bytes.substr(128, 4), std::string("\x0e\0\0\0", 4));  // an uncompressed matrix first
  ASSERT_EQ(bytes.substr(152, 4), std::string("\x05\0\0\0", 4));  // its dimensions tag
  bytes.replace(156, 4, "\xcc\xc9\x0d\x80");
  test::writeFile(path, bytes);
  const std::string message = errorOf([&] { listDatasets(path); });
  EXPECT_NE(message.find(path + ": variable 1 is damaged: a part of its header claims 2148387276 bytes"), std::string::npos)
      << message;
  EXPECT_NE(errorOf([&] { readChannels(path); }).find("is damaged"), std::string::npos);
}

}  // namespace
}  // namespace siglab
