// tma-tensor-map-placement in __device__ and __host__ __device__ helpers
// (not kernels), whose sites lie where the check finds them without
// walking every helper: TMA-MAP-STATE-SPACE for a local map in a nested
// block of a template instantiation, a static __shared__ map, a map held
// by a local class, a map in a lambda's body; TMAP-DEV-REPLACE-ENCODING
// for a tensormap.replace in a lambda. The helpers without a map or a
// tensormap.replace stay silent.
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

__host__ __device__ size_t __cvta_generic_to_shared(const void *);

__host__ __device__ void load(float *dst, const CUtensorMap *map, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(map),
                  "r"(0), "r"((uint32_t)__cvta_generic_to_shared(bar))
               : "memory");
}

// A local copy in a nested block of an instantiated __host__ __device__
// helper.
template <int N>
__host__ __device__ void nested(float *dst, const CUtensorMap *g,
                                uint64_t *bar) {
  for (int i = 0; i < N; ++i) {
    if (i == 0) {
      CUtensorMap copy = *g;
      // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: tensor map 'copy' is a local variable, in local memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
      // CHECK-MESSAGES: :[[@LINE+3]]:7: note: the address of 'copy' is passed on here and reaches a TMA operation
      // CHECK-MESSAGES: :[[@LINE-17]]:3: note: the TMA operation
      // CHECK-MESSAGES: :[[@LINE-4]]:19: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
      load(dst, &copy, bar);
    }
  }
}
template __host__ __device__ void nested<2>(float *, const CUtensorMap *,
                                            uint64_t *);

// A static __shared__ map of a helper.
__device__ void staticShared(float *dst, const CUtensorMap *g, uint64_t *bar) {
  __shared__ CUtensorMap staged;
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: tensor map 'staged' is in shared memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE+4]]:3: note: the address of 'staged' is passed on here and reaches a TMA operation
  // CHECK-MESSAGES: :[[@LINE-31]]:3: note: the TMA operation
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
  staged = *g;
  load(dst, &staged, bar);
}

// A local class that holds a map.
__device__ void localClass(float *dst, const CUtensorMap *g, uint64_t *bar) {
  struct Held {
    CUtensorMap map;
  };
  Held held{*g};
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 'held' holds a CUtensorMap and is a local variable, in local memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
  // CHECK-MESSAGES: :[[@LINE+3]]:3: note: the address of 'held' is passed on here and reaches a TMA operation
  // CHECK-MESSAGES: :[[@LINE-45]]:3: note: the TMA operation
  // CHECK-MESSAGES: :[[@LINE-4]]:8: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
  load(dst, &held.map, bar);
}

// A local map in a lambda's body: the lambda's call operator is a
// __host__ __device__ function of its own.
__device__ void inLambda(float *dst, const CUtensorMap *g, uint64_t *bar) {
  auto run = [&] {
    CUtensorMap copy = *g;
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: tensor map 'copy' is a local variable, in local memory, but TMA reads a tensor map only from a const __grid_constant__ kernel parameter, __constant__ or global memory (TMA-MAP-STATE-SPACE) [tma-tensor-map-placement]
    // CHECK-MESSAGES: :[[@LINE+3]]:5: note: the address of 'copy' is passed on here and reaches a TMA operation
    // CHECK-MESSAGES: :[[@LINE-57]]:3: note: the TMA operation
    // CHECK-MESSAGES: :[[@LINE-4]]:17: note: use the kernel parameter, the __constant__ or the global map itself, not a copy
    load(dst, &copy, bar);
  };
  run();
}

// tensormap.replace in a lambda.
__device__ void replaceInLambda(CUtensorMap *staged) {
  uint32_t s = static_cast<uint32_t>(__cvta_generic_to_shared(staged));
  auto set = [s] {
    asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024"
                 ".b32 [%0], 3;" :: "r"(s) : "memory");
                 // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: tensormap.replace .interleave_layout is given 3, not a valid code (0 to 2) (TMAP-DEV-REPLACE-ENCODING) [tma-tensor-map-placement]
                 // CHECK-MESSAGES: :[[@LINE-3]]:5: note: pass one of the field's PTX codes (PTX ISA, tensormap.replace)
  };
  set();
}

// Correct twins: helpers without a map copy or a tensormap.replace.
struct Coord {
  int x, y;
};
__host__ __device__ int sum(Coord c) { return c.x + c.y; }
__host__ __device__ int twice(int v) {
  Coord c{v, v};
  auto f = [c] { return sum(c); };
  return f();
}
__device__ void byPointer(float *dst, const CUtensorMap *g, uint64_t *bar) {
  const CUtensorMap *p = g;
  load(dst, p, bar);
}
