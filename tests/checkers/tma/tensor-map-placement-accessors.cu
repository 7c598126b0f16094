// TMAP-PLACE-GRID-CONSTANT for a kernel parameter whose map reaches the TMA
// operation through accessor methods: a layout class that keeps its maps
// in a nested holder and hands out `const CUtensorMap *` from a member
// template (`layout.template map<T>()` -> `holder.template get<T>()` ->
// `&desc`), the address then kept in a 64-bit integer. Each wrong kernel
// has its twin with `const __grid_constant__` (silent), and an accessor that
// returns an address other than the map's stays silent.
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-tensor-map-placement %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

__host__ __device__ size_t __cvta_generic_to_shared(const void *);

struct TileA {};
struct TileB {};

// One map per tile type, chained as nested members.
template <typename... Ts> struct Holder;
template <> struct Holder<> {};
template <typename T, typename... Rest> struct Holder<T, Rest...> {
  CUtensorMap desc;
  Holder<Rest...> rest;
  template <typename U> __device__ const CUtensorMap *get() const {
    if constexpr (__is_same(T, U))
      return &desc;
    else
      return rest.template get<U>();
  }
};

template <typename... Ts> struct Layout {
  float *data;
  int rows;
  Holder<Ts...> maps;
  template <typename U> __device__ const CUtensorMap *map() const {
    return maps.template get<U>();
  }
  // Not the map: the data pointer.
  __device__ const float *base() const { return data; }
};

using LayoutAB = Layout<TileA, TileB>;

template <typename T, typename L>
__device__ void loadTile(float *dst, const L &src, uint64_t *bar, int x) {
  uint64_t map = reinterpret_cast<uint64_t>(src.template map<T>());
  asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2}], [%3];"
               :: "r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(map),
                  "r"(x), "r"((uint32_t)__cvta_generic_to_shared(bar))
               : "memory");
}

// Wrong: the layout is a local copy, the accessor's map address points
// into it.
__global__ void byValue(LayoutAB Layout, int N) {
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: parameter 'Layout' holds a CUtensorMap and is passed by value without 'const __grid_constant__': its address points to a local copy, which TMA cannot read (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void byValue(const __grid_constant__ LayoutAB Layout, int N) {
  __shared__ alignas(128) float Tile[64];
  __shared__ uint64_t Bar;
  loadTile<TileB>(Tile, Layout, &Bar, N);
}

// Correct twin.
__global__ void gridConstant(const __grid_constant__ LayoutAB Layout, int N) {
  __shared__ alignas(128) float Tile[64];
  __shared__ uint64_t Bar;
  loadTile<TileB>(Tile, Layout, &Bar, N);
}

// Wrong: the accessor called in the kernel itself.
__global__ void accessorInKernel(LayoutAB Layout) {
  // CHECK-MESSAGES: :[[@LINE-1]]:43: warning: parameter 'Layout' holds a CUtensorMap {{.*}} (TMAP-PLACE-GRID-CONSTANT) [tma-tensor-map-placement]
  // CHECK-FIXES: __global__ void accessorInKernel(const __grid_constant__ LayoutAB Layout) {
  const CUtensorMap *M = Layout.map<TileA>();
  asm volatile("prefetch.tensormap [%0];" ::"l"(M) : "memory");
}

// Correct twin.
__global__ void accessorInKernelConst(const __grid_constant__ LayoutAB Layout) {
  const CUtensorMap *M = Layout.map<TileA>();
  asm volatile("prefetch.tensormap [%0];" ::"l"(M) : "memory");
}

// Silent: the accessor returns the data pointer, not the map; what reaches
// the asm is not the map's address.
__global__ void otherAccessor(LayoutAB Layout) {
  const float *P = Layout.base();
  asm volatile("prefetch.tensormap [%0];" ::"l"(P) : "memory");
}
