#pragma once
#include <QThreadPool>

#include <exception>
#include <optional>
#include <thread>

namespace siglab::gui {

// The nice value (per thread on Linux) of work no view waits for: a mapped file's index, a mapped
// range's statistics. A zoom step's tiles and points, at 0, take the cores first; with nothing else
// to run it has the cores to itself.
inline constexpr int kBackgroundNice = 10;

// Lowers the calling thread to kBackgroundNice (the OpenMP workers it starts inherit it). Without
// privileges there is no way back: only for a thread made for that work.
void lowerThisThread();

// `work()` on a thread of its own at kBackgroundNice; the caller, a pool thread, waits with its place
// in Qt's global pool lent meanwhile, so a spectrogram's tiles never queue behind it. What `work`
// throws is thrown here.
template <class Work>
auto atBackgroundPriority(Work work) -> decltype(work()) {
  std::optional<decltype(work())> result;
  std::exception_ptr failure;
  std::thread thread([&] {
    lowerThisThread();
    try {
      result.emplace(work());
    } catch (...) {
      failure = std::current_exception();
    }
  });
  QThreadPool::globalInstance()->releaseThread();
  thread.join();
  QThreadPool::globalInstance()->reserveThread();
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

}  // namespace siglab::gui
