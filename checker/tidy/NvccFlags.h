//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Compile commands for tma-tidy: plain C++17, no Clang or
// LLVM include.
//
//===----------------------------------------------------------------------===//
//
// Two rewrites of a compile command, both pure functions of their inputs:
//
// * translateNvccCommand: an nvcc command line (as CMake writes it into
//   compile_commands.json) becomes a clang one. nvcc's target flags
//   (-arch, -code, -gencode, --generate-code) become --cuda-gpu-arch,
//   host-compiler flags (-Xcompiler) are unwrapped, nvcc-only flags are
//   dropped, and what nvcc defines that clang does not (__CUDACC_VER_MAJOR__)
//   is added.
//
// * splitCudaPasses: a clang CUDA command becomes one command per CUDA pass,
//   the device pass of each --cuda-gpu-arch and the host pass, because a clang
//   tool analyses only one compilation of a command.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_TIDY_NVCCFLAGS_H
#define TMA_TIDY_TIDY_NVCCFLAGS_H

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tma::driver {

/// A CUDA toolkit version, 13.0 for CUDA_VERSION 13000.
struct CudaVersion {
  int Major = 0;
  int Minor = 0;
};

/// The version a cuda.h declares (`#define CUDA_VERSION 13000`), if any.
std::optional<CudaVersion> parseCudaHeaderVersion(std::string_view CudaHeader);

/// Splits the text of an nvcc --options-file into arguments: whitespace
/// separates them, single and double quotes group, a backslash escapes the
/// next character.
std::vector<std::string> splitOptionsFile(std::string_view Text);

/// Whether Executable (a path or a name) is nvcc.
bool isNvcc(std::string_view Executable);

/// The index of nvcc in a command line: 0, or 1 behind a compiler launcher
/// (ccache, sccache); nullopt when the command is not nvcc's.
std::optional<std::size_t> findNvcc(const std::vector<std::string> &Args);

/// What translateNvccCommand needs to know besides the command.
struct NvccContext {
  /// The clang driver that replaces nvcc as the first argument.
  std::string ClangExecutable = "clang++";
  /// The toolkit's root, passed as --cuda-path when not empty.
  std::string CudaPath;
  /// The toolkit's version: __CUDACC_VER_MAJOR__ and __CUDACC_VER_MINOR__.
  std::optional<CudaVersion> Version;
  /// Directories nvcc searches that clang does not (CUDA 13's include/cccl),
  /// added with -isystem.
  std::vector<std::string> ImplicitSystemIncludes;
  /// Reads an --options-file, its path as written in the command; nullopt
  /// when it cannot. Unset: options files are dropped with a note.
  std::function<std::optional<std::string>(const std::string &)> ReadFile;
};

/// A translated command line and what the translation could not do.
struct NvccTranslation {
  /// The clang command line; Args[0] is NvccContext::ClangExecutable.
  std::vector<std::string> Args;
  /// One line per problem (an options file that could not be read, an
  /// -arch=native that names no architecture), for the user.
  std::vector<std::string> Notes;
};

/// Translates an nvcc command line (Args[0], or Args[1] behind a launcher,
/// is nvcc) into a clang driver command line for the same compilation.
/// Arguments nvcc does not know are host-compiler arguments (CMake passes
/// -forward-unknown-to-host-compiler) and are kept as they are.
NvccTranslation translateNvccCommand(const std::vector<std::string> &Args,
                                     const NvccContext &Context);

/// The GPU architectures an nvcc command compiles for, in command order and
/// without duplicates, as clang names them (sm_90a); family targets keep
/// their spelling (sm_100f), splitCudaPasses maps them.
std::vector<std::string> nvccGpuArchs(const std::vector<std::string> &NvccArgs);

/// Whether a clang command line compiles File as CUDA: the last `-x` names
/// cuda, or no `-x` is given and File ends in `.cu`.
bool isCudaCompile(const std::vector<std::string> &Args, std::string_view File);

/// Whether Arg chooses CUDA architectures or passes (--cuda-gpu-arch=,
/// --offload-arch=, --no-cuda-gpu-arch=, --cuda-host-only,
/// --cuda-device-only, ...). tma-tidy takes such arguments out of
/// --extra-arg and gives them to splitCudaPasses.
bool isCudaPassArg(std::string_view Arg);

/// One compilation of a CUDA command.
struct CudaPass {
  /// "host", the architecture of a device pass ("sm_90a"), or "device" for a
  /// device pass with clang's default architecture.
  std::string Name;
  /// The clang command line of this pass.
  std::vector<std::string> Args;
};

struct CudaPassOptions {
  /// Define what nvcc defines for architecture-specific targets:
  /// __CUDA_ARCH_SPECIFIC__ for sm_XXa, __CUDA_ARCH_FAMILY_SPECIFIC__ for
  /// sm_XXa (nvcc defines both for them). Family targets (sm_XXf) always get
  /// __CUDA_ARCH_FAMILY_SPECIFIC__, since they are analysed as sm_XXa.
  bool NvccArchMacros = false;
  /// Arguments of isCudaPassArg that the user gave to tma-tidy, applied
  /// after those of the command.
  std::vector<std::string> ExtraPassArgs;
};

/// Splits a clang CUDA command into its passes: a device pass
/// (--cuda-device-only) for each --cuda-gpu-arch/--offload-arch, in command
/// order, then the host pass (--cuda-host-only). A --cuda-host-only or
/// --cuda-device-only in the command (the last one counts, as in clang)
/// keeps only those passes. clang 22 rejects family targets: sm_100f is
/// analysed as sm_100a.
std::vector<CudaPass> splitCudaPasses(const std::vector<std::string> &Args,
                                      const CudaPassOptions &Options);

} // namespace tma::driver

#endif // TMA_TIDY_TIDY_NVCCFLAGS_H
