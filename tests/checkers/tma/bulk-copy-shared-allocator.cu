// Buffers handed out by a ThunderKittens-style bump allocator over dynamic
// shared memory (`shared_allocator al((int *)&__shm[0]); auto &t =
// al.allocate<Tile, N>();`): each allocation starts at the allocator's
// pointer rounded up to the allocation's alignment (the `allocate<Align,
// T>` argument, else the class's default_alignment), so a field's offset
// from the record layout is known from that rounded address. Only offsets
// that break that alignment are reported (TMA-SMEM-ALIGN-128); an allocator
// that does not round says nothing.
// Each wrong kernel has a correct twin that is silent.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstddef>
#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

namespace ptx = cuda::ptx;
using bf16 = unsigned short;

namespace kittens {
struct alignas(1024) alignment_dummy { int dummy; };

// The shape of ThunderKittens' include/common/util.cuh allocator.
template <int default_alignment = 1024> struct shared_allocator {
  int *ptr;

private:
  template <typename A, size_t... dims> struct variadic_array;
  template <typename A, size_t first, size_t... rest>
  struct variadic_array<A, first, rest...> {
    using type = typename variadic_array<A, rest...>::type[first];
  };
  template <typename A> struct variadic_array<A> { using type = A; };
  template <typename A, size_t... dims>
  using variadic_array_t = typename variadic_array<A, dims...>::type;

  template <int alignment> __device__ void align_ptr() {
    if constexpr (alignment > 0) {
      uint64_t p = reinterpret_cast<uint64_t>(ptr);
      if (p % alignment != 0)
        ptr = (int *)(p + (alignment - (p % alignment)));
    }
  }

public:
  __device__ shared_allocator(int *_ptr) : ptr(_ptr) {}
  template <typename A, size_t... dims>
  __device__ variadic_array_t<A, dims...> &allocate() {
    align_ptr<default_alignment>();
    using at = variadic_array_t<A, dims...>;
    at *p = reinterpret_cast<at *>(ptr);
    ptr += sizeof(at) / sizeof(int);
    return *p;
  }
  template <int alignment, typename A, size_t... dims>
  __device__ variadic_array_t<A, dims...> &allocate() {
    align_ptr<alignment>();
    using at = variadic_array_t<A, dims...>;
    at *p = reinterpret_cast<at *>(ptr);
    ptr += sizeof(at) / sizeof(int);
    return *p;
  }
};
} // namespace kittens
using kittens::alignment_dummy;
using kittens::shared_allocator;

struct Tile {
  bf16 data[64 * 64];
};
// An input block with its barriers in front of the tile: the tile starts
// 32 bytes in.
struct BarriersFirst {
  uint64_t bars[4];
  Tile a;
};
struct TileFirst {
  Tile a;
  uint64_t bars[4];
};

__global__ void stagesOfTiles(const __grid_constant__ CUtensorMap map, int k) {
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  Tile(&As)[2] = al.allocate<Tile, 2>();
  uint64_t &bar = al.allocate<uint64_t>();
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global,
                            &As[k % 2], &map, coords, &bar);
}

__global__ void barriersFirst(const __grid_constant__ CUtensorMap map, int k) {
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  BarriersFirst &in = al.allocate<BarriersFirst>();
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &in.a,
                            &map, coords, &in.bars[0]);
}

// The correct twin: the tile first.
__global__ void tileFirst(const __grid_constant__ CUtensorMap map, int k) {
  extern __shared__ alignment_dummy __shm[];
  shared_allocator al((int *)&__shm[0]);
  TileFirst &in = al.allocate<TileFirst>();
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &in.a,
                            &map, coords, &in.bars[0]);
}

// The per-allocation alignment: 128 bytes, and the 32-byte offset still
// breaks it; rounded to 1024 it is the twin above.
__global__ void perAllocation(const __grid_constant__ CUtensorMap map, int k) {
  extern __shared__ alignment_dummy __shm[];
  shared_allocator<16> al((int *)&__shm[0]);
  BarriersFirst &in = al.allocate<128, BarriersFirst>();
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &in.a,
                            &map, coords, &in.bars[0]);
}

// Silent: an allocator that does not round (where the block lies depends
// on what was allocated before).
__global__ void noRounding(const __grid_constant__ CUtensorMap map, int k) {
  extern __shared__ alignment_dummy __shm[];
  shared_allocator<-1> al((int *)&__shm[0]);
  BarriersFirst &in = al.allocate<BarriersFirst>();
  int32_t coords[2] = {0, 64 * k};
  ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &in.a,
                            &map, coords, &in.bars[0]);
}

// Every diagnostic, in order (line numbers of the code above; each kernel's
// `extern __shared__ __shm[]` redeclares the first one, at line 85).
// CHECK-MESSAGES: :99:68: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 32-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
// CHECK-MESSAGES: :85:37: note: '__shm' is used through an address rounded to a multiple of 1024 bytes at run time; the address is 32 bytes past it
// CHECK-MESSAGES: :99:68: note: keep the offset into it a multiple of 128 bytes
// CHECK-MESSAGES: :120:68: warning: cuda::ptx::cp_async_bulk_tensor shared-memory address is guaranteed only 32-byte alignment, not the 128 bytes that a tensor copy's box needs (TMA-SMEM-ALIGN-128) [tma-bulk-copy]
// CHECK-MESSAGES: :85:37: note: '__shm' is used through an address rounded to a multiple of 128 bytes at run time; the address is 32 bytes past it
// CHECK-MESSAGES: :120:68: note: keep the offset into it a multiple of 128 bytes
