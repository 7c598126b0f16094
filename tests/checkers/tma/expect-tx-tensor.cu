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

// Inline-PTX helpers (fast.cu's later kernels): the expect-tx and the copies
// are in __device__ helpers, seen at each call with the caller's barrier.
__device__ size_t __cvta_generic_to_shared(const void *);

__device__ void expect_bytes(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;"
               :: "r"((uint32_t)__cvta_generic_to_shared(bar)), "r"(bytes));
}

__device__ void load_async(bf16 *dst, const void *map, uint64_t *bar, int x,
                           int y) {
  uint64_t map_ptr = reinterpret_cast<uint64_t>(map);
  uint32_t bar_ptr = (uint32_t)__cvta_generic_to_shared(bar);
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(map_ptr),
         "r"(bar_ptr), "r"(x), "r"(y)
      : "memory");
}

// elementStrides {1, 2}: the B tile has ceil(64 / 2) = 32 rows.
void encode_strided(CUtensorMap *map, bf16 *ptr) {
  uint64_t dims[2] = {4096, 4096};
  uint64_t strides[1] = {8192};
  uint32_t box[2] = {64, 64};
  uint32_t estrides[2] = {1, 2};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <int Bytes>
__global__ void helperProducer(const __grid_constant__ CUtensorMap mapA,
                               const __grid_constant__ CUtensorMap mapB) {
  __shared__ alignas(128) bf16 sA[64 * 128];
  __shared__ alignas(128) bf16 sB[64 * 64];
  __shared__ uint64_t full[2];
  if (threadIdx.x == 0) {
    for (int k = 0; k < 8; ++k) {
      expect_bytes(&full[k % 2], Bytes);
      load_async(sA, &mapA, &full[k % 2], k * 64, 0);
      load_async(sB, &mapB, &full[k % 2], k * 64, 0);
    }
  }
}
// CHECK-MESSAGES: :[[@LINE-6]]:7: warning: expect-tx of 24576 bytes on 'full[k % 2]' but the copies completing on it in this phase deliver 20480 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :[[@LINE-6]]:7: note: this copy delivers 16384 bytes to 'full[k % 2]'
// CHECK-MESSAGES: :25:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :186:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :[[@LINE-8]]:7: note: this copy delivers 4096 bytes to 'full[k % 2]'
// CHECK-MESSAGES: :137:35: note: the tensor map it reads is encoded here: box 64 x 64 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :186:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :151:7: note: expect 20480 bytes

// Multicast: each CTA of the mask receives the box; the model stays silent.
__global__ void multicast(const __grid_constant__ CUtensorMap map,
                          uint16_t mask) {
  __shared__ alignas(128) bf16 sA[64 * 128];
  __shared__ uint64_t full;
  expect_bytes(&full, 1000);
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;"
      :: "r"((uint32_t)__cvta_generic_to_shared(sA)), "l"(&map),
         "r"((uint32_t)__cvta_generic_to_shared(&full)), "r"(0), "r"(0),
         "h"(mask)
      : "memory");
}

void runHelpers(bf16 *A, bf16 *B) {
  CUtensorMap a = make_map<128, 64>(A, 8, 8), b;
  encode_strided(&b, B);
  // 16384 + 64 * 32 * 2 = 20480: the first launch is right, the second not.
  helperProducer<20480><<<1, 128>>>(a, b);
  helperProducer<24576><<<1, 128>>>(a, b);
  multicast<<<1, 128>>>(a, 0x3);
}

// A persistent, warp-specialised producer: tiles in an outer loop, stages
// in an inner one; the phase is the inner loop body.
template <int BM, int BK, int Stages>
__global__ void persistent(const __grid_constant__ CUtensorMap mapA,
                           const __grid_constant__ CUtensorMap mapB,
                           int tiles, int blocks_k) {
  __shared__ alignas(128) bf16 sA[Stages][BK * BM];
  __shared__ alignas(128) bf16 sB[Stages][BK * BM];
  __shared__ uint64_t full[Stages];
  int warp = threadIdx.x / 32;
  if (warp == 0 && threadIdx.x % 32 == 0) {
    int s = 0;
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      for (int k = 0; k < blocks_k; ++k) {
        expect_bytes(&full[s], 2 * BK * BM * sizeof(bf16));
        load_async(sA[s], &mapA, &full[s], k * BK, tile * BM);
        load_async(sB[s], &mapB, &full[s], k * BK, tile * BM);
        s = (s + 1) % Stages;
      }
    }
  }
}

void runPersistent(bf16 *A, bf16 *B) {
  // Both maps have a 64 x 128 box: 2 * 16384 bytes per stage, as expected.
  persistent<128, 64, 4><<<132, 384>>>(make_map<128, 64>(A, 8, 8),
                                        make_map<128, 64>(B, 8, 8), 64, 16);
}
