/* Minimal declarations of the CUDA runtime API, for tests compiled with
 * -nocudainc (clang then includes no CUDA header of its own). Testing purposes
 * only. The attribute macros follow clang's test/SemaCUDA/Inputs/cuda.h; the
 * runtime declarations follow CUDA 13.0's cuda_runtime_api.h and
 * driver_types.h. Like the real header, this one does not include cuda.h. */

#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include <stddef.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI

/* threadIdx, blockIdx, blockDim, gridDim and warpSize. */
#include <__clang_cuda_builtin_vars.h>

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
};

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

typedef struct CUstream_st *cudaStream_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaGetDriverEntryPointFlags {
  cudaEnableDefault = 0x0,
  cudaEnableLegacyStream = 0x1,
  cudaEnablePerThreadDefaultStream = 0x2
};

enum cudaDriverEntryPointQueryResult {
  cudaDriverEntryPointSuccess = 0,
  cudaDriverEntryPointSymbolNotFound = 1,
  cudaDriverEntryPointVersionNotSufficent = 2
};

/* The launch attributes and function attributes of cluster launches (the
   values of CUDA 13.0's driver_types.h). */
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributePreferredClusterDimension = 11
};

union cudaLaunchAttributeValue {
  char pad[64];
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  struct {
    unsigned int x;
    unsigned int y;
    unsigned int z;
  } preferredClusterDim;
};

typedef struct cudaLaunchAttribute_st {
  enum cudaLaunchAttributeID id;
  union cudaLaunchAttributeValue val;
} cudaLaunchAttribute;

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14
};

typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

/* What clang's Sema needs to lower kernel<<<...>>>(...). */
extern "C" int cudaConfigureCall(dim3 gridSize, dim3 blockSize,
                                 size_t sharedSize = 0,
                                 cudaStream_t stream = 0);
extern "C" int __cudaPushCallConfiguration(dim3 gridSize, dim3 blockSize,
                                           size_t sharedSize = 0,
                                           cudaStream_t stream = 0);

extern "C" {
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem,
                             cudaStream_t stream);
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
                                const void *func, void **args);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                 int value);
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size,
                                    cudaMemPool_t memPool,
                                    cudaStream_t stream);
cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                              unsigned int flags = 1);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                            size_t height);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                               size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind =
                                   cudaMemcpyHostToDevice);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetDriverEntryPoint(
    const char *symbol, void **funcPtr, unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus = NULL);
cudaError_t cudaGetDriverEntryPointByVersion(
    const char *symbol, void **funcPtr, unsigned int cudaVersion,
    unsigned long long flags,
    enum cudaDriverEntryPointQueryResult *driverStatus = NULL);
}

/* The C++ overloads of cuda_runtime.h. */
template <class T> cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream) {
  return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}
/* Allocation from a pool, under both names. */
static inline cudaError_t cudaMallocAsync(void **ptr, size_t size,
                                          cudaMemPool_t memPool,
                                          cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool,
                            cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool,
                                   stream);
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size,
                                    cudaMemPool_t memPool,
                                    cudaStream_t stream) {
  return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool,
                                   stream);
}

template <class T>
cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                               size_t offset = 0,
                               enum cudaMemcpyKind kind =
                                   cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template <class T>
cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr,
                                 int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}

template <typename... ExpTypes, typename... ActTypes>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                               void (*kernel)(ExpTypes...),
                               ActTypes &&...args) {
  return [&](ExpTypes... coercedArgs) {
    void *pArgs[] = {&coercedArgs..., nullptr};
    return ::cudaLaunchKernelExC(config, (const void *)kernel, pArgs);
  }(static_cast<ActTypes &&>(args)...);
}

/* Device-side placement new, as in clang's test header. */
inline void *operator new(size_t, void *p) { return p; }
inline void *operator new[](size_t, void *p) { return p; }
__device__ inline void *operator new(size_t, void *p) { return p; }
__device__ inline void *operator new[](size_t, void *p) { return p; }

#endif /* __CUDA_RUNTIME_H__ */
