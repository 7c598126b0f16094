// tma-tensor-map-placement.CallDepth: how many levels of device functions
// the address of a kernel's map parameter is followed into (default 3).
// RUN: %check_clang_tidy -check-suffixes=,DEPTH1 %s tma-tensor-map-placement %t -- --load=%tma_plugin -config="{CheckOptions: {tma-tensor-map-placement.CallDepth: 1}}" -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,DEPTH4 %s tma-tensor-map-placement %t -- --load=%tma_plugin -config="{CheckOptions: {tma-tensor-map-placement.CallDepth: 4}}" -- %cuda_stub_host
// RUN: %check_clang_tidy -check-suffixes=,DEPTH0 %s tma-tensor-map-placement %t -- --load=%tma_plugin -config="{CheckOptions: {tma-tensor-map-placement.CallDepth: 0}}" -- %cuda_stub_device

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

__device__ void level1(const void *Map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(Map) : "memory");
}
__device__ void level2(const void *Map) { level1(Map); }
__device__ void level3(const void *Map) { level2(Map); }
__device__ void level4(const void *Map) { level3(Map); }

// In the kernel itself: every depth, 0 included.
__global__ void inKernel(CUtensorMap Map) {
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void inKernel(const __grid_constant__ CUtensorMap Map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&Map) : "memory");
}

// One level down: depth 1 and more.
__global__ void oneDown(CUtensorMap Map) {
  // CHECK-MESSAGES-DEPTH1: :[[@LINE-1]]:37: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-MESSAGES-DEPTH4: :[[@LINE-2]]:37: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES-DEPTH1: __global__ void oneDown(const __grid_constant__ CUtensorMap Map) {
  // CHECK-FIXES-DEPTH4: __global__ void oneDown(const __grid_constant__ CUtensorMap Map) {
  // CHECK-FIXES-DEPTH0: __global__ void oneDown(CUtensorMap Map) {
  level1(&Map);
}

// Two levels down: silent at depth 1.
__global__ void twoDown(CUtensorMap Map) {
  // CHECK-MESSAGES-DEPTH4: :[[@LINE-1]]:37: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES-DEPTH4: __global__ void twoDown(const __grid_constant__ CUtensorMap Map) {
  // CHECK-FIXES-DEPTH1: __global__ void twoDown(CUtensorMap Map) {
  level2(&Map);
}

// Four levels down: only depth 4.
__global__ void fourDown(CUtensorMap Map) {
  // CHECK-MESSAGES-DEPTH4: :[[@LINE-1]]:38: warning: CUtensorMap parameter 'Map' is passed by value without {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES-DEPTH4: __global__ void fourDown(const __grid_constant__ CUtensorMap Map) {
  // CHECK-FIXES-DEPTH1: __global__ void fourDown(CUtensorMap Map) {
  level4(&Map);
}
