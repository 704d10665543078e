#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <thread>
#include <vector>

#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

void writeBytes(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TEST(FileProbe, OneNumberALineNeedsNoChoices) {
  test::TempDir dir;
  writeBytes(dir.file("plain.txt"), "# a comment\n1.5\n-2\n+3e-1\n");
  const FileProbe probe = probeSignalFile(dir.file("plain.txt"));
  EXPECT_EQ(probe.format, FileFormat::text);
  EXPECT_EQ(probe.columns, 1u);
  EXPECT_FALSE(probe.header);
  EXPECT_FALSE(probe.binary);
  EXPECT_FALSE(needsReadChoices(probe));
  EXPECT_EQ(probe.preview.size(), 4u);
}

TEST(FileProbe, ACsvWithAHeaderNamesItsColumnsAndTheSuggestionReadsIt) {
  test::TempDir dir;
  writeBytes(dir.file("data.csv"), "time,value\r\n0,1.5\r\n1,2.5\r\n2,-4\r\n");
  const FileProbe probe = probeSignalFile(dir.file("data.csv"));
  EXPECT_EQ(probe.columns, 2u);
  EXPECT_TRUE(probe.header);
  EXPECT_EQ(probe.headerNames, (std::vector<std::string>{"time", "value"}));
  EXPECT_TRUE(needsReadChoices(probe));
  const ReadOptions options = suggestedReadOptions(probe);
  EXPECT_TRUE(options.skipHeader);
  EXPECT_EQ(options.column, 2u);
  EXPECT_EQ(readSignal(dir.file("data.csv"), options).samples, (std::vector<double>{1.5, 2.5, -4}));
  EXPECT_THROW(readSignal(dir.file("data.csv")), InputError) << "the defaults cannot read it: hence the dialog";
}

TEST(FileProbe, AHeaderOverOneColumnAndBlankSeparatedColumnsAreFound) {
  test::TempDir dir;
  writeBytes(dir.file("one.txt"), "amplitude\n1\n2\n");
  FileProbe probe = probeSignalFile(dir.file("one.txt"));
  EXPECT_TRUE(probe.header);
  EXPECT_EQ(probe.columns, 1u);
  EXPECT_EQ(suggestedReadOptions(probe).column, 0u);
  EXPECT_EQ(readSignal(dir.file("one.txt"), suggestedReadOptions(probe)).samples, (std::vector<double>{1, 2}));
  writeBytes(dir.file("blanks.dat"), "  1  2   3\n4 5 6\n");
  probe = probeSignalFile(dir.file("blanks.dat"));
  EXPECT_EQ(probe.columns, 3u);
  EXPECT_FALSE(probe.header);
  EXPECT_EQ(suggestedReadOptions(probe).column, 1u);
  writeBytes(dir.file("tabs.tsv"), "1 2\t3\n");  // a tab on the line: fields split at tabs, as the reader does
  EXPECT_EQ(probeSignalFile(dir.file("tabs.tsv")).columns, 2u);
}

TEST(FileProbe, BinaryBytesAreRawAndNpyNeedsNothing) {
  test::TempDir dir;
  const std::vector<double> values = {1.0, -2.0, 0.5};
  writeBytes(dir.file("samples.bin"),
             std::string_view(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double)));
  FileProbe probe = probeSignalFile(dir.file("samples.bin"));
  EXPECT_TRUE(probe.binary);
  EXPECT_EQ(probe.bytes, 24u);
  EXPECT_TRUE(needsReadChoices(probe));
  const ReadOptions options = suggestedReadOptions(probe);
  ASSERT_TRUE(options.rawType);
  EXPECT_EQ(readSignal(dir.file("samples.bin"), options).samples, values);

  writeSignal(dir.file("x.npy"), values);
  probe = probeSignalFile(dir.file("x.npy"));
  EXPECT_EQ(probe.format, FileFormat::npy);
  EXPECT_FALSE(needsReadChoices(probe));
}

TEST(FileProbe, AStereoWavNeedsAChannelAndAMonoWavDoesNot) {
  const FileProbe stereo = probeSignalFile(SIGLAB_FUZZ_CORPUS "/wav/pcm24_stereo.wav");
  EXPECT_EQ(stereo.format, FileFormat::wav);
  EXPECT_EQ(stereo.wavChannels, 2u);
  EXPECT_TRUE(needsReadChoices(stereo));
  const FileProbe mono = probeSignalFile(SIGLAB_FUZZ_CORPUS "/wav/pcm16.wav");
  EXPECT_EQ(mono.wavChannels, 1u);
  EXPECT_FALSE(needsReadChoices(mono));
}

// Probing a stream takes nothing from it: the probe reads it into the spool its readers share, so
// a read after the probe gets every sample (issue 24: the probe ate the first 64 KiB of a pipe).
TEST(FileProbe, ProbingAFifoLeavesEverySampleForTheReader) {
  test::TempDir dir;
  std::string text;
  for (int i = 1; i <= 30000; ++i) text += std::to_string(i) + ".25\n";  // past the probe's 64 KiB
  const std::string fifo = dir.file("input.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A writer open before the probe opens it (else the FIFO reads as empty): a reader that never
  // reads lets the write end open at once.
  const int keeper = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  const int writeEnd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(keeper, 0);
  ASSERT_GE(writeEnd, 0);
  std::thread writer([&] {
    EXPECT_EQ(::write(writeEnd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(writeEnd);
  });
  const FileProbe probe = probeSignalFile(fifo);
  writer.join();
  ::close(keeper);
  EXPECT_EQ(probe.format, FileFormat::text);
  EXPECT_EQ(probe.bytes, text.size());
  const SampleVector samples = readSignal(fifo).samples;
  ASSERT_EQ(samples.size(), 30000u);
  EXPECT_EQ(samples.front(), 1.25);
  EXPECT_EQ(samples.back(), 30000.25);
}

// Sends `text` through the FIFO `path` to one reading of it (readSignal), as a program would.
SampleVector readThroughFifo(const std::string& path, const std::string& text) {
  const int keeper = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // lets the write end open at once
  const int writeEnd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  EXPECT_GE(keeper, 0);
  EXPECT_GE(writeEnd, 0);
  std::thread writer([&] {
    EXPECT_EQ(::write(writeEnd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(writeEnd);
  });
  SampleVector samples = readSignal(path).samples;
  writer.join();
  ::close(keeper);
  return samples;
}

// A FIFO fed again (a program that writes each recording to the same named pipe) is read again: the
// spool of its first reading stands for it only while it has nothing more to give. In the GUI, a
// new FIFO whose inode number was reused was read as the old one's empty spool.
TEST(FileProbe, AFifoFedAgainIsReadAgain) {
  test::TempDir dir;
  const std::string fifo = dir.file("input.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(readThroughFifo(fifo, "1\n2\n").size(), 2u);
  const SampleVector second = readThroughFifo(fifo, "3\n4\n5\n");
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second.front(), 3.0);
  EXPECT_EQ(second.back(), 5.0);
}

// ';'-separated numbers with decimal commas, under a header or not, are found and read whole.
TEST(FileProbe, DecimalCommasAreFoundAndTheSuggestionReadsThem) {
  test::TempDir dir;
  writeBytes(dir.file("messung.csv"), "zeit;wert\n0,5;1,5\n1;-2,25\n");
  FileProbe probe = probeSignalFile(dir.file("messung.csv"));
  EXPECT_EQ(probe.decimal, ',');
  EXPECT_TRUE(probe.header);
  EXPECT_EQ(probe.columns, 2u);
  EXPECT_EQ(readSignal(dir.file("messung.csv"), suggestedReadOptions(probe)).samples, (std::vector<double>{1.5, -2.25}));
  writeBytes(dir.file("bare.csv"), "1,5;2,5\n3;4\n");
  probe = probeSignalFile(dir.file("bare.csv"));
  EXPECT_EQ(probe.decimal, ',');
  EXPECT_FALSE(probe.header);
  EXPECT_TRUE(needsReadChoices(probe));
  EXPECT_EQ(readSignal(dir.file("bare.csv"), suggestedReadOptions(probe)).samples, (std::vector<double>{1.5, 3}));
  writeBytes(dir.file("points.csv"), "1.5;2\n3;4\n");
  EXPECT_EQ(probeSignalFile(dir.file("points.csv")).decimal, '.');
  writeBytes(dir.file("commas.csv"), "1,5\n3,4\n");  // a comma-separated file: two columns
  EXPECT_EQ(probeSignalFile(dir.file("commas.csv")).decimal, '.');
}

TEST(FileProbe, AMissingFileIsAnErrorNamingIt) {
  try {
    probeSignalFile("/nonexistent/signal.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/signal.txt"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace siglab
