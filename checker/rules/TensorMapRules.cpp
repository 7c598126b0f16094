//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/TensorMapRules.h"
#include "rules/DataTypes.h"
#include "rules/EncodeCommon.h"

#include <string>

namespace tma::rules {

using detail::make;

std::optional<DeviceViolation> checkDevReadonlyParam(MapStorage S) {
  if (S != MapStorage::GridConstantParam)
    return std::nullopt;
  return make("TMAP-DEV-READONLY-PARAM", DeviceParam::TensorMap,
              static_cast<std::uint64_t>(S), 0,
              "is a const __grid_constant__ kernel parameter, and modifying "
              "a __grid_constant__ object is undefined behaviour",
              "copy the map to a __shared__ alignas(128) CUtensorMap, "
              "modify the copy with tensormap.replace.*.shared::cta and "
              "publish it with tensormap.cp_fenceproxy to global memory");
}

std::optional<DeviceViolation> checkPlaceGridConstant(MapStorage S,
                                                      bool ReachesTma) {
  if (S != MapStorage::KernelParamCopy || !ReachesTma)
    return std::nullopt;
  return make("TMAP-PLACE-GRID-CONSTANT", DeviceParam::TensorMap,
              static_cast<std::uint64_t>(S), 0,
              "is passed by value without 'const __grid_constant__': its "
              "address points to a local copy, which TMA cannot read");
}

std::optional<DeviceViolation>
checkPlaceGlobalFence(MapStorage S, bool ReadByTensorCopy, bool MayFence) {
  if (S != MapStorage::Global || !ReadByTensorCopy || MayFence)
    return std::nullopt;
  return make("TMAP-PLACE-GLOBAL-FENCE", DeviceParam::TensorMap,
              static_cast<std::uint64_t>(S), 0,
              "executes no fence.proxy.tensormap::generic.acquire before it: "
              "TMA may use a stale copy of the map",
              "in one thread of each block, before the first use: "
              "cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_"
              "acquire, cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), "
              "then __syncthreads(); or pass the map as 'const "
              "__grid_constant__ CUtensorMap'");
}

const char *replaceFieldName(ReplaceField F) {
  switch (F) {
  case ReplaceField::GlobalAddress:
    return "global_address";
  case ReplaceField::Rank:
    return "rank";
  case ReplaceField::BoxDim:
    return "box_dim";
  case ReplaceField::GlobalDim:
    return "global_dim";
  case ReplaceField::GlobalStride:
    return "global_stride";
  case ReplaceField::ElementStride:
    return "element_stride";
  case ReplaceField::ElemType:
    return "elemtype";
  case ReplaceField::InterleaveLayout:
    return "interleave_layout";
  case ReplaceField::SwizzleMode:
    return "swizzle_mode";
  case ReplaceField::SwizzleAtomicity:
    return "swizzle_atomicity";
  case ReplaceField::FillMode:
    return "fill_mode";
  }
  return "?";
}

namespace {

/// PTX's .elemtype codes (tensormap.replace, Table 33).
const char *const ElemTypeNames[] = {
    "u8",    "u16",  "u32",      "s32",    "u64",   "s64",
    "f16",   "f32",  "f32.ftz",  "f64",    "bf16",  "tf32",
    "tf32.ftz", "b4x16", "b4x16_p64", "b6x16_p32"};

/// The .elemtype code of each CUtensorMapDataType (tma-rules.md section 6).
constexpr std::uint64_t ElemTypeOfDataType[] = {0, 1, 2,  3,  4,  5,  6,  7,
                                                9, 10, 8, 11, 12, 13, 14, 15};

/// PTX's .swizzle_mode codes.
const char *const SwizzleModeNames[] = {"none", "32B", "64B", "128B",
                                        "96B"};

/// The largest valid code of \p F; std::nullopt for fields that hold a
/// number rather than a code.
std::optional<std::uint64_t> lastCode(ReplaceField F) {
  switch (F) {
  case ReplaceField::Rank:
    return 4; // rank - 1, rank <= 5
  case ReplaceField::ElemType:
    return 15;
  case ReplaceField::InterleaveLayout:
    return 2;
  case ReplaceField::SwizzleMode:
    return 4;
  case ReplaceField::SwizzleAtomicity:
    return 3;
  case ReplaceField::FillMode:
    return 1;
  default:
    return std::nullopt;
  }
}

std::string field(ReplaceField F) {
  return std::string("tensormap.replace .") + replaceFieldName(F);
}

} // namespace

std::optional<DeviceViolation>
checkReplaceEncoding(ReplaceField F, Known Value, DriverEnum From) {
  std::optional<std::uint64_t> Last = lastCode(F);
  if (!Value || !Last)
    return std::nullopt;
  std::uint64_t V = *Value;
  // A driver enumerator whose number means something else to PTX.
  if (F == ReplaceField::ElemType && From == DriverEnum::DataType &&
      V <= dtype::Last && ElemTypeOfDataType[V] != V) {
    std::uint64_t Code = ElemTypeOfDataType[V];
    return make("TMAP-DEV-REPLACE-ENCODING", DeviceParam::NewValue, V, Code,
                field(F) + " is given " + dataTypeName(V) + " (" +
                    std::to_string(V) +
                    "), a CUtensorMapDataType; PTX reads " +
                    std::to_string(V) + " as ." + ElemTypeNames[V] +
                    " and spells this type " + std::to_string(Code) + " (." +
                    ElemTypeNames[Code] + ")",
                "pass the PTX .elemtype code " + std::to_string(Code) +
                    ", not the driver enumerator");
  }
  if (F == ReplaceField::SwizzleMode && From == DriverEnum::Swizzle &&
      V >= swizzle::B128Atom32B && V <= swizzle::Last) {
    std::uint64_t Atomicity = V - swizzle::B128Atom32B + 1;
    std::string Meaning = V < 5 ? std::string("the ") + SwizzleModeNames[V] +
                                      " swizzle (sm_103a only)"
                                : "no valid swizzle mode";
    return make("TMAP-DEV-REPLACE-ENCODING", DeviceParam::NewValue, V, 3,
                field(F) + " is given " + swizzleName(V) + " (" +
                    std::to_string(V) +
                    "), a CUtensorMapSwizzle; PTX reads " +
                    std::to_string(V) + " as " + Meaning +
                    ", not a 128-byte swizzle with a wider atom",
                "set .swizzle_mode to 3 (128B) and .swizzle_atomicity to " +
                    std::to_string(Atomicity));
  }
  if (V <= *Last)
    return std::nullopt;
  if (F == ReplaceField::Rank)
    return make("TMAP-DEV-REPLACE-ENCODING", DeviceParam::NewValue, V, *Last,
                field(F) + " is given " + std::to_string(V) +
                    ", which sets rank " + std::to_string(V + 1) +
                    ": the field takes the rank minus one, at most 4",
                "pass the rank minus one");
  return make("TMAP-DEV-REPLACE-ENCODING", DeviceParam::NewValue, V, *Last,
              field(F) + " is given " + std::to_string(V) +
                  ", not a valid code (0 to " + std::to_string(*Last) + ")",
              "pass one of the field's PTX codes (PTX ISA, tensormap.replace)");
}

std::vector<Violation> checkReplaceAddressAlign(Known ProvenAlign,
                                                Known Interleave,
                                                Known DataType) {
  const char *Why = nullptr;
  bool ByInterleave = false;
  std::uint64_t Needed =
      globalAddressAlignment(Interleave, DataType, &Why, &ByInterleave);
  if (!ProvenAlign || *ProvenAlign == 0 || *ProvenAlign >= Needed)
    return {};
  Violation V{"TMAP-REPLACE-ADDR-ALIGN",
              Param::GlobalAddress,
              std::nullopt,
              *ProvenAlign,
              Needed,
              "globalAddress is only " + std::to_string(*ProvenAlign) +
                  "-byte aligned; the new address must keep the encode's "
                  "alignment, " +
                  (Why ? std::to_string(Needed) + " bytes for a map encoded "
                                                  "with " +
                             Why
                       : std::string("at least 16 bytes")),
              std::nullopt,
              {}};
  // The map's operand that asks for 32 bytes, for a note at the encode.
  if (Why)
    V.AlsoUses.emplace_back(
        ByInterleave ? Param::Interleave : Param::TensorDataType,
        std::nullopt);
  return {std::move(V)};
}

} // namespace tma::rules
