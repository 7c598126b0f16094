// A kernel that copies 20 bytes through a template helper of a header
// (loadBytes<20>: its instantiation waits for the checks' walk, which
// reaches it), and a header whose template's instantiation the walk never
// reaches (fields.cuh).
#include "fields.cuh"
#include "tma_barrier.cuh"

__global__ void viaTemplate(const float *In, float *Out) {
  __shared__ alignas(16) float A[8];
  __shared__ TxBarrier Bar;
  if (threadIdx.x == 0) {
    Bar.init(1);
    Bar.expect(20);
    loadBytes<20>(A, In, Bar);
  }
  __syncthreads();
  Bar.wait(0);
  Out[threadIdx.x] = A[threadIdx.x % 5];
}
