#pragma once
#include <algorithm>
#include <cstddef>
#include <memory_resource>
#include <type_traits>
#include <utility>
#include <vector>

namespace siglab {

// Allocates from a std::pmr resource chosen at run time (nullptr: the default, ordinary memory).
// Unlike std::pmr::polymorphic_allocator, the resource moves with a moved vector: assigning a
// signal read into page-locked memory keeps it there instead of copying it into ordinary memory.
// A copy is ordinary memory.
template <class T>
class HostAllocator {
 public:
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;
  using propagate_on_container_swap = std::true_type;
  using propagate_on_container_copy_assignment = std::false_type;

  HostAllocator() noexcept = default;
  HostAllocator(std::pmr::memory_resource* resource) noexcept  // NOLINT: implicit, as polymorphic_allocator's
      : resource_(resource ? resource : std::pmr::get_default_resource()) {}
  // `forOverwrite`: elements made without a value are left uninitialised (as new double[n]).
  HostAllocator(std::pmr::memory_resource* resource, bool forOverwrite) noexcept
      : resource_(resource ? resource : std::pmr::get_default_resource()), forOverwrite_(forOverwrite) {}
  template <class U>
  HostAllocator(const HostAllocator<U>& other) noexcept : resource_(other.resource()), forOverwrite_(other.forOverwrite()) {}

  T* allocate(std::size_t n) { return static_cast<T*>(resource_->allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { resource_->deallocate(p, n * sizeof(T), alignof(T)); }
  HostAllocator select_on_container_copy_construction() const noexcept { return {}; }
  std::pmr::memory_resource* resource() const noexcept { return resource_; }
  bool forOverwrite() const noexcept { return forOverwrite_; }

  template <class U>
  void construct(U* p) {
    if (forOverwrite_) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U();
    }
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <class U>
  friend bool operator==(const HostAllocator& a, const HostAllocator<U>& b) noexcept {
    return a.resource_ == b.resource() || a.resource_->is_equal(*b.resource());
  }

 private:
  std::pmr::memory_resource* resource_ = std::pmr::get_default_resource();
  bool forOverwrite_ = false;
};

// Asks for a SampleVector whose samples are not zeroed first: for a result every sample of which
// is then written (zeroing 80 MB first cost a third of a 10M-sample mean filter's time).
struct ForOverwrite {};

// Samples in memory from a resource: ordinary memory by default, page-locked memory when a GPU
// engine will copy them (ReadOptions::hostMemory), without core knowing of CUDA.
class SampleVector : public std::vector<double, HostAllocator<double>> {
 public:
  using Base = std::vector<double, HostAllocator<double>>;
  using Base::Base;
  SampleVector() = default;
  // n samples left uninitialised, from `resource` (nullptr: the default). Growing it later leaves
  // the new samples uninitialised too; a copy of it is an ordinary one.
  SampleVector(ForOverwrite, std::size_t n, std::pmr::memory_resource* resource = nullptr)
      : Base(HostAllocator<double>(resource, true)) {
    resize(n);
  }
  // A copy in ordinary memory.
  explicit SampleVector(const std::vector<double>& values) : Base(values.begin(), values.end()) {}
  std::vector<double> toVector() const { return {begin(), end()}; }
  std::pmr::memory_resource* resource() const { return get_allocator().resource(); }

  friend bool operator==(const SampleVector& a, const std::vector<double>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
};

}  // namespace siglab
