// Correct kernels in the styles found in real code must stay silent: a
// 4-stage warp-specialised GEMM producer with fast.cu's inline-PTX helpers,
// a 1-D bulk-copy pipeline with cuda::ptx and cuda::device, and a TMA store
// epilogue.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
using bf16 = unsigned short;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__device__ static __forceinline__ void init_barrier(uint64_t *bar,
                                                    int thread_count,
                                                    int transaction_count) {
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n"
               :: "r"(bar_ptr), "r"(thread_count + transaction_count));
}

__device__ static __forceinline__ void expect_bytes(uint64_t *bar,
                                                    uint32_t bytes) {
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n"
               :: "r"(bar_ptr), "r"(bytes));
}

__device__ static __forceinline__ void arrive(uint64_t *bar, uint32_t count = 1) {
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0], %1;"
               :: "r"(bar_ptr), "r"(count) : "memory");
}

template <int Dim>
__device__ static inline void load_async(bf16 *dst, void const *src_tma_map,
                                         uint64_t *bar, int global_col_idx,
                                         int global_row_idx) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(src_tma_map);
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(dst));
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::"
      "complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
      :: "r"(dst_ptr), "l"(tma_ptr), "r"(mbar_ptr), "n"(0),
         "r"(global_row_idx), "r"(global_col_idx / Dim)
      : "memory");
}

// A 4-stage warp-specialised GEMM producer (fast.cu, kernel 12 style).
template <int BM, int BN, int BK, int QSIZE, int NUM_CONSUMERS>
__global__ void __launch_bounds__(128 * (NUM_CONSUMERS + 1))
    gemmProducer(int M, int N, int K, const __grid_constant__ CUtensorMap mapA,
                 const __grid_constant__ CUtensorMap mapB) {
  __shared__ alignas(128) bf16 sA[QSIZE * BK * BM];
  __shared__ alignas(128) bf16 sB[QSIZE * BK * BN];
  __shared__ uint64_t full[QSIZE], empty[QSIZE];
  if (threadIdx.x == 0) {
    for (int i = 0; i < QSIZE; ++i) {
      init_barrier(&full[i], 0, 1);
      init_barrier(&empty[i], 0, NUM_CONSUMERS);
    }
  }
  __syncthreads();
  const int num_blocks_k = K / BK;
  int wg_idx = threadIdx.x / 128;
  if (wg_idx == 0) {
    if (threadIdx.x == 0) {
      int q = 0;
      for (int block_k_iter = 0; block_k_iter < num_blocks_k;
           ++block_k_iter, ++q) {
        if (q == QSIZE)
          q = 0;
        expect_bytes(&full[q], (BK * BN + BK * BM) * sizeof(bf16));
        load_async<64>(&sA[q * BK * BM], &mapA, &full[q], block_k_iter * BK,
                       blockIdx.x * BM);
        load_async<64>(&sB[q * BK * BN], &mapB, &full[q], block_k_iter * BK,
                       blockIdx.y * BN);
      }
    }
  } else {
    for (int q = 0; q < QSIZE; ++q)
      if (threadIdx.x % 128 == 0)
        arrive(&empty[q]);
  }
}
template __global__ void gemmProducer<128, 256, 64, 4, 2>(int, int, int,
                                                          const CUtensorMap,
                                                          const CUtensorMap);

// A 1-D bulk-copy pipeline: stages of 4 KiB, the last one a 16-byte tail.
template <int Stages, int StageBytes>
__global__ void bulkPipeline(const float *g, float *out, int n) {
  __shared__ alignas(128) float buf[Stages][StageBytes / sizeof(float)];
  __shared__ uint64_t bars[Stages];
  __shared__ block_barrier cbar;
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s)
      cuda::ptx::mbarrier_init(&bars[s], 1);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster,
                               cuda::ptx::space_global, buf[s],
                               g + s * (StageBytes / sizeof(float)),
                               StageBytes, &bars[s]);
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                           cuda::ptx::scope_cta,
                                           cuda::ptx::space_shared, &bars[s],
                                           StageBytes);
    }
    constexpr uint32_t Tail = 16;
    cde::cp_async_bulk_global_to_shared(buf[0], g, Tail, cbar);
    cuda::device::barrier_arrive_tx(cbar, 1, Tail);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out, buf[0], Stages * 0 + StageBytes);
  }
}
template __global__ void bulkPipeline<4, 4096>(const float *, float *, int);

// A TMA store epilogue.
__global__ void storeEpilogue(const __grid_constant__ CUtensorMap mapC) {
  __shared__ alignas(128) float tile[64 * 32];
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&mapC, 0, 0, tile);
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
