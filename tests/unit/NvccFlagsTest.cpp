//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Unit tests of tma-tidy's compile-command rewrites
// (checker/tidy/NvccFlags): nvcc to clang, and CUDA passes.
//
//===----------------------------------------------------------------------===//

#include "tidy/NvccFlags.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace tma::driver;
using Args = std::vector<std::string>;

namespace {

NvccContext toolkit13() {
  NvccContext Context;
  Context.ClangExecutable = "/usr/lib/llvm-22/bin/clang++";
  Context.CudaPath = "/usr/local/cuda";
  Context.Version = CudaVersion{13, 0};
  Context.ImplicitSystemIncludes = {"/usr/local/cuda/include/cccl"};
  return Context;
}

Args translate(const Args &Command, const NvccContext &Context = toolkit13()) {
  return translateNvccCommand(Command, Context).Args;
}

bool contains(const Args &List, const std::string &Item) {
  return std::find(List.begin(), List.end(), Item) != List.end();
}

/// Whether Needle occurs in Haystack as consecutive arguments.
bool containsRun(const Args &Haystack, const Args &Needle) {
  return std::search(Haystack.begin(), Haystack.end(), Needle.begin(),
                     Needle.end()) != Haystack.end();
}

std::vector<std::string> archsOf(const Args &Clang) {
  std::vector<std::string> Archs;
  for (const std::string &Arg : Clang)
    if (Arg.rfind("--cuda-gpu-arch=", 0) == 0)
      Archs.push_back(Arg.substr(16));
  return Archs;
}

} // namespace

// The command CMake 3.25 writes for a CUDA target with nvcc 13.0.
TEST(NvccTranslate, CMakeCommand) {
  Args Out = translate(
      {"/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler",
       "-DFOO=1", "-I/tmp/p/inc",
       "--generate-code=arch=compute_90a,code=[compute_90a,sm_90a]",
       "--generate-code=arch=compute_100a,code=[sm_100a]", "-Xcompiler=-fPIC",
       "--expt-relaxed-constexpr", "--extended-lambda", "-Xcompiler=-Wall",
       "-std=c++17", "-x", "cu", "-rdc=true", "-c", "/tmp/p/k.cu", "-o",
       "CMakeFiles/k.dir/k.cu.o"});
  Args Expected = {"/usr/lib/llvm-22/bin/clang++",
                   "-DFOO=1",
                   "-I/tmp/p/inc",
                   "-fPIC",
                   "-Wall",
                   "-std=c++17",
                   "-x",
                   "cuda",
                   "-c",
                   "/tmp/p/k.cu",
                   "-fgpu-rdc",
                   "--cuda-gpu-arch=sm_90a",
                   "--cuda-gpu-arch=sm_100a",
                   "--cuda-path=/usr/local/cuda",
                   "-D__CUDACC_VER_MAJOR__=13",
                   "-D__CUDACC_VER_MINOR__=0",
                   "-isystem",
                   "/usr/local/cuda/include/cccl",
                   "-Wno-unknown-cuda-version"};
  EXPECT_EQ(Out, Expected);
}

TEST(NvccTranslate, ArchForms) {
  using Case = std::pair<Args, std::vector<std::string>>;
  const std::vector<Case> Cases = {
      {{"-arch=sm_90a"}, {"sm_90a"}},
      {{"-arch", "sm_90a"}, {"sm_90a"}},
      {{"--gpu-architecture=sm_80"}, {"sm_80"}},
      {{"--gpu-architecture", "compute_90a"}, {"sm_90a"}},
      {{"-arch=compute_90a", "-code=sm_90a,compute_90a"}, {"sm_90a"}},
      {{"-arch=compute_80", "--gpu-code", "sm_86,sm_89"}, {"sm_86", "sm_89"}},
      {{"-gencode", "arch=compute_90a,code=sm_90a"}, {"sm_90a"}},
      {{"-gencode=arch=compute_90a,code=\"sm_90a,compute_90a\""}, {"sm_90a"}},
      {{"--generate-code", "arch=compute_100f,code=[sm_100f]"}, {"sm_100f"}},
      {{"-gencode", "arch=compute_80,code=sm_80", "-gencode",
        "arch=compute_90a,code=[sm_90a,compute_90a]", "-gencode",
        "arch=compute_80,code=compute_80"},
       {"sm_80", "sm_90a"}},
      {{"-gencode=arch=compute_120a,code=lto_120a"}, {"sm_120a"}},
      {{"-arch=native"}, {}},
      {{"-arch=all-major"}, {}},
      {{}, {}},
  };
  for (const auto &[Flags, Want] : Cases) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-x", "cu", "-c", "k.cu"});
    Args Out = translate(Command);
    EXPECT_EQ(archsOf(Out), Want)
        << Flags.size() << " flags, first: " << (Flags.empty() ? "" : Flags[0]);
    EXPECT_EQ(nvccGpuArchs(Command), Want);
    for (const std::string &Arg : Out) {
      EXPECT_NE(Arg.find("arch=compute"), 0u) << Arg;
      EXPECT_NE(Arg, "-gencode");
      EXPECT_NE(Arg, "-arch");
    }
  }
}

TEST(NvccTranslate, NativeArchIsANote) {
  NvccTranslation Out =
      translateNvccCommand({"nvcc", "-arch=native", "-c", "k.cu"}, toolkit13());
  ASSERT_EQ(Out.Notes.size(), 1u);
  EXPECT_NE(Out.Notes[0].find("native"), std::string::npos);
}

TEST(NvccTranslate, DroppedFlags) {
  const Args Dropped = {
      "--expt-relaxed-constexpr",
      "-expt-relaxed-constexpr",
      "--expt-extended-lambda",
      "--extended-lambda",
      "-forward-unknown-to-host-compiler",
      "--use_fast_math",
      "-use_fast_math",
      "-lineinfo",
      "--generate-line-info",
      "-G",
      "--keep",
      "-MD",
      "-MMD",
      "--Wno-deprecated-gpu-targets",
      "-Wno-deprecated-gpu-targets",
      "--display-error-number",
      "-Werror=cross-execution-space-call",
      "--diag-suppress=20012",
      "-Xcudafe=--diag_suppress=177",
      "-Xptxas=-v",
      "-ccbin=/usr/bin/g++-12",
      "--resource-usage",
      "-ftz=true",
      "--allow-unsupported-compiler",
      "-lcuda",
      "-L/usr/local/cuda/lib64",
      // nvcc 13.0's short spellings and the options the table missed
      // (nvcc --help); clang would reject them or read them as link flags.
      "-res-usage",
      "-err-no",
      "-no-err-no",
      "-nohdinitlist",
      "-nohdmoveforward",
      "-lto",
      "-ltoir",
      "-nodlink",
      "-objtemp",
      "-use-local-env",
      "-noprof",
      "-clean",
      "-arch-ls",
      "-code-ls",
      "-jobserver",
      "-reloc-ptx",
      "-astoolspatch",
      "-aug-hls",
      "-jtd=2",
      "--Ofast-compile=max",
  };
  for (const std::string &Flag : Dropped) {
    Args Out = translate({"nvcc", Flag, "-x", "cu", "-c", "k.cu"});
    EXPECT_FALSE(contains(Out, Flag)) << Flag;
    EXPECT_TRUE(containsRun(Out, {"-x", "cuda", "-c", "k.cu"})) << Flag;
  }
}

TEST(NvccTranslate, DroppedFlagsWithSeparateValues) {
  const std::vector<Args> Dropped = {
      {"-ccbin", "/usr/bin/g++-12"},
      {"--compiler-bindir", "/usr/bin/g++-12"},
      {"-Xptxas", "-v,-warn-spills"},
      {"-Xcudafe", "--diag_suppress=177"},
      {"--diag-suppress", "20012,20013"},
      {"-Werror", "all-warnings"},
      {"--keep-dir", "/tmp/keep"},
      {"-MT", "k.o", "-MF", "k.o.d"},
      {"-o", "k.o"},
      {"--output-file", "k.o"},
      {"-maxrregcount", "64"},
      {"-t", "4"},
      {"--threads", "0"},
      {"-Xnvlink", "--verbose"},
      {"-default-stream", "per-thread"},
      // Their values must not become input files.
      {"-jtd", "2"},
      {"-Ofc", "max"},
      {"-target-dir", "x86_64-linux"},
      {"-idp", "/cygdrive/"},
      {"-ddp", "/cygdrive/"},
      {"-dp", "/cygdrive/"},
      {"-arbin", "/usr/bin/ar"},
      {"-ldir", "/usr/local/cuda/nvvm/libdevice"},
      {"--libdevice-directory", "/usr/local/cuda/nvvm/libdevice"},
      {"-sanitize", "memcheck"},
  };
  for (const Args &Flags : Dropped) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-x", "cu", "-c", "k.cu"});
    Args Out = translate(Command);
    for (const std::string &Flag : Flags)
      EXPECT_FALSE(contains(Out, Flag)) << Flags[0] << " " << Flag;
    EXPECT_TRUE(containsRun(Out, {"-x", "cuda", "-c", "k.cu"})) << Flags[0];
  }
}

TEST(NvccTranslate, TranslatedFlags) {
  using Case = std::pair<Args, Args>;
  const std::vector<Case> Cases = {
      {{"-Xcompiler=-fPIC"}, {"-fPIC"}},
      {{"-Xcompiler", "-Wall,-Wextra"}, {"-Wall", "-Wextra"}},
      {{"--compiler-options=-O2,-fopenmp"}, {"-O2", "-fopenmp"}},
      {{"-rdc=true"}, {"-fgpu-rdc"}},
      {{"--relocatable-device-code", "true"}, {"-fgpu-rdc"}},
      {{"-dc"}, {"-fgpu-rdc"}},
      {{"--device-c"}, {"-fgpu-rdc"}},
      {{"-isystem=/opt/inc"}, {"-isystem", "/opt/inc"}},
      {{"--system-include", "/opt/inc"}, {"-isystem", "/opt/inc"}},
      {{"-I", "/opt/inc"}, {"-I/opt/inc"}},
      {{"--include-path=/opt/inc"}, {"-I/opt/inc"}},
      {{"-DNAME=1"}, {"-DNAME=1"}},
      {{"--define-macro", "NAME"}, {"-DNAME"}},
      {{"-UNAME"}, {"-UNAME"}},
      {{"--pre-include", "pre.h"}, {"-include", "pre.h"}},
      {{"--std", "c++20"}, {"-std=c++20"}},
      {{"-O3"}, {"-O3"}},
      {{"--optimize", "2"}, {"-O2"}},
      {{"-g"}, {"-g"}},
      {{"--disable-warnings"}, {"-w"}},
      {{"-fPIC"}, {"-fPIC"}},
      {{"-Wno-unused-parameter"}, {"-Wno-unused-parameter"}},
      // A blank inside an -Xcompiler value separates host flags (nvcc hands
      // the value to the host compiler's command line): Makefiles write
      // -Xcompiler "-fPIC -Wall".
      {{"-Xcompiler", "-fPIC -Wall"}, {"-fPIC", "-Wall"}},
      {{"-Xcompiler=-O3 -fopenmp,-Wextra"}, {"-O3", "-fopenmp", "-Wextra"}},
      // nvcc's own spellings of clang flags, and separate values that clang
      // wants joined.
      {{"-O", "3"}, {"-O3"}},
      {{"-noeh"}, {"-fno-exceptions"}},
      {{"--no-exceptions"}, {"-fno-exceptions"}},
      {{"-ftemplate-backtrace-limit", "0"}, {"-ftemplate-backtrace-limit=0"}},
      {{"--ftemplate-backtrace-limit=0"}, {"-ftemplate-backtrace-limit=0"}},
      {{"-ftemplate-depth", "128"}, {"-ftemplate-depth=128"}},
      {{"--Wreorder"}, {"-Wreorder"}},
      {{"--Wno-deprecated-declarations"}, {"-Wno-deprecated-declarations"}},
      {{"--m64"}, {"-m64"}},
  };
  for (const auto &[Flags, Want] : Cases) {
    Args Command = {"nvcc"};
    Command.insert(Command.end(), Flags.begin(), Flags.end());
    Command.insert(Command.end(), {"-x", "cu", "-c", "k.cu"});
    Args Out = translate(Command);
    EXPECT_TRUE(containsRun(Out, Want)) << Flags[0];
  }
  // A macro value with quotes and no blank stays one argument, as it was.
  EXPECT_TRUE(contains(translate({"nvcc", "-Xcompiler=-DNAME=\"x\"", "-x",
                                  "cu", "-c", "k.cu"}),
                       "-DNAME=\"x\""));
  // -rdc=false is nvcc's default.
  EXPECT_FALSE(
      contains(translate({"nvcc", "-rdc=false", "-c", "k.cu"}), "-fgpu-rdc"));
}

TEST(NvccTranslate, OptionsFiles) {
  std::map<std::string, std::string> Files = {
      {"CMakeFiles/k.dir/includes_CUDA.rsp",
       "-I/tmp/p/inc \"-I/tmp/p/with space\" --options-file nested.rsp"},
      {"nested.rsp", "-isystem=/opt/inc -DFROM_NESTED"},
  };
  NvccContext Context = toolkit13();
  Context.ReadFile =
      [&](const std::string &Path) -> std::optional<std::string> {
    auto It = Files.find(Path);
    if (It == Files.end())
      return std::nullopt;
    return It->second;
  };
  NvccTranslation Out = translateNvccCommand(
      {"nvcc", "--options-file", "CMakeFiles/k.dir/includes_CUDA.rsp",
       "-optf=missing.rsp", "-x", "cu", "-c", "k.cu"},
      Context);
  EXPECT_TRUE(containsRun(Out.Args, {"-I/tmp/p/inc", "-I/tmp/p/with space",
                                     "-isystem", "/opt/inc", "-DFROM_NESTED"}));
  ASSERT_EQ(Out.Notes.size(), 1u);
  EXPECT_NE(Out.Notes[0].find("missing.rsp"), std::string::npos);
  for (const std::string &Arg : Out.Args)
    EXPECT_EQ(Arg.find("options-file"), std::string::npos) << Arg;
}

TEST(NvccTranslate, ToolkitFacts) {
  Args Out = translate({"nvcc", "-x", "cu", "-c", "k.cu"});
  EXPECT_TRUE(contains(Out, "-D__CUDACC_VER_MAJOR__=13"));
  EXPECT_TRUE(contains(Out, "-D__CUDACC_VER_MINOR__=0"));
  EXPECT_TRUE(contains(Out, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(contains(Out, "--cuda-path=/usr/local/cuda"));

  // The user's own definition wins.
  Out = translate(
      {"nvcc", "-D__CUDACC_VER_MAJOR__=12", "-x", "cu", "-c", "k.cu"});
  EXPECT_FALSE(contains(Out, "-D__CUDACC_VER_MAJOR__=13"));

  // Unknown toolkit: nothing invented.
  NvccContext Bare;
  Out = translate({"nvcc", "-x", "cu", "-c", "k.cu"}, Bare);
  EXPECT_EQ(Out, (Args{"clang++", "-x", "cuda", "-c", "k.cu",
                       "-Wno-unknown-cuda-version"}));

  // A .cu file without -x is CUDA too; a .cpp one is host C++, untouched.
  EXPECT_TRUE(contains(translate({"nvcc", "-arch=sm_90a", "-c", "k.cu"}),
                       "--cuda-gpu-arch=sm_90a"));
  EXPECT_EQ(translate({"nvcc", "-arch=sm_90a", "-c", "k.cpp"}),
            (Args{"/usr/lib/llvm-22/bin/clang++", "-c", "k.cpp"}));
}

// An interpolated command (a header's, made from a .cu one) can spell the
// language as clang does and end its options with `--`.
TEST(NvccTranslate, EndOfOptions) {
  Args Out = translate(
      {"nvcc", "-c", "-x", "cuda", "-arch=sm_90a", "--", "/src/k.cuh"});
  ASSERT_GE(Out.size(), 3u);
  EXPECT_EQ(Out[Out.size() - 2], "--");
  EXPECT_EQ(Out.back(), "/src/k.cuh");
  EXPECT_TRUE(contains(Out, "--cuda-gpu-arch=sm_90a"));
  EXPECT_TRUE(contains(Out, "-Wno-unknown-cuda-version"));
  Out = translate({"nvcc", "-arch=sm_90a", "-c", "--", "-k.cu"});
  EXPECT_EQ(Out.back(), "-k.cu");
  EXPECT_TRUE(contains(Out, "--cuda-gpu-arch=sm_90a"));
}

TEST(NvccTranslate, FindsNvcc) {
  EXPECT_TRUE(isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isNvcc("nvcc"));
  EXPECT_FALSE(isNvcc("/usr/bin/clang++"));
  EXPECT_FALSE(isNvcc("nvcc-wrapper"));
  EXPECT_EQ(findNvcc({"/usr/local/cuda/bin/nvcc", "-c"}), 0u);
  EXPECT_EQ(findNvcc({"/usr/bin/ccache", "/usr/local/cuda/bin/nvcc"}), 1u);
  EXPECT_EQ(findNvcc({"/usr/bin/ccache", "/usr/bin/g++"}), std::nullopt);
  EXPECT_EQ(findNvcc({}), std::nullopt);
  Args Out = translate({"ccache", "nvcc", "-arch=sm_90a", "-c", "k.cu"});
  EXPECT_EQ(Out[0], "/usr/lib/llvm-22/bin/clang++");
  EXPECT_FALSE(contains(Out, "nvcc"));
}

TEST(NvccTranslate, CudaHeaderVersion) {
  auto Version = parseCudaHeaderVersion(
      "#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n"
      "#define CUDA_VERSION_FOO 1\n#define CUDA_VERSION 12080\n");
  ASSERT_TRUE(Version);
  EXPECT_EQ(Version->Major, 12);
  EXPECT_EQ(Version->Minor, 8);
  Version = parseCudaHeaderVersion("#define\tCUDA_VERSION  13000 ");
  ASSERT_TRUE(Version);
  EXPECT_EQ(Version->Major, 13);
  EXPECT_EQ(Version->Minor, 0);
  EXPECT_FALSE(parseCudaHeaderVersion("#define CUDA_VERSIONS 1"));
  EXPECT_FALSE(parseCudaHeaderVersion(""));
}

TEST(NvccTranslate, SplitsOptionsFiles) {
  EXPECT_EQ(splitOptionsFile("  -I/a\n-DX=\"a b\" 'c d'  e\\ f\n"),
            (Args{"-I/a", "-DX=a b", "c d", "e f"}));
  EXPECT_EQ(splitOptionsFile(""), Args{});
  EXPECT_EQ(splitOptionsFile("\"\""), Args{""});
}

TEST(CudaPasses, IsCudaCompile) {
  EXPECT_TRUE(isCudaCompile({"clang++", "-c", "k.cu"}, "k.cu"));
  EXPECT_FALSE(isCudaCompile({"clang++", "-c", "k.cpp"}, "k.cpp"));
  EXPECT_TRUE(isCudaCompile({"clang++", "-x", "cuda", "k.cpp"}, "k.cpp"));
  EXPECT_TRUE(isCudaCompile({"clang++", "-xcuda", "k.cpp"}, "k.cpp"));
  EXPECT_FALSE(isCudaCompile({"clang++", "-x", "c++", "k.cu"}, "k.cu"));
  // -x applies to the files after it.
  EXPECT_FALSE(isCudaCompile({"clang++", "k.cpp", "-x", "cuda"}, "k.cpp"));
}

TEST(CudaPasses, DevicePerArchThenHost) {
  std::vector<CudaPass> Passes =
      splitCudaPasses({"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_90a",
                       "--offload-arch=sm_80,sm_100a", "-c", "k.cu"},
                      {});
  ASSERT_EQ(Passes.size(), 4u);
  EXPECT_EQ(Passes[0].Name, "sm_90a");
  EXPECT_EQ(Passes[0].Args,
            (Args{"clang++", "-x", "cuda", "-c", "k.cu",
                  "--cuda-gpu-arch=sm_90a", "--cuda-device-only"}));
  EXPECT_EQ(Passes[1].Name, "sm_80");
  EXPECT_EQ(Passes[2].Name, "sm_100a");
  EXPECT_EQ(Passes[3].Name, "host");
  EXPECT_EQ(Passes[3].Args,
            (Args{"clang++", "-x", "cuda", "-c", "k.cu",
                  "--cuda-gpu-arch=sm_90a", "--cuda-gpu-arch=sm_80",
                  "--cuda-gpu-arch=sm_100a", "--cuda-host-only"}));
}

TEST(CudaPasses, DefaultArch) {
  std::vector<CudaPass> Passes =
      splitCudaPasses({"clang++", "-x", "cuda", "k.cu"}, {});
  ASSERT_EQ(Passes.size(), 2u);
  EXPECT_EQ(Passes[0].Name, "device");
  EXPECT_EQ(Passes[0].Args,
            (Args{"clang++", "-x", "cuda", "k.cu", "--cuda-device-only"}));
  EXPECT_EQ(Passes[1].Args,
            (Args{"clang++", "-x", "cuda", "k.cu", "--cuda-host-only"}));
}

TEST(CudaPasses, PassSelection) {
  Args Command = {"clang++", "--cuda-gpu-arch=sm_90a", "--cuda-gpu-arch=sm_80",
                  "k.cu"};
  CudaPassOptions HostOnly;
  HostOnly.ExtraPassArgs = {"--cuda-host-only"};
  std::vector<CudaPass> Passes = splitCudaPasses(Command, HostOnly);
  ASSERT_EQ(Passes.size(), 1u);
  EXPECT_EQ(Passes[0].Name, "host");

  Command.emplace_back("--cuda-device-only");
  Passes = splitCudaPasses(Command, {});
  ASSERT_EQ(Passes.size(), 2u);
  EXPECT_EQ(Passes[0].Name, "sm_90a");
  EXPECT_EQ(Passes[1].Name, "sm_80");

  // The last choice counts, as in clang.
  CudaPassOptions Both;
  Both.ExtraPassArgs = {"--cuda-host-only", "--cuda-compile-host-device"};
  EXPECT_EQ(splitCudaPasses({"clang++", "k.cu"}, Both).size(), 2u);

  // Extra architectures add passes; --no-cuda-gpu-arch removes them.
  CudaPassOptions Extra;
  Extra.ExtraPassArgs = {"--cuda-gpu-arch=sm_100a",
                         "--no-cuda-gpu-arch=sm_90a"};
  Passes =
      splitCudaPasses({"clang++", "--cuda-gpu-arch=sm_90a", "k.cu"}, Extra);
  ASSERT_EQ(Passes.size(), 2u);
  EXPECT_EQ(Passes[0].Name, "sm_100a");
  CudaPassOptions NoneLeft;
  NoneLeft.ExtraPassArgs = {"--no-offload-arch=all"};
  Passes =
      splitCudaPasses({"clang++", "--cuda-gpu-arch=sm_90a", "k.cu"}, NoneLeft);
  ASSERT_EQ(Passes.size(), 2u);
  EXPECT_EQ(Passes[0].Name, "device");
}

TEST(CudaPasses, FamilyTargets) {
  std::vector<CudaPass> Passes = splitCudaPasses(
      {"clang++", "--cuda-gpu-arch=sm_100f", "--cuda-gpu-arch=sm_100a", "k.cu"},
      {});
  ASSERT_EQ(Passes.size(), 2u);
  EXPECT_EQ(Passes[0].Name, "sm_100a");
  EXPECT_EQ(Passes[0].Args, (Args{"clang++", "k.cu", "--cuda-gpu-arch=sm_100a",
                                  "--cuda-device-only",
                                  "-D__CUDA_ARCH_FAMILY_SPECIFIC__=1000"}));
  EXPECT_EQ(Passes[1].Args, (Args{"clang++", "k.cu", "--cuda-gpu-arch=sm_100a",
                                  "--cuda-host-only"}));
}

TEST(CudaPasses, NvccArchMacros) {
  CudaPassOptions Nvcc;
  Nvcc.NvccArchMacros = true;
  std::vector<CudaPass> Passes = splitCudaPasses(
      {"clang++", "--cuda-gpu-arch=sm_90a", "--cuda-gpu-arch=sm_80", "k.cu"},
      Nvcc);
  ASSERT_EQ(Passes.size(), 3u);
  EXPECT_TRUE(contains(Passes[0].Args, "-D__CUDA_ARCH_SPECIFIC__=900"));
  EXPECT_TRUE(contains(Passes[0].Args, "-D__CUDA_ARCH_FAMILY_SPECIFIC__=900"));
  EXPECT_EQ(Passes[1].Args, (Args{"clang++", "k.cu", "--cuda-gpu-arch=sm_80",
                                  "--cuda-device-only"}));
  for (const std::string &Arg : Passes[2].Args)
    EXPECT_EQ(Arg.find("-D__CUDA_ARCH"), std::string::npos);
}

TEST(CudaPasses, EndOfOptions) {
  std::vector<CudaPass> Passes =
      splitCudaPasses({"clang++", "--cuda-gpu-arch=sm_90a", "--", "k.cu"}, {});
  ASSERT_EQ(Passes.size(), 2u);
  EXPECT_EQ(Passes[0].Args, (Args{"clang++", "--cuda-gpu-arch=sm_90a",
                                  "--cuda-device-only", "--", "k.cu"}));
}

TEST(CudaPasses, PassArgs) {
  for (const char *Arg :
       {"--cuda-gpu-arch=sm_90a", "--offload-arch=sm_80,sm_90",
        "--no-cuda-gpu-arch=sm_80", "--cuda-host-only", "--cuda-device-only",
        "--offload-host-only", "--offload-device-only",
        "--cuda-compile-host-device"})
    EXPECT_TRUE(isCudaPassArg(Arg)) << Arg;
  for (const char *Arg : {"-x", "cuda", "--cuda-path=/usr/local/cuda",
                          "-std=c++17", "-Wno-unknown-cuda-version"})
    EXPECT_FALSE(isCudaPassArg(Arg)) << Arg;
}
