// MBAR-TX-EQUALS-BYTES for tensor copies whose kernels receive a plain
// `CUtensorMap *` variable of the host (fast.cu and h100_gemm style: a
// device copy of a host map). What the host does with the pointer between
// the copy and the launch decides which map the kernel reads: a store
// through it (`*d = other`) writes the map; a copy of the pointer
// (`e = d`) or an unknown call receiving it may write it later, out of the
// link's sight: silent from there on. Kernel launches read it (also
// through function pointers, cudaLaunchKernelEx and launch helpers, and
// into non-const parameters).
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

// A map in managed memory, written by the host in place.
template <int Rows, int Cols>
CUtensorMap *managedMap(bf16 *ptr, int rows, int cols) {
  CUtensorMap *m;
  cudaMallocManaged((void **)&m, sizeof(CUtensorMap));
  encodeMap<Rows, Cols>(m, ptr, rows, cols);
  return m;
}

// Each count is right for a 64 x 64 box (8192 bytes) and wrong for the
// 64 x 128 one (16384 bytes): reported where the launch binds 64 x 128,
// silent where it binds 64 x 64 or where the link is not proven. reads64
// serves the silent cases and the control at the end.
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

// The same through a non-const parameter (h100_gemm's
// gemm_bf16_pc_pipeline(CUtensorMap *tensorMapA, ...)).
__global__ void reads64Mut(CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}

// The same, for the reports of the launch and store-through cases (each
// kernel is reported once, in its first context that fails).
__global__ void readsLaunched(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}
__global__ void readsStored(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}

void refill(CUtensorMap *map);           // unknown: may write the map
void inspect(const CUtensorMap *map);    // reads it
CUtensorMap *g_saved;
void keep(CUtensorMap *map) { g_saved = map; }

template <class Kernel> void launch(Kernel *kernel, CUtensorMap *map) {
  kernel<<<1, 128>>>(map);
}

// Reported: the 64 x 128 map reaches both launches. The launch through a
// function pointer into a non-const parameter, cudaLaunchKernelEx, a
// launch helper, a const-pointer call and a test of the pointer all read
// the map.
void launchesRead(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  if (!d)
    return;
  auto *kernel = reads64Mut;
  kernel<<<1, 128>>>(d);
  cudaLaunchConfig_t config = {};
  cudaLaunchKernelEx(&config, reads64Mut, d);
  launch(reads64Mut, d);
  inspect(d);
  readsLaunched<<<1, 128>>>(d);
}

// Reported: the store through the pointer writes the 64 x 128 map.
void storedThrough(bf16 *a, int m, int k) {
  CUtensorMap big;
  encodeMap<128, 64>(&big, a, m / 128, k / 64);
  CUtensorMap *d = managedMap<64, 64>(a, m / 64, k / 64);
  *d = big;
  readsStored<<<1, 128>>>(d);
}

// Silent: the store writes the 64 x 64 map over the 64 x 128 one.
void storedThroughRight(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = managedMap<128, 64>(a, m / 128, k / 64);
  *d = small;
  readsStored<<<1, 128>>>(d);
}

// Silent: an unknown call receives the pointer.
void refilledByUnknownCall(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  refill(d);
  reads64<<<1, 128>>>(d);
}

// Silent: the pointer is copied, and the copy filled.
void filledThroughACopy(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  CUtensorMap *e = d;
  cudaMemcpy(e, &small, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  reads64<<<1, 128>>>(d);
}

// Silent: the copy is filled after a later fill of the pointer itself.
void copyFilledLast(bf16 *a, int m, int k) {
  CUtensorMap big, small;
  encodeMap<128, 64>(&big, a, m / 128, k / 64);
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d;
  cudaMalloc(&d, sizeof(CUtensorMap));
  CUtensorMap *e = d;
  cudaMemcpy(d, &big, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  cudaMemcpy(e, &small, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  reads64<<<1, 128>>>(d);
}

// Silent: a helper keeps the pointer, and the kept copy is filled.
void keptAndFilled(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  keep(d);
  cudaMemcpy(g_saved, &small, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  reads64<<<1, 128>>>(d);
}

// Silent: the map is written through the pointer's address.
void writtenThroughAddress(bf16 *a, int m, int k) {
  CUtensorMap small;
  encodeMap<64, 64>(&small, a, m / 64, k / 64);
  CUtensorMap *d = managedMap<128, 64>(a, m / 128, k / 64);
  d->opaque[0] = small.opaque[0];
  reads64<<<1, 128>>>(d);
}

// The control: reads64 launched with the 64 x 128 map that the cases
// above must not find is reported, in this launch's context only (a wrong
// link above would name that case's launch instead).
void control(bf16 *a, int m, int k) {
  CUtensorMap *d = deviceMap<128, 64>(a, m / 128, k / 64);
  reads64<<<1, 128>>>(d);
}

// Reported: freeing the maps at the end of each iteration (h100_gemm's
// profiling loop, a fresh pointer per iteration) writes no map.
__global__ void readsFreed(const CUtensorMap *map) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, map, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}
void freedEachIteration(bf16 *a, int m, int k) {
  for (int size = 1; size <= 4; ++size) {
    CUtensorMap *d = deviceMap<128, 64>(a, m * size / 128, k / 64);
    readsFreed<<<1, 128>>>(d);
    cudaFree(d);
  }
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :64:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :62:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :29:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :195:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :64:9: note: expect 16384 bytes
// CHECK-MESSAGES: :77:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :75:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :29:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :125:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :77:9: note: expect 16384 bytes
// CHECK-MESSAGES: :90:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :88:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :29:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :128:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :90:9: note: expect 16384 bytes
// CHECK-MESSAGES: :100:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :98:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :29:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :137:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :100:9: note: expect 16384 bytes
// CHECK-MESSAGES: :214:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :212:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :29:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :221:5: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :214:9: note: expect 16384 bytes
