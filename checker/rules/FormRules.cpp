//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//

#include "rules/FormRules.h"

#include <algorithm>
#include <initializer_list>
#include <string>

namespace tma::rules {

namespace {

using detail::bytes;
using detail::make;

bool oneOf(const std::string &S, std::initializer_list<const char *> L) {
  return std::any_of(L.begin(), L.end(),
                     [&](const char *E) { return S == E; });
}

} // namespace

std::optional<DeviceViolation> checkBulkIgnoreOob(Known Bytes, bool Right) {
  if (!Bytes)
    return std::nullopt;
  // A 32-bit operand.
  std::uint64_t B = *Bytes & 0xffffffffu;
  if (B <= MaxIgnoreOobBytes)
    return std::nullopt;
  const char *Name = Right ? "ignoreBytesRight" : "ignoreBytesLeft";
  return make("BULK-IGNORE-OOB",
              Right ? DeviceParam::IgnoreBytesRight
                    : DeviceParam::IgnoreBytesLeft,
              B, MaxIgnoreOobBytes,
              std::string(Name) + " is " + bytes(B) +
                  ", outside the valid range [0, 15] of .ignore_oob",
              "copy from a 16-byte aligned start and ignore at most 15 bytes "
              "at each end");
}

std::optional<DeviceViolation> checkMbarInitCountLayout(Known Count) {
  if (!Count)
    return std::nullopt;
  std::uint64_t C = *Count & 0xffffffffu;
  if (C >= 1 && C <= MaxLayoutV1Count)
    return std::nullopt;
  return make("MBAR-INIT-COUNT-LAYOUT", DeviceParam::InitCount, C,
              C == 0 ? 1 : MaxLayoutV1Count,
              "count is " + std::to_string(C) +
                  (C == 1 ? " arrival" : " arrivals") +
                  ", outside the range [1, 511] of a .layout::v1 barrier",
              C == 0 ? std::string()
                     : "initialise a .layout::v0 barrier (up to 2^20-1 "
                       "arrivals), or count fewer arrivals");
}

std::optional<DeviceViolation> checkBulkStSize(Known Size, Known InitValue) {
  if (InitValue && *InitValue != 0)
    return make("BULK-ST-SIZE", DeviceParam::InitValue, *InitValue, 0,
                "initval is " + std::to_string(*InitValue) +
                    "; st.bulk only fills with 0");
  if (!Size)
    return std::nullopt;
  std::uint64_t S = *Size;
  if (S == 0)
    return make("BULK-ST-SIZE", DeviceParam::Size, S, 8,
                "size is 0 bytes; st.bulk fills a non-zero multiple of 8 "
                "bytes");
  if (S % 8 != 0)
    return make("BULK-ST-SIZE", DeviceParam::Size, S, 8,
                "size is " + bytes(S) + ", not a multiple of 8 bytes",
                "fill " + bytes((S / 8 + 1) * 8));
  if (S > MaxStBulkBytes)
    return make("BULK-ST-SIZE", DeviceParam::Size, S, MaxStBulkBytes,
                "size is " + bytes(S) + ", above the st.bulk maximum of " +
                    bytes(MaxStBulkBytes) + " (16 MiB)");
  return std::nullopt;
}

std::optional<DeviceViolation> checkBulkReduceOpType(BulkReduceDst Dst,
                                                     const std::string &Op,
                                                     const std::string &Type,
                                                     bool NoFtz) {
  if (Type.empty() || Op.empty())
    return std::nullopt;
  const bool Global = Dst == BulkReduceDst::Global;
  bool Valid;
  if (Op == "add")
    Valid = Global ? oneOf(Type, {"u32", "s32", "u64", "f32", "f64", "f16",
                                  "bf16"})
                   : oneOf(Type, {"u32", "s32", "u64"});
  else if (Op == "min" || Op == "max")
    Valid = Global ? oneOf(Type, {"u32", "s32", "u64", "s64", "f16", "bf16"})
                   : oneOf(Type, {"u32", "s32"});
  else if (Op == "inc" || Op == "dec")
    Valid = Type == "u32";
  else if (Op == "and" || Op == "or" || Op == "xor")
    Valid = Global ? oneOf(Type, {"b32", "b64"}) : Type == "b32";
  else
    return std::nullopt;
  std::string Form = "." + Op + "." + Type;
  const char *Where = Global ? "a .global destination"
                             : "a .shared::cluster destination";
  if (!Valid)
    return make("BULK-REDUCE-OP-TYPE", DeviceParam::ReduceOp, 0, 0,
                Form + " is not a reduction PTX defines for " +
                    std::string(Where),
                Global ? "" : "reduce into global memory, which allows more "
                              "type combinations");
  if (Op == "add" && (Type == "f16" || Type == "bf16") && !NoFtz)
    return make("BULK-REDUCE-OP-TYPE", DeviceParam::ReduceOp, 0, 0,
                Form + " requires the .noftz qualifier",
                "write .add.noftz." + Type);
  return std::nullopt;
}

std::optional<DeviceViolation> checkTmaReduceMode(CopyMode M) {
  if (M != CopyMode::Scatter4)
    return std::nullopt;
  return make("TMA-REDUCE-MODE", DeviceParam::LoadMode,
              static_cast<std::uint64_t>(M), 0,
              "a tensor reduction cannot use .tile::scatter4",
              "reduce the rows with .tile copies, or scatter with "
              "cp.async.bulk.tensor");
}

std::optional<DeviceViolation> checkTmaStoreNonneg(std::size_t Index,
                                                   Known Coord) {
  if (!Coord)
    return std::nullopt;
  const auto C = static_cast<std::int32_t>(*Coord & 0xffffffffu);
  if (C >= 0)
    return std::nullopt;
  return make("TMA-STORE-NONNEG", DeviceParam::Coords, *Coord, 0,
              "coordinate " + std::to_string(Index) + " is " +
                  std::to_string(C) +
                  "; a tensor store or reduction starts its box at "
                  "non-negative coordinates",
              "clamp the box start to 0 (loads may start out of bounds, "
              "stores may not)");
}

std::optional<DeviceViolation>
checkTmaIm2colInfo(CopyMode M, Known Dims, const std::vector<Known> &Info) {
  const bool Wide = M == CopyMode::Im2colW || M == CopyMode::Im2colW128;
  if ((M != CopyMode::Im2col && !Wide) || !Dims)
    return std::nullopt;
  const std::string Mode = copyModeName(M);
  if (*Dims < 3)
    return make("TMA-IM2COL-INFO", DeviceParam::Dims, *Dims, 3,
                Mode + " copies a tensor of at least 3 dimensions, but the "
                       "copy is ." +
                    std::to_string(*Dims) + "d");
  if (*Dims > 5)
    return std::nullopt;
  const std::uint64_t Expected = Wide ? 2 : *Dims - 2;
  if (Info.size() != Expected)
    return make("TMA-IM2COL-INFO", DeviceParam::Im2colInfo, Info.size(),
                Expected,
                "im2colInfo has " + std::to_string(Info.size()) +
                    (Info.size() == 1 ? " element" : " elements") + ", but ." +
                    std::to_string(*Dims) + "d " + Mode + " takes exactly " +
                    std::to_string(Expected) +
                    (Wide ? " ({wHalo, wOffset})" : " (one offset per "
                                                    "spatial dimension "
                                                    "but the outermost)"));
  for (std::size_t I = 0; I < Info.size(); ++I) {
    if (!Info[I])
      continue;
    // 16-bit operands.
    const std::uint64_t V = *Info[I] & 0xffffu;
    std::uint64_t Max;
    std::string Name;
    if (!Wide) {
      Max = *Dims == 3 ? 0xffff : *Dims == 4 ? 0xff : 0x1f;
      Name = "offset " + std::to_string(I);
    } else if (I == 0) {
      Max = M == CopyMode::Im2colW ? 511 : 31;
      Name = "wHalo";
    } else {
      Max = 31;
      Name = "wOffset";
    }
    if (V > Max)
      return make("TMA-IM2COL-INFO", DeviceParam::Im2colInfo, V, Max,
                  "im2colInfo " + Name + " is " + std::to_string(V) +
                      ", outside the range [0, " + std::to_string(Max) +
                      "] of ." + std::to_string(*Dims) + "d " + Mode);
  }
  return std::nullopt;
}

std::optional<DeviceViolation> checkBulkMulticast(Known CtaMask,
                                                  Known ClusterSize) {
  if (!CtaMask || !ClusterSize || *ClusterSize < 1 || *ClusterSize > 16)
    return std::nullopt;
  const std::uint64_t Mask = *CtaMask & 0xffffu;
  const std::uint64_t Valid = (std::uint64_t{1} << *ClusterSize) - 1;
  if ((Mask & ~Valid) == 0)
    return std::nullopt;
  unsigned High = 0;
  for (unsigned B = 0; B < 16; ++B)
    if (Mask >> B & 1)
      High = B;
  return make("BULK-MULTICAST", DeviceParam::CtaMask, Mask, Valid,
              "ctaMask 0x" + [](std::uint64_t V) {
                static const char *Hex = "0123456789abcdef";
                std::string S;
                do {
                  S.insert(S.begin(), Hex[V & 15]);
                  V >>= 4;
                } while (V);
                return S;
              }(Mask) + " selects CTA rank " + std::to_string(High) +
                  ", but the cluster has " + std::to_string(*ClusterSize) +
                  (*ClusterSize == 1 ? " CTA" : " CTAs"),
              "keep the mask within the cluster's " +
                  std::to_string(*ClusterSize) + " low bits");
}

std::optional<DeviceViolation> checkTmaOverrideAddrAlign(Known AddressAlign) {
  if (!AddressAlign || *AddressAlign == 0 || *AddressAlign >= 16)
    return std::nullopt;
  return make("TMA-OVERRIDE-ATTR", DeviceParam::GlobalAddress, *AddressAlign,
              16,
              "gAddrToOverride is only " + std::to_string(*AddressAlign) +
                  "-byte aligned, but .override::global_address needs a 16-byte "
                  "aligned address",
              "keep the offset from the allocation a multiple of 16 bytes");
}

std::optional<DeviceViolation>
checkTmaOverrideForm(bool AttributeOverride, bool AddressOverride, CopyMode M) {
  if (!AttributeOverride)
    return std::nullopt;
  if (!AddressOverride)
    return make("TMA-OVERRIDE-ATTR", DeviceParam::LoadMode, 0, 0,
                ".override_attribute is only valid together with "
                ".override::global_address",
                "add .override::global_address and its gAddrToOverride "
                "operand");
  if (M != CopyMode::Tile)
    return make("TMA-OVERRIDE-ATTR", DeviceParam::LoadMode,
                static_cast<std::uint64_t>(M), 0,
                std::string(".override_attribute needs tile mode, but the "
                            "copy is ") +
                    copyModeName(M),
                "override the attributes of a .tile copy");
  return std::nullopt;
}

std::optional<DeviceViolation> checkTmaMapStateSpace(MapStorage S) {
  const char *Where;
  switch (S) {
  case MapStorage::GridConstantParam:
  case MapStorage::Constant:
  case MapStorage::Global:
  case MapStorage::KernelParamCopy:
    return std::nullopt;
  case MapStorage::Local:
    Where = "a local variable, in local memory";
    break;
  case MapStorage::DeviceParamCopy:
    Where = "a by-value parameter of a __device__ function, a copy in local "
            "memory";
    break;
  case MapStorage::Shared:
    Where = "in shared memory";
    break;
  }
  return make("TMA-MAP-STATE-SPACE", DeviceParam::TensorMap,
              static_cast<std::uint64_t>(S), 0,
              std::string("is ") + Where +
                  ", but TMA reads a tensor map only from a const "
                  "__grid_constant__ kernel parameter, __constant__ or global "
                  "memory",
              S == MapStorage::DeviceParamCopy
                  ? "pass the map by pointer or reference to const"
                  : "use the kernel parameter, the __constant__ or the global "
                    "map itself, not a copy");
}

} // namespace tma::rules
