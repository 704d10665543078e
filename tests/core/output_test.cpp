// Outputs that respect what is there: devices and pipes written in place, symlinks followed,
// permissions kept, stale temporaries removed, several files committed together, checks up front.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/output_checks.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

namespace fs = std::filesystem;

bool hasTemporaries(const test::TempDir& dir) {
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) return true;
  }
  return false;
}

// A character device node made under the test's own folder (never the machine's /dev); needs
// CAP_MKNOD, so it skips where that is missing.
bool makeCharacterDevice(const std::string& path, unsigned major, unsigned minor) {
  return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) == 0;
}

TEST(Output, CharacterDeviceStaysADevice) {
  test::TempDir dir;
  const std::string null = dir.file("null");
  if (!makeCharacterDevice(null, 1, 3)) GTEST_SKIP() << "mknod not permitted here (needs CAP_MKNOD)";
  writeFileAtomically(null, "discarded\n");
  struct stat s {};
  ASSERT_EQ(::stat(null.c_str(), &s), 0);
  EXPECT_TRUE(S_ISCHR(s.st_mode));
  EXPECT_EQ(major(s.st_rdev), 1u);
  EXPECT_EQ(minor(s.st_rdev), 3u);
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(Output, FullDeviceReportsNoSpace) {
  test::TempDir dir;
  const std::string full = dir.file("full");
  if (!makeCharacterDevice(full, 1, 7)) GTEST_SKIP() << "mknod not permitted here (needs CAP_MKNOD)";
  try {
    writeFileAtomically(full, "no room\n");
    FAIL() << "no error from a full device";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), full + ": write failed: No space left on device");
  }
  struct stat s {};
  ASSERT_EQ(::stat(full.c_str(), &s), 0);
  EXPECT_TRUE(S_ISCHR(s.st_mode));
}

TEST(Output, PipeReceivesTheBytesInOrder) {
  test::TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = test::readFile(fifo); });
  std::string big;
  for (int i = 0; i < 200000; ++i) big += std::to_string(i) + "\n";
  writeFileAtomically(fifo, big);
  reader.join();
  EXPECT_TRUE(received == big);
  struct stat s {};
  ASSERT_EQ(::lstat(fifo.c_str(), &s), 0);
  EXPECT_TRUE(S_ISFIFO(s.st_mode));
}

// Bytes a write() piece (1 MiB) cannot hold in one, in pieces of awkward sizes.
std::vector<std::string> awkwardPieces() {
  std::vector<std::string> pieces;
  for (const std::size_t size : {std::size_t{1}, std::size_t{4095}, (std::size_t{3} << 20) + 5, std::size_t{0}, std::size_t{70001}}) {
    std::string piece(size, '\0');
    for (std::size_t i = 0; i < size; ++i) piece[i] = static_cast<char>((i * 131 + pieces.size() * 7) % 251);
    pieces.push_back(std::move(piece));
  }
  return pieces;
}

TEST(Output, UncachedFileHoldsEveryByteInOrder) {
  test::TempDir dir;
  const std::vector<std::string> pieces = awkwardPieces();
  std::string expected;
  for (const std::string& piece : pieces) expected += piece;
  const auto writeUncached = [&](const std::string& path, DirectOutput direct) {
    AtomicFileWriter file(path, Durability::uncached, direct);
    for (const std::string& piece : pieces) file.append(piece);
    file.commit();
  };
  test::writeFile(dir.file("out.raw"), "old\n");
  writeUncached(dir.file("out.raw"), DirectOutput::immediate);
  EXPECT_TRUE(test::readFile(dir.file("out.raw")) == expected);
  EXPECT_FALSE(hasTemporaries(dir));

  // Where the file system has no RWF_DONTCACHE (tmpfs): plain writes, the same bytes.
  char shm[] = "/dev/shm/siglab-test-XXXXXX";
  if (::mkdtemp(shm) != nullptr) {
    const std::string path = std::string(shm) + "/out.raw";
    writeUncached(path, DirectOutput::immediate);
    EXPECT_TRUE(test::readFile(path) == expected);
    fs::remove_all(shm);
  }

  // Into a pipe: spooled (and read back) first, then sent whole.
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = test::readFile(fifo); });
  writeUncached(fifo, DirectOutput::spooled);
  reader.join();
  EXPECT_TRUE(received == expected);
}

// Whether this kernel and the file system under `folder` take RWF_DONTCACHE.
bool dropBehindWorksIn(const std::string& folder) {
  const std::string probe = folder + "/probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) return false;
  char byte = 0;
  iovec piece{&byte, 1};
  const bool works = ::pwritev2(fd, &piece, 1, -1, 0x80 /* RWF_DONTCACHE */) == 1;
  ::close(fd);
  ::unlink(probe.c_str());
  return works;
}

// Resident pages of `path` in the page cache, as a fraction of its pages.
double fractionCached(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  struct stat s {};
  ::fstat(fd, &s);
  const auto size = static_cast<std::size_t>(s.st_size);
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return -1.0;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((size + page - 1) / page);
  const int got = ::mincore(map, size, resident.data());
  ::munmap(map, size);
  if (got != 0) return -1.0;
  std::size_t cached = 0;
  for (const unsigned char r : resident) cached += r & 1u;
  return static_cast<double>(cached) / static_cast<double>(resident.size());
}

TEST(Output, UncachedFileLeavesThePageCacheOnceWritten) {
  test::TempDir dir;
  if (!dropBehindWorksIn(dir.path().string())) GTEST_SKIP() << "no RWF_DONTCACHE here (Linux 6.14+, and the file system's support)";
  const std::string uncached = dir.file("uncached.raw"), buffered = dir.file("buffered.raw");
  const std::string megabyte(std::size_t{1} << 20, 'x');
  for (const auto& [path, durability] : {std::pair{uncached, Durability::uncached}, std::pair{buffered, Durability::buffered}}) {
    AtomicFileWriter file(path, durability);
    for (int i = 0; i < 32; ++i) file.append(megabyte);
    file.commit();
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_EQ(::fsync(fd), 0);  // the write-back done: an uncached page goes when its write-back ends
    ::close(fd);
  }
  EXPECT_LT(fractionCached(uncached), 0.5);
  EXPECT_GT(fractionCached(buffered), 0.5);  // the measure itself sees cached pages
}

// Whether this process may give a pipe 1 MiB (an unprivileged user over the pipe quota may not).
bool pipesCanGrow() {
  int fds[2];
  if (::pipe(fds) != 0) return false;
  const bool grown = ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20) >= (1 << 20);
  ::close(fds[0]);
  ::close(fds[1]);
  return grown;
}

TEST(Output, APipeWrittenWholeGetsALargerBuffer) {
  if (!pipesCanGrow()) GTEST_SKIP() << "pipes cannot grow to 1 MiB here";
  test::TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  int capacity = 0;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char buffer[4096];
    for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) received.append(buffer, static_cast<std::size_t>(got));
    capacity = ::fcntl(fd, F_GETPIPE_SZ);
    ::close(fd);
  });
  const std::string bytes(std::size_t{3} << 20, 'y');
  {
    AtomicFileWriter file(fifo, Durability::buffered, DirectOutput::spooled);
    file.append(bytes);
    file.commit();
  }
  reader.join();
  EXPECT_TRUE(received == bytes);
  EXPECT_GE(capacity, 1 << 20);
}

TEST(Output, SymlinkIsFollowedAndKept) {
  test::TempDir dir;
  fs::create_directory(dir.file("real"));
  test::writeFile(dir.file("real/target.txt"), "old\n");
  fs::create_symlink("real/target.txt", dir.file("link.txt"));
  writeFileAtomically(dir.file("link.txt"), "new\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("link.txt")));
  EXPECT_EQ(test::readFile(dir.file("real/target.txt")), "new\n");
  // A dangling link: its target is created, the link stays.
  fs::create_symlink("real/later.txt", dir.file("dangling.txt"));
  writeFileAtomically(dir.file("dangling.txt"), "made\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("dangling.txt")));
  EXPECT_EQ(test::readFile(dir.file("real/later.txt")), "made\n");
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(Output, ReplacedFileKeepsItsPermissions) {
  test::TempDir dir;
  const std::string path = dir.file("script.txt");
  test::writeFile(path, "old\n");
  ASSERT_EQ(::chmod(path.c_str(), 0751), 0);
  writeFileAtomically(path, "new\n");
  struct stat s {};
  ASSERT_EQ(::stat(path.c_str(), &s), 0);
  EXPECT_EQ(s.st_mode & 07777, 0751u);
  EXPECT_EQ(test::readFile(path), "new\n");
}

// The names of the temporaries in `dir`.
std::vector<std::string> temporaries(const test::TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    if (entry.path().filename().string().find(".tmp-") != std::string::npos) names.push_back(entry.path().filename());
  }
  return names;
}

TEST(Output, TheSweepRemovesOnlyAbandonedTemporariesOfOurOwnPattern) {
  test::TempDir dir;
  const std::string abandoned = dir.file(".old.txt.siglab.tmp-AbC123");
  const std::string held = dir.file(".held.txt.siglab.tmp-XyZ789");
  // Look-alikes: another program's backup, the old PID-named pattern (whose PID says nothing in
  // another PID namespace), a folder and a symlink of our pattern.
  const std::vector<std::string> lookAlikes = {dir.file(".notes.tmp-999999-backup"), dir.file(".notes.tmp-999999-AbC123"),
                                               dir.file(".x.siglab.tmp-AbC12"), dir.file("x.siglab.tmp-AbC123")};
  for (const auto& p : lookAlikes) test::writeFile(p, "keep");
  fs::create_directory(dir.file(".d.siglab.tmp-AbC123"));
  fs::create_symlink(".notes.tmp-999999-backup", dir.file(".l.siglab.tmp-AbC123"));
  test::writeFile(abandoned, "partial");
  test::writeFile(held, "partial");
  const int writer = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);  // another open file description holds its lock
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::flock(writer, LOCK_EX), 0);
  removeStaleTemporaries(dir.path().string());
  EXPECT_FALSE(fs::exists(abandoned));
  EXPECT_TRUE(fs::exists(held));
  for (const auto& p : lookAlikes) EXPECT_EQ(test::readFile(p), "keep") << p;
  EXPECT_TRUE(fs::is_directory(dir.file(".d.siglab.tmp-AbC123")));
  EXPECT_TRUE(fs::is_symlink(dir.file(".l.siglab.tmp-AbC123")));
  ::close(writer);
  {
    AtomicFileWriter file(dir.file("out.txt"));  // sweeps as it opens: the lock is gone now
    EXPECT_FALSE(fs::exists(held));
    const std::vector<std::string> names = temporaries(dir);
    EXPECT_EQ(std::count_if(names.begin(), names.end(),
                            [](const std::string& n) { return n.starts_with(".out.txt.siglab.tmp-"); }),
              1);
  }
}

// Runs removeStaleTemporaries(folder) in a child that is PID 1 of a new PID namespace, where this
// process's PID means nothing. Returns false where such a namespace cannot be made.
bool sweepFromAnotherPidNamespace(const std::string& folder) {
  const pid_t child = ::fork();
  if (child == 0) {
    if (::unshare(CLONE_NEWPID) != 0 && (::unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0)) ::_exit(77);
    const pid_t inside = ::fork();  // the first child in the namespace
    if (inside == 0) {
      removeStaleTemporaries(folder);
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(inside, &status, 0);
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(Output, ALiveWritersTemporarySurvivesASweepFromAnotherPidNamespace) {
  test::TempDir dir;
  AtomicFileWriter file(dir.file("out.txt"));
  file.append("whole\n");
  if (!sweepFromAnotherPidNamespace(dir.path().string())) GTEST_SKIP() << "cannot make a PID namespace here";
  EXPECT_EQ(temporaries(dir).size(), 1u);
  file.commit();
  EXPECT_EQ(test::readFile(dir.file("out.txt")), "whole\n");
}

TEST(Output, ALongNameGetsATemporaryWithinNameMax) {
  test::TempDir dir;
  for (const std::size_t length : {250u, 255u}) {
    const std::string path = dir.file(std::string(length - 4, 'n') + ".txt");
    writeFileAtomically(path, "new\n");
    EXPECT_EQ(test::readFile(path), "new\n") << length;
  }
  // A name cut inside a UTF-8 character would be bytes no tool shows: cut before it.
  const std::string accented = dir.file(std::string(235, 'a') + "\xc3\xa9\xc3\xa9.txt");
  AtomicFileWriter file(accented);
  const std::vector<std::string> names = temporaries(dir);
  ASSERT_EQ(names.size(), 1u);
  EXPECT_TRUE(names[0].starts_with("." + std::string(235, 'a') + ".siglab.tmp-")) << names[0];
  EXPECT_LE(names[0].size(), 255u);
}

TEST(Output, SetRenamesNothingUntilEveryFileIsComplete) {
  test::TempDir dir;
  test::writeFile(dir.file("a.txt"), "old a\n");
  test::writeFile(dir.file("b.txt"), "old b\n");
  {
    OutputSet set;
    set.add(dir.file("a.txt")).append("new a\n");
    set.add(dir.file("b.txt")).append("new b\n");
    // Abandoned before commit (a failure or cancellation while writing b): both old files stay.
  }
  EXPECT_EQ(test::readFile(dir.file("a.txt")), "old a\n");
  EXPECT_EQ(test::readFile(dir.file("b.txt")), "old b\n");
  EXPECT_FALSE(hasTemporaries(dir));
  OutputSet set;
  set.add(dir.file("a.txt")).append("new a\n");
  set.add(dir.file("b.txt")).append("new b\n");
  set.commit();
  EXPECT_EQ(test::readFile(dir.file("a.txt")), "new a\n");
  EXPECT_EQ(test::readFile(dir.file("b.txt")), "new b\n");
}

std::string checkMessage(std::vector<NamedPath> outputs, std::vector<NamedPath> inputs = {}) {
  try {
    checkOutputsBeforeWork(outputs, inputs);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(OutputChecks, RefuseBeforeAnyWork) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt"), out = dir.file("out.txt");
  test::writeFile(in, "1\n");
  EXPECT_EQ(checkMessage({{"-o", out}, {"--report", dir.file("r.json")}}, {{"INPUT", in}}), "");
  EXPECT_EQ(checkMessage({{"-o", dir.file("no/such/out.txt")}}),
            dir.file("no/such/out.txt") + ": cannot write: the folder " + dir.file("no/such") + " does not exist");
  EXPECT_EQ(checkMessage({{"-o", dir.path().string()}}), dir.path().string() + ": cannot write: it is a directory");
  EXPECT_EQ(checkMessage({{"-o", in}}, {{"INPUT", in}}), "-o " + in + " is the input " + in + ": choose another name");
  EXPECT_EQ(checkMessage({{"-o", out}, {"--report", out}}),
            "-o " + out + " and --report " + out + " are the same file: choose different names");
  fs::create_symlink("in.txt", dir.file("alias.txt"));
  EXPECT_EQ(checkMessage({{"-o", dir.file("alias.txt")}}, {{"INPUT", in}}),
            "-o " + dir.file("alias.txt") + " is the input " + in + ": choose another name");
  EXPECT_EQ(checkMessage({{"-o", "-"}, {"--report", "-"}}),
            "-o - and --report - are the same file: choose different names");
  EXPECT_EQ(checkMessage({{"-o", "-"}}, {{"INPUT", "-"}}), "");
}

TEST(OutputChecks, UnwritableFolderAsAnOrdinaryUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "runs as root and drops to nobody in a child process";
  test::TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);  // nobody may enter but not write
  const pid_t child = ::fork();
  if (child == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(10);
    const std::string message = checkMessage({{"-o", dir.file("out.txt")}});
    ::_exit(message == dir.file("out.txt") + ": cannot write in the folder " + dir.path().string() +
                           ": Permission denied" ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(OutputChecks, AnEmptyNameOrASymlinkLoopIsRefusedInWords) {
  test::TempDir dir;
  EXPECT_EQ(checkMessage({{"-o", ""}}), "-o: the output's name is empty: name a file, or - for standard output");
  fs::create_symlink("b", dir.file("a"));
  fs::create_symlink("a", dir.file("b"));
  EXPECT_EQ(checkMessage({{"-o", dir.file("a")}}),
            dir.file("a") + ": cannot write: too many levels of symbolic links (a loop?)");
  EXPECT_EQ(checkMessage({{"-o", dir.file("a/out.txt")}}),
            dir.file("a/out.txt") + ": cannot write: Too many levels of symbolic links");
  try {
    AtomicFileWriter file(dir.file("a"));
    ADD_FAILURE() << "wrote through a symlink loop";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir.file("a") + ": cannot write: too many levels of symbolic links (a loop?)");
  }
}

// What checking `path` as an output, then writing it, says (empty when both succeed).
std::string checkAndWrite(const std::string& path) {
  const std::string message = checkMessage({{"-o", path}});
  try {
    writeFileAtomically(path, "new\n");
  } catch (const std::exception& e) {
    return message + " | " + e.what();
  }
  return message + " | written";
}

TEST(OutputChecks, AFileTheUserCannotWriteIsNotReplaced) {
  test::TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);  // the folder alone would allow the rename
  const std::string readOnly = dir.file("ro.txt");
  test::writeFile(readOnly, "old\n");
  ASSERT_EQ(::chmod(readOnly.c_str(), 0444), 0);
  const std::string refused = readOnly + ": cannot write: Permission denied (the file is not writable)";
  if (::geteuid() != 0) {
    EXPECT_EQ(checkAndWrite(readOnly), refused + " | " + refused);
  } else {  // root may write anything: the check is made as nobody, in a child process
    const pid_t child = ::fork();
    if (child == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(10);
      ::_exit(checkAndWrite(readOnly) == refused + " | " + refused ? 0 : 1);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 10) GTEST_SKIP() << "cannot become nobody here";
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  EXPECT_EQ(test::readFile(readOnly), "old\n");
  EXPECT_FALSE(hasTemporaries(dir));
}

}  // namespace
}  // namespace siglab
