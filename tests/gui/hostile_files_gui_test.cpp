// Files that froze or crashed the window (issue 24): a FIFO probed on the main thread, a wait on
// a FIFO's writer that Cancel did not end, a session file nested 200,000 deep.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QSettings>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "gui_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

// A FIFO in the test's folder whose writing end the test holds open and sends nothing on. If the
// code under test blocks on it anyway, a rescue thread closes that end after 10 s (the reader
// then sees the end of the stream), so the test fails instead of hanging; rescued() says so.
class SilentFifo {
 public:
  explicit SilentFifo(const std::string& path) {
    if (::mkfifo(path.c_str(), 0600) == 0) fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);  // never blocks
    rescue_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      if (!wake_.wait_for(lock, std::chrono::seconds(10), [this] { return closed_; })) {
        rescued_ = true;
        closeLocked();
      }
    });
  }
  ~SilentFifo() {
    close();
    rescue_.join();
  }
  bool ok() const { return fd_ >= 0; }
  bool rescued() const { return rescued_; }
  void close() {
    const std::lock_guard lock(mutex_);
    closeLocked();
    wake_.notify_all();
  }

 private:
  void closeLocked() {
    if (!closed_ && fd_ >= 0) ::close(fd_);
    closed_ = true;
  }
  int fd_ = -1;
  bool closed_ = false;
  std::atomic<bool> rescued_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread rescue_;
};

class HostileFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
};

TEST_F(HostileFilesTest, OpeningAFifoLeavesTheWindowResponsive) {
  test::TempDir dir;
  const std::string path = dir.file("stream.txt");
  SilentFifo fifo(path);
  ASSERT_TRUE(fifo.ok());
  MainWindow window;
  window.openFile(QString::fromStdString(path));
  EXPECT_FALSE(fifo.rescued()) << "openFile waited on the main thread for the FIFO's writer";
  EXPECT_TRUE(window.busy()) << "the file is looked at in the background";
  fifo.close();  // the writer goes away having sent nothing
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.signal());
  EXPECT_TRUE(window.lastError().contains(QString::fromStdString(path))) << window.lastError().toStdString();
}

TEST_F(HostileFilesTest, CancelEndsTheWaitForAFifosWriter) {
  test::TempDir dir;
  const std::string path = dir.file("stream.txt");
  SilentFifo fifo(path);
  ASSERT_TRUE(fifo.ok());
  MainWindow window;
  window.openFile(QString::fromStdString(path), ReadOptions{});
  ASSERT_TRUE(window.busy());
  window.cancelTask();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(fifo.rescued()) << "Cancel did not end the wait for the FIFO's writer";
  EXPECT_FALSE(window.signal());
  EXPECT_TRUE(window.lastError().isEmpty()) << "a cancel is not an error: " << window.lastError().toStdString();
}

TEST_F(HostileFilesTest, ASessionNestedTooDeepIsAnErrorNotACrash) {
  test::TempDir dir;
  const std::size_t depth = 200'000;
  test::writeFile(dir.file("deep.siglab"),
                  "{\"siglab_session\": 1, \"signal\": " + std::string(depth, '[') + std::string(depth, ']') + "}");
  MainWindow window;
  window.openFile(QString::fromStdString(dir.file("deep.siglab")));
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(window.signal());
  EXPECT_TRUE(window.lastError().contains("deep.siglab")) << window.lastError().toStdString();
  EXPECT_TRUE(window.lastError().contains("nested more than 32 deep")) << window.lastError().toStdString();
}

}  // namespace
}  // namespace siglab
