// The kernel model and helpers deeper than it walks: index and layout
// algebra nested many calls deep (CuTe's tuples and layouts: templates that
// call lambdas that call templates) shows no event when the model proves
// so, however deep, instead of an opaque event that silences every rule
// across it. A lambda that captures nothing, or only values that hold no
// pointer (integers, records of integers, such lambdas), names no memory of
// the function around it. TMA-LOAD-WAIT-BEFORE-READ then sees a read with
// no wait past such algebra (wrong) and the twin's wait (correct); algebra
// whose lambda captures a pointer stays opaque (silent). The helpers are
// this test's own.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>

namespace cuda::ptx {
inline namespace __4 {
template <typename = void>
__device__ static inline bool
mbarrier_try_wait_parity(uint64_t *addr, const uint32_t &phaseParity);
} // namespace __4
} // namespace cuda::ptx

namespace ptx = cuda::ptx;

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

// A shape of integers, and algebra on it ten calls deep.
struct Shape {
  int m, n;
};
template <int N> struct Level {
  template <class F>
  __device__ static int apply(const Shape &s, int i, F &&f) {
    // A lambda that captures only integers and a record of integers.
    auto step = [&](int x) { return f(x) + s.m * 0 + N * 0; };
    return Level<N - 1>::apply(s, step(i), f);
  }
};
template <> struct Level<0> {
  template <class F>
  __device__ static int apply(const Shape &, int i, F &&f) {
    return f(i);
  }
};
__device__ int deepIndex(const Shape &s, int i) {
  return Level<10>::apply(s, i, [](int x) { return x % 256; });
}

// The same algebra, with a lambda that captures a pointer: it may write
// memory the model does not see.
template <int N> struct Touch {
  template <class F> __device__ static int apply(int i, F &&f) {
    return Touch<N - 1>::apply(f(i), f);
  }
};
template <> struct Touch<0> {
  template <class F> __device__ static int apply(int i, F &&f) {
    return f(i);
  }
};

// Wrong: the read of the tile comes before the wait, past the deep algebra.
__global__ void readPastAlgebra(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
  int i = deepIndex(Shape{16, 16}, threadIdx.x);
  out[threadIdx.x] = buf[i];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: generic load reads 'buf' while the bulk copy at line [[#@LINE-5]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the bulk copy into 'buf' completes on 'bar'
  waitParity(&bar, 0);
}

// Correct twin: the wait comes first.
__global__ void waitThenAlgebra(const float *src, float *out) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
  waitParity(&bar, 0);
  int i = deepIndex(Shape{16, 16}, threadIdx.x);
  out[threadIdx.x] = buf[i];
}

// A lambda that captures a pointer, ten calls deep: the model cannot tell
// what it does to memory (it might wait, for all the model proves).
// Silent.
__global__ void readPastPointerLambda(const float *src, float *out,
                                      int *flags) {
  __shared__ alignas(16) float buf[256];
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, sizeof(buf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src,
                       sizeof(buf), &bar);
  }
  int i = Touch<10>::apply(threadIdx.x, [flags](int x) {
    waitParity(reinterpret_cast<uint64_t *>(flags), 0);
    return x % 256;
  });
  out[threadIdx.x] = buf[i];
  waitParity(&bar, 0);
}
