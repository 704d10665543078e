#pragma once
#include <atomic>

namespace siglab {

// Waits on another program (a FIFO's reader to open it, a pipe's reader to make room, a pipe's
// writer to send more) end when the work is cancelled, instead of blocking for ever: they throw
// Cancelled within about 20 ms of either flag below being set. Nothing else waits on others.

// While alive, every such wait in this process, on any thread, also ends when `flag` is set: the
// CLI's signal flag. One at a time; the flag must outlive it.
class CancelWaitsInProcess {
 public:
  explicit CancelWaitsInProcess(const std::atomic<bool>* flag);
  CancelWaitsInProcess(const CancelWaitsInProcess&) = delete;
  CancelWaitsInProcess& operator=(const CancelWaitsInProcess&) = delete;
  ~CancelWaitsInProcess();
};

// While alive, such waits on this thread also end when `flag` is set: a GUI task's cancel flag.
class CancelWaitsOnThread {
 public:
  explicit CancelWaitsOnThread(const std::atomic<bool>* flag);
  CancelWaitsOnThread(const CancelWaitsOnThread&) = delete;
  CancelWaitsOnThread& operator=(const CancelWaitsOnThread&) = delete;
  ~CancelWaitsOnThread();

 private:
  const std::atomic<bool>* previous_;
};

}  // namespace siglab
