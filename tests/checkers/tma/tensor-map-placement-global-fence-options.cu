// tma-tensor-map-placement.GlobalFence: false turns TMAP-PLACE-GLOBAL-FENCE
// off (for code that fences where the check cannot see it); the
// TMAP-PLACE-GRID-CONSTANT rule stays on.
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -config="{CheckOptions: {tma-tensor-map-placement.GlobalFence: false}}" -- %cuda_stub_device

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void kernel(CUtensorMap ByValue, const CUtensorMap *Global) {
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: CUtensorMap parameter 'ByValue' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void kernel(const __grid_constant__ CUtensorMap ByValue, const CUtensorMap *Global) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               ::"r"(0), "l"(&ByValue), "r"(0), "r"(0) : "memory");
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile."
               "mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               ::"r"(0), "l"(Global), "r"(0), "r"(0) : "memory");
}
