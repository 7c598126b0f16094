// MBAR-TX-EQUALS-BYTES for tensor copies whose maps a kernel's Params
// struct holds through pointer fields (`const CUtensorMap *tma_a`), each
// pointing to a device copy of a host map (cudaMalloc + cudaMemcpy, fast.cu
// style): the bytes come from the box of the map that the pointer's device
// copy was filled from. Anything that may change what the pointer points to
// between the store and the launch keeps the link unproven: silent.
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

// fast.cu's allocate_and_create_tensor_map: a device copy of a host map.
template <int Rows, int Cols>
CUtensorMap *deviceMap(bf16 *ptr, int rows, int cols) {
  CUtensorMap host;
  encodeMap<Rows, Cols>(&host, ptr, rows, cols);
  CUtensorMap *dev;
  cudaMalloc(&dev, sizeof(CUtensorMap));
  cudaMemcpy(dev, &host, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  return dev;
}

struct PtrParams {
  const CUtensorMap *tma_a;
  const CUtensorMap *tma_b;
  int blocks_k;
};

// The count forgets the B tile.
__global__ void ptrForgetsB(const __grid_constant__ PtrParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, p.tma_a, 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, p.tma_b, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 128 * sizeof(bf16));
    (void)t;
  }
}

// Counted right: silent.
__global__ void ptrCounted(const __grid_constant__ PtrParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, p.tma_a, 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, p.tma_b, 0, 0, full);
    block_barrier::arrival_token t = cuda::device::barrier_arrive_tx(
        full, 1, (64 * 128 + 64 * 256) * sizeof(bf16));
    (void)t;
  }
}

void runPtr(bf16 *a, bf16 *b, int m, int n, int k) {
  PtrParams params;
  params.blocks_k = k / 64;
  params.tma_a = deviceMap<128, 64>(a, m / 128, k / 64);
  CUtensorMap *devB = deviceMap<256, 64>(b, n / 256, k / 64);
  params.tma_b = devB;
  ptrForgetsB<<<1, 128>>>(params);
  ptrCounted<<<1, 128>>>(params);
}

// A device helper that takes the struct by value (the pointers are the
// caller's), and a kernel reading the struct through a pointer to a device
// copy of it; the struct is built by aggregate initialisation.
__device__ void loadA(const PtrParams p, bf16 *dst, block_barrier &bar) {
  cde::cp_async_bulk_tensor_2d_global_to_shared(dst, p.tma_a, 0, 0, bar);
}

__global__ void viaPointerForgetsA(const PtrParams *p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    loadA(*p, sA, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, p->tma_b, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 256 * sizeof(bf16));
    (void)t;
  }
}

// Counted right: silent.
__global__ void viaPointerCounted(const PtrParams *p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    loadA(*p, sA, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, p->tma_b, 0, 0, full);
    block_barrier::arrival_token t = cuda::device::barrier_arrive_tx(
        full, 1, (64 * 128 + 64 * 256) * sizeof(bf16));
    (void)t;
  }
}

void runViaPointer(bf16 *a, bf16 *b, int m, int n, int k) {
  PtrParams host{deviceMap<128, 64>(a, m / 128, k / 64),
                 deviceMap<256, 64>(b, n / 256, k / 64), k / 64};
  PtrParams *dev;
  cudaMalloc(&dev, sizeof(PtrParams));
  cudaMemcpy(dev, &host, sizeof(PtrParams), cudaMemcpyHostToDevice);
  viaPointerForgetsA<<<1, 128>>>(dev);
  viaPointerCounted<<<1, 128>>>(dev);
}

// Silent: each count below is right for the map the kernel really reads
// (64 x 64 boxes, 8192 bytes per copy) and wrong for the one a careless
// link would find (64 x 128).
__global__ void reads64(const __grid_constant__ PtrParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, p.tma_a, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 64 * sizeof(bf16));
    (void)t;
  }
}

void fillOpaque(PtrParams *p);

void refilledAfterStore(bf16 *a, int m, int k) {
  CUtensorMap host, other;
  encodeMap<128, 64>(&host, a, m / 128, k / 64);
  encodeMap<64, 64>(&other, a, m / 64, k / 64);
  CUtensorMap *dev;
  cudaMalloc(&dev, sizeof(CUtensorMap));
  cudaMemcpy(dev, &host, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  PtrParams params;
  params.tma_a = dev;
  // The device copy is refilled after the pointer was stored.
  cudaMemcpy(dev, &other, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  reads64<<<1, 128>>>(params);
}

void writtenThroughACopy(bf16 *a, int m, int k) {
  CUtensorMap other;
  encodeMap<64, 64>(&other, a, m / 64, k / 64);
  PtrParams params;
  params.tma_a = deviceMap<128, 64>(a, m / 128, k / 64);
  // The pointer's value, held elsewhere and written through.
  CUtensorMap *alias = const_cast<CUtensorMap *>(params.tma_a);
  cudaMemcpy(alias, &other, sizeof(CUtensorMap), cudaMemcpyHostToDevice);
  reads64<<<1, 128>>>(params);
}

void filledByUnknownCall(bf16 *a, int m, int k) {
  PtrParams params;
  params.tma_a = deviceMap<128, 64>(a, m / 128, k / 64);
  fillOpaque(&params);
  reads64<<<1, 128>>>(params);
}

void twoWriters(bf16 *a, int m, int k, bool small) {
  PtrParams params;
  params.tma_a = deviceMap<128, 64>(a, m / 128, k / 64);
  if (small)
    params.tma_a = deviceMap<64, 64>(a, m / 64, k / 64);
  reads64<<<1, 128>>>(params);
}

// The control: the same kernel, launched with the 64 x 128 map the cases
// above must not find, is reported (in this launch's context only).
void control(bf16 *a, int m, int k) {
  PtrParams params;
  params.tma_a = deviceMap<128, 64>(a, m / 128, k / 64);
  reads64<<<1, 128>>>(params);
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :58:9: warning: expect-tx of 16384 bytes on 'full' but the copies completing on it in this phase deliver 49152 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :55:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :26:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :83:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :56:5: note: this copy delivers 32768 bytes to 'full'
// CHECK-MESSAGES: :26:35: note: the tensor map it reads is encoded here: box 64 x 256 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :83:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :58:9: note: expect 49152 bytes
// CHECK-MESSAGES: :102:9: warning: expect-tx of 32768 bytes on 'full' but the copies completing on it in this phase deliver 49152 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :99:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :26:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :127:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :100:5: note: this copy delivers 32768 bytes to 'full'
// CHECK-MESSAGES: :26:35: note: the tensor map it reads is encoded here: box 64 x 256 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :127:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :102:9: note: expect 49152 bytes
// CHECK-MESSAGES: :140:9: warning: expect-tx of 8192 bytes on 'full' but the copies completing on it in this phase deliver 16384 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :138:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :26:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :192:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :140:9: note: expect 16384 bytes
