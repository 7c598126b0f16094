// MBAR-TX-EQUALS-BYTES stays silent on correct phases and wherever the
// first, narrow model is unsure (tensor copies, unknown sizes, the barrier
// passed to a helper, nested loops, exclusive branches, a moving index,
// possible aliases).
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

__device__ size_t __cvta_generic_to_shared(const void *);
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
namespace cuda {
__device__ void init(block_barrier *bar, ptrdiff_t expected);
}

// The CUDA programming guide's 1-D example.
__global__ void guideExample(int *data, size_t offset) {
  __shared__ alignas(16) int smem_data[1024];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  block_barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_global_to_shared(smem_data, data + offset,
                                        sizeof(smem_data), bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(smem_data));
  } else {
    token = bar.arrive();
  }
  bar.wait(static_cast<block_barrier::arrival_token &&>(token));
}

// A pipeline with barrier arrays; the stage advances after the phase.
constexpr int Stages = 4;
constexpr int Tile = 2048;
__global__ void pipeline(const char *a, const char *b, int k) {
  __shared__ alignas(16) char sa[Stages][Tile];
  __shared__ alignas(16) char sb[Stages][Tile];
  __shared__ alignas(16) char sc[Stages][16];
  __shared__ uint64_t full[Stages], empty[Stages];
  int stage = 0;
  for (int i = 0; i < k; ++i) {
    if (threadIdx.x == 0) {
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                           cuda::ptx::scope_cta,
                                           cuda::ptx::space_shared,
                                           &full[stage], 2 * Tile);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                               sa[stage], a + i * Tile, Tile, &full[stage]);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                               sb[stage], b + i * Tile, Tile, &full[stage]);
      // Another barrier of the same kernel, with its own copy: not the same
      // one.
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                           cuda::ptx::scope_cta,
                                           cuda::ptx::space_shared,
                                           &empty[stage], 16);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                               sc[stage], a, 16, &empty[stage]);
    }
    stage = (stage + 1) % Stages;
  }
}

// Inline PTX with the address in a local: equal counts.
__global__ void ptxEqual(const char *src) {
  __shared__ alignas(16) char buf[1024];
  __shared__ uint64_t bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(bar_ptr), "r"(1024));
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(buf))), "l"(src),
           "r"(512), "r"(bar_ptr)
        : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(static_cast<uint32_t>(__cvta_generic_to_shared(buf + 512))),
           "l"(src + 512), "r"(512), "r"(bar_ptr)
        : "memory");
  }
}

// A tensor copy completes on the barrier too: its bytes are unknown here.
__global__ void withTensorCopy(const __grid_constant__ CUtensorMap map,
                               const char *src) {
  __shared__ alignas(128) char tile[4096];
  __shared__ alignas(16) char extra[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar,
                                         4096 + 256);
    int32_t coords[2] = {0, 0};
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster,
                                    cuda::ptx::space_global, tile, &map,
                                    coords, &bar);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             extra, src, 256, &bar);
  }
}

// Sizes that do not fold (a kernel parameter, no launch in this TU).
__global__ void unknownSize(const char *src, uint32_t n) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 4096);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, n, &bar);
  }
}

// The barrier goes to a helper this model does not follow.
__device__ void loadRest(uint64_t *bar, char *dst, const char *src);
__global__ void passedToHelper(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 2048);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, 1024, &bar);
    loadRest(&bar, buf + 1024, src + 1024);
  }
}

// The copies run in a loop nested in the phase: counted once per iteration
// of its constant trip count, 4 x 1024 + 1024 (expect-tx-inner-loop.cu has
// the wrong count).
__global__ void nestedLoop(const char *src, int chunks) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 5120);
    for (int c = 0; c < 4; ++c)
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster,
                               cuda::ptx::space_global, buf + c * 1024,
                               src + c * 1024, 1024, &bar);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, 1024, &bar);
  }
}

// Exclusive branches: only one expect-tx runs.
__global__ void exclusiveBranches(const char *src, bool wide) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t bar;
  if (wide)
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 2048);
  else
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 1024);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, 1024, &bar);
}

// The index moves between the ops: not the same element.
__global__ void movingIndex(const char *src) {
  __shared__ alignas(16) char buf[2048];
  __shared__ uint64_t full[2];
  int s = 0;
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &full[s], 1024);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, 1024, &full[s]);
  ++s;
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf + 1024, src, 1024, &full[s]);
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, &full[s], 1024);
}

// Two pointers that may be the same barrier.
__global__ void mayAlias(const char *src, uint64_t *p, uint64_t *q) {
  __shared__ alignas(16) char buf[2048];
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                       cuda::ptx::scope_cta,
                                       cuda::ptx::space_shared, p, 2048);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, 1024, p);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf + 1024, src, 1024, q);
}

// A template: each instantiation's sizes match.
template <typename T, int N> __global__ void templated(const T *src) {
  __shared__ alignas(16) T buf[N];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                         cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar,
                                         N * sizeof(T));
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf, src, sizeof(buf), &bar);
  }
}
template __global__ void templated<float, 256>(const float *);
template __global__ void templated<double, 64>(const double *);

// Different guards: every lane copies a slice, one lane expects them all.
__global__ void perLaneCopies(const char *src) {
  __shared__ alignas(16) char buf[512];
  __shared__ uint64_t bar;
  if (threadIdx.x < 32) {
    if (threadIdx.x == 0)
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release,
                                           cuda::ptx::scope_cta,
                                           cuda::ptx::space_shared, &bar, 512);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                             buf + threadIdx.x * 16, src + threadIdx.x * 16, 16,
                             &bar);
  }
}
