// Run-time stage indices (`buf[stage]`, `buf + (k % S) * stride`): the
// address is known modulo the gcd of the strides, which is enough for the
// alignment rules when the strides are at least as aligned as the rule
// asks (BULK-ADDR-ALIGN16). A stride less aligned than that proves
// nothing, unless the constant part is misaligned below the stride's own
// alignment.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda/ptx>

namespace ptx = cuda::ptx;

// A multi-stage ring of 4 KiB tiles, indexed by the k-loop's stage.
template <int Stages>
__global__ void stagedRing(const float *g, int k) {
  __shared__ alignas(128) float buf[Stages][1024];
  __shared__ uint64_t bar;
  int stage = k % Stages;
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &buf[stage][1],
                     g, 64, &bar);
  // CHECK-MESSAGES: :[[@LINE-2]]:61: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 4-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &buf[stage][0],
                     g, 64, &bar); // aligned for every stage: silent
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                     buf[0] + (k % Stages) * 1024 + 2, g, 64, &bar);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 8-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                     buf[0] + (k % Stages) * 1024, g, 64, &bar); // silent
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                     buf[0] + (stage << 10) + 4 * k, g, 64, &bar); // silent: any float
}
template __global__ void stagedRing<4>(const float *, int);

// Rows of 6 floats: a 24-byte stride is 8-byte aligned only, so rows[s]
// may or may not be 16-byte aligned (silent); one float in is 4 bytes past
// a multiple of 8 for every s (reported).
__global__ void oddRows(const float *g, int s) {
  __shared__ alignas(128) float rows[8][6];
  __shared__ uint64_t bar;
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &rows[s][0], g,
                     16, &bar); // silent
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, &rows[s][1], g,
                     16, &bar);
  // CHECK-MESSAGES: :[[@LINE-2]]:61: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 4-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
}

// A SharedStorage struct with a stage array of tiles and the barriers.
struct SharedStorage {
  struct Stage {
    alignas(128) unsigned short a[64 * 64];
    alignas(128) unsigned short b[64 * 64];
  } stages[3];
  uint64_t full[3];
};

__global__ void storage(const unsigned short *g, int k) {
  __shared__ SharedStorage st;
  int s = k % 3;
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, st.stages[s].b,
                     g, 8192, &st.full[s]); // silent
  ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global,
                     &st.stages[s].b[3], g, 64, &st.full[s]);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: cuda::ptx::cp_async_bulk shared-memory address is guaranteed only 2-byte alignment, not the 16 bytes that a bulk copy needs (BULK-ADDR-ALIGN16) [tma-bulk-copy]
}
