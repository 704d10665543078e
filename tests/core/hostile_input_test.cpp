// Inputs written by someone else, or by no one: huge, malformed, lying, changing under the reader,
// or not files at all. Each must end in a clear InputError naming the file (and the line where
// there is one) or in the right samples, in bounded time: never a crash or a hang. The format
// tests in io_*_test.cpp cover the ordinary errors; this file adds the hostile cases.
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <clocale>
#include <cstring>
#include <cwchar>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// A hang fails the test: SIGALRM's default action ends the process, so ctest reports it at once.
class Watchdog {
 public:
  explicit Watchdog(unsigned seconds) { ::alarm(seconds); }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() { ::alarm(0); }
};

// The InputError readSignal throws for `path` (a failure if it returns samples instead).
InputError readError(const std::string& path, const ReadOptions& options = {}) {
  try {
    const Signal signal = readSignal(path, options);
    ADD_FAILURE() << path << " was read as " << signal.samples.size() << " samples; expected an error";
  } catch (const InputError& e) {
    return e;
  }
  return InputError(path, "no error");
}

std::string littleEndian(std::uint64_t value, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
  return out;
}

TEST(HostileInput, TenMegabyteLineWithoutNewline) {
  Watchdog watchdog(30);
  test::TempDir dir;
  const std::string path = dir.file("long.txt");
  test::writeFile(path, std::string(10u << 20, 'x'));
  EXPECT_EQ(std::string(readError(path).what()),
            path + ":1:1: expected a number, found \"" + std::string(40, 'x') + "...\"");
  test::writeFile(path, std::string(10u << 20, '7'));  // digits only: a number far out of range
  EXPECT_EQ(std::string(readError(path).what()),
            path + ":1:1: number out of the float64 range, found \"" + std::string(40, '7') + "...\"");
}

// Whether `text` is valid UTF-8 (quoteExcerpt's promise), checked here by decoding it another way.
bool validUtf8(const std::string& text) {
  std::mbstate_t state{};
  const char* at = text.data();
  const char* end = at + text.size();
  while (at < end) {
    const std::size_t used = std::mbrlen(at, static_cast<std::size_t>(end - at), &state);
    if (used == static_cast<std::size_t>(-1) || used == static_cast<std::size_t>(-2)) return false;
    at += used == 0 ? 1 : used;
  }
  return true;
}

TEST(HostileInput, BinaryReadAsTextIsAMessageInValidUtf8WithTheStrayBytesEscaped) {
  ASSERT_NE(std::setlocale(LC_CTYPE, "C.UTF-8"), nullptr);
  test::TempDir dir;
  const std::string path = dir.file("binary.txt");
  test::writeFile(path, std::string("\x81\xc3\xa9\xe2\x82\xac\xed\xa0\x80\xf0\x9f\x98\x80\xc3(", 15));
  const std::string message = readError(path).what();
  EXPECT_EQ(message, path + ":1:1: expected a number, found \"\\x81\xc3\xa9\xe2\x82\xac\\xed\\xa0\\x80\xf0\x9f\x98\x80\\xc3(\"");
  EXPECT_TRUE(validUtf8(message)) << message;
  // The excerpt's length counts characters: 40 of a two-byte letter are 80 bytes.
  std::string letters;
  for (int i = 0; i < 50; ++i) letters += "\xc3\xa9";
  EXPECT_EQ(quoteExcerpt(letters), "\"" + letters.substr(0, 80) + "...\"");
  std::setlocale(LC_CTYPE, "C");
}

double peakResidentMiB() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// Room for the samples is counted from the lines: 64 MB of blank lines must not become 512 MB of
// slots (8 bytes a line) before the reader finds that there is no number at all.
TEST(HostileInput, BlankLinesAskForNoMemory) {
  test::TempDir dir;
  const std::string path = dir.file("blank.txt");
  test::writeFile(path, std::string(64u << 20, '\n'));
  const double before = peakResidentMiB();
  EXPECT_EQ(std::string(readError(path).what()), path + ": no numbers found: expected one number per line");
  EXPECT_LT(peakResidentMiB() - before, 64 + 32) << "MiB more than the mapped file itself at the peak";
}

TEST(HostileInput, BinaryGarbageNamedTxtIsATextErrorWithItsLine) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::string path = dir.file("garbage.txt");
  std::string garbage(1u << 16, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  garbage[0] = 'Z';  // neither a number, a comment nor a .npy/WAV magic: line 1 is the error
  test::writeFile(path, garbage);
  const InputError e = readError(path);
  EXPECT_EQ(e.line(), 1u) << "seed " << seed;
  EXPECT_TRUE(std::string(e.what()).starts_with(path + ":1:1: expected a number, found \"Z")) << e.what() << " seed " << seed;
}

TEST(HostileInput, NpyHeaderClaimingTwoToThe62SamplesIsRefusedBeforeAnyAllocation) {
  test::TempDir dir;
  const std::string path = dir.file("huge.npy");
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }";
  header += std::string(117 - header.size(), ' ') + "\n";  // 10 bytes before it: 128 in all, as NumPy aligns
  test::writeFile(path, std::string("\x93NUMPY\x01\x00", 8) + littleEndian(header.size(), 2) + header + std::string(64, '\0'));
  EXPECT_EQ(std::string(readError(path).what()),
            path + ": truncated .npy file: the header says 4611686018427387904 samples of 8 bytes but only 64 bytes of data follow it");
}

TEST(HostileInput, WavClaimingMoreFramesThanItHoldsIsTruncated) {
  test::TempDir dir;
  const std::string path = dir.file("lying.wav");
  const std::uint32_t claimedBytes = 0x7FFFFF00;  // about a billion 16-bit frames
  std::string wav = "RIFF" + littleEndian(36 + claimedBytes, 4) + "WAVE";
  wav += "fmt " + littleEndian(16, 4) + littleEndian(1, 2) + littleEndian(1, 2) + littleEndian(48000, 4) +
         littleEndian(96000, 4) + littleEndian(2, 2) + littleEndian(16, 2);
  wav += "data" + littleEndian(claimedBytes, 4) + std::string(200, '\x01');  // 100 frames really there
  test::writeFile(path, wav);
  const std::string message = readError(path).what();
  EXPECT_TRUE(message.starts_with(path + ": truncated WAV file")) << message;
}

// 294 bytes of FLAC whose header claims 4294967273 frames (found by fuzz-audio: the reader set
// aside 32 GiB a channel for them) is refused before any allocation.
TEST(HostileInput, FlacClaimingMoreFramesThanAFileCanHoldIsRefused) {
  test::TempDir dir;
  const std::string path = dir.file("lying.flac");
  test::writeFile(path, test::readFile(SIGLAB_FUZZ_CORPUS "/audio/regression-flac-frames-beyond-file.flac"));
  const std::string message = readError(path).what();
  EXPECT_TRUE(message.starts_with(path + ": FLAC audio file: its header claims 4294967273 frames, more than a file of 294 "
                                         "bytes can hold")) << message;
}

TEST(HostileInput, NumbersOfFiveThousandDigits) {
  test::TempDir dir;
  const std::string path = dir.file("digits.txt");
  std::string huge(5000, '0');  // built in place: GCC 12 warns falsely (-Wrestrict) on "1" + std::string(...)
  huge[0] = '1';
  test::writeFile(path, "1.5\n2.5\n" + huge + "\n");
  EXPECT_EQ(std::string(readError(path).what()),
            path + ":3:1: number out of the float64 range, found \"" + huge.substr(0, 40) + "...\"");

  // 0.<5000 digits>: every digit counts towards the correctly rounded value, as strtod reads it.
  std::string fraction = "0.";
  for (int i = 0; i < 5000; ++i) fraction += static_cast<char>('0' + (i * 7 + 3) % 10);
  test::writeFile(path, "-" + fraction + "\n" + fraction + "\n");
  const SampleVector values = readSignal(path).samples;
  const double expected = std::strtod(fraction.c_str(), nullptr);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0], -expected);
  EXPECT_EQ(values[1], expected);
  // A 5,000-digit number just above 1 rounds to 1 (the last digit cannot change the double).
  test::writeFile(path, "1." + std::string(4998, '0') + "1\n");
  EXPECT_EQ(readSignal(path).samples, std::vector<double>{1.0});
}

TEST(HostileInput, OverflowingExponentsEitherSign) {
  test::TempDir dir;
  const std::string path = dir.file("exponents.txt");
  test::writeFile(path, "0\n-1e400\n");
  EXPECT_EQ(std::string(readError(path).what()), path + ":2:1: number out of the float64 range, found \"-1e400\"");
  test::writeFile(path, "1e400\n");
  EXPECT_EQ(std::string(readError(path).what()), path + ":1:1: number out of the float64 range, found \"1e400\"");
  ReadOptions nonFinite;  // keeping infinities does not make an unrepresentable number readable
  nonFinite.allowNonFinite = true;
  EXPECT_EQ(std::string(readError(path, nonFinite).what()), path + ":1:1: number out of the float64 range, found \"1e400\"");
}

TEST(HostileInput, NulBytesAreReportedWhereTheyAre) {
  test::TempDir dir;
  const std::string path = dir.file("nul.txt");
  test::writeFile(path, std::string("1.0\n2\0.5\n3\n", 11));
  EXPECT_EQ(std::string(readError(path).what()), path + ":2:1: expected a number, found \"2\\x00.5\"");
  test::writeFile(path, std::string("1.0\n2.0\n\0\0\0\0", 12));
  EXPECT_EQ(std::string(readError(path).what()), path + ":3:1: expected a number, found \"\\x00\\x00\\x00\\x00\"");
  ReadOptions csv;
  csv.column = 2;
  test::writeFile(path, std::string("1,2\n3,\0\n", 8));
  EXPECT_EQ(std::string(readError(path, csv).what()), path + ":2:3: expected a number, found \"\\x00\"");
}

// Another program truncating and re-extending the file while it is read: each read gives the
// file as it was at one moment, or says that it changed; a mapped file would raise SIGBUS here.
TEST(HostileInput, FileShrinkingAndGrowingWhileReadIsNeverACrash) {
  Watchdog watchdog(60);
  test::TempDir dir;
  const std::string path = dir.file("moving.txt");
  std::vector<std::string> lines;
  std::string full;
  for (int i = 0; i < 20000; ++i) {
    lines.push_back(std::to_string(100000 + i * 7));
    full += lines.back() + "\n";
  }
  const std::size_t shortLines = 1000;
  const std::size_t shortBytes = shortLines * 7;
  test::writeFile(path, full);

  std::atomic<bool> stop{false};
  std::thread writer([&] {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    while (!stop.load()) {
      EXPECT_EQ(::ftruncate(fd, static_cast<off_t>(shortBytes)), 0);
      const auto rest = static_cast<ssize_t>(full.size() - shortBytes);
      EXPECT_EQ(::pwrite(fd, full.data() + shortBytes, static_cast<std::size_t>(rest), static_cast<off_t>(shortBytes)), rest);
    }
    ::close(fd);
  });
  int whole = 0, changed = 0;
  for (int attempt = 0; attempt < 300; ++attempt) {
    try {
      const SampleVector values = readSignal(path).samples;
      // A moment of the file: its first m lines, the last perhaps cut by a write in progress.
      ASSERT_GE(values.size(), shortLines);
      ASSERT_LE(values.size(), lines.size());
      for (std::size_t i = 0; i + 1 < values.size(); ++i) ASSERT_EQ(values[i], std::stod(lines[i])) << "line " << i + 1;
      const std::string last = std::to_string(static_cast<long long>(values.back()));
      ASSERT_TRUE(lines[values.size() - 1].starts_with(last)) << last;
      ++whole;
    } catch (const InputError& e) {
      EXPECT_EQ(e.path(), path);
      EXPECT_TRUE(std::string(e.what()).find("changed while it was being read") != std::string::npos) << e.what();
      ++changed;
    }
  }
  stop = true;
  writer.join();
  std::cout << "[          ] " << whole << " reads gave a moment of the file, " << changed << " said it changed\n";
}

// In a child with its own mount namespace (as root, or in a user namespace): standard input that
// never ends (`yes 1 |`) spooled into a 4 MiB tmpfs made inside `folder`. 0: refused in time with
// the bound; 1: another message; 2: no error; 77: no namespace or tmpfs allowed here.
int spoolEndlessInputIntoSmallFolder(const std::string& folder) {
  const pid_t child = ::fork();
  if (child == 0) {
    if (::unshare(CLONE_NEWNS) != 0 && ::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) ::_exit(77);
    const std::string small = folder + "/small";
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 || ::mkdir(small.c_str(), 0700) != 0 ||
        ::mount("none", small.c_str(), "tmpfs", 0, "size=4m") != 0) {
      ::_exit(77);
    }
    ::setenv("TMPDIR", small.c_str(), 1);
    int fds[2];
    if (::pipe(fds) != 0) ::_exit(77);
    const pid_t writer = ::fork();
    if (writer == 0) {
      ::close(fds[0]);
      std::string lines;
      for (int i = 0; i < 32768; ++i) lines += "1\n";
      while (::write(fds[1], lines.data(), lines.size()) > 0) {
      }
      ::_exit(0);
    }
    ::close(fds[1]);
    ::dup2(fds[0], STDIN_FILENO);
    int code = 2;
    try {
      readSignal("-");
    } catch (const InputError& e) {
      const std::string what = e.what();
      code = what.find("read and not at its end") != std::string::npos &&
                     what.find("would leave its file system almost full") != std::string::npos
                 ? 0
                 : 1;
    }
    ::kill(writer, SIGKILL);
    ::waitpid(writer, nullptr, 0);
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(HostileInput, EndlessStandardInputStopsBeforeItsSpoolFillsTheDisk) {
  Watchdog watchdog(20);
  test::TempDir dir;
  const int outcome = spoolEndlessInputIntoSmallFolder(dir.path().string());
  if (outcome == 77) GTEST_SKIP() << "cannot make a mount namespace with a tmpfs here";
  EXPECT_EQ(outcome, 0) << "1: another message; 2: no error";
}

TEST(HostileInput, NamedPipeWithoutWriterIsAnErrorNotAHang) {
  Watchdog watchdog(20);
  test::TempDir dir;
  const std::string path = dir.file("pipe.txt");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_EQ(std::string(readError(path).what()),
            path + ": nothing to read: it is a named pipe (FIFO) and no program wrote to it");
}

TEST(HostileInput, APipeWithDataIsReadToItsEnd) {
  Watchdog watchdog(20);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string text = "1.5\n-2\n3e2\n";
  ASSERT_EQ(::write(fds[1], text.data(), text.size()), static_cast<ssize_t>(text.size()));
  ::close(fds[1]);
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(readSignal(path).samples, (std::vector<double>{1.5, -2.0, 300.0}));
  ::close(fds[0]);
}

TEST(HostileInput, APipeReadWholeGetsALargerBuffer) {
  Watchdog watchdog(20);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_LT(::fcntl(fds[0], F_GETPIPE_SZ), 1 << 20);  // 64 KiB as made
  std::thread writer([&] {
    const std::string line = "0.25\n";
    for (int i = 0; i < 1000; ++i) {
      if (::write(fds[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) break;
    }
    ::close(fds[1]);
  });
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(readSignal(path).samples.size(), 1000u);
  writer.join();
  EXPECT_GE(::fcntl(fds[0], F_GETPIPE_SZ), 1 << 20);
  ::close(fds[0]);
}

TEST(HostileInput, DevicesAreRefusedNotReadForever) {
  Watchdog watchdog(20);
  EXPECT_EQ(std::string(readError("/dev/zero").what()), "/dev/zero: cannot read: not a regular file: it is a character device");
  EXPECT_EQ(std::string(readError("/dev/null").what()), "/dev/null: cannot read: not a regular file: it is a character device");
}

}  // namespace
}  // namespace siglab
