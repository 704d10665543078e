#include "kept_threads.hpp"

#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace siglab::python {

struct JobOnKeptThread::State {
  std::function<void()> job;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
};

namespace {

// Idle threads kept at most (Dask's threads each call the module at once).
constexpr std::size_t kKeptIdle = 8;

class ThreadKeeper {
 public:
  // The keeper of this process: a child forked from a process with kept threads has none of
  // them (only the forking thread goes on in it), so it starts a keeper of its own.
  static ThreadKeeper& ofThisProcess() {
    static std::mutex mutex;
    static ThreadKeeper* keeper = nullptr;  // never destroyed: its threads may still wait at exit
    static pid_t owner = 0;
    const std::lock_guard lock(mutex);
    if (!keeper || owner != getpid()) {
      keeper = new ThreadKeeper;  // a forked child's copy of the parent's is left as it is
      owner = getpid();
    }
    return *keeper;
  }

  void run(std::shared_ptr<JobOnKeptThread::State> job) {
    std::shared_ptr<Waiting> thread;
    {
      const std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        thread = std::move(idle_.back());
        idle_.pop_back();
      }
    }
    if (!thread) {
      thread = std::make_shared<Waiting>();
      std::thread([this, thread] { serve(thread); }).detach();
    }
    {
      const std::lock_guard lock(thread->mutex);
      thread->job = std::move(job);
    }
    thread->arrived.notify_one();
  }

 private:
  struct Waiting {
    std::mutex mutex;
    std::condition_variable arrived;
    std::shared_ptr<JobOnKeptThread::State> job;
  };

  void serve(const std::shared_ptr<Waiting>& me) {
    for (;;) {
      std::shared_ptr<JobOnKeptThread::State> job;
      {
        std::unique_lock lock(me->mutex);
        me->arrived.wait(lock, [&] { return me->job != nullptr; });
        job = std::move(me->job);
      }
      job->job();
      job->job = nullptr;  // its captures go before the caller hears it is done
      // Idle again before the caller hears it: its next call finds this thread.
      bool kept = false;
      {
        const std::lock_guard lock(mutex_);
        if (idle_.size() < kKeptIdle) {
          idle_.push_back(me);
          kept = true;
        }
      }
      {
        const std::lock_guard lock(job->mutex);
        job->done = true;
      }
      job->finished.notify_all();
      if (!kept) return;
    }
  }

  std::mutex mutex_;
  std::vector<std::shared_ptr<Waiting>> idle_;
};

}  // namespace

JobOnKeptThread::JobOnKeptThread(std::function<void()> job) : state_(std::make_shared<State>()) {
  state_->job = std::move(job);
  ThreadKeeper::ofThisProcess().run(state_);
}

JobOnKeptThread::~JobOnKeptThread() { join(); }

void JobOnKeptThread::join() {
  std::unique_lock lock(state_->mutex);
  state_->finished.wait(lock, [&] { return state_->done; });
}

}  // namespace siglab::python
