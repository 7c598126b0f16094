// Reads of class-typed tile elements through their members, the shape
// tilelang's generated consumers have: `(float)((half_t *)pool)[i]` on
// cutlass's `half_t`, whose `operator float()` passes `*this` to a static
// `convert`, which reads the bits through a const `to_half()`. A conversion
// operator or a const member returning a value of a small value class,
// whose body reads its object, reads the element it is called on
// (TMA-LOAD-WAIT-BEFORE-READ). Each wrong kernel has its waited twin; a
// const member that reads nothing of its object (`lanes()`) stays no read.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_real_host

#include <cstdint>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda/ptx>

namespace ptx = cuda::ptx;

struct alignas(2) Half16 {
  uint16_t storage;
  __device__ static float convert(Half16 const &x) {
    return __half2float(x.to_half());
  }
  __device__ __half to_half() const {
    return reinterpret_cast<__half const &>(storage);
  }
  __device__ operator float() const { return convert(*this); }
  __device__ Half16 operator*(Half16 const &o) const {
    Half16 r;
    r.storage = static_cast<uint16_t>(storage * o.storage);
    return r;
  }
  __device__ int lanes() const { return 1; }
};

__device__ void waitParity(uint64_t *bar, uint32_t parity) {
  while (!ptx::mbarrier_try_wait_parity(bar, parity)) {
  }
}

__device__ void load(unsigned char *pool, const Half16 *src, uint64_t &bar,
                     unsigned bytes) {
  if (threadIdx.x == 0) {
    ptx::mbarrier_init(&bar, 1);
    ptx::fence_proxy_async(ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &bar, bytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, pool, src,
                       bytes, &bar);
  }
}

// An explicit conversion of a pool element, as tilelang prints it.
__global__ void explicitConversion(const Half16 *src, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ uint64_t bar;
  load(pool, src, bar, 4096);
  __syncthreads();
  out[threadIdx.x] = (float)((Half16 *)pool)[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: generic load reads 'pool' while the bulk copy at line [[#@LINE-3]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  waitParity(&bar, 0);
}

__global__ void explicitConversionWaited(const Half16 *src, float *out) {
  extern __shared__ __align__(1024) unsigned char pool[];
  __shared__ uint64_t bar;
  load(pool, src, bar, 4096);
  waitParity(&bar, 0);
  out[threadIdx.x] = (float)((Half16 *)pool)[threadIdx.x];
}

// An implicit conversion in a sum, and a const operator*.
__global__ void implicitConversion(const Half16 *src, float *out) {
  __shared__ alignas(128) Half16 tile[2048];
  __shared__ uint64_t bar;
  load(reinterpret_cast<unsigned char *>(tile), src, bar, sizeof(tile));
  __syncthreads();
  float acc = 0.0f;
  acc = acc + tile[threadIdx.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: generic load reads 'tile' while the bulk copy at line [[#@LINE-4]] may still write it: no wait on 'bar' in between (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
  Half16 p = tile[threadIdx.x] * tile[threadIdx.x + 1];
  out[threadIdx.x] = acc + float(p);
  waitParity(&bar, 0);
}

__global__ void implicitConversionWaited(const Half16 *src, float *out) {
  __shared__ alignas(128) Half16 tile[2048];
  __shared__ uint64_t bar;
  load(reinterpret_cast<unsigned char *>(tile), src, bar, sizeof(tile));
  waitParity(&bar, 0);
  float acc = 0.0f;
  acc = acc + tile[threadIdx.x];
  Half16 p = tile[threadIdx.x] * tile[threadIdx.x + 1];
  out[threadIdx.x] = acc + float(p);
}

// A const member that reads nothing of its object: no read before the wait.
__global__ void memberReadsNothing(const Half16 *src, int *out) {
  __shared__ alignas(128) Half16 tile[2048];
  __shared__ uint64_t bar;
  load(reinterpret_cast<unsigned char *>(tile), src, bar, sizeof(tile));
  out[threadIdx.x] = tile[threadIdx.x].lanes();
  waitParity(&bar, 0);
  out[threadIdx.x] += (int)(float)tile[threadIdx.x];
}
