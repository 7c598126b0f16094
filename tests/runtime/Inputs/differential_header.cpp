// Half of the differential test (../differential.py): reads descriptors, one a
// line, runs the header's check on each with a null globalAddress and an
// aligned map, as the generated constant calls pass them, and prints
// "index ID,ID,..." (ids sorted; "-" for none). Arrays are comma-separated.
//   tiled  index dtype rank dims strides box estrides interleave swizzle l2 oob
//   im2col index dtype rank dims strides lower upper channels pixels estrides
//          interleave mode(unused) swizzle l2 oob
//   wide   index dtype rank dims strides lowerW upperW channels pixels
//          estrides interleave mode swizzle l2 oob
#include <tma/validate.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

template <typename T> static std::vector<T> numbers(const std::string &S) {
  std::vector<T> Out;
  std::stringstream In(S);
  std::string Item;
  while (std::getline(In, Item, ','))
    Out.push_back(std::is_signed<T>::value
                      ? static_cast<T>(std::stoll(Item))
                      : static_cast<T>(std::stoull(Item)));
  return Out;
}

static void print(const std::string &Index, const tma::violations &Vs) {
  std::vector<std::string> Ids;
  for (const tma::violation &V : Vs)
    Ids.push_back(V.rule);
  std::sort(Ids.begin(), Ids.end());
  std::string Out;
  for (const std::string &Id : Ids)
    Out += (Out.empty() ? "" : ",") + Id;
  std::printf("%s %s\n", Index.c_str(), Out.empty() ? "-" : Out.c_str());
}

int main() {
  std::string Line;
  CUtensorMap Map;
  while (std::getline(std::cin, Line)) {
    std::stringstream In(Line);
    std::string Kind, Index, Dims, Strides;
    unsigned long DataType, Rank;
    In >> Kind >> Index >> DataType >> Rank >> Dims >> Strides;
    auto D = numbers<cuuint64_t>(Dims), S = numbers<cuuint64_t>(Strides);
    // The generated code passes an array even when it is empty (rank 1): a
    // pointer to nothing read, not a null one (TMAP-ENC-GSTRIDES-NULL).
    S.push_back(0);
    if (Kind == "tiled") {
      std::string Box, Es;
      unsigned long Interleave, Swizzle, L2, Oob;
      In >> Box >> Es >> Interleave >> Swizzle >> L2 >> Oob;
      auto B = numbers<cuuint32_t>(Box), E = numbers<cuuint32_t>(Es);
      print(Index,
            tma::check_tiled(
                &Map, CUtensorMapDataType(DataType), cuuint32_t(Rank), nullptr,
                D.data(), S.data(), B.data(), E.data(),
                CUtensorMapInterleave(Interleave), CUtensorMapSwizzle(Swizzle),
                CUtensorMapL2promotion(L2), CUtensorMapFloatOOBfill(Oob)));
      continue;
    }
    std::string Lower, Upper, Es;
    unsigned long Channels, Pixels, Interleave, Mode, Swizzle, L2, Oob;
    In >> Lower >> Upper >> Channels >> Pixels >> Es >> Interleave >> Mode >>
        Swizzle >> L2 >> Oob;
    auto E = numbers<cuuint32_t>(Es);
    if (Kind == "im2col") {
      auto Lo = numbers<int>(Lower), Up = numbers<int>(Upper);
      print(Index,
            tma::check_im2col(
                &Map, CUtensorMapDataType(DataType), cuuint32_t(Rank), nullptr,
                D.data(), S.data(), Lo.data(), Up.data(), cuuint32_t(Channels),
                cuuint32_t(Pixels), E.data(), CUtensorMapInterleave(Interleave),
                CUtensorMapSwizzle(Swizzle), CUtensorMapL2promotion(L2),
                CUtensorMapFloatOOBfill(Oob)));
      continue;
    }
    print(Index,
          tma::check_im2col_wide(
              &Map, CUtensorMapDataType(DataType), cuuint32_t(Rank), nullptr,
              D.data(), S.data(), std::stoi(Lower), std::stoi(Upper),
              cuuint32_t(Channels), cuuint32_t(Pixels), E.data(),
              CUtensorMapInterleave(Interleave),
              CUtensorMapIm2ColWideMode(Mode), CUtensorMapSwizzle(Swizzle),
              CUtensorMapL2promotion(L2), CUtensorMapFloatOOBfill(Oob)));
  }
}
