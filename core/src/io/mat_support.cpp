#include "mat_support.hpp"

#include <utility>

#include "siglab/io/dataset_files.hpp"

namespace siglab::mat {
namespace {
std::string lastMessage;  // guarded by lock()
}  // namespace

std::unique_lock<std::mutex> lock() {
  static std::mutex mutex;
  std::unique_lock<std::mutex> held(mutex);
  static const bool routed = [] {
    Mat_LogInitFunc("siglab", [](int, char* message) {
      if (message) lastMessage = message;
    });
    return true;
  }();
  (void)routed;
  return held;
}

std::string takeLastMessage() { return std::exchange(lastMessage, {}); }

}  // namespace siglab::mat

namespace siglab {
bool matSupported() { return true; }
}  // namespace siglab
