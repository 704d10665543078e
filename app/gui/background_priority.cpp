#include "background_priority.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace siglab::gui {

void lowerThisThread() {
  // A hint only: where it fails the work runs at the caller's priority, as before.
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kBackgroundNice);
}

QThreadPool& backgroundPool() {
  static QThreadPool pool;
  static const bool configured = [] {
    pool.setMaxThreadCount(2);  // a file's index and a range's statistics at once
    pool.setExpiryTimeout(-1);  // kept: see the header
    return true;
  }();
  (void)configured;
  return pool;
}

}  // namespace siglab::gui
