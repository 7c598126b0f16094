// The block shape of a launch that names its block through a local, `dim3
// block(warpSize, numWarps); kernel<<<grid, block>>>(...)` (the launch
// copies `block`), and a kernel called through a local pointer, `auto k =
// kernel<...>; k<<<grid, block>>>`: flashinfer's mamba producer/consumer
// kernels, whose warp is threadIdx.y. With the shape known, threadIdx.y is
// the warp; lane 0 of warp 0 initialises the barriers and lane 0 of the
// producer warp (4) loads on one: with no __syncthreads() in between,
// thread 128 uses a barrier it did not initialise. Each wrong kernel
// has its synced twin; a kernel launched with two shapes, or with a block
// local written after its declaration, has no known threadIdx.y: silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void initBar(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)),
               "r"(count));
}
__device__ __forceinline__ void waitBar(uint64_t *bar, uint32_t parity) {
  asm volatile("{\n .reg .pred p;\n W_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
               " @!p bra W_%=;\n}\n" ::"r"(smemAddr(bar)),
               "r"(parity)
               : "memory");
}
__device__ __forceinline__ void arriveBar(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smemAddr(bar))
               : "memory");
}
__device__ __forceinline__ void loadTile(void *dst, const CUtensorMap *map,
                                         uint64_t *bar, int x, int y) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(
                   smemAddr(dst)),
               "l"(map), "r"(smemAddr(bar)), "r"(x), "r"(y)
               : "memory");
}

constexpr int kConsumerWarps = 4;

// Warps 0..3 consume, warp 4 loads. The consumers' barrier counts their
// 128 threads.
template <int ConsumerWarps>
__global__ void consumersNoSync(const __grid_constant__ CUtensorMap map,
                                float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(8) uint64_t full, consumers;
  auto lane = threadIdx.x % 32;
  auto warp = threadIdx.y;
  if (lane == 0 && warp == 0) {
    initBar(&full, 1);
    initBar(&consumers, 32 * ConsumerWarps);
  }
  if (warp == ConsumerWarps) {
    if (lane == 0)
      loadTile(tile, &map, &full, 0, 0);
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: 'full' is used by thread 128, which runs no init of it, here after its mbarrier.init at line [[#@LINE-6]] with no __syncthreads() in between: other threads may use it before it is initialised (MBAR-INIT-VISIBLE) [tma-ordering]
    // CHECK-NOTES: :[[@LINE-7]]:5: note: initialised here, by the threads of this branch only
    // CHECK-NOTES: :24:3: note: issued here
    // CHECK-FIXES: {{^}}    initBar(&consumers, 32 * ConsumerWarps);{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
    // CHECK-FIXES-NEXT: {{^}}  if (warp == ConsumerWarps) {{[{]}}{{$}}
  } else {
    waitBar(&full, 0);
    float v = tile[lane];
    arriveBar(&consumers);
    waitBar(&consumers, 0);
    out[threadIdx.y * 32 + lane] = v;
  }
}

// The twin.
template <int ConsumerWarps>
__global__ void consumersSynced(const __grid_constant__ CUtensorMap map,
                                float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(8) uint64_t full, consumers;
  auto lane = threadIdx.x % 32;
  auto warp = threadIdx.y;
  if (lane == 0 && warp == 0) {
    initBar(&full, 1);
    initBar(&consumers, 32 * ConsumerWarps);
  }
  __syncthreads();
  if (warp == ConsumerWarps) {
    if (lane == 0)
      loadTile(tile, &map, &full, 0, 0);
  } else {
    waitBar(&full, 0);
    float v = tile[lane];
    arriveBar(&consumers);
    waitBar(&consumers, 0);
    out[threadIdx.y * 32 + lane] = v;
  }
}

// Launched with two shapes: threadIdx.y is not known.
__global__ void twoShapes(const __grid_constant__ CUtensorMap map, float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(8) uint64_t full, consumers;
  auto lane = threadIdx.x % 32;
  auto warp = threadIdx.y;
  if (lane == 0 && warp == 0) {
    initBar(&full, 1);
    initBar(&consumers, 32 * kConsumerWarps);
  }
  if (warp == kConsumerWarps) {
    if (lane == 0)
      loadTile(tile, &map, &full, 0, 0);
  } else {
    waitBar(&full, 0);
    float v = tile[lane];
    arriveBar(&consumers);
    waitBar(&consumers, 0);
    out[threadIdx.y * 32 + lane] = v;
  }
}

// Its block local is written after the declaration: not one shape.
__global__ void writtenBlock(const __grid_constant__ CUtensorMap map,
                             float *out) {
  __shared__ alignas(128) float tile[64 * 64];
  __shared__ alignas(8) uint64_t full, consumers;
  auto lane = threadIdx.x % 32;
  auto warp = threadIdx.y;
  if (lane == 0 && warp == 0) {
    initBar(&full, 1);
    initBar(&consumers, 32 * kConsumerWarps);
  }
  if (warp == kConsumerWarps) {
    if (lane == 0)
      loadTile(tile, &map, &full, 0, 0);
  } else {
    waitBar(&full, 0);
    float v = tile[lane];
    arriveBar(&consumers);
    waitBar(&consumers, 0);
    out[threadIdx.y * 32 + lane] = v;
  }
}

void launch(const CUtensorMap &map, float *out, cudaStream_t stream, int n) {
  constexpr auto numWarps = 1 + kConsumerWarps;
  dim3 grid(8, 4);
  dim3 block(32, numWarps);
  auto wrong = consumersNoSync<kConsumerWarps>;
  wrong<<<grid, block, 0, stream>>>(map, out);
  consumersSynced<kConsumerWarps><<<grid, block, 0, stream>>>(map, out);
  twoShapes<<<grid, block, 0, stream>>>(map, out);
  twoShapes<<<grid, dim3(32, 2 * numWarps), 0, stream>>>(map, out);
  dim3 varying(32, numWarps);
  varying.y = n;
  writtenBlock<<<grid, varying, 0, stream>>>(map, out);
}
