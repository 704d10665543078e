// Saving a session and exporting from the "discard the filtered signal?" prompt wrote on the main
// thread (issue 24): an output FIFO nobody reads froze the window. They run as background tasks now,
// like every other write: the window stays responsive, Cancel ends the wait, nothing is written.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QFileDialog>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "gui_dialog_support.hpp"
#include "gui_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using gui::MainWindow;

// A FIFO in the test's folder that no program reads. If the code under test waits on it anyway
// (on the main thread, where Cancel cannot reach), a rescue thread reads it to its end after
// 3 s, so the test fails instead of hanging; rescued() says so.
class UnreadFifo {
 public:
  explicit UnreadFifo(std::string path) : path_(std::move(path)) {
    ok_ = ::mkfifo(path_.c_str(), 0600) == 0;
    rescue_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, std::chrono::seconds(3), [this] { return done_; })) return;
      rescued_ = true;
      drain();
    });
  }
  ~UnreadFifo() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    rescue_.join();
  }
  bool ok() const { return ok_; }
  bool rescued() const { return rescued_; }
  bool stillAFifo() const {
    struct stat s {};
    return ::lstat(path_.c_str(), &s) == 0 && S_ISFIFO(s.st_mode);
  }

 private:
  // Reads what a writer sends until it closes its end (10 s at most).
  void drain() {
    const int fd = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    char buffer[65536];
    bool sent = false;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < until) {
      const ssize_t n = ::read(fd, buffer, sizeof buffer);
      if (n > 0) sent = true;
      if (n == 0 && sent) break;  // the writer came and went
      if (n <= 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::close(fd);
  }

  std::string path_;
  bool ok_ = false;
  bool done_ = false;
  std::atomic<bool> rescued_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread rescue_;
};

// Whether a timer started now fires while the window's task still waits (the event loop runs).
bool timerFiresWhileBusy(const MainWindow& window) {
  bool fired = false;
  QTimer::singleShot(10, [&fired] { fired = true; });
  QElapsedTimer clock;
  clock.start();
  while (!fired && clock.elapsed() < 5'000) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
  return fired && window.busy();
}

// Answers the next file dialog of `window` with `path`, from a timer: the dialog runs its own loop.
void answerNextFileDialog(MainWindow& window, const QString& path) {
  auto* poll = new QTimer(&window);
  QObject::connect(poll, &QTimer::timeout, poll, [poll, &window, path] {
    for (QFileDialog* dialog : window.findChildren<QFileDialog*>()) {
      if (!dialog->isVisible()) continue;
      dialog->setOption(QFileDialog::DontConfirmOverwrite);  // the FIFO exists
      dialog->selectFile(path);
      QMetaObject::invokeMethod(dialog, "accept");  // a slot, protected in QFileDialog
      poll->deleteLater();
      return;
    }
  });
  poll->start(10);
}

class BackgroundWritesTest : public ::testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
  static void openAndApply(MainWindow& window) {
    window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.signal()) << window.lastError().toStdString();
    window.applyFilter();
    ASSERT_TRUE(test::waitForTask(window));
    ASSERT_TRUE(window.hasUnexportedResult()) << window.lastError().toStdString();
  }
};

TEST_F(BackgroundWritesTest, SavingASessionToAnUnreadFifoLeavesTheWindowResponsiveUntilCancel) {
  test::TempDir dir;
  const std::string path = dir.file("session.siglab");
  UnreadFifo fifo(path);
  ASSERT_TRUE(fifo.ok());
  MainWindow window;
  window.openFile(QString::fromStdString(SIGLAB_SAMPLE_PATH));
  ASSERT_TRUE(test::waitForTask(window));
  window.saveSession(QString::fromStdString(path));
  EXPECT_FALSE(fifo.rescued()) << "saveSession waited on the main thread for the FIFO's reader";
  EXPECT_TRUE(timerFiresWhileBusy(window)) << "the save is not a background task";
  window.cancelTask();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(fifo.rescued()) << "Cancel did not end the wait for the FIFO's reader";
  EXPECT_TRUE(window.lastError().isEmpty()) << "a cancel is not an error: " << window.lastError().toStdString();
  EXPECT_TRUE(fifo.stillAFifo());
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1) << "a temporary was left";

  window.saveSession(QString::fromStdString(dir.file("no folder/s.siglab")));  // refused: an error shown
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_TRUE(window.lastError().contains("no folder")) << window.lastError().toStdString();
}

TEST_F(BackgroundWritesTest, ExportingFromTheDiscardPromptToAnUnreadFifoLeavesTheWindowResponsiveUntilCancel) {
  test::TempDir dir;
  test::writeFile(dir.file("other.txt"), "1\n2\n3\n");
  const std::string path = dir.file("result.txt");
  UnreadFifo fifo(path);
  ASSERT_TRUE(fifo.ok());
  MainWindow window;
  window.show();
  openAndApply(window);
  const gui::SignalPtr sample = window.signal();

  window.requestOpen(QString::fromStdString(dir.file("other.txt")));
  answerNextFileDialog(window, QString::fromStdString(path));
  ASSERT_TRUE(test::answer(window, "discardPrompt", QMessageBox::Save));
  EXPECT_FALSE(fifo.rescued()) << "the prompt's Export waited on the main thread for the FIFO's reader";
  EXPECT_TRUE(timerFiresWhileBusy(window)) << "the prompt's Export is not a background task";
  window.cancelTask();
  ASSERT_TRUE(test::waitForTask(window));
  EXPECT_FALSE(fifo.rescued()) << "Cancel did not end the wait for the FIFO's reader";
  EXPECT_TRUE(window.lastError().isEmpty()) << "a cancel is not an error: " << window.lastError().toStdString();
  EXPECT_EQ(window.signal(), sample) << "a cancelled export opens nothing else";
  EXPECT_TRUE(window.hasUnexportedResult());
  EXPECT_TRUE(fifo.stillAFifo());
}

TEST_F(BackgroundWritesTest, ExportingFromTheDiscardPromptOpensTheNextFileOnceWritten) {
  test::TempDir dir;
  test::writeFile(dir.file("other.txt"), "1\n2\n3\n");
  MainWindow window;
  window.show();
  openAndApply(window);
  window.requestOpen(QString::fromStdString(dir.file("other.txt")));
  answerNextFileDialog(window, QString::fromStdString(dir.file("result.txt")));
  ASSERT_TRUE(test::answer(window, "discardPrompt", QMessageBox::Save));
  ASSERT_TRUE(test::waitForTask(window));  // the export, then the next file's probe and load
  ASSERT_TRUE(test::waitForTask(window));
  const std::string written = test::readFile(dir.file("result.txt"));
  EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), 10000) << window.lastError().toStdString();
  ASSERT_TRUE(window.signal());
  EXPECT_EQ(window.signal()->size(), 3u) << "the file asked for opens once the result is written";
}

}  // namespace
}  // namespace siglab
