// CUTLASS's cluster barriers and CuTe's SM90_TMA copy atoms called from
// user code are device ops at the user's call. Their own bodies are inline
// asm, which the finder does not report again, whether CUTLASS is a user
// header (-I) or a system header (-isystem): every diagnostic below appears
// once. The host pass has no asm in these bodies and sees no op.
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -I %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=DEVICE %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device -isystem %S/../Inputs/cutlass
// RUN: %check_clang_tidy -check-suffixes=HOST %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host -I %S/../Inputs/cutlass
// One coverage warning per op, at the user's call only (the CuTe copies
// have no value operand to check).
// RUN: %check_clang_tidy -check-suffixes=DEVICE,COVERAGE %s tma-bulk-copy %t -- --load=%tma_plugin --config="{CheckOptions: {tma-bulk-copy.CoverageReport: true}}" -- %cuda_stub_device -I %S/../Inputs/cutlass

#include <cstdint>
#include <cuda.h>
#include <cute/arch/copy_sm90_tma.hpp>
#include <cutlass/arch/barrier.h>

using cutlass::arch::ClusterBarrier;
using cutlass::arch::ClusterTransactionBarrier;

__global__ void barriers() {
  __shared__ ClusterTransactionBarrier full[2];
  __shared__ uint64_t raw[2];
  full[0].init(0);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterBarrier::init: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:16: warning: cutlass::arch::ClusterBarrier::init count is 0 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  ClusterBarrier::init(&raw[0], 1u << 20);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterBarrier::init: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:33: warning: cutlass::arch::ClusterBarrier::init count is 1048576 arrivals, outside the valid range [1, 1048575] (MBAR-INIT-COUNT) [tma-bulk-copy]
  full[1].arrive_and_expect_tx(1u << 20);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:32: warning: cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx txCount is 1048576 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:32: note: if the count is in bits, the byte count is 131072 bytes
  ClusterTransactionBarrier *p = &full[1];
  p->arrive_and_expect_tx(2000000, 1);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:27: warning: cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx txCount is 2000000 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:27: note: if the count is in bits, the byte count is 250000 bytes
  ClusterTransactionBarrier::expect_transaction(&raw[1], 1u << 21);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterTransactionBarrier::expect_transaction: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-2]]:58: warning: cutlass::arch::ClusterTransactionBarrier::expect_transaction txCount is 2097152 bytes, above 2^20-1 = 1048575 bytes (MBAR-TX-RANGE) [tma-bulk-copy]
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:58: note: if the count is in bits, the byte count is 262144 bytes
}

// Correct uses stay silent (but for the coverage report).
__global__ void correct(const __grid_constant__ CUtensorMap map, int x,
                        int y) {
  __shared__ alignas(128) float s[64 * 64];
  __shared__ ClusterTransactionBarrier full[1];
  full[0].init(1);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterBarrier::init: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  full[0].arrive_and_expect_tx(sizeof(s));
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterTransactionBarrier::arrive_and_expect_tx: operand folded in 1 of 1 context(s) [tma-bulk-copy]
  uint64_t *mbar = reinterpret_cast<uint64_t *>(&full[0]);
  cute::SM90_TMA_LOAD_2D::copy(&map, mbar, 0, s, x, y);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cute::SM90_TMA_LOAD_2D::copy: no value operand [tma-bulk-copy]
  cute::SM90_TMA_LOAD_MULTICAST_3D::copy(&map, mbar, 0x3, 0, s, x, y, 0);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cute::SM90_TMA_LOAD_MULTICAST_3D::copy: no value operand [tma-bulk-copy]
  cute::SM90_TMA_STORE_5D::copy(&map, s, x, y, 0, 0, 0);
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cute::SM90_TMA_STORE_5D::copy: no value operand [tma-bulk-copy]
  full[0].expect_transaction(sizeof(s));
  // CHECK-NOTES-COVERAGE: :[[@LINE-1]]:3: warning: coverage: cutlass::arch::ClusterTransactionBarrier::expect_transaction: operand folded in 1 of 1 context(s) [tma-bulk-copy]
}
