#include "background_priority.hpp"

#include <sys/resource.h>
#include <unistd.h>

namespace siglab::gui {

void lowerThisThread() {
  // A hint only: where it fails the work runs at the caller's priority, as before.
  (void)::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kBackgroundNice);
}

}  // namespace siglab::gui
