// Kernels that use a barrier class and templates of a header.
#include "tma_barrier.cuh"
#include <cuda_runtime.h>

// 20 bytes through a template helper; an expect-tx of 32 for 48 bytes.
__global__ void viaClass(const float *In, float *Out) {
  __shared__ alignas(16) float A[8];
  __shared__ alignas(16) float B[8];
  __shared__ TxBarrier Bar;
  if (threadIdx.x == 0) {
    Bar.init(1);
    Bar.expect(32);
    loadBytes<20>(A, In, Bar);
    loadBytes<28>(B, In, Bar);
  }
  __syncthreads();
  Bar.wait(0);
  Out[threadIdx.x] = A[threadIdx.x % 5] + B[threadIdx.x % 7];
}

// 5 floats through a helper and the class: 20 bytes; the expect-tx counts
// 32 for the 64 delivered.
__global__ void viaArray(const float *In, float *Out) {
  __shared__ alignas(16) float A[16];
  __shared__ alignas(16) float B[16];
  __shared__ TxBarrier Bar;
  if (threadIdx.x == 0) {
    Bar.init(1);
    Bar.expect(32);
    loadFloats(A, In, 5, Bar);
    loadFloats(B, In, 11, Bar);
  }
  __syncthreads();
  Bar.wait(0);
  Out[threadIdx.x] = A[threadIdx.x % 5] + B[threadIdx.x % 11];
}

// The expect-tx's bytes summed by a range `for` in a header template: 32,
// as delivered.
__global__ void viaRange(const float *In, float *Out) {
  __shared__ alignas(16) float A[8];
  __shared__ TxBarrier Bar;
  if (threadIdx.x == 0) {
    Bar.init(1);
    Bar.expect(totalBytes(ByteCounts<2>{{16, 16}}));
    loadBytes<32>(A, In, Bar);
  }
  __syncthreads();
  Bar.wait(0);
  Out[threadIdx.x] = A[threadIdx.x % 8];
}

void launch(const float *In, float *Out) {
  viaClass<<<1, 32>>>(In, Out);
  viaArray<<<1, 32>>>(In, Out);
  rowsKernel<4><<<1, 32>>>(In, Out);
  viaRange<<<1, 32>>>(In, Out);
}
