// MBAR-TX-EQUALS-BYTES for tensor copies whose maps are fields of a kernel
// Params struct (flashinfer style) and elements of an array of maps: the
// bytes come from the box of the map encoded into that field or element.
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-expect-tx %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;
typedef unsigned short bf16;

// An out-parameter helper, box from its template arguments.
template <int Rows, int Cols>
void make_map(CUtensorMap *map, bf16 *ptr, int rows, int cols) {
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

struct GemmParams {
  CUtensorMap tma_a;
  CUtensorMap tma_b;
  int blocks_k;
};

// The count forgets the B tile.
__global__ void gemmForgetsB(const __grid_constant__ GemmParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, &p.tma_a, 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, &p.tma_b, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 128 * sizeof(bf16));
    (void)t;
  }
}

// Counted right: silent.
__global__ void gemmCounted(const __grid_constant__ GemmParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, &p.tma_a, 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, &p.tma_b, 0, 0, full);
    block_barrier::arrival_token t = cuda::device::barrier_arrive_tx(
        full, 1, (64 * 128 + 64 * 256) * sizeof(bf16));
    (void)t;
  }
}

void runGemm(bf16 *a, bf16 *b, int m, int n, int k) {
  GemmParams params;
  params.blocks_k = k / 64;
  make_map<128, 64>(&params.tma_a, a, m / 128, k / 64);
  make_map<256, 64>(&params.tma_b, b, n / 256, k / 64);
  gemmForgetsB<<<1, 128>>>(params);
  gemmCounted<<<1, 128>>>(params);
}

// Maps in an array field, constant indices.
struct Operands {
  CUtensorMap maps[2];
};

__global__ void operandsKernel(const __grid_constant__ Operands ops) {
  __shared__ alignas(1024) bf16 s0[64 * 128];
  __shared__ alignas(1024) bf16 s1[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s0, &ops.maps[0], 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(s1, &ops.maps[1], 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 2 * 64 * 128 * sizeof(bf16));
    (void)t;
  }
}

void runOperands(bf16 *a, int m, int k) {
  Operands ops;
  make_map<128, 64>(&ops.maps[0], a, m / 128, k / 64);
  make_map<64, 64>(&ops.maps[1], a, m / 64, k / 64);
  operandsKernel<<<1, 128>>>(ops);
}

// Counted right for the same array, encoded with equal boxes: silent.
__global__ void operandsTwin(const __grid_constant__ Operands ops) {
  __shared__ alignas(1024) bf16 s0[64 * 128];
  __shared__ alignas(1024) bf16 s1[64 * 128];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(s0, &ops.maps[0], 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(s1, &ops.maps[1], 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 2 * 64 * 128 * sizeof(bf16));
    (void)t;
  }
}

void runOperandsTwin(bf16 *a, int m, int k) {
  Operands ops;
  make_map<128, 64>(&ops.maps[0], a, m / 128, k / 64);
  make_map<128, 64>(&ops.maps[1], a, m / 128, k / 64);
  operandsTwin<<<1, 128>>>(ops);
}

// Params deriving from a base that holds the maps, built by aggregate
// initialisation (flashinfer-like): the base's initialiser gives the field.
struct MapsBase {
  CUtensorMap tma_a;
  CUtensorMap tma_b;
};
struct DerivedParams : MapsBase {
  int blocks_k;
};

template <int Rows, int Cols>
CUtensorMap madeMap(bf16 *ptr, int rows, int cols) {
  CUtensorMap m;
  make_map<Rows, Cols>(&m, ptr, rows, cols);
  return m;
}

__global__ void derivedForgetsB(const __grid_constant__ DerivedParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, &p.tma_a, 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, &p.tma_b, 0, 0, full);
    block_barrier::arrival_token t =
        cuda::device::barrier_arrive_tx(full, 1, 64 * 128 * sizeof(bf16));
    (void)t;
  }
}

// Counted right: silent.
__global__ void derivedCounted(const __grid_constant__ DerivedParams p) {
  __shared__ alignas(1024) bf16 sA[64 * 128];
  __shared__ alignas(1024) bf16 sB[64 * 256];
  __shared__ block_barrier full;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(sA, &p.tma_a, 0, 0, full);
    cde::cp_async_bulk_tensor_2d_global_to_shared(sB, &p.tma_b, 0, 0, full);
    block_barrier::arrival_token t = cuda::device::barrier_arrive_tx(
        full, 1, (64 * 128 + 64 * 256) * sizeof(bf16));
    (void)t;
  }
}

void runDerived(bf16 *a, bf16 *b, int m, int n, int k) {
  DerivedParams p{{madeMap<128, 64>(a, m / 128, k / 64),
                   madeMap<256, 64>(b, n / 256, k / 64)},
                  k / 64};
  derivedForgetsB<<<1, 128>>>(p);
  derivedCounted<<<1, 128>>>(p);
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :45:9: warning: expect-tx of 16384 bytes on 'full' but the copies completing on it in this phase deliver 49152 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :42:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :24:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :69:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :43:5: note: this copy delivers 32768 bytes to 'full'
// CHECK-MESSAGES: :24:35: note: the tensor map it reads is encoded here: box 64 x 256 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :69:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :45:9: note: expect 49152 bytes
// CHECK-MESSAGES: :86:9: warning: expect-tx of 32768 bytes on 'full' but the copies completing on it in this phase deliver 24576 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :83:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :24:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :95:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :84:5: note: this copy delivers 8192 bytes to 'full'
// CHECK-MESSAGES: :24:35: note: the tensor map it reads is encoded here: box 64 x 64 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :95:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :86:9: note: expect 24576 bytes
// CHECK-MESSAGES: :144:9: warning: expect-tx of 16384 bytes on 'full' but the copies completing on it in this phase deliver 49152 bytes (MBAR-TX-EQUALS-BYTES) [tma-expect-tx]
// CHECK-MESSAGES: :141:5: note: this copy delivers 16384 bytes to 'full'
// CHECK-MESSAGES: :24:35: note: the tensor map it reads is encoded here: box 64 x 128 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :167:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :142:5: note: this copy delivers 32768 bytes to 'full'
// CHECK-MESSAGES: :24:35: note: the tensor map it reads is encoded here: box 64 x 256 of CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
// CHECK-MESSAGES: :167:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :144:9: note: expect 49152 bytes
