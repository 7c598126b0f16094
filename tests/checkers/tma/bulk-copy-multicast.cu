// BULK-MULTICAST: a constant ctaMask selects only CTAs of the cluster the
// kernel runs in, whichever way the cluster is set: __cluster_dims__
// (through a helper too), cudaFuncSetAttribute's required cluster
// dimensions before a <<<>>> launch, or the cudaLaunchAttributeClusterDimension
// of a cudaLaunchKernelEx configuration; through inline PTX, cuda::ptx and a
// CUTLASS-like copy atom. A note says where the cluster size comes from.
// Silent when the cluster is not proven (a preferred cluster dimension, an
// attribute written through an index that does not fold, a launch without
// one), and for masks inside the cluster. Both passes report the same,
// helpers included (the host pass reads a helper's "h" operand, an lvalue
// there, as the device pass does).
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-bulk-copy %t -- --load=%tma_plugin -- %cuda_stub_host
#include <cstdint>
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);
__device__ uint32_t smem(const void *p) {
  return (uint32_t)__cvta_generic_to_shared(p);
}

// A CUTLASS-like copy atom.
struct TmaLoadMulticast1D {
  __device__ static void copy(const CUtensorMap *map, uint64_t *bar,
                              uint16_t mask, void *dst, int x) {
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%3}], "
                 "[%2], %4;"
                 :: "r"(smem(dst)), "l"(map), "r"(smem(bar)), "r"(x),
                    "h"(mask)
                 : "memory");
  }
};

__device__ void bulkMulticast(void *dst, const void *src, uint64_t *bar,
                              uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
               "bytes.multicast::cluster [%0], [%1], 256, [%2], %3;"
               :: "r"(smem(dst)), "l"(src), "r"(smem(bar)), "h"(mask)
               : "memory");
}

// __cluster_dims__, through the helper and the atom.
__global__ void __cluster_dims__(2, 1, 1)
pairKernel(const __grid_constant__ CUtensorMap map, const float *src) {
  __shared__ alignas(128) float buf[64];
  __shared__ uint64_t bar;
  bulkMulticast(buf, src, &bar, 0x5);
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: cp.async.bulk ctaMask 0x5 selects CTA rank 2, but the cluster has 2 CTAs (BULK-MULTICAST) [tma-bulk-copy]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pairKernel'
  // CHECK-NOTES: :{{[0-9]+}}:3: note: passed to the ctaMask of cp.async.bulk here
  // CHECK-NOTES: :[[@LINE-4]]:33: note: keep the mask within the cluster's 2 low bits
  TmaLoadMulticast1D::copy(&map, &bar, 0x4, buf, 0);
  // CHECK-NOTES: :[[@LINE-1]]:40: warning: cp.async.bulk.tensor ctaMask 0x4 selects CTA rank 2, but the cluster has 2 CTAs (BULK-MULTICAST) [tma-bulk-copy]
  // CHECK-NOTES: :{{[0-9]+}}:17: note: the cluster has 2 CTAs: __cluster_dims__(2, 1, 1) of 'pairKernel'
  // CHECK-NOTES: :{{[0-9]+}}:5: note: passed to the ctaMask of cp.async.bulk.tensor here
  // CHECK-NOTES: :[[@LINE-4]]:40: note: keep the mask within the cluster's 2 low bits
  // Correct twins: both CTAs of the pair.
  bulkMulticast(buf, src, &bar, 0x3);
  TmaLoadMulticast1D::copy(&map, &bar, 0x2, buf, 0);
}

// cuda::ptx, in a kernel whose cluster the launch below sets.
__global__ void ptxKernel(const float *src) {
  __shared__ alignas(128) float buf[64];
  __shared__ uint64_t bar;
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, 256, &bar, (uint16_t)0xf);
  // CHECK-NOTES: :[[@LINE-1]]:49: warning: cuda::ptx::cp_async_bulk ctaMask 0xf selects CTA rank 3, but the cluster has 2 CTAs (BULK-MULTICAST) [tma-bulk-copy]
  // CHECK-NOTES: :{{[0-9]+}}:3: note: the cluster has 2 CTAs: cudaLaunchKernelEx launches it with clusters of {2, 1, 1}
  // CHECK-NOTES: :[[@LINE-3]]:49: note: keep the mask within the cluster's 2 low bits
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global,
                           buf, src, 256, &bar, (uint16_t)0x3);
}

void launchEx(const float *src, cudaStream_t stream) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(132);
  config.blockDim = dim3(128);
  config.stream = stream;
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim = {2, 1, 1};
  config.attrs = &attr;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, ptxKernel, src);
}

// cudaFuncSetAttribute's required cluster of 4, then a <<<>>> launch.
__global__ void quadKernel(const float *src) {
  __shared__ alignas(128) float buf[64];
  __shared__ uint64_t bar;
  bulkMulticast(buf, src, &bar, 0x1f);
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: cp.async.bulk ctaMask 0x1f selects CTA rank 4, but the cluster has 4 CTAs (BULK-MULTICAST) [tma-bulk-copy]
  // CHECK-NOTES: :{{[0-9]+}}:3: note: the cluster has 4 CTAs: cudaFuncSetAttribute requires clusters of {4, 1, 1} for 'quadKernel'
  // CHECK-NOTES: :{{[0-9]+}}:3: note: passed to the ctaMask of cp.async.bulk here
  // CHECK-NOTES: :[[@LINE-4]]:33: note: keep the mask within the cluster's 4 low bits
  bulkMulticast(buf, src, &bar, 0xf);
}

void launchRequired(const float *src) {
  cudaFuncSetAttribute(quadKernel, cudaFuncAttributeRequiredClusterWidth, 4);
  cudaFuncSetAttribute(quadKernel, cudaFuncAttributeRequiredClusterHeight, 1);
  cudaFuncSetAttribute(quadKernel, cudaFuncAttributeRequiredClusterDepth, 1);
  quadKernel<<<132, 128>>>(src);
}

// Not proven: silent.
__global__ void preferredKernel(const float *src) {
  __shared__ alignas(128) float buf[64];
  __shared__ uint64_t bar;
  bulkMulticast(buf, src, &bar, 0xff);
}

void launchPreferred(const float *src, unsigned n) {
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attrs[2];
  // A preferred cluster may be larger than the minimum.
  attrs[0].id = cudaLaunchAttributePreferredClusterDimension;
  attrs[0].val.preferredClusterDim.x = 8;
  attrs[0].val.preferredClusterDim.y = 1;
  attrs[0].val.preferredClusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributeClusterDimension;
  attrs[1].val.clusterDim.x = 2;
  attrs[1].val.clusterDim.y = 1;
  attrs[1].val.clusterDim.z = 1;
  config.attrs = attrs;
  config.numAttrs = 2;
  cudaLaunchKernelEx(&config, preferredKernel, src);
}

__global__ void indexedKernel(const float *src) {
  __shared__ alignas(128) float buf[64];
  __shared__ uint64_t bar;
  bulkMulticast(buf, src, &bar, 0xff);
}

void launchIndexed(const float *src, unsigned n) {
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute attrs[2];
  config.numAttrs = 0;
  // An index that does not fold: which attribute is written is unknown.
  attrs[n].id = cudaLaunchAttributeClusterDimension;
  attrs[n].val.clusterDim.x = 2;
  attrs[n].val.clusterDim.y = 1;
  attrs[n].val.clusterDim.z = 1;
  config.attrs = attrs;
  config.numAttrs = n + 1;
  cudaLaunchKernelEx(&config, indexedKernel, src);
}
