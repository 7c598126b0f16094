// MBAR-TX-EQUALS-BYTES across a loop boundary, ThunderKittens' educational
// level_06/08 shape (issue 10): a prologue loads the first tiles on a
// barrier before the k loop, and the loop body first waits on that barrier
// (a try_wait that loops until the phase completes), then loads the next
// tiles on it. The wait ends the prologue's phase, so the prologue's ops
// and each iteration's ops are separate phases, each compared on its own.
// Without such a wait at the top of the body (none, after the ops, under a
// guard, a single try), with ops after the loop, or with a loop around
// both, the phases are unknown: silent.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

typedef unsigned short bf16;
__device__ size_t __cvta_generic_to_shared(const void *);

namespace tk {
template <class A, class B> constexpr bool same = false;
template <class A> constexpr bool same<A, A> = true;

struct semaphore {
  uint64_t value;
};

template <int Rows, int Cols> struct st {
  static constexpr int rows = Rows, cols = Cols;
  bf16 data[Rows * Cols];
};
template <class ST> constexpr uint32_t size_bytes = sizeof(bf16) * ST::rows * ST::cols;

template <class ST>
__host__ static inline void create_tensor_map(CUtensorMap *tma_map,
                                              const bf16 *src, int rows,
                                              int cols) {
  uint64_t gmem_shape[2] = {(uint64_t)cols, (uint64_t)rows};
  uint64_t gmem_stride[1] = {(uint64_t)cols * sizeof(bf16)};
  uint32_t smem_shape[2] = {0, 0};
  uint32_t smem_stride[2] = {1, 1};
  smem_shape[0] = ST::cols;
  smem_shape[1] = ST::rows;
  const uint32_t *smem_shape_ptr = &smem_shape[0];
  cuTensorMapEncodeTiled(tma_map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                         (void *)src, gmem_shape, gmem_stride, smem_shape_ptr,
                         smem_stride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// One map per tile type, in a recursive struct.
template <class... Ts> struct descriptor_dict {
  __host__ descriptor_dict() {}
  template <class T> __host__ descriptor_dict(T, int, int) {}
  __host__ __device__ descriptor_dict(const descriptor_dict &) {}
};
template <class T, class... Ts> struct descriptor_dict<T, Ts...> {
  CUtensorMap tma_desc;
  descriptor_dict<Ts...> other_descs;
  __host__ descriptor_dict() {}
  __host__ descriptor_dict(bf16 *data, int rows, int cols)
      : other_descs(data, rows, cols) {
    create_tensor_map<T>(&tma_desc, data, rows, cols);
  }
  __host__ __device__ descriptor_dict(const descriptor_dict &other)
      : tma_desc(other.tma_desc), other_descs(other.other_descs) {}
  template <class U> __device__ const CUtensorMap *get() const {
    if constexpr (same<T, U>)
      return &tma_desc;
    else
      return other_descs.template get<U>();
  }
};

template <class... Ts> struct gl {
  bf16 *raw_ptr;
  int rows, cols;
  descriptor_dict<Ts...> tma_descs;
  __host__ gl(bf16 *data, int r, int c) : raw_ptr(data), rows(r), cols(c) {
    tma_descs = descriptor_dict<Ts...>(raw_ptr, rows, cols);
  }
  __host__ __device__ gl(const gl &other)
      : raw_ptr(other.raw_ptr), rows(other.rows), cols(other.cols),
        tma_descs(other.tma_descs) {}
  template <class U> __device__ const CUtensorMap *get_tma() const {
    return tma_descs.template get<U>();
  }
};

__device__ static inline void init_semaphore(semaphore &bar, int count) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar_ptr),
               "r"(count));
}

__device__ static inline void expect_bytes(semaphore &bar, uint32_t bytes) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(
                   bar_ptr),
               "r"(bytes));
}

__device__ static inline int tile_coord(int idx, int extent) {
  return idx * extent;
}

template <int Axis, class ST, class GL>
__device__ static inline void load_async(ST &dst, const GL &src, int row,
                                         int col, semaphore &bar) {
  uint64_t tma_ptr = reinterpret_cast<uint64_t>(src.template get_tma<ST>());
  uint32_t mbar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(&bar));
  uint32_t dst_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(&dst));
  int c = tile_coord(col, ST::cols);
  int r = tile_coord(row, ST::rows);
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier:"
               ":complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst_ptr),
               "l"(tma_ptr), "r"(mbar_ptr), "r"(c), "r"(r)
               : "memory");
}
template <class ST, class GL>
__device__ static inline void load_async(ST &dst, const GL &src, int row,
                                         int col, semaphore &bar) {
  load_async<2, ST, GL>(dst, src, row, col, bar);
}
// Waits until the phase of parity `phase` completes: the try_wait loops.
__device__ static inline void wait(semaphore &bar, int phase) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\n"
               "bra.uni LAB_WAIT;\n"
               "DONE:\n"
               "}\n" ::"r"(bar_ptr),
               "r"(phase));
}

// One try: returns whether the phase completed, without waiting.
__device__ static inline bool try_wait(semaphore &bar, int phase) {
  void const *const ptr = &bar;
  uint32_t bar_ptr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  uint32_t done;
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n"
               "selp.b32 %0, 1, 0, P1;\n"
               "}\n"
               : "=r"(done)
               : "r"(bar_ptr), "r"(phase));
  return done;
}
} // namespace tk

using tile = tk::st<64, 64>;
using tile_gl = tk::gl<tile>;
struct globals {
  tile_gl A, B;
  int k_tiles;
};
static constexpr uint32_t AB = 2 * tk::size_bytes<tile>;

// The prologue's count forgets the B tile.
__global__ void prologueForgetsB(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0, toc = 1;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, tk::size_bytes<tile>);
    tk::load_async(As[tic], g.A, 0, 0, bar);
    tk::load_async(Bs[tic], g.B, 0, 0, bar);
  }
  __syncthreads();
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1, toc ^= 1) {
    tk::wait(bar, tic);
    __syncthreads();
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[toc], g.A, 0, k + 1, bar);
      tk::load_async(Bs[toc], g.B, k + 1, 0, bar);
    }
    __syncthreads();
  }
}

// The loop's count forgets the B tile.
__global__ void loopForgetsB(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0, toc = 1;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, AB);
    tk::load_async(As[tic], g.A, 0, 0, bar);
    tk::load_async(Bs[tic], g.B, 0, 0, bar);
  }
  __syncthreads();
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1, toc ^= 1) {
    tk::wait(bar, tic);
    __syncthreads();
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, tk::size_bytes<tile>);
      tk::load_async(As[toc], g.A, 0, k + 1, bar);
      tk::load_async(Bs[toc], g.B, k + 1, 0, bar);
    }
    __syncthreads();
  }
}

// Both counted right: silent.
__global__ void counted(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0, toc = 1;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, AB);
    tk::load_async(As[tic], g.A, 0, 0, bar);
    tk::load_async(Bs[tic], g.B, 0, 0, bar);
  }
  __syncthreads();
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1, toc ^= 1) {
    tk::wait(bar, tic);
    __syncthreads();
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[toc], g.A, 0, k + 1, bar);
      tk::load_async(Bs[toc], g.B, k + 1, 0, bar);
    }
    __syncthreads();
  }
}

// Silent from here on: each prologue's count looks short (8192 of 16384),
// but nothing shows that its phase ends where the loop starts.

// No wait in the loop: the loop's ops may join the prologue's phase.
__global__ void noWait(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, tk::size_bytes<tile>);
    tk::load_async(As[0], g.A, 0, 0, bar);
    tk::load_async(Bs[0], g.B, 0, 0, bar);
  }
  __syncthreads();
  for (int k = 0; k < g.k_tiles; ++k) {
    __syncthreads();
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[1], g.A, 0, k + 1, bar);
    }
  }
}

// The wait comes after the loop's ops.
__global__ void waitAfterOps(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, tk::size_bytes<tile>);
    tk::load_async(As[0], g.A, 0, 0, bar);
    tk::load_async(Bs[0], g.B, 0, 0, bar);
  }
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1) {
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[1], g.A, 0, k + 1, bar);
      tk::load_async(Bs[1], g.B, k + 1, 0, bar);
    }
    tk::wait(bar, tic);
  }
}

// The wait runs under a guard.
__global__ void guardedWait(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, tk::size_bytes<tile>);
    tk::load_async(As[0], g.A, 0, 0, bar);
    tk::load_async(Bs[0], g.B, 0, 0, bar);
  }
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1) {
    if (threadIdx.x >= 32)
      tk::wait(bar, tic);
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[1], g.A, 0, k + 1, bar);
      tk::load_async(Bs[1], g.B, k + 1, 0, bar);
    }
  }
}

// One try does not wait for the phase.
__global__ void singleTry(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, tk::size_bytes<tile>);
    tk::load_async(As[0], g.A, 0, 0, bar);
    tk::load_async(Bs[0], g.B, 0, 0, bar);
  }
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1) {
    tk::try_wait(bar, tic);
    if (threadIdx.x == 0 && k + 1 < g.k_tiles) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[1], g.A, 0, k + 1, bar);
      tk::load_async(Bs[1], g.B, k + 1, 0, bar);
    }
  }
}

// A load after the loop may join the last iteration's phase.
__global__ void opsAfterLoop(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0) {
    tk::init_semaphore(bar, 1);
    tk::expect_bytes(bar, tk::size_bytes<tile>);
    tk::load_async(As[0], g.A, 0, 0, bar);
    tk::load_async(Bs[0], g.B, 0, 0, bar);
  }
  for (int k = 0; k < g.k_tiles; ++k, tic ^= 1) {
    tk::wait(bar, tic);
    if (threadIdx.x == 0) {
      tk::expect_bytes(bar, AB);
      tk::load_async(As[1], g.A, 0, k + 1, bar);
      tk::load_async(Bs[1], g.B, k + 1, 0, bar);
    }
  }
  if (threadIdx.x == 0)
    tk::load_async(As[0], g.A, 0, 0, bar);
}

// A persistent loop around the prologue: the last k iteration's phase may
// still be pending when the next tile's prologue issues.
__global__ void persistent(const __grid_constant__ globals g) {
  __shared__ alignas(128) tile As[2], Bs[2];
  __shared__ tk::semaphore bar;
  int tic = 0;
  if (threadIdx.x == 0)
    tk::init_semaphore(bar, 1);
  for (int t = 0; t < 4; ++t) {
    if (threadIdx.x == 0) {
      tk::expect_bytes(bar, tk::size_bytes<tile>);
      tk::load_async(As[0], g.A, t, 0, bar);
      tk::load_async(Bs[0], g.B, 0, t, bar);
    }
    for (int k = 0; k < g.k_tiles; ++k, tic ^= 1) {
      tk::wait(bar, tic);
      if (threadIdx.x == 0) {
        tk::expect_bytes(bar, AB);
        tk::load_async(As[1], g.A, t, k + 1, bar);
        tk::load_async(Bs[1], g.B, k + 1, t, bar);
      }
    }
  }
}

void run(bf16 *a, bf16 *b, int n) {
  tile_gl ga{a, n, n};
  tile_gl gb{b, n, n};
  globals g{ga, gb, n / 64};
  prologueForgetsB<<<1, 128>>>(g);
  loopForgetsB<<<1, 128>>>(g);
  counted<<<1, 128>>>(g);
  noWait<<<1, 128>>>(g);
  waitAfterOps<<<1, 128>>>(g);
  guardedWait<<<1, 128>>>(g);
  singleTry<<<1, 128>>>(g);
  opsAfterLoop<<<1, 128>>>(g);
  persistent<<<1, 128>>>(g);
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :175:5: warning: expect-tx of 8192 bytes on 'bar' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :176:5: note: this copy delivers 8192 bytes to 'bar'
// CHECK-MESSAGES: :46:64: note: the tensor map it reads is encoded here: box 64 x 64 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :379:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :177:5: note: this copy delivers 8192 bytes to 'bar'
// CHECK-MESSAGES: :46:64: note: the tensor map it reads is encoded here: box 64 x 64 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :379:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :175:5: note: expect 16384 bytes
// CHECK-MESSAGES: :208:7: warning: expect-tx of 8192 bytes on 'bar' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :209:7: note: this copy delivers 8192 bytes to 'bar'
// CHECK-MESSAGES: :46:64: note: the tensor map it reads is encoded here: box 64 x 64 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :380:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :210:7: note: this copy delivers 8192 bytes to 'bar'
// CHECK-MESSAGES: :46:64: note: the tensor map it reads is encoded here: box 64 x 64 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :380:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :208:7: note: expect 16384 bytes
