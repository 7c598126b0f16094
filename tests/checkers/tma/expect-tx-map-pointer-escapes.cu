// MBAR-TX-EQUALS-BYTES for tensor copies whose kernels receive a plain
// `CUtensorMap *` of the host, and what may change that map between its
// encode and the launch: a copy of the pointer into a field of a struct
// (`h.map = d`, `Params{d}`) hands it on with the struct, as any copy does;
// a kernel that rewrites a map in global memory (tensormap.replace, inline
// PTX or cuda::ptx) writes the maps it receives through pointers; a call in
// a loop after the launch runs before the next iteration's launch, so it
// must provably not write the map (a const pointer parameter, a body that
// only reads, a runtime function that frees or queries): silent otherwise.
// A helper that builds the struct from the caller's pointer (`return
// Params{d}`, `out->tma_a = d`) leaves the caller's later writes through d
// out of sight: silent too.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
typedef unsigned short bf16;

template <int Rows, int Cols>
void encodeMap(CUtensorMap *map, bf16 *ptr, int rows, int cols) {
  uint64_t dims[2] = {(uint64_t)cols * Cols, (uint64_t)rows * Rows};
  uint64_t strides[1] = {sizeof(bf16) * Cols * cols};
  uint32_t box[2] = {Cols, Rows};
  uint32_t estrides[2] = {1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_128B,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

template <int Rows, int Cols>
CUtensorMap *deviceMap(bf16 *ptr, int rows, int cols) {
  CUtensorMap host;
  encodeMap<Rows, Cols>(&host, ptr, rows, cols);
  CUtensorMap *dev;
  cudaMalloc(&dev, sizeof(CUtensorMap));
  cudaMemcpy(dev, &host, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  return dev;
}

// Each count is right for a 64 x 64 box (8192 bytes) and wrong for the
// 64 x 128 one (16384 bytes) that every case below encodes: reported where
// the link is proven (each kernel once, in its first failing context),
// silent where something may have changed the map.
__global__ void reads64(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}
__global__ void readsAfterStore(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}
__global__ void readsInLoop(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}
__global__ void readsAfterReader(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}

struct Holder {
  CUtensorMap *map;
  int n;
};
struct PtrParams {
  const CUtensorMap *tma_a;
  int n;
};
__global__ void readsParams(const __grid_constant__ PtrParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, p.tma_a, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}
__global__ void readsParamsOk(const __grid_constant__ PtrParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, p.tma_a, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}

void refillHolder(Holder *h);          // unknown: may write through h->map
void usePtrParams(PtrParams p);        // unknown: may write through p.tma_a
void logMap(const CUtensorMap *map);   // reads it (const parameter)
int g_seen;
void note(CUtensorMap *map) { g_seen += map != nullptr; } // only tests it

// Kernels that rewrite a map in global memory, in inline PTX and through
// cuda::ptx, and one that only reads.
__global__ void replacesPtx(CUtensorMap *map, uint64_t addr) {
  asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 "
               "[%0], %1;" ::"l"(map), "l"(addr)
               : "memory");
}
__device__ void replaceHelper(CUtensorMap *map, uint32_t dim) {
  asm volatile("tensormap.replace.tile.box_dim.b1024.b32 [%0], 1, %1;" ::"l"(
                   map),
               "r"(dim)
               : "memory");
}
__global__ void replacesInHelper(CUtensorMap *map) { replaceHelper(map, 64); }
__global__ void onlyReads(const CUtensorMap *map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}
// A kernel that rewrites the map it then loads through: its own copies
// read the rewritten map, not the host's.
__global__ void replacesThenReads(CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 "
                 "[%0], 1, 64;" ::"l"(map)
                 : "memory");
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}

// Silent: the pointer is stored into a struct whose address an unknown
// call receives (it may write the map through h.map).
void storedInStruct(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  Holder h;
  h.map = d;
  h.n = 1;
  refillHolder(&h);
  reads64<<<1, 128>>>(d);
}

// Silent: the same through an aggregate initialiser.
void storedInStructInit(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  Holder h{d, 1};
  refillHolder(&h);
  reads64<<<1, 128>>>(d);
}

// Silent: the struct's pointer field is filled with another map after the
// aggregate initialiser stored it, before the launch.
void refilledAfterInit(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  PtrParams p{d, 1};
  cudaMemcpy(d, &small, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  readsParams<<<1, 128>>>(p);
}

// Silent: a copy of the struct (holding the pointer) reaches an unknown
// call.
void structCopyToUnknownCall(bf16 *a, int m, int k) {
  PtrParams p{deviceMap<128, 64>(a, m / 128, k / 64), 1};
  usePtrParams(p);
  readsParams<<<1, 128>>>(p);
}

// Silent: a helper builds the struct from the caller's pointer (returned,
// or through an out-parameter), and the caller refills the map before the
// launch.
PtrParams makeParams(const CUtensorMap *d) { return PtrParams{d, 1}; }
void fillParams(PtrParams *out, const CUtensorMap *d) {
  out->tma_a = d;
  out->n = 1;
}
void builtByHelperThenRefilled(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  PtrParams p = makeParams(d);
  cudaMemcpy(d, &small, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  readsParams<<<1, 128>>>(p);
}
void filledByHelperThenRefilled(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  PtrParams p;
  fillParams(&p, d);
  cudaMemcpy(d, &small, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  readsParams<<<1, 128>>>(p);
}

// Silent: a kernel that rewrites maps in global memory runs first.
void replacedByKernel(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  replacesPtx<<<1, 32>>>(d, 0);
  reads64<<<1, 128>>>(d);
}
void replacedInHelper(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  replacesInHelper<<<1, 32>>>(d);
  reads64<<<1, 128>>>(d);
}
void replacedByKernelInLoop(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  for (int i = 0; i < 4; ++i) {
    reads64<<<1, 128>>>(d);
    replacesPtx<<<1, 32>>>(d, 0);
  }
}
void replacedByItsReader(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  replacesThenReads<<<1, 128>>>(d);
}

// Silent: an unknown call after the launch in a loop runs before the next
// iteration's launch.
void refilledInLoop(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  Holder h{nullptr, 0};
  for (int i = 0; i < 4; ++i) {
    reads64<<<1, 128>>>(d);
    h.map = d;
    refillHolder(&h);
  }
}

// Reported: the struct store comes after the launch, in straight-line
// code.
void storedAfterLaunch(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  readsAfterStore<<<1, 128>>>(d);
  Holder h{d, 1};
  refillHolder(&h);
}

// Reported: what the loop does after the launch provably writes no map (a
// const parameter, a body that only reads, a free, a kernel that only
// reads).
void readOnlyInLoop(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  for (int i = 0; i < 4; ++i) {
    readsInLoop<<<1, 128>>>(d);
    logMap(d);
    note(d);
    onlyReads<<<1, 32>>>(d);
  }
  cudaFree(d);
}

// Reported: a kernel that only reads the map ran first.
void afterReader(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  onlyReads<<<1, 32>>>(d);
  readsAfterReader<<<1, 128>>>(d);
}

// Reported: the pointer-field link still follows the store that builds the
// struct, with the map filled before it.
void paramsStoredOnce(bf16 *a, int m, int k) {
  PtrParams p{deviceMap<128, 64>(a, m / 128, k / 64), 1};
  readsParamsOk<<<1, 128>>>(p);
}

// The control: reads64 with the 64 x 128 map is reported in this launch's
// context only (a wrong link above would name that case's launch).
void control(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  reads64<<<1, 128>>>(d);
}



// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :58:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :56:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :32:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :301:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :58:9: note: expect 16384 bytes
// CHECK-MESSAGES: :68:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :66:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :32:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :264:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :68:9: note: expect 16384 bytes
// CHECK-MESSAGES: :78:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :76:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :32:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :275:5: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :78:9: note: expect 16384 bytes
// CHECK-MESSAGES: :88:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :86:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :32:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :287:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :88:9: note: expect 16384 bytes
// CHECK-MESSAGES: :117:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :115:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :32:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :294:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :117:9: note: expect 16384 bytes
