// tma-descriptor: every way a cuTensorMapEncodeTiled call can be spelled.
// Each call passes the same bad descriptor (globalStrides[0] = 200 bytes,
// not a multiple of 16), so a call that is recognised warns once on its
// globalStrides argument and a call that is not stays silent.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy -check-suffixes=,HOST %s tma-descriptor %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#define MODES                                                                  \
  CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,                   \
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
// The operands of every call; Strides is the bad one.
#define OPERANDS                                                               \
  cuuint64_t Dims[2] = {64, 64};                                               \
  cuuint64_t Strides[1] = {200};                                               \
  cuuint32_t Box[2] = {64, 64};                                                \
  cuuint32_t Es[2] = {1, 1};

//===----------------------------------------------------------------------===//
// Positive cases
//===----------------------------------------------------------------------===//

// The driver function itself, however it is named.
void direct(CUtensorMap *Map, void *Src) {
  OPERANDS
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  ::cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                           Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  (cuTensorMapEncodeTiled)(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                           Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  (&cuTensorMapEncodeTiled)(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                            Dims, Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  CUresult Status = cuTensorMapEncodeTiled(
      Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
      MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:59: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  (void)Status;
}

// PFN_cuTensorMapEncodeTiled_v12000 filled by cudaGetDriverEntryPointByVersion
// through a (void **) cast.
void pfnByVersion(CUtensorMap *Map, void *Src) {
  OPERANDS
  PFN_cuTensorMapEncodeTiled_v12000 Encode = nullptr;
  cudaDriverEntryPointQueryResult Query;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&Encode,
                                   12000, cudaEnableDefault, &Query);
  Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
         MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:62: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  (*Encode)(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box,
            Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:65: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// decltype(&cuTensorMapEncodeTiled), and a pointer to the function type.
using EncodeFunction = decltype(cuTensorMapEncodeTiled);
void decltypePointer(CUtensorMap *Map, void *Src) {
  OPERANDS
  decltype(&cuTensorMapEncodeTiled) Encode = cuTensorMapEncodeTiled;
  Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
         MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:62: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  EncodeFunction *Encode2 = &cuTensorMapEncodeTiled;
  Encode2(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
          MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:63: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  EncodeFunction &Encode3 = cuTensorMapEncodeTiled;
  Encode3(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
          MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:63: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// `auto` from a reinterpret_cast of what the entry-point queries return.
void autoFromEntryPoints(CUtensorMap *Map, void *Src) {
  OPERANDS
  void *Raw = nullptr;
  cudaDriverEntryPointQueryResult Query;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Raw, 12000,
                                   cudaEnableDefault, &Query);
  auto ByVersion = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Raw);
  ByVersion(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box,
            Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:65: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]

  cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &Raw, cudaEnableDefault,
                          &Query);
  auto Runtime = reinterpret_cast<decltype(&cuTensorMapEncodeTiled)>(Raw);
  Runtime(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
          MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:63: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]

  CUdriverProcAddressQueryResult DriverQuery;
  cuGetProcAddress("cuTensorMapEncodeTiled", &Raw, 12000,
                   CU_GET_PROC_ADDRESS_DEFAULT, &DriverQuery);
  auto Driver = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Raw);
  Driver(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
         MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:62: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]

  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  auto Dl = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(
      dlsym(Lib, "cuTensorMapEncodeTiled"));
  Dl(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
     MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:58: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  auto DlC = (PFN_cuTensorMapEncodeTiled_v12000)dlsym(RTLD_DEFAULT,
                                                      "cuTensorMapEncodeTiled");
  DlC(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box, Es,
      MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:59: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// A static local named like the driver that holds the PFN (the pattern of
// code that must not link libcuda).
void staticLocalNamedLikeTheDriver(CUtensorMap *Map, void *Src) {
  OPERANDS
  static PFN_cuTensorMapEncodeTiled_v12000 cuTensorMapEncodeTiled = [] {
    void *Raw = nullptr;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &Raw, 12000,
                                     cudaEnableDefault);
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(Raw);
  }();
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// Pointers stored elsewhere: a global, a struct member, a table, the result
// of a function.
PFN_cuTensorMapEncodeTiled_v12000 GlobalEncode;
struct DriverTable {
  PFN_cuTensorMapEncodeTiled_v12000 EncodeTiled;
};
PFN_cuTensorMapEncodeTiled_v12000 encoder();
void storedPointers(CUtensorMap *Map, void *Src, DriverTable &Table,
                    const DriverTable *TablePtr) {
  OPERANDS
  GlobalEncode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides,
               Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:68: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  Table.EncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                    Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  TablePtr->EncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                        Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  PFN_cuTensorMapEncodeTiled_v12000 Pointers[1] = {cuTensorMapEncodeTiled};
  Pointers[0](Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box,
              Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:67: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  encoder()(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box,
            Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-2]]:65: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// A user class with a method of the driver's name and signature.
struct TmaDriver {
  CUresult cuTensorMapEncodeTiled(
      CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
      cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
      const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
      const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
      CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
      CUtensorMapFloatOOBfill oobFill);
};
void wrapperMethod(CUtensorMap *Map, void *Src, TmaDriver &Driver,
                   TmaDriver *DriverPtr) {
  OPERANDS
  Driver.cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  DriverPtr->cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                    Src, Dims, Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:48: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}

// A generic caller instantiated with the driver's pointer type.
template <typename Fn> CUresult callEncoder(Fn Encode, CUtensorMap *Map) {
  OPERANDS
  return Encode(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, nullptr, Dims,
                Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
}
void genericCaller(CUtensorMap *Map) {
  callEncoder(&cuTensorMapEncodeTiled, Map);
}

// Lambdas that call the encode: locals of the lambda, and scalars captured
// by copy, by reference or by an init-capture.
void lambdas(CUtensorMap *Map, void *Src) {
  auto Local = [](CUtensorMap *M, void *S) {
    OPERANDS
    return cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, S,
                                  Dims, Strides, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  };
  cuuint64_t Pitch = 200;
  const cuuint64_t ConstPitch = 200;
  auto Captured = [Pitch, &ConstPitch, Init = cuuint64_t(200)](CUtensorMap *M,
                                                               void *S) {
    cuuint64_t Dims[2] = {64, 64};
    cuuint64_t ByCopy[1] = {Pitch};
    cuuint64_t ByRef[1] = {ConstPitch};
    cuuint64_t ByInit[1] = {Init};
    cuuint32_t Box[2] = {64, 64};
    cuuint32_t Es[2] = {1, 1};
    cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, S, Dims,
                           ByCopy, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
    cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, S, Dims,
                           ByRef, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
    cuTensorMapEncodeTiled(M, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, S, Dims,
                           ByInit, Box, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  };
  Local(Map, Src);
  Captured(Map, Src);
}

//===----------------------------------------------------------------------===//
// Negative cases: must not warn
//===----------------------------------------------------------------------===//

// Functions named like the driver whose signature differs.
namespace other {
CUresult cuTensorMapEncodeTiled(CUtensorMap *Map, int DataType, cuuint32_t Rank,
                                void *Src, const cuuint64_t *Dims,
                                const cuuint64_t *Strides,
                                const cuuint32_t *Box, const cuuint32_t *Es,
                                int Interleave, int Swizzle, int L2, int Oob);
} // namespace other
struct OtherDriver {
  CUresult cuTensorMapEncodeTiled(CUtensorMap *Map, CUtensorMapDataType Type,
                                  cuuint32_t Rank, void *Src,
                                  const cuuint64_t *Dims,
                                  const cuuint64_t *Strides,
                                  const cuuint32_t *Box, const cuuint32_t *Es,
                                  int Interleave, int Swizzle, int L2,
                                  int Oob);
};
void differentSignature(CUtensorMap *Map, void *Src, OtherDriver &Driver) {
  OPERANDS
  other::cuTensorMapEncodeTiled(Map, 7, 2, Src, Dims, Strides, Box, Es, 0, 0,
                                0, 0);
  Driver.cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, 0, 0, 0, 0);
  using OtherPointer = CUresult (*)(CUtensorMap *, int, cuuint32_t, void *,
                                    const cuuint64_t *, const cuuint64_t *,
                                    const cuuint32_t *, const cuuint32_t *,
                                    int, int, int, int);
  OtherPointer Encode = &other::cuTensorMapEncodeTiled;
  Encode(Map, 7, 2, Src, Dims, Strides, Box, Es, 0, 0, 0, 0);
}

// The driver's signature under another name is not the driver.
CUresult encodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                     cuuint32_t tensorRank, void *globalAddress,
                     const cuuint64_t *globalDim,
                     const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                     const cuuint32_t *elementStrides,
                     CUtensorMapInterleave interleave,
                     CUtensorMapSwizzle swizzle,
                     CUtensorMapL2promotion l2Promotion,
                     CUtensorMapFloatOOBfill oobFill);
void otherName(CUtensorMap *Map, void *Src) {
  OPERANDS
  encodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides, Box,
              Es, MODES);
}

// The im2col encoders are checked with their own rules (descriptor-im2col.cu):
// the 2-D operands are too short for rank 3.
void otherEncodes(CUtensorMap *Map, void *Src) {
  OPERANDS
  int Lower[1] = {0}, Upper[1] = {0};
  cuTensorMapEncodeIm2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Src, Dims,
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: globalDim provides 2 elements but tensorRank 3 reads 3; the driver reads past the end of the array (TMAP-I2C-RANK) [tma-descriptor]
                          Strides, Lower, Upper, 64, 64, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: globalStrides provides 1 element but tensorRank 3 reads 2; the driver reads past the end of the array (TMAP-I2C-RANK) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:58: warning: elementStrides provides 2 elements but tensorRank 3 reads 3; the driver reads past the end of the array (TMAP-I2C-RANK) [tma-descriptor]
  PFN_cuTensorMapEncodeIm2col_v12000 Im2col = cuTensorMapEncodeIm2col;
  Im2col(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, Src, Dims, Strides, Lower,
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: globalDim provides 2 elements but tensorRank 3 reads 3; the driver reads past the end of the array (TMAP-I2C-RANK) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-2]]:62: warning: globalStrides provides 1 element but tensorRank 3 reads 2; the driver reads past the end of the array (TMAP-I2C-RANK) [tma-descriptor]
  // CHECK-MESSAGES: :[[@LINE-3]]:62: warning: globalStrides[0] is 200 bytes, not a multiple of 16 (TMAP-ENC-GSTRIDE-ALIGN) [tma-descriptor]
         Upper, 64, 64, Es, MODES);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: elementStrides provides 2 elements but tensorRank 3 reads 3; the driver reads past the end of the array (TMAP-I2C-RANK) [tma-descriptor]
  cuTensorMapReplaceAddress(Map, Src);
  (void)Box;
}

//===----------------------------------------------------------------------===//
// Not folded: unknown values must stay silent
//===----------------------------------------------------------------------===//

// A wrapper that forwards its parameters: nothing is known inside it.
CUresult forward(CUtensorMap *Map, void *Src, const cuuint64_t *Dims,
                 const cuuint64_t *Strides, const cuuint32_t *Box) {
  const cuuint32_t Es[2] = {1, 1};
  return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                Dims, Strides, Box, Es, MODES);
}

//===----------------------------------------------------------------------===//
// Known limitations
//===----------------------------------------------------------------------===//

// A call through a pointer to member function is not recognised (its callee
// has no function-pointer type).
void pointerToMember(CUtensorMap *Map, void *Src, TmaDriver &Driver) {
  OPERANDS
  auto Method = &TmaDriver::cuTensorMapEncodeTiled;
  (Driver.*Method)(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims, Strides,
                   Box, Es, MODES);
}

// Arrays captured by a lambda, by reference or by copy, are not folded: the
// capture counts as an escape of the array. Capturing by reference also
// hides the array from calls after the lambda in the enclosing function.
void lambdaCapturesArrays(CUtensorMap *Map, void *Src) {
  OPERANDS
  auto ByRef = [&] {
    return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES);
  };
  auto ByCopy = [=] {
    return cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                                  Dims, Strides, Box, Es, MODES);
  };
  ByRef();
  ByCopy();
  cuTensorMapEncodeTiled(Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src, Dims,
                         Strides, Box, Es, MODES);
}
