// Records what the CUDA driver says about a set of cuTensorMapEncodeTiled
// descriptors, next to what tma-tidy's rule model says about them. Needs a
// GPU. Output: one tab-separated line per descriptor (see header line).
//
//   g++ -std=c++17 -I include -I <cuda>/include bench/driver/encode_probe.cpp
//       -lcuda
#include "tma/rules/TiledRules.h"

#include <cuda.h>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Case {
  std::string Name;
  uint32_t DataType, Rank;
  std::vector<uint64_t> Dims, Strides;
  std::vector<uint32_t> Box, ElemStrides;
  uint32_t Interleave, Swizzle, L2, Oob;
};

std::string join(const std::vector<uint64_t> &V) {
  std::string S;
  for (size_t I = 0; I < V.size(); ++I)
    S += (I ? "," : "") + std::to_string(V[I]);
  return S;
}

std::vector<uint64_t> widen(const std::vector<uint32_t> &V) {
  return std::vector<uint64_t>(V.begin(), V.end());
}

tma::rules::KnownArray known(const std::vector<uint64_t> &V) {
  tma::rules::KnownArray A;
  for (uint64_t X : V)
    A.Elems.push_back(X);
  A.Provided = V.size();
  return A;
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
  cuMemAlloc(&Mem, 1 << 26);

  const uint32_t BF16 = 9, F32 = 7, U8 = 0, F16 = 6, U4A8 = 13,
                 U4A16 = 14, U6A16 = 15;
  std::vector<Case> Cases = {
      {"valid-bf16-64x64-sw128", BF16, 2, {4096, 4096}, {8192}, {64, 64}, {1, 1}, 0, 3, 0, 0},
      {"valid-u8-128x128-sw128", U8, 2, {4096, 4096}, {4096}, {128, 128}, {1, 1}, 0, 3, 0, 0},
      {"valid-rank3-batched", F16, 3, {128, 128, 8}, {256, 32768}, {64, 32, 1}, {1, 1, 1}, 0, 3, 0, 0},
      {"valid-interleave16-nc8hwc8", F16, 4, {8, 32, 32, 4}, {512, 16384, 524288}, {8, 8, 8, 1}, {1, 1, 1, 1}, 1, 0, 0, 0},
      {"valid-permuted-fastcu", BF16, 3, {64, 4096, 64}, {8192, 128}, {64, 128, 4}, {1, 1, 1}, 0, 3, 0, 0},
      {"stride-zero-broadcast", BF16, 2, {64, 64}, {0}, {64, 64}, {1, 1}, 0, 3, 0, 0},
      {"stride-overlapping-window", F32, 2, {64, 100}, {64}, {64, 32}, {1, 1}, 0, 0, 0, 0},
      {"stride-200", F16, 2, {100, 64}, {200}, {64, 64}, {1, 1}, 0, 0, 0, 0},
      {"stride-208", F16, 2, {100, 64}, {208}, {64, 64}, {1, 1}, 0, 0, 0, 0},
      {"stride-2pow40", U8, 2, {64, 2}, {1ULL << 40}, {64, 2}, {1, 1}, 0, 0, 0, 0},
      {"stride-2pow40-minus16", U8, 2, {64, 2}, {(1ULL << 40) - 16}, {64, 2}, {1, 1}, 0, 0, 0, 0},
      {"stride-elements-multiple16", F16, 2, {64, 64}, {64}, {64, 64}, {1, 1}, 0, 0, 0, 0},
      {"stride-innermost-included", F32, 2, {64, 64}, {4, 256}, {32, 32}, {1, 1}, 0, 0, 0, 0},
      {"box-256", U8, 2, {4096, 4096}, {4096}, {16, 256}, {1, 1}, 0, 0, 0, 0},
      {"box-257", U8, 2, {4096, 4096}, {4096}, {16, 257}, {1, 1}, 0, 0, 0, 0},
      {"box-0", U8, 2, {4096, 4096}, {4096}, {16, 0}, {1, 1}, 0, 0, 0, 0},
      {"box-inner-24B", F32, 2, {64, 64}, {256}, {6, 64}, {1, 1}, 0, 0, 0, 0},
      {"box-inner-32B", F32, 2, {64, 64}, {256}, {8, 64}, {1, 1}, 0, 0, 0, 0},
      {"swizzle-inner-256B", BF16, 2, {4096, 4096}, {8192}, {128, 64}, {1, 1}, 0, 3, 0, 0},
      {"swizzle32-inner-32B", BF16, 2, {4096, 4096}, {8192}, {16, 64}, {1, 1}, 0, 1, 0, 0},
      {"swizzle32-inner-48B", BF16, 2, {4096, 4096}, {8192}, {24, 64}, {1, 1}, 0, 1, 0, 0},
      {"swizzle64-inner-128B", BF16, 2, {4096, 4096}, {8192}, {64, 64}, {1, 1}, 0, 2, 0, 0},
      {"estride-8", F16, 2, {64, 64}, {128}, {64, 64}, {1, 8}, 0, 0, 0, 0},
      {"estride-9", F16, 2, {64, 64}, {128}, {64, 64}, {1, 9}, 0, 0, 0, 0},
      {"estride-0", F16, 2, {64, 64}, {128}, {64, 64}, {1, 0}, 0, 0, 0, 0},
      {"estride0-2-no-interleave", F16, 2, {64, 64}, {128}, {64, 64}, {2, 1}, 0, 0, 0, 0},
      {"rank-0", F16, 0, {64}, {}, {64}, {1}, 0, 0, 0, 0},
      {"rank-1", F16, 1, {64}, {}, {64}, {1}, 0, 0, 0, 0},
      {"rank-1-strides-array", F16, 1, {64}, {128}, {64}, {1}, 0, 0, 0, 0},
      {"rank-5", U8, 5, {16, 2, 2, 2, 2}, {16, 32, 64, 128}, {16, 2, 2, 2, 2}, {1, 1, 1, 1, 1}, 0, 0, 0, 0},
      {"rank-6", U8, 6, {16, 2, 2, 2, 2, 2}, {16, 32, 64, 128, 256}, {16, 2, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1}, 0, 0, 0, 0},
      {"gdim-0", F16, 2, {64, 0}, {128}, {64, 1}, {1, 1}, 0, 0, 0, 0},
      {"gdim-2pow32", U8, 2, {1ULL << 32, 1}, {1ULL << 32}, {16, 1}, {1, 1}, 0, 0, 0, 0},
      {"gdim-2pow32-plus1", U8, 2, {(1ULL << 32) + 1, 1}, {(1ULL << 32) + 16}, {16, 1}, {1, 1}, 0, 0, 0, 0},
      {"interleave32-sw128", F16, 3, {16, 32, 32}, {512, 16384}, {16, 8, 8}, {1, 1, 1}, 2, 3, 0, 0},
      {"interleave32-none", F16, 3, {16, 32, 32}, {512, 16384}, {16, 8, 8}, {1, 1, 1}, 2, 0, 0, 0},
      {"interleave32-sw64", F16, 3, {16, 32, 32}, {512, 16384}, {16, 8, 8}, {1, 1, 1}, 2, 2, 0, 0},
      {"interleave32-sw32", F16, 3, {16, 32, 32}, {512, 16384}, {16, 8, 8}, {1, 1, 1}, 2, 1, 0, 0},
      {"interleave16-rank2", F16, 2, {8, 64}, {128}, {8, 8}, {1, 1}, 1, 0, 0, 0},
      {"oob-nan-u8", U8, 2, {64, 64}, {64}, {16, 16}, {1, 1}, 0, 0, 0, 1},
      {"oob-nan-f32", F32, 2, {64, 64}, {256}, {16, 16}, {1, 1}, 0, 0, 0, 1},
      {"swizzle-enum-128", F16, 2, {64, 64}, {128}, {64, 64}, {1, 1}, 0, 128, 0, 0},
      {"swizzle-enum-7", F16, 2, {64, 64}, {128}, {64, 64}, {1, 1}, 0, 7, 0, 0},
      {"l2-4", F16, 2, {64, 64}, {128}, {64, 64}, {1, 1}, 0, 0, 4, 0},
      {"oob-2", F32, 2, {64, 64}, {256}, {16, 16}, {1, 1}, 0, 0, 0, 2},
      {"dtype-16", 16, 2, {64, 64}, {64}, {16, 16}, {1, 1}, 0, 0, 0, 0},
      {"interleave-3", F16, 3, {16, 32, 32}, {512, 16384}, {16, 8, 8}, {1, 1, 1}, 3, 0, 0, 0},
      {"packed-u4a8-box32", U4A8, 2, {128, 64}, {64}, {32, 64}, {1, 1}, 0, 0, 0, 0},
      {"packed-u4a8-box33", U4A8, 2, {128, 64}, {64}, {33, 64}, {1, 1}, 0, 0, 0, 0},
      {"packed-u4a8-gdim-odd", U4A8, 2, {127, 64}, {64}, {32, 64}, {1, 1}, 0, 0, 0, 0},
      {"packed-u4a16-box128", U4A16, 2, {128, 64}, {128}, {128, 64}, {1, 1}, 0, 3, 0, 0},
      {"packed-u4a16-box64", U4A16, 2, {128, 64}, {128}, {64, 64}, {1, 1}, 0, 3, 0, 0},
      {"packed-u6a16-sw64", U6A16, 2, {128, 64}, {128}, {128, 64}, {1, 1}, 0, 2, 0, 0},
  };

  std::printf("name\tdtype\trank\tdims\tstrides\tbox\testrides\tinterleave\t"
              "swizzle\tl2\toob\tdriver\tmodel\n");
  for (const Case &C : Cases) {
    CUtensorMap Map;
    CUresult R = cuTensorMapEncodeTiled(
        &Map, CUtensorMapDataType(C.DataType), C.Rank, (void *)Mem,
        C.Dims.data(), C.Strides.empty() ? nullptr : C.Strides.data(),
        C.Box.data(), C.ElemStrides.data(), CUtensorMapInterleave(C.Interleave),
        CUtensorMapSwizzle(C.Swizzle), CUtensorMapL2promotion(C.L2),
        CUtensorMapFloatOOBfill(C.Oob));
    tma::rules::TiledDescriptor D;
    D.DataType = C.DataType;
    D.Rank = C.Rank;
    D.GlobalDim = known(C.Dims);
    D.GlobalStrides = known(C.Strides);
    D.BoxDim = known(widen(C.Box));
    D.ElementStrides = known(widen(C.ElemStrides));
    D.Interleave = C.Interleave;
    D.Swizzle = C.Swizzle;
    D.L2Promotion = C.L2;
    D.OobFill = C.Oob;
    std::string Model;
    for (const auto &V : tma::rules::checkTiled(D))
      Model += (Model.empty() ? "" : ",") + std::string(V.RuleId);
    std::printf("%s\t%u\t%u\t%s\t%s\t%s\t%s\t%u\t%u\t%u\t%u\t%d\t%s\n",
                C.Name.c_str(), C.DataType, C.Rank, join(C.Dims).c_str(),
                join(C.Strides).c_str(), join(widen(C.Box)).c_str(),
                join(widen(C.ElemStrides)).c_str(), C.Interleave, C.Swizzle,
                C.L2, C.Oob, int(R), Model.empty() ? "-" : Model.c_str());
  }
  return 0;
}
