// A file that uses two of its header's wrappers: tma-clangd's preamble
// parses the bodies the file names (mbarInit, mbarWait and what they call)
// and drops the others (bulkLoad).
#include "tma_ptx.cuh"

__global__ void waitOnly() {
  __shared__ uint64_t Bar;
  if (threadIdx.x == 0)
    mbarInit(&Bar, 1);
  __syncthreads();
  mbarWait(&Bar, 0);
}
