//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. Compile commands for tma-tidy: plain C++17, no Clang or
// LLVM include.
//
//===----------------------------------------------------------------------===//

#include "tidy/NvccFlags.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <string>

namespace tma::driver {

namespace {

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.substr(0, Prefix.size()) == Prefix;
}

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

/// Splits S at each Separator, dropping empty pieces.
std::vector<std::string> split(std::string_view S, char Separator) {
  std::vector<std::string> Pieces;
  std::size_t Start = 0;
  while (Start <= S.size()) {
    std::size_t End = S.find(Separator, Start);
    if (End == std::string_view::npos)
      End = S.size();
    if (End > Start)
      Pieces.emplace_back(S.substr(Start, End - Start));
    Start = End + 1;
  }
  return Pieces;
}

std::string_view baseName(std::string_view Path) {
  std::size_t Slash = Path.find_last_of("/\\");
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

//===--------------------------------------------------------------------===//
// nvcc's options
//===--------------------------------------------------------------------===//

/// What the translation does with an nvcc option.
enum class Action {
  DropFlag,      // nvcc-only, no value: dropped.
  DropValue,     // nvcc-only, with a value: both dropped.
  Include,       // -I, --include-path: -I<v>.
  SystemInclude, // -isystem, --system-include: -isystem <v>.
  Define,        // -D, --define-macro: -D<v>.
  Undefine,      // -U, --undefine-macro: -U<v>.
  PreInclude,    // -include, --pre-include: -include <v>.
  Std,           // -std, --std: -std=<v>.
  Optimize,      // --optimize <v>: -O<v>.
  Language,      // -x, --x: -x cuda for cu.
  Compile,       // -c, --compile: -c.
  DeviceC,       // -dc, --device-c: -fgpu-rdc -c.
  DeviceW,       // -dw, --device-w: -c.
  Rdc,           // -rdc, --relocatable-device-code <bool>: -fgpu-rdc.
  Debug,         // -g, --debug: -g.
  NoWarnings,    // -w, --disable-warnings: -w.
  Xcompiler,     // -Xcompiler, --compiler-options: the host flags.
  OptionsFile,   // -optf, --options-file: its arguments, translated.
  Arch,          // -arch, --gpu-architecture.
  Code,          // -code, --gpu-code.
  Gencode,       // -gencode, --generate-code.
  Werror,        // -Werror <kinds>: nvcc's warning kinds, dropped.
  ClangFlag,     // No value: NvccOption::Clang (--no-exceptions: -fno-exceptions).
  ClangJoined,   // A value: NvccOption::Clang followed by the value
                 // (-ftemplate-depth 64: -ftemplate-depth=64).
};

struct NvccOption {
  std::string_view Name; // Without dashes; nvcc takes one or two.
  Action What;
  std::string_view Clang = {}; // ClangFlag, ClangJoined: what clang takes.
};

bool takesValue(Action What) {
  switch (What) {
  case Action::DropFlag:
  case Action::Compile:
  case Action::DeviceC:
  case Action::DeviceW:
  case Action::Debug:
  case Action::NoWarnings:
  case Action::ClangFlag:
    return false;
  default:
    return true;
  }
}

// nvcc 13.0's options (nvcc --help) that clang does not take as they are.
// Options not listed here are kept: with -forward-unknown-to-host-compiler
// (CMake always passes it) they are the host compiler's.
constexpr NvccOption NvccOptions[] = {
    // Language and the host compiler.
    {"expt-relaxed-constexpr", Action::DropFlag},
    {"expt-extended-lambda", Action::DropFlag},
    {"extended-lambda", Action::DropFlag},
    {"forward-unknown-to-host-compiler", Action::DropFlag},
    {"forward-unknown-to-host-linker", Action::DropFlag},
    {"forward-unknown-opts", Action::DropFlag},
    {"allow-unsupported-compiler", Action::DropFlag},
    {"no-host-device-initializer-list", Action::DropFlag},
    {"nohdinitlist", Action::DropFlag},
    {"no-host-device-move-forward", Action::DropFlag},
    {"nohdmoveforward", Action::DropFlag},
    {"no-exceptions", Action::ClangFlag, "-fno-exceptions"},
    {"noeh", Action::ClangFlag, "-fno-exceptions"},
    {"ftemplate-backtrace-limit", Action::ClangJoined,
     "-ftemplate-backtrace-limit="},
    {"ftemplate-depth", Action::ClangJoined, "-ftemplate-depth="},
    {"m64", Action::ClangFlag, "-m64"},
    {"restrict", Action::DropFlag},
    {"ccbin", Action::DropValue},
    {"compiler-bindir", Action::DropValue},
    {"Xcompiler", Action::Xcompiler},
    {"compiler-options", Action::Xcompiler},
    {"optf", Action::OptionsFile},
    {"options-file", Action::OptionsFile},
    {"x", Action::Language},
    {"std", Action::Std},
    {"I", Action::Include},
    {"include-path", Action::Include},
    {"isystem", Action::SystemInclude},
    {"system-include", Action::SystemInclude},
    {"D", Action::Define},
    {"define-macro", Action::Define},
    {"U", Action::Undefine},
    {"undefine-macro", Action::Undefine},
    {"include", Action::PreInclude},
    {"pre-include", Action::PreInclude},
    {"optimize", Action::Optimize},
    {"O", Action::Optimize}, // -O 3; the joined -O3 is clang's too.
    {"g", Action::Debug},
    {"debug", Action::Debug},
    {"w", Action::NoWarnings},
    {"disable-warnings", Action::NoWarnings},
    {"default-stream", Action::DropValue},
    // Targets.
    {"arch", Action::Arch},
    {"gpu-architecture", Action::Arch},
    {"code", Action::Code},
    {"gpu-code", Action::Code},
    {"gencode", Action::Gencode},
    {"generate-code", Action::Gencode},
    // Compilation phases and separate compilation.
    {"c", Action::Compile},
    {"compile", Action::Compile},
    {"dc", Action::DeviceC},
    {"device-c", Action::DeviceC},
    {"dw", Action::DeviceW},
    {"device-w", Action::DeviceW},
    {"rdc", Action::Rdc},
    {"relocatable-device-code", Action::Rdc},
    {"E", Action::DropFlag},
    {"preprocess", Action::DropFlag},
    {"cuda", Action::DropFlag},
    {"ptx", Action::DropFlag},
    {"cubin", Action::DropFlag},
    {"fatbin", Action::DropFlag},
    {"optix-ir", Action::DropFlag},
    {"lib", Action::DropFlag},
    {"link", Action::DropFlag},
    {"dlink", Action::DropFlag},
    {"device-link", Action::DropFlag},
    {"shared", Action::DropFlag},
    {"run", Action::DropFlag},
    {"run-args", Action::DropValue},
    {"extensible-whole-program", Action::DropFlag},
    {"ewp", Action::DropFlag},
    {"dlink-time-opt", Action::DropFlag},
    {"dlto", Action::DropFlag},
    {"lto", Action::DropFlag},
    {"ltoir", Action::DropFlag},
    {"no-device-link", Action::DropFlag},
    {"nodlink", Action::DropFlag},
    {"relocatable-link", Action::DropFlag},
    {"r", Action::DropFlag},
    {"relocatable-ptx", Action::DropFlag},
    {"reloc-ptx", Action::DropFlag},
    {"compile-as-tools-patch", Action::DropFlag},
    {"astoolspatch", Action::DropFlag},
    {"Ofast-compile", Action::DropValue},
    {"Ofc", Action::DropValue},
    {"sanitize", Action::DropValue},
    {"gen-opt-lto", Action::DropFlag},
    {"fdevice-syntax-only", Action::DropFlag},
    {"fdevice-time-trace", Action::DropValue},
    {"static-global-template-stub", Action::DropValue},
    {"device-entity-has-hidden-visibility", Action::DropValue},
    {"cudart", Action::DropValue},
    {"cudadevrt", Action::DropValue},
    {"entries", Action::DropValue},
    {"machine", Action::DropValue},
    // Outputs, dependency files, temporaries.
    {"o", Action::DropValue},
    {"output-file", Action::DropValue},
    {"odir", Action::DropValue},
    {"output-directory", Action::DropValue},
    {"M", Action::DropFlag},
    {"MM", Action::DropFlag},
    {"MD", Action::DropFlag},
    {"MMD", Action::DropFlag},
    {"MP", Action::DropFlag},
    {"generate-dependencies", Action::DropFlag},
    {"generate-nonsystem-dependencies", Action::DropFlag},
    {"generate-dependencies-with-compile", Action::DropFlag},
    {"generate-nonsystem-dependencies-with-compile", Action::DropFlag},
    {"generate-dependency-targets", Action::DropFlag},
    {"MF", Action::DropValue},
    {"dependency-output", Action::DropValue},
    {"MT", Action::DropValue},
    {"dependency-target-name", Action::DropValue},
    {"keep", Action::DropFlag},
    {"save-temps", Action::DropFlag},
    {"keep-dir", Action::DropValue},
    {"keep-device-functions", Action::DropFlag},
    {"dryrun", Action::DropFlag},
    {"objdir-as-tempdir", Action::DropFlag},
    {"objtemp", Action::DropFlag},
    {"clean-targets", Action::DropFlag},
    {"clean", Action::DropFlag},
    {"list-gpu-code", Action::DropFlag},
    {"code-ls", Action::DropFlag},
    {"list-gpu-arch", Action::DropFlag},
    {"arch-ls", Action::DropFlag},
    {"jobserver", Action::DropFlag},
    {"use-local-env", Action::DropFlag},
    {"force-cl-env-setup", Action::DropFlag},
    {"profile", Action::DropFlag},
    {"pg", Action::DropFlag},
    {"dont-use-profile", Action::DropFlag},
    {"noprof", Action::DropFlag},
    {"augment-host-linker-script", Action::DropFlag},
    {"aug-hls", Action::DropFlag},
    {"v", Action::DropFlag},
    {"verbose", Action::DropFlag},
    {"time", Action::DropValue},
    {"threads", Action::DropValue},
    {"t", Action::DropValue},
    {"split-compile", Action::DropValue},
    {"split-compile-extended", Action::DropValue},
    {"no-compress", Action::DropFlag},
    {"compress-mode", Action::DropValue},
    // Code generation and the other tools.
    {"G", Action::DropFlag},
    {"device-debug", Action::DropFlag},
    {"lineinfo", Action::DropFlag},
    {"generate-line-info", Action::DropFlag},
    {"use_fast_math", Action::DropFlag},
    {"ftz", Action::DropValue},
    {"prec-div", Action::DropValue},
    {"prec-sqrt", Action::DropValue},
    {"fmad", Action::DropValue},
    {"extra-device-vectorization", Action::DropFlag},
    {"maxrregcount", Action::DropValue},
    {"resource-usage", Action::DropFlag},
    {"res-usage", Action::DropFlag},
    {"source-in-ptx", Action::DropFlag},
    {"src-in-ptx", Action::DropFlag},
    {"jump-table-density", Action::DropValue},
    {"jtd", Action::DropValue},
    {"dopt", Action::DropValue},
    {"frandom-seed", Action::DropValue},
    {"Xptxas", Action::DropValue},
    {"ptxas-options", Action::DropValue},
    {"Xnvlink", Action::DropValue},
    {"nvlink-options", Action::DropValue},
    {"Xfatbin", Action::DropValue},
    {"fatbin-options", Action::DropValue},
    {"Xarchive", Action::DropValue},
    {"archive-options", Action::DropValue},
    {"Xlinker", Action::DropValue},
    {"linker-options", Action::DropValue},
    {"Xcudafe", Action::DropValue},
    {"host-linker-script", Action::DropValue},
    {"l", Action::DropValue},
    {"library", Action::DropValue},
    {"L", Action::DropValue},
    {"library-path", Action::DropValue},
    {"qpp-config", Action::DropValue},
    {"target-directory", Action::DropValue},
    {"target-dir", Action::DropValue},
    {"input-drive-prefix", Action::DropValue},
    {"idp", Action::DropValue},
    {"dependency-drive-prefix", Action::DropValue},
    {"ddp", Action::DropValue},
    {"drive-prefix", Action::DropValue},
    {"dp", Action::DropValue},
    {"archiver-binary", Action::DropValue},
    {"arbin", Action::DropValue},
    {"libdevice-directory", Action::DropValue},
    {"ldir", Action::DropValue},
    // Diagnostics of nvcc's front end (cudafe) and of ptxas.
    {"Werror", Action::Werror},
    {"Wno-deprecated-gpu-targets", Action::DropFlag},
    {"Wdefault-stream-launch", Action::DropFlag},
    {"Wmissing-launch-bounds", Action::DropFlag},
    {"Wext-lambda-captures-this", Action::DropFlag},
    {"display-error-number", Action::DropFlag},
    {"err-no", Action::DropFlag},
    {"no-display-error-number", Action::DropFlag},
    {"no-err-no", Action::DropFlag},
    // nvcc's spellings of host warnings: --Wreorder is clang's -Wreorder.
    {"Wreorder", Action::ClangFlag, "-Wreorder"},
    {"Wno-deprecated-declarations", Action::ClangFlag,
     "-Wno-deprecated-declarations"},
    {"diag-suppress", Action::DropValue},
    {"diag-warn", Action::DropValue},
    {"diag-error", Action::DropValue},
    {"diag-default", Action::DropValue},
};

const NvccOption *findOption(std::string_view Name) {
  for (const NvccOption &Option : NvccOptions)
    if (Option.Name == Name)
      return &Option;
  return nullptr;
}

/// An nvcc option at Args[I], with its value.
struct ParsedOption {
  const NvccOption *Option = nullptr;
  std::string Value;
  bool HasValue = false;
};

/// Recognises the nvcc option at Args[I] (`-name`, `--name`, `-name=value`,
/// `-name value`, and the joined `-Ipath`, `-DX`, `-UX`, `-Lpath`, `-lname`
/// forms), advancing I past a separate value. nullopt for anything else.
std::optional<ParsedOption> parseOption(const std::vector<std::string> &Args,
                                        std::size_t &I) {
  std::string_view Arg = Args[I];
  if (Arg.size() < 2 || Arg[0] != '-')
    return std::nullopt;
  bool DoubleDash = startsWith(Arg, "--");
  std::string_view Body = Arg.substr(DoubleDash ? 2 : 1);
  std::size_t Equal = Body.find('=');
  std::string_view Name = Body.substr(0, Equal);

  ParsedOption Parsed;
  Parsed.Option = findOption(Name);
  if (Parsed.Option) {
    if (Equal != std::string_view::npos) {
      Parsed.Value = std::string(Body.substr(Equal + 1));
      Parsed.HasValue = true;
    }
  } else if (!DoubleDash && Body.size() > 1 &&
             std::string_view("IDULl").find(Body[0]) !=
                 std::string_view::npos) {
    Parsed.Option = findOption(Body.substr(0, 1));
    Parsed.Value = std::string(Body.substr(1));
    Parsed.HasValue = true;
  } else {
    return std::nullopt;
  }

  if (takesValue(Parsed.Option->What) && !Parsed.HasValue &&
      I + 1 < Args.size()) {
    Parsed.Value = Args[++I];
    Parsed.HasValue = true;
  }
  return Parsed;
}

//===--------------------------------------------------------------------===//
// Architectures
//===--------------------------------------------------------------------===//

/// The clang architecture of an nvcc target name: sm_90a for sm_90a,
/// compute_90a and lto_90a; nullopt for anything else.
std::optional<std::string> gpuArchOf(std::string_view Target) {
  for (std::string_view Prefix : {"sm_", "compute_", "lto_"}) {
    if (!startsWith(Target, Prefix))
      continue;
    std::string_view Rest = Target.substr(Prefix.size());
    std::size_t Digits = 0;
    while (Digits < Rest.size() &&
           std::isdigit(static_cast<unsigned char>(Rest[Digits])))
      ++Digits;
    if (Digits == 0)
      return std::nullopt;
    std::string_view Suffix = Rest.substr(Digits);
    if (!Suffix.empty() && Suffix != "a" && Suffix != "f")
      return std::nullopt;
    return "sm_" + std::string(Rest);
  }
  return std::nullopt;
}

void addUnique(std::vector<std::string> &List, std::string Value) {
  if (std::find(List.begin(), List.end(), Value) == List.end())
    List.push_back(std::move(Value));
}

/// Removes the quotes and brackets around nvcc's target lists:
/// code=[sm_90a,compute_90a], code="sm_90a,compute_90a".
std::string stripListPunctuation(std::string_view Value) {
  std::string Result;
  for (char C : Value)
    if (C != '[' && C != ']' && C != '"' && C != '\'')
      Result += C;
  return Result;
}

/// The targets of one -gencode value: `arch=compute_90a,code=[sm_90a,...]`.
/// The codes, or the virtual architecture when no code is named.
std::vector<std::string> gencodeTargets(std::string_view Value) {
  std::vector<std::string> Arch, Code;
  std::vector<std::string> *Current = nullptr;
  for (const std::string &Piece : split(stripListPunctuation(Value), ',')) {
    std::string_view Item = Piece;
    if (startsWith(Item, "arch=")) {
      Current = &Arch;
      Item.remove_prefix(5);
    } else if (startsWith(Item, "code=")) {
      Current = &Code;
      Item.remove_prefix(5);
    }
    if (Current && !Item.empty())
      Current->emplace_back(Item);
  }
  return Code.empty() ? Arch : Code;
}

/// The architecture number of sm_90a / sm_100f (900, 1000), or 0.
int archNumber(std::string_view Arch) {
  if (!startsWith(Arch, "sm_"))
    return 0;
  int Number = 0;
  for (char C : Arch.substr(3)) {
    if (!std::isdigit(static_cast<unsigned char>(C)))
      break;
    Number = Number * 10 + (C - '0');
  }
  return Number * 10;
}

/// The arguments of nvcc's command line with --options-file expanded.
void expandOptionsFiles(const std::vector<std::string> &Args,
                        const NvccContext &Context, int Depth,
                        std::vector<std::string> &Out,
                        std::vector<std::string> &Notes) {
  for (std::size_t I = 0; I < Args.size(); ++I) {
    std::size_t Start = I;
    std::optional<ParsedOption> Parsed = parseOption(Args, I);
    if (!Parsed || Parsed->Option->What != Action::OptionsFile) {
      Out.insert(Out.end(), Args.begin() + Start, Args.begin() + I + 1);
      continue;
    }
    for (const std::string &File : split(Parsed->Value, ',')) {
      std::optional<std::string> Text;
      if (Context.ReadFile && Depth < 8)
        Text = Context.ReadFile(File);
      if (!Text) {
        Notes.push_back("cannot read the nvcc options file '" + File +
                        "'; its options are left out");
        continue;
      }
      expandOptionsFiles(splitOptionsFile(*Text), Context, Depth + 1, Out,
                         Notes);
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Public functions
//===----------------------------------------------------------------------===//

std::optional<CudaVersion> parseCudaHeaderVersion(std::string_view Header) {
  std::size_t Pos = 0;
  while ((Pos = Header.find("#define", Pos)) != std::string_view::npos) {
    Pos += 7;
    std::size_t Cursor = Pos;
    while (Cursor < Header.size() &&
           (Header[Cursor] == ' ' || Header[Cursor] == '\t'))
      ++Cursor;
    constexpr std::string_view Macro = "CUDA_VERSION";
    if (Header.substr(Cursor, Macro.size()) != Macro)
      continue;
    Cursor += Macro.size();
    if (Cursor >= Header.size() ||
        (Header[Cursor] != ' ' && Header[Cursor] != '\t'))
      continue;
    while (Cursor < Header.size() &&
           (Header[Cursor] == ' ' || Header[Cursor] == '\t'))
      ++Cursor;
    long Value = 0;
    std::size_t Digits = 0;
    while (Cursor < Header.size() && Digits < 8 &&
           std::isdigit(static_cast<unsigned char>(Header[Cursor]))) {
      Value = Value * 10 + (Header[Cursor++] - '0');
      ++Digits;
    }
    if (Digits == 0)
      continue;
    return CudaVersion{static_cast<int>(Value / 1000),
                       static_cast<int>(Value % 1000 / 10)};
  }
  return std::nullopt;
}

std::vector<std::string> splitOptionsFile(std::string_view Text) {
  std::vector<std::string> Args;
  std::string Current;
  bool InArg = false;
  char Quote = 0;
  for (std::size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size() && Quote != '\'') {
      Current += Text[++I];
      InArg = true;
    } else if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Current += C;
    } else if (C == '"' || C == '\'') {
      Quote = C;
      InArg = true;
    } else if (std::isspace(static_cast<unsigned char>(C))) {
      if (InArg)
        Args.push_back(std::move(Current));
      Current.clear();
      InArg = false;
    } else {
      Current += C;
      InArg = true;
    }
  }
  if (InArg)
    Args.push_back(std::move(Current));
  return Args;
}

bool isNvcc(std::string_view Executable) {
  std::string_view Name = baseName(Executable);
  return Name == "nvcc" || Name == "nvcc.exe";
}

std::optional<std::size_t> findNvcc(const std::vector<std::string> &Args) {
  if (Args.empty())
    return std::nullopt;
  if (isNvcc(Args[0]))
    return 0;
  std::string_view Launcher = baseName(Args[0]);
  if ((Launcher == "ccache" || Launcher == "sccache" ||
       Launcher == "buildcache") &&
      Args.size() > 1 && isNvcc(Args[1]))
    return 1;
  return std::nullopt;
}

std::vector<std::string>
nvccGpuArchs(const std::vector<std::string> &NvccArgs) {
  std::vector<std::string> Gencodes, Archs, Codes;
  for (std::size_t I = 0; I < NvccArgs.size(); ++I) {
    std::optional<ParsedOption> Parsed = parseOption(NvccArgs, I);
    if (!Parsed || !Parsed->HasValue)
      continue;
    std::vector<std::string> Targets;
    switch (Parsed->Option->What) {
    case Action::Gencode:
      for (const std::string &Target : gencodeTargets(Parsed->Value))
        Gencodes.push_back(Target);
      break;
    case Action::Arch:
      for (const std::string &Target :
           split(stripListPunctuation(Parsed->Value), ','))
        Archs.push_back(Target);
      break;
    case Action::Code:
      for (const std::string &Target :
           split(stripListPunctuation(Parsed->Value), ','))
        Codes.push_back(Target);
      break;
    default:
      break;
    }
  }
  // -code names what is built; -arch alone builds its own architecture.
  const std::vector<std::string> &Plain = Codes.empty() ? Archs : Codes;
  std::vector<std::string> Result;
  const std::vector<std::string> *Lists[] = {&Gencodes, &Plain};
  for (const std::vector<std::string> *List : Lists)
    for (const std::string &Target : *List)
      if (std::optional<std::string> Arch = gpuArchOf(Target))
        addUnique(Result, *Arch);
  return Result;
}

NvccTranslation translateNvccCommand(const std::vector<std::string> &Args,
                                     const NvccContext &Context) {
  NvccTranslation Result;
  std::optional<std::size_t> NvccIndex = findNvcc(Args);
  std::size_t First = NvccIndex ? *NvccIndex + 1 : 1;
  std::vector<std::string> Input;
  if (First < Args.size())
    expandOptionsFiles(
        std::vector<std::string>(Args.begin() + First, Args.end()), Context, 0,
        Input, Result.Notes);

  std::vector<std::string> &Out = Result.Args;
  Out.emplace_back(Context.ClangExecutable);
  bool Cuda = false, Rdc = false, DefinesVersion = false;
  // Arguments after a `--` are inputs, kept behind what is added.
  std::vector<std::string> Inputs;
  for (std::size_t I = 0; I < Input.size(); ++I) {
    if (Input[I] == "--") {
      Inputs.assign(Input.begin() + I, Input.end());
      break;
    }
    std::optional<ParsedOption> Parsed = parseOption(Input, I);
    if (!Parsed) {
      const std::string &Arg = Input[I];
      if (Arg[0] != '-' && endsWith(Arg, ".cu"))
        Cuda = true;
      Out.emplace_back(Arg);
      continue;
    }
    const std::string &Value = Parsed->Value;
    switch (Parsed->Option->What) {
    case Action::DropFlag:
    case Action::DropValue:
    case Action::Werror:
      break;
    case Action::Include:
      Out.emplace_back("-I" + Value);
      break;
    case Action::SystemInclude:
      Out.emplace_back("-isystem");
      Out.emplace_back(Value);
      break;
    case Action::Define:
      if (startsWith(Value, "__CUDACC_VER_MAJOR__"))
        DefinesVersion = true;
      Out.emplace_back("-D" + Value);
      break;
    case Action::Undefine:
      Out.emplace_back("-U" + Value);
      break;
    case Action::PreInclude:
      Out.emplace_back("-include");
      Out.emplace_back(Value);
      break;
    case Action::Std:
      Out.emplace_back("-std=" + Value);
      break;
    case Action::Optimize:
      Out.emplace_back("-O" + Value);
      break;
    case Action::Language:
      Out.emplace_back("-x");
      Out.emplace_back(Value == "cu" ? "cuda" : Value);
      Cuda = Value == "cu" || Value == "cuda";
      break;
    case Action::Compile:
    case Action::DeviceW:
      Out.emplace_back("-c");
      break;
    case Action::DeviceC:
      Rdc = true;
      Out.emplace_back("-c");
      break;
    case Action::Rdc:
      Rdc = Value == "true";
      break;
    case Action::Debug:
      Out.emplace_back("-g");
      break;
    case Action::NoWarnings:
      Out.emplace_back("-w");
      break;
    case Action::Xcompiler:
      // nvcc splits at commas, and puts each piece into the host
      // compiler's command line as it is, where a shell splits it at blanks:
      // -Xcompiler "-fPIC -Wall" is two flags.
      for (const std::string &Piece : split(Value, ',')) {
        if (Piece.find_first_of(" \t") == std::string::npos) {
          Out.emplace_back(Piece);
          continue;
        }
        for (std::string &HostArg : splitOptionsFile(Piece))
          Out.emplace_back(std::move(HostArg));
      }
      break;
    case Action::ClangFlag:
      Out.emplace_back(Parsed->Option->Clang);
      break;
    case Action::ClangJoined:
      Out.emplace_back(std::string(Parsed->Option->Clang) + Value);
      break;
    case Action::OptionsFile: // Expanded above.
      break;
    case Action::Arch:
    case Action::Code:
    case Action::Gencode: // Collected by nvccGpuArchs below.
      for (const std::string &Target :
           split(stripListPunctuation(Value), ',')) {
        std::string_view T = Target;
        if (startsWith(T, "arch="))
          T.remove_prefix(5);
        if (T == "native" || T == "all" || T == "all-major")
          Result.Notes.push_back("nvcc -arch=" + std::string(T) +
                                 " names no architecture; the device pass "
                                 "uses clang's default");
      }
      break;
    }
  }
  for (const std::string &Arg : Inputs)
    if (endsWith(Arg, ".cu"))
      Cuda = true;
  if (!Cuda) {
    Out.insert(Out.end(), Inputs.begin(), Inputs.end());
    return Result;
  }

  // What nvcc does implicitly.
  if (Rdc)
    Out.emplace_back("-fgpu-rdc");
  for (const std::string &Arch : nvccGpuArchs(Input))
    Out.emplace_back("--cuda-gpu-arch=" + Arch);
  if (!Context.CudaPath.empty())
    Out.emplace_back("--cuda-path=" + Context.CudaPath);
  if (Context.Version && !DefinesVersion) {
    Out.emplace_back("-D__CUDACC_VER_MAJOR__=" +
                     std::to_string(Context.Version->Major));
    Out.emplace_back("-D__CUDACC_VER_MINOR__=" +
                     std::to_string(Context.Version->Minor));
  }
  for (const std::string &Dir : Context.ImplicitSystemIncludes) {
    Out.emplace_back("-isystem");
    Out.emplace_back(Dir);
  }
  Out.emplace_back("-Wno-unknown-cuda-version");
  Out.insert(Out.end(), Inputs.begin(), Inputs.end());
  return Result;
}

bool isCudaCompile(const std::vector<std::string> &Args,
                   std::string_view File) {
  std::optional<std::string> Language;
  for (std::size_t I = 1; I < Args.size(); ++I) {
    std::string_view Arg = Args[I];
    if (Arg == File)
      break;
    if ((Arg == "-x" || Arg == "--language") && I + 1 < Args.size())
      Language = Args[++I];
    else if (startsWith(Arg, "--language="))
      Language = std::string(Arg.substr(11));
    else if (startsWith(Arg, "-x") && Arg.size() > 2)
      Language = std::string(Arg.substr(2));
  }
  if (Language)
    return *Language == "cuda";
  return endsWith(File, ".cu");
}

namespace {

constexpr std::string_view ArchPrefixes[] = {"--cuda-gpu-arch=",
                                             "--offload-arch="};
constexpr std::string_view NoArchPrefixes[] = {"--no-cuda-gpu-arch=",
                                               "--no-offload-arch="};

enum class PassMode { Both, Host, Device };

std::optional<PassMode> passModeOf(std::string_view Arg) {
  if (Arg == "--cuda-host-only" || Arg == "--offload-host-only")
    return PassMode::Host;
  if (Arg == "--cuda-device-only" || Arg == "--offload-device-only")
    return PassMode::Device;
  if (Arg == "--cuda-compile-host-device" || Arg == "--offload-host-device")
    return PassMode::Both;
  return std::nullopt;
}

std::optional<std::string_view> valueAfter(std::string_view Arg,
                                           const std::string_view *Prefixes,
                                           std::size_t Count) {
  for (std::size_t I = 0; I < Count; ++I)
    if (startsWith(Arg, Prefixes[I]))
      return Arg.substr(Prefixes[I].size());
  return std::nullopt;
}

std::optional<std::string_view> archValue(std::string_view Arg) {
  return valueAfter(Arg, ArchPrefixes, std::size(ArchPrefixes));
}

std::optional<std::string_view> noArchValue(std::string_view Arg) {
  return valueAfter(Arg, NoArchPrefixes, std::size(NoArchPrefixes));
}

/// A device architecture of a command, as clang will analyse it.
struct DeviceArch {
  std::string Name;    // For clang: sm_100a for sm_100f.
  bool Family = false; // Given as sm_XXf.
};

DeviceArch deviceArchOf(std::string_view Given) {
  DeviceArch Arch{std::string(Given)};
  if (startsWith(Given, "sm_") && endsWith(Given, "f")) {
    Arch.Name.back() = 'a';
    Arch.Family = true;
  }
  return Arch;
}

} // namespace

bool isCudaPassArg(std::string_view Arg) {
  return archValue(Arg) || noArchValue(Arg) || passModeOf(Arg);
}

std::vector<CudaPass> splitCudaPasses(const std::vector<std::string> &Args,
                                      const CudaPassOptions &Options) {
  std::vector<std::string> Base;
  std::vector<DeviceArch> Archs;
  PassMode Mode = PassMode::Both;
  auto Consume = [&](std::string_view Arg) {
    if (std::optional<std::string_view> Value = archValue(Arg)) {
      for (const std::string &Given : split(*Value, ',')) {
        DeviceArch Arch = deviceArchOf(Given);
        if (std::none_of(Archs.begin(), Archs.end(),
                         [&](const DeviceArch &Known) {
                           return Known.Name == Arch.Name;
                         }))
          Archs.push_back(std::move(Arch));
      }
      return true;
    }
    if (std::optional<std::string_view> Value = noArchValue(Arg)) {
      for (const std::string &Given : split(*Value, ',')) {
        std::string Name = deviceArchOf(Given).Name;
        Archs.erase(std::remove_if(Archs.begin(), Archs.end(),
                                   [&](const DeviceArch &Known) {
                                     return Given == "all" ||
                                            Known.Name == Name;
                                   }),
                    Archs.end());
      }
      return true;
    }
    if (std::optional<PassMode> NewMode = passModeOf(Arg)) {
      Mode = *NewMode;
      return true;
    }
    return false;
  };
  for (const std::string &Arg : Args)
    if (!Consume(Arg))
      Base.push_back(Arg);
  for (const std::string &Arg : Options.ExtraPassArgs)
    Consume(Arg);

  // Added arguments go before a `--` that ends the options.
  auto EndOfOptions = std::find(Base.begin(), Base.end(), "--");
  std::size_t InsertAt = static_cast<std::size_t>(EndOfOptions - Base.begin());
  auto WithArgs = [&](const std::vector<std::string> &Added) {
    std::vector<std::string> Command(Base.begin(), Base.begin() + InsertAt);
    Command.insert(Command.end(), Added.begin(), Added.end());
    Command.insert(Command.end(), Base.begin() + InsertAt, Base.end());
    return Command;
  };

  std::vector<CudaPass> Passes;
  if (Mode != PassMode::Host) {
    for (const DeviceArch &Arch : Archs) {
      std::vector<std::string> Added = {"--cuda-gpu-arch=" + Arch.Name,
                                        "--cuda-device-only"};
      int Number = archNumber(Arch.Name);
      bool Specific = !Arch.Family && endsWith(Arch.Name, "a");
      if (Number && Specific && Options.NvccArchMacros)
        Added.push_back("-D__CUDA_ARCH_SPECIFIC__=" + std::to_string(Number));
      if (Number && (Arch.Family || (Specific && Options.NvccArchMacros)))
        Added.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" +
                        std::to_string(Number));
      Passes.push_back({Arch.Name, WithArgs(Added)});
    }
    if (Archs.empty())
      Passes.push_back({"device", WithArgs({"--cuda-device-only"})});
  }
  if (Mode != PassMode::Device) {
    std::vector<std::string> Added;
    Added.reserve(Archs.size() + 1);
    for (const DeviceArch &Arch : Archs)
      Added.emplace_back("--cuda-gpu-arch=" + Arch.Name);
    Added.emplace_back("--cuda-host-only");
    Passes.push_back({"host", WithArgs(Added)});
  }
  return Passes;
}

} // namespace tma::driver
