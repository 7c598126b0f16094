//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of compat/NvccCompat.
//
//===----------------------------------------------------------------------===//
//
// The opt-out macro as the command line leaves it, and which destructors
// the action drops: libcu++'s barriers in system headers only, not a user's
// class of the same name. The end-to-end behaviour (valid declarations, the
// checks' diagnostics in all three tools) is in the lit tests
// checkers/tma/nvcc-compat-shared.cu and infrastructure/nvcc-compat-tools.test.
//
//===----------------------------------------------------------------------===//

#include "compat/NvccCompat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::tma;

namespace {

TEST(NvccCompatEnabled, OnUnlessTheLastDefinitionIsZero) {
  EXPECT_TRUE(nvccCompatEnabled({}));
  EXPECT_TRUE(nvccCompatEnabled({{"NDEBUG", false}}));
  EXPECT_FALSE(nvccCompatEnabled({{"TMA_NVCC_COMPAT=0", false}}));
  EXPECT_TRUE(nvccCompatEnabled({{"TMA_NVCC_COMPAT=1", false}}));
  EXPECT_TRUE(nvccCompatEnabled({{"TMA_NVCC_COMPAT", false}}));
  // -D...=0 then -U...: the macro is undefined, the default holds.
  EXPECT_TRUE(nvccCompatEnabled(
      {{"TMA_NVCC_COMPAT=0", false}, {"TMA_NVCC_COMPAT", true}}));
  EXPECT_FALSE(nvccCompatEnabled(
      {{"TMA_NVCC_COMPAT=1", false}, {"TMA_NVCC_COMPAT=0", false}}));
  // Another macro with the same prefix is not the option.
  EXPECT_TRUE(nvccCompatEnabled({{"TMA_NVCC_COMPATX=0", false}}));
}

const char *const Code = R"cpp(
# 1 "libcuxx.h" 1 3
namespace cuda {
inline namespace __4 {
template <int Scope> class barrier { public: ~barrier() { (void)Scope; } };
template <> class barrier<1> { public: ~barrier() {} };
namespace std { class barrier { public: ~barrier() {} }; }
}
class fence { public: ~fence() {} };
}
namespace other { class barrier { public: ~barrier() {} }; }
# 12 "user.cu" 2
namespace cuda { class barrier2 { public: ~barrier2() {} }; }
namespace mine { namespace cuda { class barrier { public: ~barrier() {} }; } }
namespace cuda { namespace user { class barrier { public: ~barrier() {} }; } }
void use() { cuda::barrier<1> a; cuda::barrier<2> b; }
)cpp";

/// Whether the destructor of the class named \p Qualified is dropped.
bool dropped(ASTUnit &AST, const std::string &Qualified) {
  auto Found = match(
      cxxDestructorDecl(ofClass(hasName(Qualified))).bind("d"),
      AST.getASTContext());
  bool Any = false, All = true;
  for (const BoundNodes &N : Found) {
    Any = true;
    All = All && isLibcuxxBarrierDestructor(
                     *N.getNodeAs<CXXDestructorDecl>("d"));
  }
  return Any && All;
}

TEST(IsLibcuxxBarrierDestructor, LibcuxxBarriersInSystemHeadersOnly) {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"}, "input.cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  EXPECT_TRUE(dropped(*AST, "::cuda::barrier"));
  EXPECT_TRUE(dropped(*AST, "::cuda::std::barrier"));
  EXPECT_FALSE(dropped(*AST, "::cuda::fence"));
  EXPECT_FALSE(dropped(*AST, "::other::barrier"));
  EXPECT_FALSE(dropped(*AST, "::cuda::barrier2"));
  // Not in a system header, or not under the outermost namespace cuda.
  EXPECT_FALSE(dropped(*AST, "::mine::cuda::barrier"));
  EXPECT_FALSE(dropped(*AST, "::cuda::user::barrier"));
}

} // namespace
