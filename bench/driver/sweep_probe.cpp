// Records what the CUDA driver says about the sweep of bench/driver/
// sweep_cases.h (at least 10,000 boundary and random descriptors of
// cuTensorMapEncodeTiled, Im2col and Im2colWide, every data type), next to
// what tma-tidy's rule model says. Needs a GPU; bench/driver/run-sweep.sh
// builds and runs it. Output: one tab-separated line per descriptor.
#include "sweep_cases.h"

#include <cuda.h>
#include <cstdio>
#include <vector>

using namespace tma::sweep;

namespace {

/// \p V with at least 6 elements (padding \p X): the driver may read up to
/// the rank it is given, valid or not; the model sees the real length.
template <typename T> std::vector<T> padded(std::vector<T> V, T X) {
  if (V.size() < 6)
    V.resize(6, X);
  return V;
}

CUresult encode(const Case &Orig, CUtensorMap *Map, void *Mem) {
  Case C = Orig;
  C.Dims = padded<std::uint64_t>(C.Dims, 1);
  C.Strides = padded<std::uint64_t>(C.Strides, 1 << 20);
  C.Box = padded<std::uint32_t>(C.Box, 1);
  C.ElemStrides = padded<std::uint32_t>(C.ElemStrides, 1);
  C.Lower = padded<int>(C.Lower, 0);
  C.Upper = padded<int>(C.Upper, 0);
  const cuuint64_t *Strides = C.NullStrides ? nullptr : C.Strides.data();
  auto DT = static_cast<CUtensorMapDataType>(C.DataType);
  auto Il = static_cast<CUtensorMapInterleave>(C.Interleave);
  auto Sw = static_cast<CUtensorMapSwizzle>(C.Swizzle);
  auto L2 = static_cast<CUtensorMapL2promotion>(C.L2);
  auto Oob = static_cast<CUtensorMapFloatOOBfill>(C.Oob);
  switch (C.K) {
  case Kind::Tiled:
    return cuTensorMapEncodeTiled(Map, DT, C.Rank, Mem, C.Dims.data(), Strides,
                                  C.Box.data(), C.ElemStrides.data(), Il, Sw,
                                  L2, Oob);
  case Kind::Im2col:
    return cuTensorMapEncodeIm2col(
        Map, DT, C.Rank, Mem, C.Dims.data(), Strides, C.Lower.data(),
        C.Upper.data(), C.Channels, C.Pixels, C.ElemStrides.data(), Il, Sw, L2,
        Oob);
  case Kind::Im2colWide:
    return cuTensorMapEncodeIm2colWide(
        Map, DT, C.Rank, Mem, C.Dims.data(), Strides, C.LowerW, C.UpperW,
        C.Channels, C.Pixels, C.ElemStrides.data(), Il,
        static_cast<CUtensorMapIm2ColWideMode>(C.Mode), Sw, L2, Oob);
  }
  return CUDA_ERROR_INVALID_VALUE;
}

} // namespace

int main() {
  if (cuInit(0) != CUDA_SUCCESS)
    return 1;
  CUdevice Dev;
  CUcontext Ctx;
  cuDeviceGet(&Dev, 0);
  cuCtxCreate(&Ctx, nullptr, 0, Dev);
  CUdeviceptr Mem;
  if (cuMemAlloc(&Mem, 1 << 26) != CUDA_SUCCESS)
    return 1;
  std::printf("kind\tdtype\trank\tdims\tstrides\tbox\testrides\tlower\tupper\t"
              "lowerw\tupperw\tchannels\tpixels\tmode\tinterleave\tswizzle\t"
              "l2\toob\tdriver\tmodel\n");
  for (const Case &C : generateCases()) {
    alignas(128) CUtensorMap Map;
    CUresult R = encode(C, &Map, reinterpret_cast<void *>(Mem));
    std::printf("%s\t%d\t%s\n", describe(C).c_str(), static_cast<int>(R),
                verdictText(modelVerdict(C)).c_str());
  }
  return 0;
}
