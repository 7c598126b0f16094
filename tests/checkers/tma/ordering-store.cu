// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE and BULK-S2G-WAIT-BEFORE-REUSE /
// TMA-STORE-WAIT over the kernel model: generic stores, then
// fence.proxy.async, then the copy; the copy's bulk group waited for before
// its source is overwritten and before the kernel exits. Each wrong kernel
// has a correct twin that must stay silent.
// The exit half of the wait rules is opt-in (WaitBeforeExit: the catalogue
// marks its outcome UNCONFIRMED).
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=,EXIT %s tma-ordering %t -- --load=%tma_plugin --config="{CheckOptions: {tma-ordering.WaitBeforeExit: true}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,EXIT %s tma-ordering %t -- --load=%tma_plugin --config="{CheckOptions: {tma-ordering.WaitBeforeExit: true}}" -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cde = cuda::device::experimental;
__device__ size_t __cvta_generic_to_shared(const void *);
// The bulk-group wrappers, which the stub headers lack.
namespace cuda::ptx {
inline namespace __4 {
template <int N> struct n32_t {};
template <typename = void>
__device__ static inline void cp_async_bulk_commit_group();
template <int N>
__device__ static inline void cp_async_bulk_wait_group_read(n32_t<N>);
} // namespace __4
} // namespace cuda::ptx
namespace cuda::device::experimental {
inline namespace __4 {
__device__ void cp_async_bulk_commit_group();
template <int N> __device__ void cp_async_bulk_wait_group_read();
} // namespace __4
} // namespace cuda::device::experimental

// --- BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE ---------------------------------

// cde: the guide's example without its fence.
__global__ void cdeNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    smem_c[i] = 1.0f;
  __syncthreads();
  // CHECK-FIXES: {{^}}  cde::fence_proxy_async_shared_cta();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, smem_c);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'smem_c' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:15: note: generic store to 'smem_c' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute cuda::device::experimental::fence_proxy_async_shared_cta() after its stores, before the thread barrier that hands the buffer to the issuing thread
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

__global__ void cdeFenced(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float smem_c[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
    smem_c[i] = 1.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, smem_c);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// cuda::ptx 1-D bulk store.
__global__ void ptxNoFence(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  // CHECK-FIXES: {{^}}  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out, buf, sizeof(buf));
                             // CHECK-NOTES: :[[@LINE-2]]:5: warning: bulk copy reads 'buf' written by generic stores at line [[#@LINE-7]] with no fence.proxy.async in between (BULK-S2G-FENCE-BEFORE) [tma-ordering]
                             // CHECK-NOTES: :[[@LINE-8]]:20: note: generic store to 'buf' here
                             // CHECK-NOTES: :[[@LINE-4]]:5: note: each writing thread must execute cuda::ptx::fence_proxy_async(cuda::ptx::space_shared) after its stores, before the thread barrier that hands the buffer to the issuing thread
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
  }
}

__global__ void ptxFenced(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = static_cast<float>(threadIdx.x);
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out, buf, sizeof(buf));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
  }
}

// Inline PTX, the store in a __device__ helper: the warning is at its call.
__device__ __forceinline__ void storeTile(const CUtensorMap *map,
                                          const void *smem, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
               " [%0, {%2, %3}], [%1];"
               :: "l"(map), "r"(static_cast<uint32_t>(
                      __cvta_generic_to_shared(smem))),
                  "r"(x), "r"(y)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;");
}
__device__ __forceinline__ void waitStores() {
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

__global__ void asmHelperNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 0.0f;
  __syncthreads();
  // CHECK-FIXES: {{^}}  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-6]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:21: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute asm volatile("fence.proxy.async.shared::cta;" ::: "memory") after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-NOTES: :[[@LINE-23]]:3: note: issued here
    waitStores();
  }
}

__global__ void asmHelperFenced(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 0.0f;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    storeTile(&map, tile, 0, 0);
    waitStores();
  }
}

// A thread writes and stores in one warp-role branch: no fence either.
__global__ void sameThreadNoFence(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  if (threadIdx.x == 0) {
    tile[0] = 1.0f;
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: TMA store reads 'tile' written by generic stores at line [[#@LINE-2]] with no fence.proxy.async in between (TMA-STORE-FENCE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-3]]:13: note: generic store to 'tile' here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: each writing thread must execute cuda::device::experimental::fence_proxy_async_shared_cta() after its stores, before the thread barrier that hands the buffer to the issuing thread
    // CHECK-FIXES: {{^}}    tile[0] = 1.0f;{{$}}
    // CHECK-FIXES-NEXT: {{^}}    cde::fence_proxy_async_shared_cta();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);{{$}}
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// Silent: the writes and the store are in different branches, or an
// unknown call lies between them.
__device__ void unknownHelper();
__global__ void notProven(const __grid_constant__ CUtensorMap map, int mode) {
  __shared__ alignas(128) float tile[64 * 64];
  if (mode) {
    tile[threadIdx.x] = 1.0f;
  } else {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
  tile[threadIdx.x] = 2.0f;
  unknownHelper();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}

// --- BULK-S2G-WAIT-BEFORE-REUSE / TMA-STORE-WAIT ------------------------------

// No wait before exit.
__global__ void noWaitAtExit(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[64 * 64];
  tile[threadIdx.x] = 0.0f;
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&map, 0, 0, tile);
    // CHECK-NOTES-EXIT: :[[@LINE-1]]:5: warning: TMA store reads 'tile' but the kernel can exit after it with no cp.async.bulk.wait_group.read: the copy may still be reading shared memory (TMA-STORE-WAIT) [tma-ordering]
    cde::cp_async_bulk_commit_group();
  }
}

// Persistent epilogue loop: the buffer is rewritten on the next tile while
// the store of this tile may still read it (no wait at all), and the last
// store is not waited for before exit.
__global__ void persistentNoWait(const __grid_constant__ CUtensorMap map,
                                 int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    tile[threadIdx.x] = static_cast<float>(t);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE+5]] may still read it: no cp.async.bulk.wait_group.read in between covers its group (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+4]]:7: note: the TMA store reads 'tile' here
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      // CHECK-NOTES-EXIT: :[[@LINE-1]]:7: warning: TMA store reads 'tile' but the kernel can exit after it with no cp.async.bulk.wait_group.read: the copy may still be reading shared memory (TMA-STORE-WAIT) [tma-ordering]
      cde::cp_async_bulk_commit_group();
    }
  }
}

// One group too shallow: wait_group.read 1 with one group committed since.
__global__ void persistentShallow(const __grid_constant__ CUtensorMap map,
                                  int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<1>();
    // CHECK-FIXES: {{^}}      cde::cp_async_bulk_wait_group_read<0>();{{$}}
    __syncthreads();
    tile[threadIdx.x] = static_cast<float>(t);
    // CHECK-NOTES: :[[@LINE-1]]:23: warning: generic store overwrites 'tile' while the TMA store at line [[#@LINE+6]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (TMA-STORE-WAIT) [tma-ordering]
    // CHECK-NOTES: :[[@LINE+5]]:7: note: the TMA store reads 'tile' here
    // CHECK-NOTES: :[[@LINE-6]]:7: note: wait_group.read 0 would complete the copy's group
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// The correct twin: wait_group.read 0 before the rewrite and at exit.
__global__ void persistentWaited(const __grid_constant__ CUtensorMap map,
                                 int tiles) {
  __shared__ alignas(128) float tile[64 * 64];
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<0>();
    __syncthreads();
    tile[threadIdx.x] = static_cast<float>(t);
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// Double-buffered epilogue with wait_group.read 1: each buffer is a part of
// one array, so the model does not claim the write hits the stored buffer.
__global__ void pingPong(const __grid_constant__ CUtensorMap map, int tiles) {
  __shared__ alignas(128) float tile[2][64 * 64];
  int buf = 0;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x, buf ^= 1) {
    if (threadIdx.x == 0)
      cde::cp_async_bulk_wait_group_read<1>();
    __syncthreads();
    tile[buf][threadIdx.x] = static_cast<float>(t);
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0) {
      cde::cp_async_bulk_tensor_2d_shared_to_global(&map, t, 0, tile[buf]);
      cde::cp_async_bulk_commit_group();
    }
  }
  if (threadIdx.x == 0)
    cde::cp_async_bulk_wait_group_read<0>();
}

// Inline PTX wait depth from an "n" operand.
template <int N> __device__ void waitRead() {
  asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory");
}
__global__ void asmDepth(float *out) {
  __shared__ alignas(16) float buf[256];
  buf[threadIdx.x] = 1.0f;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out, buf, sizeof(buf));
    asm volatile("cp.async.bulk.commit_group;");
    waitRead<1>();
  }
  __syncthreads();
  buf[threadIdx.x] = 2.0f;
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: generic store overwrites 'buf' while the bulk copy at line [[#@LINE-7]] may still read it: wait_group.read 1 at line [[#@LINE-4]] lets its group stay pending (1 group committed since the copy) (BULK-S2G-WAIT-BEFORE-REUSE) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-8]]:5: note: the bulk copy reads 'buf' here
  // CHECK-NOTES: :[[@LINE-6]]:5: note: wait_group.read 0 would complete the copy's group
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out + 256, buf, sizeof(buf));
    asm volatile("cp.async.bulk.commit_group;");
    waitRead<0>();
  }
}
