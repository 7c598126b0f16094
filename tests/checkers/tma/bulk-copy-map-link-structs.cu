// TMA-DIM-EQ-RANK through the host-to-device map link when the map is a part
// of a larger object: a field of a kernel Params struct (by value,
// __grid_constant__, in global memory, in __constant__ memory), an element
// of an array of maps, a field of a field (ThunderKittens-style globals), a
// map returned by a lambda, and a field written by an out-parameter helper.
// Every wrong kernel has a correct twin that stays silent.
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

void encode(CUtensorMap *map, float *ptr, uint32_t rank) {
  uint64_t dims[3] = {1024, 1024, 8};
  uint64_t strides[2] = {4096, 4096 * 1024};
  uint32_t box[3] = {32, 32, 1};
  uint32_t estrides[3] = {1, 1, 1};
  cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, rank, ptr, dims,
                         strides, box, estrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// flashinfer-style kernel parameters: the maps are fields of one struct
// passed by value.
struct Params {
  CUtensorMap tma_a;
  CUtensorMap tma_b;
  int k_tiles;
};

__global__ void paramsKernel(const __grid_constant__ Params p) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_b, 0, 0, bar);
}

void runParams(float *ptr) {
  Params params;
  params.k_tiles = 4;
  encode(&params.tma_a, ptr, 3); // wrong: the kernel reads it as 2d
  encode(&params.tma_b, ptr, 2);
  paramsKernel<<<1, 32>>>(params);
}

// The correct twin: both maps rank 2, one set through a helper that fills
// the whole struct through a pointer, one through a reference.
__global__ void paramsKernelTwin(const __grid_constant__ Params p) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_b, 0, 0, bar);
}

void fillA(Params *p, float *ptr) {
  if (!p)
    return;
  p->k_tiles = 1;
  encode(&p->tma_a, ptr, 2);
}
void fillB(Params &p, float *ptr) { encode(&p.tma_b, ptr, 2); }

void runParamsTwin(float *ptr) {
  Params params;
  fillA(&params, ptr);
  fillB(params, ptr);
  paramsKernelTwin<<<1, 32>>>(params);
}

// The same helpers, one of which encodes a rank-3 map into tma_b.
__global__ void paramsKernelFilled(const __grid_constant__ Params p) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_b, 0, 0, bar);
}

void fill3(Params &p, float *ptr) { encode(&p.tma_b, ptr, 3); }

void runParamsFilled(float *ptr) {
  Params params;
  fillA(&params, ptr);
  fill3(params, ptr);
  paramsKernelFilled<<<1, 32>>>(params);
}

// A device helper that takes the struct by reference.
__device__ void loadB(float *tile, const Params &p, block_barrier &bar) {
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_b, 0, 0, bar);
}

__global__ void paramsByHelper(const __grid_constant__ Params p) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  loadB(tile, p, bar);
}

// An aggregate initialiser, and a struct built by a function.
Params makeParams(float *ptr, uint32_t rankB) {
  CUtensorMap a, b;
  encode(&a, ptr, 2);
  encode(&b, ptr, rankB);
  return Params{a, b, 1};
}

void runByHelper(float *ptr) {
  paramsByHelper<<<1, 32>>>(makeParams(ptr, 3));
  Params right = makeParams(ptr, 2);
  paramsByHelper<<<1, 32>>>(right);
}

// Arrays of maps with constant indices, in a struct and as a host local.
struct MapSet {
  CUtensorMap maps[3];
};

__global__ void mapSetKernel(const __grid_constant__ MapSet s) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &s.maps[0], 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &s.maps[1], 0, 0, bar);
}

__global__ void oneMap(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 0, 0, bar);
}

void runArrays(float *ptr) {
  MapSet set;
  encode(&set.maps[0], ptr, 2);
  encode(&set.maps[1], ptr, 1);
  encode(&set.maps[2], ptr, 3); // not read as 2d
  mapSetKernel<<<1, 32>>>(set);
  CUtensorMap maps[2];
  encode(&maps[0], ptr, 2);
  encode(&maps[1], ptr, 3);
  oneMap<<<1, 32>>>(maps[0]);
  oneMap<<<1, 32>>>(maps[1]);
}

// A run-time index on the device: which map is unknown, silent.
__global__ void mapSetRuntimeIndex(const __grid_constant__ MapSet s, int i) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &s.maps[i], 0, 0, bar);
}

// A run-time index on the host may have written the map read: silent.
__global__ void mapSetHostIndex(const __grid_constant__ MapSet s) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &s.maps[0], 0, 0, bar);
}

void runIndices(float *ptr, int i) {
  MapSet set;
  encode(&set.maps[0], ptr, 3);
  mapSetRuntimeIndex<<<1, 32>>>(set, 0);
  MapSet other;
  encode(&other.maps[0], ptr, 3);
  encode(&other.maps[i], ptr, 2);
  mapSetHostIndex<<<1, 32>>>(other);
}

// ThunderKittens-style globals: layouts holding a map, in a globals struct.
struct layout {
  float *raw;
  CUtensorMap desc;
};
struct globals {
  layout a, b;
  int n;
};

__global__ void globalsKernel(const __grid_constant__ globals g) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &g.a.desc, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &g.b.desc, 0, 0, bar);
}

CUtensorMap mapOfRank(float *ptr, uint32_t rank) {
  CUtensorMap m;
  encode(&m, ptr, rank);
  return m;
}

void runGlobals(float *ptr) {
  layout a{ptr, mapOfRank(ptr, 2)};
  layout b{ptr, mapOfRank(ptr, 1)};
  globals g{a, b, 8};
  globalsKernel<<<1, 32>>>(g);
}

// Maps returned by a lambda.
__global__ void lambdaMap(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &map, 0, 0, bar);
}

void runLambda(float *ptr) {
  auto make = [&](uint32_t rank) {
    CUtensorMap m;
    encode(&m, ptr, rank);
    return m;
  };
  lambdaMap<<<1, 32>>>(make(2));
  CUtensorMap wrong = make(3);
  lambdaMap<<<1, 32>>>(wrong);
}

// Params in global memory (cudaMemcpy of a host struct), read through a
// pointer; and in __constant__ memory.
__global__ void paramsInGlobal(const Params *p) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p->tma_a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p->tma_b, 0, 0, bar);
}

void runInGlobal(float *ptr) {
  Params *dev;
  cudaMalloc((void **)&dev, sizeof(Params));
  Params host;
  encode(&host.tma_a, ptr, 2);
  encode(&host.tma_b, ptr, 1);
  cudaMemcpy(dev, &host, sizeof(host), cudaMemcpyHostToDevice);
  paramsInGlobal<<<1, 32>>>(dev);
}

__constant__ Params c_params;

__global__ void paramsInConstant(int unused) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &c_params.tma_a, 0, 0,
                                                bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &c_params.tma_b, 0, 0,
                                                bar);
}

void setConstant(float *ptr) {
  Params host;
  encode(&host.tma_a, ptr, 1);
  encode(&host.tma_b, ptr, 2);
  cudaMemcpyToSymbol(c_params, &host, sizeof(host));
}

// Unknown writers stay silent: a call with no body that receives the
// struct, and a field overwritten under a condition.
void opaqueFill(Params *p);

__global__ void paramsUnknown(const __grid_constant__ Params p) {
  __shared__ alignas(128) float tile[32 * 32];
  __shared__ block_barrier bar;
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_a, 0, 0, bar);
  cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &p.tma_b, 0, 0, bar);
}

void runUnknown(float *ptr, bool wide) {
  Params params;
  encode(&params.tma_a, ptr, 3);
  opaqueFill(&params);
  Params other;
  encode(&other.tma_a, ptr, 2);
  encode(&other.tma_b, ptr, 2);
  if (wide)
    encode(&other.tma_b, ptr, 3);
  paramsUnknown<<<1, 32>>>(params);
  paramsUnknown<<<1, 32>>>(other);
}

// Every diagnostic, in order (line numbers of the code above).
// CHECK-MESSAGES: :41:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :48:30: note: with 'rank' = 3 from this call
// CHECK-MESSAGES: :50:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :41:3: note: use .3d with 3 coordinates
// CHECK-MESSAGES: :82:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :85:59: note: with 'rank' = 3 from this call
// CHECK-MESSAGES: :91:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :82:3: note: use .3d with 3 coordinates
// CHECK-MESSAGES: :96:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :109:19: note: with 'rank' = 3 from this call
// CHECK-MESSAGES: :114:45: note: with 'rankB' = 3 from this call
// CHECK-MESSAGES: :114:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :96:3: note: use .3d with 3 coordinates
// CHECK-MESSAGES: :128:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 1 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :140:29: note: with 'rank' = 1 from this call
// CHECK-MESSAGES: :142:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :128:3: note: use .1d with 1 coordinate
// CHECK-MESSAGES: :134:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :145:25: note: with 'rank' = 3 from this call
// CHECK-MESSAGES: :147:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :134:3: note: use .3d with 3 coordinates
// CHECK-MESSAGES: :188:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 1 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :193:19: note: with 'rank' = 1 from this call
// CHECK-MESSAGES: :199:32: note: with 'rank' = 1 from this call
// CHECK-MESSAGES: :201:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :188:3: note: use .1d with 1 coordinate
// CHECK-MESSAGES: :208:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 3 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :214:21: note: with 'rank' = 3 from this call
// CHECK-MESSAGES: :218:28: note: with 'rank' = 3 from this call
// CHECK-MESSAGES: :219:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :208:3: note: use .3d with 3 coordinates
// CHECK-MESSAGES: :228:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 1 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :236:28: note: with 'rank' = 1 from this call
// CHECK-MESSAGES: :238:3: note: and passed to the kernel by this launch
// CHECK-MESSAGES: :228:3: note: use .1d with 1 coordinate
// CHECK-MESSAGES: :246:3: warning: cde::cp_async_bulk_tensor_2d_global_to_shared: the copy is .2d, but the tensor map it reads has tensorRank 1 (TMA-DIM-EQ-RANK) [tma-bulk-copy]
// CHECK-MESSAGES: :23:64: note: the tensor map is encoded here
// CHECK-MESSAGES: :254:28: note: with 'rank' = 1 from this call
// CHECK-MESSAGES: :256:3: note: and copied to the device here
// CHECK-MESSAGES: :246:3: note: use .1d with 1 coordinate
