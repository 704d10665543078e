#include "fft_plan_cache.hpp"

#include <algorithm>
#include <mutex>
#include <new>
#include <vector>

#include "device_buffer.hpp"
#include "device_scope.hpp"

namespace siglab::cuda {

void checkCufft(cufftResult code, const char* call, const char* file, int line) {
  if (code == CUFFT_SUCCESS) return;
  if (code == CUFFT_ALLOC_FAILED) throw OutOfDeviceMemory(call, file, line);
  throw CufftError(code, call);
}

struct FftPlan::Held {
  int device = 0;
  FftShape shape;
  cufftHandle handle = 0;
};

namespace {

cufftHandle makePlan(const FftShape& s) {
  int length = s.n, bins = s.n / 2 + 1;
  const bool forward = s.type == CUFFT_D2Z;
  cufftHandle plan = 0;
  SIGLAB_CUFFT_TRY(cufftPlanMany(&plan, 1, &length, forward ? &length : &bins, 1, forward ? s.n : bins,
                                 forward ? &bins : &length, 1, forward ? bins : s.n, s.type, s.batch));
  return plan;
}

void destroy(const FftPlan::Held& held) {
  const DeviceScope scope(held.device, std::nothrow);
  cufftDestroy(held.handle);
}

// The idle plans, newest last; never destroyed itself (CUDA may be gone at exit).
class Idle {
 public:
  static Idle& instance() {
    static auto* const idle = new Idle;
    return *idle;
  }
  std::unique_ptr<FftPlan::Held> take(int device, const FftShape& shape) {
    const std::lock_guard lock(mutex_);
    const auto it = std::find_if(plans_.rbegin(), plans_.rend(), [&](const auto& held) {
      return held->device == device && held->shape == shape;
    });
    if (it == plans_.rend()) return nullptr;
    std::unique_ptr<FftPlan::Held> held = std::move(*it);
    plans_.erase(std::next(it).base());
    return held;
  }
  void give(std::unique_ptr<FftPlan::Held> held) {
    std::unique_ptr<FftPlan::Held> oldest;
    {
      const std::lock_guard lock(mutex_);
      plans_.push_back(std::move(held));
      if (plans_.size() > kKept) {
        oldest = std::move(plans_.front());
        plans_.erase(plans_.begin());
      }
    }
    if (oldest) destroy(*oldest);
  }

 private:
  static constexpr std::size_t kKept = 8;  // a few shapes (each holds its work area on the device)
  std::mutex mutex_;
  std::vector<std::unique_ptr<FftPlan::Held>> plans_;
};

}  // namespace

FftPlan::FftPlan(const FftShape& shape, StreamView stream) {
  const int device = currentDevice();
  held_ = Idle::instance().take(device, shape);
  if (!held_) {
    auto made = std::make_unique<Held>();
    made->device = device;
    made->shape = shape;
    made->handle = makePlan(shape);
    held_ = std::move(made);
  }
  try {
    SIGLAB_CUFFT_TRY(cufftSetStream(held_->handle, stream.get()));
  } catch (...) {
    destroy(*held_);  // a plan whose stream could not be set is not reused
    throw;
  }
}
FftPlan::FftPlan(FftPlan&&) noexcept = default;
FftPlan& FftPlan::operator=(FftPlan&& other) noexcept {
  if (this != &other) {
    if (held_) Idle::instance().give(std::move(held_));
    held_ = std::move(other.held_);
  }
  return *this;
}
FftPlan::~FftPlan() {
  if (!held_) return;
  try {
    Idle::instance().give(std::move(held_));
  } catch (...) {
  }
}
cufftHandle FftPlan::get() const { return held_->handle; }
const FftShape& FftPlan::shape() const { return held_->shape; }

}  // namespace siglab::cuda
