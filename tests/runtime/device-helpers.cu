// <tma/device.h> and <tma/validate.h> compile in both CUDA passes against the
// real toolkit, with and without NDEBUG, and with nvcc; tile_bytes is the
// checker's formula (tma/rules/CopyBytes.h) at compile time, and rejects a
// box the driver rejects.
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_real_device -I %S/../../include
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_real_host -I %S/../../include
// RUN: %check_clang_tidy %s bugprone-integer-division %t -- -- %cuda_real_device -I %S/../../include -DNDEBUG
// RUN: not %clang_tidy %s --checks=-*,bugprone-integer-division -- %cuda_real_device -I %S/../../include -DTMA_BAD_BOX 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90a -I %S/../../include -c %s -o %t.o %}

#include <tma/device.h>
#include <tma/validate.h>

static_assert(tma::tile_bytes<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 64, 64> == 8192,
              "");
static_assert(tma::tile_bytes<CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 32, 8, 2> ==
                  2048,
              "");
static_assert(tma::tile_bytes<CU_TENSOR_MAP_DATA_TYPE_UINT8, 16> == 16, "");
constexpr cuuint32_t Box[2] = {64, 65}, Strides[2] = {1, 2};
// ceil(65 / 2) = 33 rows of 64 fp16 values.
static_assert(tma::tile_bytes_strided(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, Box,
                                      Strides) == 64 * 2 * 33,
              "");
// A packed type has no confirmed count: 0.
constexpr cuuint32_t Packed[2] = {128, 8}, Ones[2] = {1, 1};
static_assert(tma::tile_bytes_strided(CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B,
                                      Packed, Ones) == 0,
              "");

#ifdef TMA_BAD_BOX
constexpr unsigned Bad = tma::tile_bytes<CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 300>;
// BAD: error: static assertion failed{{.*}}each box dimension is 1..256
#endif

__global__ void kernel(unsigned *Out) {
  __shared__ alignas(1024) char Buf[8192];
  constexpr unsigned Tx =
      tma::tile_bytes<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 64, 64>;
  tma::debug_check_tensor_smem(Buf, CU_TENSOR_MAP_SWIZZLE_128B);
  tma::debug_check_bulk_smem(Buf + 16);
  *Out = Tx;
}
