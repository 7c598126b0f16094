// Half of the differential test (../differential.py): reads descriptors, one a
// line ("index dtype rank dims strides box estrides interleave swizzle l2
// oob", arrays comma-separated), runs tma::check_tiled on each with a null
// globalAddress and an aligned map, as the generated constant calls pass
// them, and prints "index ID,ID,..." (ids sorted; "-" for none).
#include <tma/validate.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

template <typename T> static std::vector<T> numbers(const std::string &S) {
  std::vector<T> Out;
  std::stringstream In(S);
  std::string Item;
  while (std::getline(In, Item, ','))
    Out.push_back(static_cast<T>(std::stoull(Item)));
  return Out;
}

int main() {
  std::string Line;
  CUtensorMap Map;
  while (std::getline(std::cin, Line)) {
    std::stringstream In(Line);
    std::string Index, Dims, Strides, Box, Es;
    unsigned long DataType, Rank, Interleave, Swizzle, L2, Oob;
    In >> Index >> DataType >> Rank >> Dims >> Strides >> Box >> Es >>
        Interleave >> Swizzle >> L2 >> Oob;
    auto D = numbers<cuuint64_t>(Dims), S = numbers<cuuint64_t>(Strides);
    auto B = numbers<cuuint32_t>(Box), E = numbers<cuuint32_t>(Es);
    tma::violations Vs = tma::check_tiled(
        &Map, CUtensorMapDataType(DataType), cuuint32_t(Rank), nullptr,
        D.data(), S.data(), B.data(), E.data(),
        CUtensorMapInterleave(Interleave), CUtensorMapSwizzle(Swizzle),
        CUtensorMapL2promotion(L2), CUtensorMapFloatOOBfill(Oob));
    std::vector<std::string> Ids;
    for (const tma::violation &V : Vs)
      Ids.push_back(V.rule);
    std::sort(Ids.begin(), Ids.end());
    std::string Out;
    for (const std::string &Id : Ids)
      Out += (Out.empty() ? "" : ",") + Id;
    std::printf("%s %s\n", Index.c_str(), Out.empty() ? "-" : Out.c_str());
  }
}
