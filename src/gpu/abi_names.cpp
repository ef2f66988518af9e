#include "cudnnctl/gpu/abi.hpp"

namespace cudnnctl::abi {

const char* algo_name(int algo) {
  static const char* names[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT", "FFT_TILING", "WINOGRAD",
                                "WINOGRAD_NONFUSED"};
  return algo >= 0 && algo < 8 ? names[algo] : "UNKNOWN";
}

const char* math_name(int math) {
  static const char* names[] = {"DEFAULT_MATH", "TENSOR_OP_MATH", "TENSOR_OP_MATH_ALLOW_CONVERSION", "FMA_MATH"};
  return math >= 0 && math < 4 ? names[math] : "UNKNOWN";
}

} // namespace cudnnctl::abi
