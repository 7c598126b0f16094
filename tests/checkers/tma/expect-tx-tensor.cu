// MBAR-TX-EQUALS-BYTES for tensor copies: the bytes a tensor load delivers
// come from the box of the map the host encoded, found through the kernel
// launch (the host-to-device map link).
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
typedef unsigned short bf16;

// A helper that encodes through an out-parameter, box from its template
// arguments (the fast.cu style).
template <int Rows, int Cols>
void create_tensor_map(CUtensorMap *map, bf16 *ptr, int rows, int cols) {
  uint64_t dims[2] = {(uint64_t)cols * Cols, (uint64_t)rows * Rows};
  uint64_t strides[1] = {sizeof(bf16) * Cols * cols};
  uint32_t box[2] = {Cols, Rows};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <int Rows, int Cols>
CUtensorMap make_map(bf16 *ptr, int rows, int cols) {
  CUtensorMap map;
  create_tensor_map<Rows, Cols>(&map, ptr, rows, cols);
  return map;
}

// A producer loop: A and B tiles on one barrier per stage. The count
// forgets the A tile.
template <int BM, int BN, int BK, int QSIZE>
__global__ void gemmForgetsA(const __grid_constant__ CUtensorMap mapA,
                             const __grid_constant__ CUtensorMap mapB,
                             int blocks_k) {
  __shared__ alignas(128) bf16 sA[QSIZE * BK * BM];
  __shared__ alignas(128) bf16 sB[QSIZE * BK * BN];
  __shared__ block_barrier full[QSIZE];
  if (threadIdx.x == 0) {
    int q = 0;
    for (int k = 0; k < blocks_k; ++k, ++q) {
      if (q == QSIZE)
        q = 0;
      cde::cp_async_bulk_tensor_2d_global_to_shared(&sA[q * BK * BM], &mapA,
                                                    k * BK, 0, full[q]);
      cde::cp_async_bulk_tensor_2d_global_to_shared(&sB[q * BK * BN], &mapB,
                                                    k * BK, 0, full[q]);
      block_barrier::arrival_token t =
          cuda::device::barrier_arrive_tx(full[q], 1, BK * BN * sizeof(bf16));
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: expect-tx of 32768 bytes on 'full[q]' but the copies completing on it in this phase deliver 49152 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
      // CHECK-MESSAGES: :[[@LINE-7]]:7: note: this copy delivers 16384 bytes to 'full[q]'
      // CHECK-MESSAGES: :25:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
      // CHECK-MESSAGES: :[[LAUNCH:[0-9]+]]:3: note: and passed to the kernel by this launch
      // CHECK-MESSAGES: :[[@LINE-8]]:7: note: this copy delivers 32768 bytes to 'full[q]'
      // CHECK-MESSAGES: :25:35: note: the tensor map it reads is encoded here: box 64 x 256 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
      // CHECK-MESSAGES: :[[LAUNCH]]:3: note: and passed to the kernel by this launch
      // CHECK-MESSAGES: :[[@LINE-8]]:11: note: expect 49152 bytes
    }
  }
}

// The same loop, counted right: silent.
template <int BM, int BN, int BK, int QSIZE>
__global__ void gemmCounted(const __grid_constant__ CUtensorMap mapA,
                            const __grid_constant__ CUtensorMap mapB,
                            int blocks_k) {
  __shared__ alignas(128) bf16 sA[QSIZE * BK * BM];
  __shared__ alignas(128) bf16 sB[QSIZE * BK * BN];
  __shared__ block_barrier full[QSIZE];
  if (threadIdx.x == 0) {
    int q = 0;
    for (int k = 0; k < blocks_k; ++k, ++q) {
      if (q == QSIZE)
        q = 0;
      cde::cp_async_bulk_tensor_2d_global_to_shared(&sA[q * BK * BM], &mapA,
                                                    k * BK, 0, full[q]);
      cde::cp_async_bulk_tensor_2d_global_to_shared(&sB[q * BK * BN], &mapB,
                                                    k * BK, 0, full[q]);
      block_barrier::arrival_token t = cuda::device::barrier_arrive_tx(
          full[q], 1, (BK * BN + BK * BM) * sizeof(bf16));
    }
  }
}

CUtensorMap g_mapA, g_mapB;
int g_prev_m;

void runGemms(bf16 *A, bf16 *B, int M, int N, int K) {
  constexpr int BM = 128, BN = 256, BK = 64;
  // A cached global map, written under a condition (fast.cu's pattern).
  if (g_prev_m != M) {
    g_mapA = make_map<BM, BK>(A, M / BM, K / BK);
    g_mapB = make_map<BN, BK>(B, N / BN, K / BK);
    g_prev_m = M;
  }
  auto *kernel = gemmForgetsA<BM, BN, BK, 3>;
  kernel<<<1, 128>>>(g_mapA, g_mapB, K / BK);
  gemmCounted<BM, BN, BK, 3><<<1, 128>>>(g_mapA, g_mapB, K / BK);
}
