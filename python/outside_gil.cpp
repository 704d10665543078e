#include "outside_gil.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <string>

#include "kept_threads.hpp"
#include "siglab/io/cancel_waits.hpp"

namespace py = pybind11;

namespace siglab::python {
namespace {

// A progress callback sees at most one report per hundredth of a phase (engines report each
// millisecond piece); the first and the last of each phase always.
constexpr double kReportStep = 0.01;
constexpr auto kSignalCheckEvery = std::chrono::milliseconds(20);

// Where the work's thread hands a progress report to Python's thread, and waits until it is taken.
class ReportHandOff {
 public:
  explicit ReportHandOff(std::atomic<bool>& cancel) : cancel_(cancel) {}

  // On the work's threads: waits until Python's thread has called the callback with this report.
  void report(const std::string& phase, double fraction) {
    std::unique_lock lock(mutex_);
    if (phase == lastPhase_ && fraction < lastFraction_ + kReportStep && fraction < 1.0) return;
    lastPhase_ = phase;
    lastFraction_ = fraction;
    changed_.wait(lock, [&] { return !pending_ || cancel_; });
    if (cancel_) return;
    // Reports of one phase from several threads may cross while they wait: never one going back.
    if (phase == deliveredPhase_ && fraction < deliveredFraction_) return;
    deliveredPhase_ = phase;
    deliveredFraction_ = fraction;
    pending_ = true;
    phase_ = phase;
    fraction_ = fraction;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !pending_ || cancel_; });
  }

  void finish() {
    std::lock_guard lock(mutex_);
    done_ = true;
    changed_.notify_all();
  }

  // On Python's thread, without the GIL: waits for a report, the end of the work, or 20 ms.
  // Returns false once the work is done.
  bool wait(bool& hasReport, std::string& phase, double& fraction) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, kSignalCheckEvery, [&] { return done_ || pending_; });
    hasReport = pending_;
    phase = phase_;
    fraction = fraction_;
    return !done_;
  }

  // On Python's thread: the report was delivered (or the work is cancelled): its thread goes on.
  void release() {
    std::lock_guard lock(mutex_);
    pending_ = false;
    changed_.notify_all();
  }

 private:
  std::atomic<bool>& cancel_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool pending_ = false, done_ = false;
  std::string phase_, lastPhase_, deliveredPhase_;
  double fraction_ = 0.0, lastFraction_ = -1.0, deliveredFraction_ = -1.0;
};

// A Python exception taken out of the interpreter, to raise once the work has stopped.
struct PendingPythonError {
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  PyObject* traceback = nullptr;
  explicit operator bool() const { return type != nullptr; }
  void fetch() { PyErr_Fetch(&type, &value, &traceback); }
  [[noreturn]] void raise() {
    PyErr_Restore(type, value, traceback);
    throw py::error_already_set();
  }
};

}  // namespace

void runOutsideGil(const std::function<void(const PipelineObserver&)>& work, const py::object& progress) {
  std::atomic<bool> cancel{false};
  ReportHandOff handOff(cancel);
  PipelineObserver observer;
  observer.cancel = &cancel;
  if (!progress.is_none()) {
    observer.progressFor = [&](const std::string& phase) {
      return Progress{[&handOff, phase](double f) { handOff.report(phase, f); }, &cancel};
    };
  }
  std::exception_ptr failure;
  PendingPythonError interrupted;
  {
    py::gil_scoped_release release;
    JobOnKeptThread worker([&] {
      const CancelWaitsOnThread waits(&cancel);  // a wait on another program (a FIFO's writer) ends on Ctrl-C too
      try {
        work(observer);
      } catch (...) {
        failure = std::current_exception();
      }
      handOff.finish();
    });
    bool hasReport = false;
    std::string phase;
    double fraction = 0.0;
    try {
      while (handOff.wait(hasReport, phase, fraction)) {
        if (!interrupted) {
          py::gil_scoped_acquire python;
          if (hasReport) {
            const py::object result = py::reinterpret_steal<py::object>(
                PyObject_CallFunction(progress.ptr(), "sd", phase.c_str(), fraction));
            if (!result) interrupted.fetch();
          }
          if (!interrupted && PyErr_CheckSignals() != 0) interrupted.fetch();
          if (interrupted) cancel = true;
        }
        if (hasReport || cancel) handOff.release();
      }
    } catch (...) {  // the work stops at its next check, no report waits for Python, then it is joined
      cancel = true;
      handOff.release();
      worker.join();
      throw;
    }
    worker.join();
  }
  if (interrupted) interrupted.raise();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace siglab::python
