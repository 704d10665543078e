#pragma once
#include <algorithm>
#include <cstddef>
#include <memory_resource>
#include <type_traits>
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
  template <class U>
  HostAllocator(const HostAllocator<U>& other) noexcept : resource_(other.resource()) {}

  T* allocate(std::size_t n) { return static_cast<T*>(resource_->allocate(n * sizeof(T), alignof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { resource_->deallocate(p, n * sizeof(T), alignof(T)); }
  HostAllocator select_on_container_copy_construction() const noexcept { return {}; }
  std::pmr::memory_resource* resource() const noexcept { return resource_; }

  template <class U>
  friend bool operator==(const HostAllocator& a, const HostAllocator<U>& b) noexcept {
    return a.resource_ == b.resource() || a.resource_->is_equal(*b.resource());
  }

 private:
  std::pmr::memory_resource* resource_ = std::pmr::get_default_resource();
};

// Samples in memory from a resource: ordinary memory by default, page-locked memory when a GPU
// engine will copy them (ReadOptions::hostMemory), without core knowing of CUDA.
class SampleVector : public std::vector<double, HostAllocator<double>> {
 public:
  using Base = std::vector<double, HostAllocator<double>>;
  using Base::Base;
  SampleVector() = default;
  // A copy in ordinary memory.
  explicit SampleVector(const std::vector<double>& values) : Base(values.begin(), values.end()) {}
  std::vector<double> toVector() const { return {begin(), end()}; }
  std::pmr::memory_resource* resource() const { return get_allocator().resource(); }

  friend bool operator==(const SampleVector& a, const std::vector<double>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
};

}  // namespace siglab
