// A barrier class and a templated copy helper, the way libraries wrap TMA.
#pragma once
#include "tma_ptx.cuh"

struct TxBarrier {
  uint64_t Word;
  __device__ void init(uint32_t Count) { mbarInit(&Word, Count); }
  __device__ void expect(uint32_t Bytes) { expectTx(&Word, Bytes); }
  __device__ void wait(uint32_t Phase) { mbarWait(&Word, Phase); }
};

template <uint32_t Bytes>
__device__ void loadBytes(void *Dst, const void *Src, TxBarrier &Bar) {
  bulkLoad(Dst, Src, Bytes, &Bar.Word);
}

// A copy through the class: its size is the caller's.
__device__ inline void loadFloats(float *Dst, const float *Src,
                                  uint32_t Count, TxBarrier &Bar) {
  bulkLoad(Dst, Src, Count * sizeof(float), &Bar.Word);
}

template <int Rows>
__global__ void rowsKernel(const float *In, float *Out) {
  __shared__ alignas(16) float Rows_[Rows * 4];
  __shared__ TxBarrier Bar;
  if (threadIdx.x == 0) {
    Bar.init(1);
    Bar.expect(Rows * 4 * sizeof(float));
    bulkLoad(Rows_, In, Rows * 3 * sizeof(float), &Bar.Word);
  }
  __syncthreads();
  Bar.wait(0);
  Out[threadIdx.x] = Rows_[threadIdx.x];
}

// A range `for` in a template: tma-clangd instantiates it for its walk
// after the parse has left the file's scope (it crashed there once).
template <int N> struct ByteCounts {
  uint32_t V[N];
  __device__ const uint32_t *begin() const { return V; }
  __device__ const uint32_t *end() const { return V + N; }
};

template <int N> __device__ uint32_t totalBytes(const ByteCounts<N> &C) {
  uint32_t T = 0;
  for (uint32_t B : C)
    T += B;
  return T;
}
