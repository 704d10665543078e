#include <cmath>

#include "siglab/cuda_reduce.hpp"

namespace siglab {

double compensatedSum(std::span<const double> values) {
  double sum = 0.0, compensation = 0.0;
  for (const double v : values) {
    const double t = sum + v;
    compensation += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  return sum + compensation;
}

}  // namespace siglab
