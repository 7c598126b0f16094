//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of api/EncodeCall's call filter.
//
//===----------------------------------------------------------------------===//
//
// mayBeEncodeCall is the shared call matcher's filter for tma-descriptor and
// tma-encode-result: it must accept every call classifyEncodeCall accepts
// (or a check would miss it) and should reject the calls that only share an
// encoder's operand count (every two-operand call of a TU has
// cuTensorMapReplaceAddress's).
//
//===----------------------------------------------------------------------===//

#include "api/EncodeCall.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "StubAST.h"
#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::tidy::tma;

namespace {

const char *const Code = R"cuda(
#include <cuda.h>
int add(int a, int b) { return a + b; }
int twelve(int, int, int, int, int, int, int, int, int, int, int, int);
struct Wrapper {
  CUresult cuTensorMapReplaceAddress(CUtensorMap *m, void *p) {
    return ::cuTensorMapReplaceAddress(m, p);
  }
};
struct Functor {
  CUresult operator()(CUtensorMap *, void *) { return CUDA_SUCCESS; }
};
typedef CUresult (*Replace)(CUtensorMap *, void *);
void host(CUtensorMap *m, void *src, Replace viaPointer, Replace &viaRef,
          cuuint64_t *dims, cuuint64_t *strides, cuuint32_t *box,
          cuuint32_t *es) {
  /*direct-tiled*/ cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, src, dims, strides, box, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  /*direct-replace*/ cuTensorMapReplaceAddress(m, src);
  /*add*/ add(1, 2);
  /*twelve*/ twelve(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  Wrapper w;
  /*method*/ w.cuTensorMapReplaceAddress(m, src);
  Functor f;
  /*functor*/ f(m, src);
  /*pointer*/ viaPointer(m, src);
  /*reference*/ viaRef(m, src);
}
)cuda";

/// The calls of the main file, by the comment in front of them.
class Calls : public RecursiveASTVisitor<Calls> {
public:
  explicit Calls(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitCallExpr(CallExpr *C) {
    All.push_back(C);

    const SourceManager &SM = Ctx.getSourceManager();
    // An operator call begins at its operator; the object comes first.
    SourceLocation Loc = isa<CXXOperatorCallExpr>(C)
                             ? C->getArg(0)->getBeginLoc()
                             : C->getBeginLoc();
    if (!SM.isInMainFile(Loc))
      return true;
    // The comment ends right before the call: /*name*/ call(...).
    StringRef Text = SM.getBufferData(SM.getMainFileID());
    size_t End = SM.getFileOffset(Loc);
    if (End >= 3 && Text.substr(End - 3, 2) == "*/") {
      size_t Begin = Text.take_front(End).rfind("/*");
      if (Begin != StringRef::npos)
        Named[Text.slice(Begin + 2, End - 3).str()] = C;
    }
    return true;
  }
  ASTContext &Ctx;
  std::vector<const CallExpr *> All;
  std::map<std::string, const CallExpr *> Named;
};

TEST(EncodeCallTest, FilterAcceptsEveryEncodeCallAndRejectsNamedOthers) {
  std::unique_ptr<ASTUnit> AST = tma_test::buildStubAST(Code, "--cuda-host-only");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  Calls C(Ctx);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());

  // Every call of the TU, the headers' included: the filter never drops
  // what the classifier accepts.
  unsigned Encodes = 0;
  for (const CallExpr *Call : C.All)
    if (classifyEncodeCall(*Call)) {
      ++Encodes;
      EXPECT_TRUE(mayBeEncodeCall(*Call));
    }
  EXPECT_GE(Encodes, 5u);

  const std::map<std::string, bool> Expected = {
      {"direct-tiled", true}, {"direct-replace", true}, {"add", false},
      {"twelve", false},      {"method", true},         {"functor", false},
      {"pointer", true},      {"reference", true}};
  for (const auto &[Name, Accepts] : Expected) {
    auto It = C.Named.find(Name);
    ASSERT_NE(It, C.Named.end()) << Name;
    EXPECT_EQ(mayBeEncodeCall(*It->second), Accepts) << Name;
    // Where the filter rejects, the classifier does too.
    if (!Accepts)
      EXPECT_FALSE(classifyEncodeCall(*It->second)) << Name;
  }
}

} // namespace
