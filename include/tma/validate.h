//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Header-only C++17; depends on <cuda.h> and the standard
// library only. Documentation: docs/runtime.md.
//
//===----------------------------------------------------------------------===//
//
// tma-tidy's rule model at run time. The checker stays silent on encode calls
// whose operands are known only at run time (tensor shapes, addresses); this
// header runs the same rules on the values the program passes, with the same
// rule ids and messages:
//
//   for (const tma::violation &V : tma::check_tiled(&map, dt, rank, ...))
//     std::fprintf(stderr, "%s\n", V.text().c_str());
//
//   tma::encode_result R = tma::encode_tiled(&map, dt, rank, ...);
//   if (!R)
//     std::fprintf(stderr, "%s\n", R.text.c_str());
//
// check_* never call the driver; encode_* call it (link with -lcuda, or pass
// the driver entry point to encode_*_with).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_VALIDATE_H
#define TMA_VALIDATE_H

// The rule headers use C++17 (inline variables, if constexpr,
// std::optional): an older standard stops here with one error that says so,
// not with pages of errors from inside them.
#if (defined(_MSVC_LANG) ? _MSVC_LANG : __cplusplus) < 201703L
#error "<tma/validate.h> needs C++17 or later: compile with -std=c++17"
#else

#include "rules/Im2colRules.h"
#include "rules/TiledRules.h"

#include <cuda.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tma {

/// One broken rule of the driver, as tma-tidy's checker reports it.
struct violation {
  /// The rule id of tma-rules.md, e.g. "TMAP-ENC-GSTRIDE-ALIGN"; its page is
  /// docs/rules/<rule>.md.
  std::string rule;
  /// The checker's message without the rule id, e.g.
  /// "globalStrides[0] is 200 bytes, not a multiple of 16".
  std::string message;
  /// The driver's name of the operand that holds the bad value, e.g.
  /// "globalStrides".
  std::string parameter;
  /// The array element, for array operands; -1 otherwise.
  int index = -1;
  /// The value found, in the operand's own unit.
  std::uint64_t value = 0;
  /// The limit it breaks (see message).
  std::uint64_t limit = 0;
  /// A change that satisfies the rule, e.g. "pad the row to 208 bytes";
  /// empty when there is none to propose.
  std::string suggestion;

  /// "globalStrides[0]" or "swizzle".
  std::string operand() const {
    return index < 0 ? parameter
                     : parameter + "[" + std::to_string(index) + "]";
  }
  /// The checker's diagnostic: the message, then the rule id.
  std::string text() const { return message + " (" + rule + ")"; }
};

/// What check_* return: every broken rule, in the checker's order (by
/// operand, then index, then rule id). Empty when the model finds none.
using violations = std::vector<violation>;

/// Rules that are heuristics can be switched off, as in the checker's
/// options of tma-descriptor.
struct check_options {
  /// TMAP-ENC-GSTRIDE-UNITS: strides written in elements, or the innermost
  /// stride passed too.
  bool stride_unit_heuristics = true;
};

namespace detail {

inline violation fromRule(const rules::Violation &V) {
  violation Out;
  Out.rule = V.RuleId;
  Out.message = V.Message;
  Out.parameter = rules::paramName(V.Parameter);
  Out.index = V.Index ? static_cast<int>(*V.Index) : -1;
  Out.value = V.Value;
  Out.limit = V.Limit;
  if (V.Suggested)
    Out.suggestion = V.Suggested->Text;
  return Out;
}

inline violations fromRules(const std::vector<rules::Violation> &Vs) {
  violations Out;
  for (const rules::Violation &V : Vs)
    Out.push_back(fromRule(V));
  return Out;
}

inline rules::Known address(const void *P) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(P));
}

/// The elements of an array operand that the driver reads: \p Count of
/// them, none of a null pointer. The extent of the array is unknown, so
/// TMAP-TILED-RANK's "provides fewer elements" stays silent.
template <typename T>
rules::KnownArray readArray(const T *P, std::uint64_t Count) {
  rules::KnownArray A;
  for (std::uint64_t I = 0; P && I < Count; ++I)
    A.Elems.push_back(static_cast<std::uint64_t>(P[I]));
  return A;
}

/// How many elements of array operand \p P encoder \p E reads for \p Rank:
/// the rule model's own count (tensorRank elements, one less of
/// globalStrides, two less of the corners; element 0 only, and nothing of
/// the strides and corners, when the rank is out of the encoder's range).
inline std::uint64_t readCount(rules::Encoder E, cuuint32_t Rank,
                               rules::Param P) {
  rules::EncodeOperands Ops;
  Ops.Rank = Rank;
  rules::EncodeRuleOptions Opts;
  return rules::EncodeContext(E, Ops, Opts).readCount(P);
}

/// The corner offsets of cuTensorMapEncodeIm2col, \p Count of them.
inline rules::KnownSignedArray readCorners(const int *P, std::uint64_t Count) {
  rules::KnownSignedArray A;
  for (std::uint64_t I = 0; P && I < Count; ++I)
    A.Elems.push_back(P[I]);
  return A;
}

/// The operands every encoder shares, read into descriptor \p D of encoder
/// \p E as the driver reads them.
template <typename Descriptor>
void readShared(Descriptor &D, rules::Encoder E, CUtensorMap *tensorMap,
                CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                void *globalAddress, const cuuint64_t *globalDim,
                const cuuint64_t *globalStrides,
                const cuuint32_t *elementStrides,
                CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                CUtensorMapL2promotion l2Promotion,
                CUtensorMapFloatOOBfill oobFill) {
  using rules::Param;
  D.DataType = static_cast<std::uint64_t>(tensorDataType);
  D.Rank = tensorRank;
  D.GlobalDim =
      readArray(globalDim, readCount(E, tensorRank, Param::GlobalDim));
  D.GlobalStrides =
      readArray(globalStrides, readCount(E, tensorRank, Param::GlobalStrides));
  // TMAP-ENC-GSTRIDES-NULL: the driver rejects a null pointer at any rank.
  D.GlobalStrides.Null = globalStrides == nullptr;
  D.ElementStrides = readArray(
      elementStrides, readCount(E, tensorRank, Param::ElementStrides));
  D.Interleave = static_cast<std::uint64_t>(interleave);
  D.Swizzle = static_cast<std::uint64_t>(swizzle);
  D.L2Promotion = static_cast<std::uint64_t>(l2Promotion);
  D.OobFill = static_cast<std::uint64_t>(oobFill);
  D.TensorMapAddress = address(tensorMap);
  D.GlobalAddress = address(globalAddress);
}

inline rules::EncodeRuleOptions ruleOptions(const check_options &O) {
  rules::EncodeRuleOptions Opts;
  Opts.StrideUnitHeuristics = O.stride_unit_heuristics;
  // A void* says nothing of the element type (TMAP-ENC-GADDR-TYPE).
  Opts.AddressTypeCheck = false;
  return Opts;
}

inline std::string hex(const void *P) { return rules::hex(*address(P)); }

template <typename T> std::string list(const T *P, std::uint64_t Count) {
  if (!P)
    return "nullptr";
  std::string S = "{";
  for (std::uint64_t I = 0; I < Count; ++I)
    S += (I ? ", " : "") + std::to_string(P[I]);
  return S + "}";
}

/// An enumerator operand: "CU_TENSOR_MAP_SWIZZLE_128B (3)", or the number.
inline std::string enumerator(const char *Name, std::uint64_t V) {
  return Name ? std::string(Name) + " (" + std::to_string(V) + ")"
              : std::to_string(V);
}

/// The names of the CUresult values an encode call returns; others by
/// number (cuGetErrorName would need an initialised driver).
inline std::string resultName(CUresult R) {
  switch (R) {
  case CUDA_SUCCESS:
    return "CUDA_SUCCESS";
  case CUDA_ERROR_INVALID_VALUE:
    return "CUDA_ERROR_INVALID_VALUE";
  case CUDA_ERROR_NOT_INITIALIZED:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case CUDA_ERROR_DEINITIALIZED:
    return "CUDA_ERROR_DEINITIALIZED";
  case CUDA_ERROR_INVALID_CONTEXT:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case CUDA_ERROR_NOT_SUPPORTED:
    return "CUDA_ERROR_NOT_SUPPORTED";
  case CUDA_ERROR_NO_DEVICE:
    return "CUDA_ERROR_NO_DEVICE";
  default:
    return "CUresult " + std::to_string(static_cast<int>(R));
  }
}

} // namespace detail

//===----------------------------------------------------------------------===//
// check_*: the rules the operands break
//===----------------------------------------------------------------------===//

/// The rules of cuTensorMapEncodeTiled that these operands break: the
/// operands of the call, in its order. Never calls the driver. Reads each
/// array as the driver does (tensorRank elements, tensorRank-1 of
/// globalStrides, element 0 only when tensorRank is out of range).
inline violations
check_tiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
            cuuint32_t tensorRank, void *globalAddress,
            const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
            const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
            CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
            CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill,
            const check_options &options) {
  rules::TiledDescriptor D;
  detail::readShared(D, rules::Encoder::Tiled, tensorMap, tensorDataType,
                     tensorRank, globalAddress, globalDim, globalStrides,
                     elementStrides, interleave, swizzle, l2Promotion, oobFill);
  D.BoxDim = detail::readArray(
      boxDim, detail::readCount(rules::Encoder::Tiled, tensorRank,
                                rules::Param::BoxDim));
  return detail::fromRules(rules::checkTiled(D, detail::ruleOptions(options)));
}

inline violations
check_tiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
            cuuint32_t tensorRank, void *globalAddress,
            const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
            const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
            CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
            CUtensorMapL2promotion l2Promotion,
            CUtensorMapFloatOOBfill oobFill) {
  return check_tiled(tensorMap, tensorDataType, tensorRank, globalAddress,
                     globalDim, globalStrides, boxDim, elementStrides,
                     interleave, swizzle, l2Promotion, oobFill,
                     check_options{});
}

/// The rules of cuTensorMapEncodeIm2col that these operands break, read as
/// the driver reads them (the corners: tensorRank-2 elements).
inline violations
check_im2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
             cuuint32_t tensorRank, void *globalAddress,
             const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
             const int *pixelBoxLowerCorner, const int *pixelBoxUpperCorner,
             cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
             const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
             CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
             CUtensorMapFloatOOBfill oobFill, const check_options &options) {
  using rules::Param;
  auto N = [&](Param P) {
    return detail::readCount(rules::Encoder::Im2col, tensorRank, P);
  };
  rules::Im2colDescriptor D;
  detail::readShared(D, rules::Encoder::Im2col, tensorMap, tensorDataType,
                     tensorRank, globalAddress, globalDim, globalStrides,
                     elementStrides, interleave, swizzle, l2Promotion, oobFill);
  D.PixelBoxLowerCorner =
      detail::readCorners(pixelBoxLowerCorner, N(Param::PixelBoxLowerCorner));
  D.PixelBoxUpperCorner =
      detail::readCorners(pixelBoxUpperCorner, N(Param::PixelBoxUpperCorner));
  D.ChannelsPerPixel = channelsPerPixel;
  D.PixelsPerColumn = pixelsPerColumn;
  return detail::fromRules(rules::checkIm2col(D, detail::ruleOptions(options)));
}

inline violations
check_im2col(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
             cuuint32_t tensorRank, void *globalAddress,
             const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
             const int *pixelBoxLowerCorner, const int *pixelBoxUpperCorner,
             cuuint32_t channelsPerPixel, cuuint32_t pixelsPerColumn,
             const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
             CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
             CUtensorMapFloatOOBfill oobFill) {
  return check_im2col(tensorMap, tensorDataType, tensorRank, globalAddress,
                      globalDim, globalStrides, pixelBoxLowerCorner,
                      pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn,
                      elementStrides, interleave, swizzle, l2Promotion, oobFill,
                      check_options{});
}

// cuTensorMapEncodeIm2colWide and its mode type: CUDA 12.8.
#if CUDA_VERSION >= 12080
/// The rules of cuTensorMapEncodeIm2colWide that these operands break.
inline violations check_im2col_wide(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, int pixelBoxLowerCornerWidth,
    int pixelBoxUpperCornerWidth, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill, const check_options &options) {
  rules::Im2colWideDescriptor D;
  detail::readShared(D, rules::Encoder::Im2colWide, tensorMap, tensorDataType,
                     tensorRank, globalAddress, globalDim, globalStrides,
                     elementStrides, interleave, swizzle, l2Promotion, oobFill);
  D.PixelBoxLowerCornerWidth = pixelBoxLowerCornerWidth;
  D.PixelBoxUpperCornerWidth = pixelBoxUpperCornerWidth;
  D.ChannelsPerPixel = channelsPerPixel;
  D.PixelsPerColumn = pixelsPerColumn;
  D.Mode = static_cast<std::uint64_t>(mode);
  return detail::fromRules(
      rules::checkIm2colWide(D, detail::ruleOptions(options)));
}

inline violations check_im2col_wide(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, int pixelBoxLowerCornerWidth,
    int pixelBoxUpperCornerWidth, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  return check_im2col_wide(tensorMap, tensorDataType, tensorRank, globalAddress,
                           globalDim, globalStrides, pixelBoxLowerCornerWidth,
                           pixelBoxUpperCornerWidth, channelsPerPixel,
                           pixelsPerColumn, elementStrides, interleave, mode,
                           swizzle, l2Promotion, oobFill, check_options{});
}

#endif

/// The violations as the checker prints them, one per line, each followed
/// by its suggestion.
inline std::string to_string(const violations &Vs) {
  std::string S;
  for (const violation &V : Vs) {
    S += "  " + V.text() + "\n";
    if (!V.suggestion.empty())
      S += "    suggestion: " + V.suggestion + "\n";
  }
  return S;
}

//===----------------------------------------------------------------------===//
// encode_*: the driver call, its failures explained
//===----------------------------------------------------------------------===//

/// What encode_* return. True when the driver encoded the map and the rule
/// model found nothing wrong with its operands.
struct encode_result {
  /// The driver's answer.
  CUresult result = CUDA_SUCCESS;
  /// The rules the operands break. Not empty with CUDA_SUCCESS when the
  /// driver accepts a map that reads the wrong memory (strides in elements,
  /// TMAP-ENC-GSTRIDE-UNITS) or a combination its documentation forbids.
  violations found;
  /// Empty on success; otherwise what went wrong: the driver's result, the
  /// violations, and the operands.
  std::string text;

  explicit operator bool() const {
    return result == CUDA_SUCCESS && found.empty();
  }
};

/// Thrown by encode_*(tma::throw_on_error, ...).
class encode_error : public std::runtime_error {
public:
  explicit encode_error(encode_result R)
      : std::runtime_error(R.text), Result(std::move(R)) {}
  const encode_result &result() const { return Result; }

private:
  encode_result Result;
};

/// Selects the throwing overloads of encode_*.
struct throw_on_error_t {
  explicit throw_on_error_t() = default;
};
inline constexpr throw_on_error_t throw_on_error{};

namespace detail {

/// encode_result::text: the driver's answer, what the model says, and the
/// operands (printed whenever something failed; most useful when the model
/// finds no broken rule).
inline encode_result explain(const char *Function, CUresult R, violations Vs,
                             const std::string &Operands) {
  encode_result Out;
  Out.result = R;
  Out.found = std::move(Vs);
  if (Out)
    return Out;
  std::string N = std::to_string(Out.found.size()) +
                  (Out.found.size() == 1 ? " rule" : " rules");
  Out.text = std::string(Function) + " returned " + resultName(R);
  if (Out.found.empty())
    Out.text += "; tma-tidy's rule model finds no broken rule in these "
                "operands (a rule it does not model, or the driver's "
                "state):\n";
  else if (R == CUDA_SUCCESS)
    Out.text += ", but the operands break " + N +
                " (the map may read the wrong memory):\n" +
                to_string(Out.found);
  else
    Out.text += "; the operands break " + N + ":\n" + to_string(Out.found);
  Out.text += "  operands: " + Operands + "\n";
  return Out;
}

inline encode_result throwIfFailed(encode_result R) {
  if (!R)
    throw encode_error(std::move(R));
  return R;
}

/// The operands every encoder has, as explain() prints them.
inline std::string head(rules::Encoder E, CUtensorMap *tensorMap,
                        CUtensorMapDataType tensorDataType,
                        cuuint32_t tensorRank, void *globalAddress,
                        const cuuint64_t *globalDim,
                        const cuuint64_t *globalStrides) {
  using rules::Param;
  return "tensorMap=" + hex(tensorMap) + " tensorDataType=" +
         enumerator(rules::dataTypeName(tensorDataType), tensorDataType) +
         " tensorRank=" + std::to_string(tensorRank) +
         " globalAddress=" + hex(globalAddress) + " globalDim=" +
         list(globalDim, readCount(E, tensorRank, Param::GlobalDim)) +
         " globalStrides=" +
         list(globalStrides, readCount(E, tensorRank, Param::GlobalStrides));
}

inline std::string tail(CUtensorMapSwizzle swizzle,
                        CUtensorMapL2promotion l2Promotion,
                        CUtensorMapFloatOOBfill oobFill) {
  return " swizzle=" + enumerator(rules::swizzleName(swizzle), swizzle) +
         " l2Promotion=" + std::to_string(l2Promotion) +
         " oobFill=" + std::to_string(oobFill);
}

inline std::string
elementStridesAndInterleave(rules::Encoder E, cuuint32_t tensorRank,
                            const cuuint32_t *elementStrides,
                            CUtensorMapInterleave interleave) {
  return " elementStrides=" +
         list(elementStrides,
              readCount(E, tensorRank, rules::Param::ElementStrides)) +
         " interleave=" +
         enumerator(rules::interleaveName(interleave), interleave);
}

} // namespace detail

/// cuTensorMapEncodeTiled, or an entry point of the same type
/// (cudaGetDriverEntryPoint, a test double).
using encode_tiled_fn = CUresult (*)(CUtensorMap *, CUtensorMapDataType,
                                     cuuint32_t, void *, const cuuint64_t *,
                                     const cuuint64_t *, const cuuint32_t *,
                                     const cuuint32_t *, CUtensorMapInterleave,
                                     CUtensorMapSwizzle, CUtensorMapL2promotion,
                                     CUtensorMapFloatOOBfill);
using encode_im2col_fn = CUresult (*)(
    CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
    const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
    const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
    CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
#if CUDA_VERSION >= 12080
using encode_im2col_wide_fn = CUresult (*)(
    CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
    const cuuint64_t *, int, int, cuuint32_t, cuuint32_t, const cuuint32_t *,
    CUtensorMapInterleave, CUtensorMapIm2ColWideMode, CUtensorMapSwizzle,
    CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
#endif

/// Validates the operands, calls \p Encode with them, and explains a
/// failure. The driver is called whatever the model says: its answer is the
/// one that counts for the map, the model's is the explanation.
inline encode_result
encode_tiled_with(encode_tiled_fn Encode, CUtensorMap *tensorMap,
                  CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
                  void *globalAddress, const cuuint64_t *globalDim,
                  const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                  const cuuint32_t *elementStrides,
                  CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                  CUtensorMapL2promotion l2Promotion,
                  CUtensorMapFloatOOBfill oobFill) {
  violations Vs =
      check_tiled(tensorMap, tensorDataType, tensorRank, globalAddress,
                  globalDim, globalStrides, boxDim, elementStrides, interleave,
                  swizzle, l2Promotion, oobFill);
  CUresult R = Encode(tensorMap, tensorDataType, tensorRank, globalAddress,
                      globalDim, globalStrides, boxDim, elementStrides,
                      interleave, swizzle, l2Promotion, oobFill);
  if (R == CUDA_SUCCESS && Vs.empty())
    return {};
  constexpr rules::Encoder E = rules::Encoder::Tiled;
  return detail::explain(
      "cuTensorMapEncodeTiled", R, std::move(Vs),
      detail::head(E, tensorMap, tensorDataType, tensorRank, globalAddress,
                   globalDim, globalStrides) +
          " boxDim=" +
          detail::list(boxDim,
                       detail::readCount(E, tensorRank, rules::Param::BoxDim)) +
          detail::elementStridesAndInterleave(E, tensorRank, elementStrides,
                                              interleave) +
          detail::tail(swizzle, l2Promotion, oobFill));
}

inline encode_result encode_im2col_with(
    encode_im2col_fn Encode, CUtensorMap *tensorMap,
    CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const int *pixelBoxLowerCorner,
    const int *pixelBoxUpperCorner, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  violations Vs =
      check_im2col(tensorMap, tensorDataType, tensorRank, globalAddress,
                   globalDim, globalStrides, pixelBoxLowerCorner,
                   pixelBoxUpperCorner, channelsPerPixel, pixelsPerColumn,
                   elementStrides, interleave, swizzle, l2Promotion, oobFill);
  CUresult R =
      Encode(tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,
             globalStrides, pixelBoxLowerCorner, pixelBoxUpperCorner,
             channelsPerPixel, pixelsPerColumn, elementStrides, interleave,
             swizzle, l2Promotion, oobFill);
  if (R == CUDA_SUCCESS && Vs.empty())
    return {};
  constexpr rules::Encoder E = rules::Encoder::Im2col;
  std::uint64_t Corners =
      detail::readCount(E, tensorRank, rules::Param::PixelBoxLowerCorner);
  return detail::explain(
      "cuTensorMapEncodeIm2col", R, std::move(Vs),
      detail::head(E, tensorMap, tensorDataType, tensorRank, globalAddress,
                   globalDim, globalStrides) +
          " pixelBoxLowerCorner=" + detail::list(pixelBoxLowerCorner, Corners) +
          " pixelBoxUpperCorner=" + detail::list(pixelBoxUpperCorner, Corners) +
          " channelsPerPixel=" + std::to_string(channelsPerPixel) +
          " pixelsPerColumn=" + std::to_string(pixelsPerColumn) +
          detail::elementStridesAndInterleave(E, tensorRank, elementStrides,
                                              interleave) +
          detail::tail(swizzle, l2Promotion, oobFill));
}

// cuTensorMapEncodeIm2colWide and its mode type: CUDA 12.8.
#if CUDA_VERSION >= 12080
inline encode_result encode_im2col_wide_with(
    encode_im2col_wide_fn Encode, CUtensorMap *tensorMap,
    CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, int pixelBoxLowerCornerWidth,
    int pixelBoxUpperCornerWidth, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  violations Vs = check_im2col_wide(
      tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,
      globalStrides, pixelBoxLowerCornerWidth, pixelBoxUpperCornerWidth,
      channelsPerPixel, pixelsPerColumn, elementStrides, interleave, mode,
      swizzle, l2Promotion, oobFill);
  CUresult R =
      Encode(tensorMap, tensorDataType, tensorRank, globalAddress, globalDim,
             globalStrides, pixelBoxLowerCornerWidth, pixelBoxUpperCornerWidth,
             channelsPerPixel, pixelsPerColumn, elementStrides, interleave,
             mode, swizzle, l2Promotion, oobFill);
  if (R == CUDA_SUCCESS && Vs.empty())
    return {};
  constexpr rules::Encoder E = rules::Encoder::Im2colWide;
  return detail::explain(
      "cuTensorMapEncodeIm2colWide", R, std::move(Vs),
      detail::head(E, tensorMap, tensorDataType, tensorRank, globalAddress,
                   globalDim, globalStrides) +
          " pixelBoxLowerCornerWidth=" +
          std::to_string(pixelBoxLowerCornerWidth) +
          " pixelBoxUpperCornerWidth=" +
          std::to_string(pixelBoxUpperCornerWidth) +
          " channelsPerPixel=" + std::to_string(channelsPerPixel) +
          " pixelsPerColumn=" + std::to_string(pixelsPerColumn) +
          detail::elementStridesAndInterleave(E, tensorRank, elementStrides,
                                              interleave) +
          " mode=" + std::to_string(mode) +
          detail::tail(swizzle, l2Promotion, oobFill));
}

#endif

/// cuTensorMapEncodeTiled with its failures explained (needs -lcuda).
inline encode_result
encode_tiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
             cuuint32_t tensorRank, void *globalAddress,
             const cuuint64_t *globalDim, const cuuint64_t *globalStrides,
             const cuuint32_t *boxDim, const cuuint32_t *elementStrides,
             CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
             CUtensorMapL2promotion l2Promotion,
             CUtensorMapFloatOOBfill oobFill) {
  return encode_tiled_with(&cuTensorMapEncodeTiled, tensorMap, tensorDataType,
                           tensorRank, globalAddress, globalDim, globalStrides,
                           boxDim, elementStrides, interleave, swizzle,
                           l2Promotion, oobFill);
}

/// cuTensorMapEncodeIm2col with its failures explained (needs -lcuda).
inline encode_result encode_im2col(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const int *pixelBoxLowerCorner,
    const int *pixelBoxUpperCorner, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill) {
  return encode_im2col_with(&cuTensorMapEncodeIm2col, tensorMap, tensorDataType,
                            tensorRank, globalAddress, globalDim, globalStrides,
                            pixelBoxLowerCorner, pixelBoxUpperCorner,
                            channelsPerPixel, pixelsPerColumn, elementStrides,
                            interleave, swizzle, l2Promotion, oobFill);
}

#if CUDA_VERSION >= 12080
/// cuTensorMapEncodeIm2colWide with its failures explained (needs -lcuda
/// and a CUDA 12.8 driver).
inline encode_result encode_im2col_wide(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
    cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, int pixelBoxLowerCornerWidth,
    int pixelBoxUpperCornerWidth, cuuint32_t channelsPerPixel,
    cuuint32_t pixelsPerColumn, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapIm2ColWideMode mode,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  return encode_im2col_wide_with(
      &cuTensorMapEncodeIm2colWide, tensorMap, tensorDataType, tensorRank,
      globalAddress, globalDim, globalStrides, pixelBoxLowerCornerWidth,
      pixelBoxUpperCornerWidth, channelsPerPixel, pixelsPerColumn,
      elementStrides, interleave, mode, swizzle, l2Promotion, oobFill);
}
#endif

/// The throwing forms: encode_*(tma::throw_on_error, operands...) throws
/// tma::encode_error where encode_* returns a failed encode_result.
template <typename... Operands>
void encode_tiled(throw_on_error_t, Operands &&...Ops) {
  detail::throwIfFailed(encode_tiled(std::forward<Operands>(Ops)...));
}
template <typename... Operands>
void encode_im2col(throw_on_error_t, Operands &&...Ops) {
  detail::throwIfFailed(encode_im2col(std::forward<Operands>(Ops)...));
}
#if CUDA_VERSION >= 12080
template <typename... Operands>
void encode_im2col_wide(throw_on_error_t, Operands &&...Ops) {
  detail::throwIfFailed(encode_im2col_wide(std::forward<Operands>(Ops)...));
}
#endif

} // namespace tma

#endif // C++17
#endif // TMA_VALIDATE_H
