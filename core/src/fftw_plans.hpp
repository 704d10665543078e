#pragma once
// FFTW plans, made once per length and kept for the life of the process. Making a plan is not
// thread-safe in FFTW; executing one (fftw_execute_dft_r2c on other arrays) is, so plans are made
// under a lock and then used from every thread.
#include <fftw3.h>

#include <cstddef>
#include <memory>

namespace siglab::detail {

// The out-of-place real-to-complex transform of `n` doubles (n / 2 + 1 complex outputs), made for
// arrays from fftw_malloc: execute it on such arrays only.
fftw_plan realForwardPlan(std::size_t n);

// The inverse: n / 2 + 1 complex values to n doubles (unnormalised, so n times the signal).
// FFTW's complex-to-real transform overwrites its input.
fftw_plan realInversePlan(std::size_t n);

// The same forward transform for input of any alignment (a caller's samples, not fftw_malloc'd);
// `threaded`: planned on every OpenMP thread (fftw3_omp).
fftw_plan realForwardUnalignedPlan(std::size_t n, bool threaded);

// The inverse real transform into output of any alignment; it overwrites its complex input.
fftw_plan realInverseUnalignedPlan(std::size_t n, bool threaded);

// The forward transform for input at `in`, the inverse for output at `out`: the plans for
// fftw_malloc'd arrays (a fifth faster here) where FFTW finds the pointer aligned as those are
// (fftw_alignment_of; malloc's large blocks are), else the unaligned ones above.
fftw_plan realForwardPlanFor(const double* in, std::size_t n, bool threaded);
fftw_plan realInversePlanFor(const double* out, std::size_t n, bool threaded);

// The complex-to-complex backward transform of `n` values, in place (unnormalised), for fftw_malloc'd arrays.
fftw_plan complexInversePlan(std::size_t n, bool threaded);

// An fftw_malloc'd array (SIMD-aligned, as the plans expect).
template <typename T>
struct FftwFree {
  void operator()(T* p) const { fftw_free(p); }
};
template <typename T>
using FftwArray = std::unique_ptr<T[], FftwFree<T>>;

template <typename T>
FftwArray<T> makeFftwArray(std::size_t count) {
  auto* p = static_cast<T*>(fftw_malloc(sizeof(T) * (count == 0 ? 1 : count)));
  if (!p) throw std::bad_alloc();
  return FftwArray<T>(p);
}

}  // namespace siglab::detail
