// Feasible contexts only (tma-rules.md §11.C): a call context under which a
// guard leaves before the phase's ops compares nothing there.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);

// A helper with its own barrier that loads a tile of at most 4 KiB and
// always expects the full 4 KiB.
__device__ void loadTile(const char *src, uint32_t bytes) {
  __shared__ alignas(16) char buf[4096];
  __shared__ uint64_t bar;
  if (bytes > 4096)
    return;
  uint32_t b = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(buf));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 :: "r"(b), "r"(4096));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: expect-tx of 4096 bytes on 'bar' but the copies completing on it in this phase deliver 1024 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        :: "r"(d), "l"(src), "r"(bytes), "r"(b) : "memory");
  }
}

__global__ void tiles(const char *src) {
  loadTile(src, 4096);  // proven equal
  loadTile(src, 8192);  // the helper returns first: silent
  loadTile(src, 1024);  // reported
}
