#pragma once
#include <QThreadPool>

#include <exception>
#include <future>
#include <memory>
#include <optional>

namespace siglab::gui {

// The nice value (per thread on Linux) of work no view waits for: a mapped file's index, a mapped
// range's statistics. A zoom step's tiles and points, at 0, take the cores first; with nothing else
// to run it has the cores to itself.
inline constexpr int kBackgroundNice = 10;

// Lowers the calling thread to kBackgroundNice (the OpenMP workers it starts inherit it). Without
// privileges there is no way back: only for a thread made for that work.
void lowerThisThread();

// The threads that run such work: two, kept for the process's life (a fresh thread each time would
// make glibc a fresh malloc arena and OpenMP a fresh team each time, holding tens of MiB more).
QThreadPool& backgroundPool();

// `work()` on a background pool thread at kBackgroundNice; the caller, a pool thread, waits with its
// place in Qt's global pool lent meanwhile, so a spectrogram's tiles never queue behind it. What
// `work` throws is thrown here.
template <class Work>
auto atBackgroundPriority(Work work) -> decltype(work()) {
  std::optional<decltype(work())> result;
  std::exception_ptr failure;
  // Shared: the worker may still be inside set_value when this thread wakes and returns.
  const auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  backgroundPool().start([&, done] {
    lowerThisThread();
    try {
      result.emplace(work());
    } catch (...) {
      failure = std::current_exception();
    }
    done->set_value();
  });
  QThreadPool::globalInstance()->releaseThread();
  finished.wait();  // a std::future: QFuture's wait could run the work on this thread
  QThreadPool::globalInstance()->reserveThread();
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

}  // namespace siglab::gui
