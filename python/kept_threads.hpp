#pragma once
// Threads the module's long work runs on, kept from one call to the next. A thread carries its
// OpenMP team and its share of malloc's arenas: a fresh thread each call built a new team and,
// when it ended, gave the arena's pages back, faulted in again by the next call (about 2,000
// page faults and a tenth of a 10M-sample find_peaks on 2 cores).
#include <functional>
#include <memory>

namespace siglab::python {

// `job` running on another thread: an idle kept thread, or a new one when none is idle (calls
// from several Python threads at once each get their own). join() waits until `job` has returned
// and its captures are gone; the destructor joins too. `job` must not throw.
class JobOnKeptThread {
 public:
  explicit JobOnKeptThread(std::function<void()> job);
  ~JobOnKeptThread();
  JobOnKeptThread(const JobOnKeptThread&) = delete;
  JobOnKeptThread& operator=(const JobOnKeptThread&) = delete;
  void join();

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace siglab::python
