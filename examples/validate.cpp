// The example of docs/runtime.md: a K/V-cache tensor map whose shape comes
// from the model's configuration at run time, so tma-tidy's static check
// cannot see it. <tma/validate.h> explains what the driver would only answer
// with CUDA_ERROR_INVALID_VALUE.
//
// Build (needs a GPU to run the encode part):
//   clang++ -std=c++17 -I include -I /usr/local/cuda/include
//       examples/validate.cpp -L /usr/local/cuda/lib64 -lcuda
// Build the part that needs no driver (CI runs it):
//   clang++ -std=c++17 -DTMA_EXAMPLE_CHECK_ONLY -I include
//       -I /usr/local/cuda/include examples/validate.cpp
#include <tma/validate.h>

#include <cstdint>
#include <cstdio>
#include <cuda.h>

namespace {

/// The operands of one head's K/V tile map: rows of head_dim fp16 values,
/// row_pitch bytes apart.
struct KvLayout {
  cuuint64_t Dims[2];
  cuuint64_t Strides[1];
  cuuint32_t Box[2];
  cuuint32_t ElemStrides[2] = {1, 1};
};

KvLayout kvLayout(std::uint64_t Tokens, std::uint64_t HeadDim,
                  std::uint64_t RowPitchBytes) {
  KvLayout L;
  L.Dims[0] = HeadDim;
  L.Dims[1] = Tokens;
  L.Strides[0] = RowPitchBytes;
  L.Box[0] = 64;
  L.Box[1] = 64;
  return L;
}

tma::violations check(CUtensorMap *Map, void *Base, const KvLayout &L) {
  return tma::check_tiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, Base, L.Dims, L.Strides, L.Box,
      L.ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/// Without a driver: the bad layout is explained, the fixed one is clean.
int checkOnly() {
  alignas(256) static char Cache[1 << 16];
  CUtensorMap Map;
  // head_dim 100, 4096 tokens, rows packed: 200 bytes apart.
  KvLayout Bad = kvLayout(4096, 100, 100 * sizeof(std::uint16_t));
  tma::violations Vs = check(&Map, Cache, Bad);
  std::printf("before:\n%s", tma::to_string(Vs).c_str());
  // The fix: pad each row to 104 elements (208 bytes).
  KvLayout Good = kvLayout(4096, 100, 104 * sizeof(std::uint16_t));
  tma::violations None = check(&Map, Cache, Good);
  std::printf("after: %zu violations\n", None.size());
  bool Explained = !Vs.empty() && Vs[0].rule == "TMAP-ENC-GSTRIDE-ALIGN";
  return Explained && None.empty() ? 0 : 1;
}

} // namespace

int main() {
  int Rc = checkOnly();
#ifndef TMA_EXAMPLE_CHECK_ONLY
  // With a GPU: the checked wrapper in place of cuTensorMapEncodeTiled.
  CUdevice Dev;
  CUcontext Ctx;
  CUdeviceptr Cache;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&Dev, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&Ctx, nullptr, 0, Dev) != CUDA_SUCCESS ||
      cuMemAlloc(&Cache, 4096 * 208) != CUDA_SUCCESS) {
    std::printf("no GPU: encode part skipped\n");
    return Rc;
  }
  CUtensorMap Map;
  KvLayout Bad = kvLayout(4096, 100, 100 * sizeof(std::uint16_t));
  tma::encode_result R = tma::encode_tiled(
      &Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, reinterpret_cast<void *>(Cache),
      Bad.Dims, Bad.Strides, Bad.Box, Bad.ElemStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (!R)
    std::printf("%s", R.text.c_str());
  try {
    KvLayout Good = kvLayout(4096, 100, 104 * sizeof(std::uint16_t));
    tma::encode_tiled(
        tma::throw_on_error, &Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
        reinterpret_cast<void *>(Cache), Good.Dims, Good.Strides, Good.Box,
        Good.ElemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    std::printf("encoded\n");
  } catch (const tma::encode_error &E) {
    std::printf("%s", E.what());
    Rc = 1;
  }
  cuMemFree(Cache);
  cuCtxDestroy(Ctx);
#endif
  return Rc;
}
