# -*- Python -*-
# lit configuration of the tma-tidy tests. Run through the generated
# <build>/tests/lit.site.cfg.py, which sets the config.* facts used here.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "tma-tidy"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".cu", ".cpp", ".test"]
# Inputs/ holds headers; unit/ holds gtest sources that ctest runs.
config.excludes = ["Inputs", "unit", "field"]  # field/: scored by field/score.py (ctest field-set)
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.tma_tests_binary_dir

if not os.path.isfile(config.tma_plugin):
    lit_config.fatal("plugin %s not built: run ninja" % config.tma_plugin)
# tma-clangd is optional (TMA_BUILD_CLANGD); its tests REQUIRE: tma-clangd.
if config.tma_clangd:
    if not os.path.isfile(config.tma_clangd):
        lit_config.fatal("%s not built: run ninja" % config.tma_clangd)
    config.available_features.add("tma-clangd")
# tma-tidy is optional too (TMA_BUILD_TIDY); its tests REQUIRE: tma-tidy.
if config.tma_tidy:
    if not os.path.isfile(config.tma_tidy):
        lit_config.fatal("%s not built: run ninja" % config.tma_tidy)
    config.available_features.add("tma-tidy")
cuda_include = os.path.join(config.cuda_path, "include")
if not os.path.isfile(os.path.join(cuda_include, "cuda.h")):
    lit_config.fatal("no CUDA toolkit at %s (set TMA_CUDA_PATH); the "
                     "real-header tests must run" % config.cuda_path)
# nvcc configures the CMake project of the nvcc compile-database test.
nvcc = os.path.join(config.cuda_path, "bin", "nvcc")
if os.access(nvcc, os.X_OK):
    config.available_features.add("nvcc")

# LLVM 22's tools, never the ones of PATH (/usr/bin/clang-tidy is LLVM 14):
# FileCheck, `| not` and `| count` get absolute paths, and the tools directory
# goes first in PATH for a leading `not`.
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# No clang driver configuration files from the machine.
config.environment["CLANG_NO_DEFAULT_CONFIG"] = "1"
# Every test asserts that the module never builds the TU-wide parent map
# (folding/Uses.h, checkNoTuParentMap): a fatal error at the end of the TU.
config.environment["TMA_TIDY_ASSERT_NO_PARENT_MAP"] = "1"

clang_tidy = os.path.join(config.llvm_tools_dir, "clang-tidy")
check_clang_tidy = os.path.join(config.test_source_root, "check_clang_tidy.py")
stub_headers = os.path.join(config.test_source_root, "checkers", "Inputs",
                            "Headers")

# Hermetic CUDA: the mock headers of checkers/Inputs/Headers only. The
# --cuda-path names a directory that is no CUDA installation, so the
# toolkit of the machine (version, warnings) plays no part.
cuda_stub = ("-x cuda --cuda-gpu-arch=sm_90a --cuda-path=%s -nocudainc "
             "-nocudalib -nostdinc++ -std=c++17 -isystem %s"
             % (stub_headers, stub_headers))
# The real toolkit: cuda.h, cudaTypedefs.h, cuda_runtime.h (through clang's
# CUDA wrapper) and CCCL (cuda/barrier, cuda/ptx), which nvcc finds in
# include/cccl. CUDA 13.0 is newer than clang 22 knows.
cuda_real = ("-x cuda --cuda-gpu-arch=sm_90a --cuda-path=%s -std=c++17 "
             "-Wno-unknown-cuda-version -isystem %s"
             % (config.cuda_path, os.path.join(cuda_include, "cccl")))

# sarif_validate.py needs the jsonschema package, docs_yaml_check.py PyYAML:
# Debian's python3-jsonschema (.ci/install-deps.sh) and python3-yaml (a
# dependency of clang-tidy-22) are seen by /usr/bin/python3, which need not
# be the Python that CMake found (a pyenv or venv Python first in PATH). Take
# the first that has the module; with none, the script fails and says why.
def _python_with(module):
    import subprocess
    for python in (config.python_executable, "/usr/bin/python3"):
        try:
            if subprocess.run([python, "-c", "import " + module],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0:
                return python
        except OSError:
            pass
    return config.python_executable


sarif_python = _python_with("jsonschema")
yaml_python = _python_with("yaml")

config.substitutions += [
    ("%check_clang_tidy",
     "%s %s -clang-tidy=%s -filecheck=%s"
     % (config.python_executable, check_clang_tidy, clang_tidy,
        os.path.join(config.llvm_tools_dir, "FileCheck"))),
    ("%clang_tidy", clang_tidy),
    ("%python", config.python_executable),
    ("%yaml_python", yaml_python),
    ("%tma_build_dir", os.path.dirname(config.tma_tests_binary_dir)),
    ("%tma_plugin", config.tma_plugin),
    ("%tma_clangd", config.tma_clangd),
    ("%tma_tidy", config.tma_tidy),
    ("%nvcc", nvcc),
    ("%cmake", config.cmake),
    ("%cuda_path", config.cuda_path),
    ("%sarif_validate", "%s %s" % (sarif_python,
                                   os.path.join(config.test_source_root,
                                                "infrastructure",
                                                "sarif_validate.py"))),
    ("%docs_yaml_check", "%s %s" % (yaml_python,
                                     os.path.join(config.test_source_root,
                                                  "infrastructure",
                                                  "docs_yaml_check.py"))),
    ("%lsp_client", "%s %s" % (config.python_executable,
                               os.path.join(config.test_source_root,
                                            "infrastructure", "lsp_client.py"))),
    # Both passes, for tma-tidy, which runs each of them itself.
    ("%cuda_stub_all", cuda_stub),
    ("%cuda_real_all", cuda_real),
    ("%cuda_stub_device", cuda_stub + " --cuda-device-only"),
    ("%cuda_stub_host", cuda_stub + " --cuda-host-only"),
    ("%cuda_real_device", cuda_real + " --cuda-device-only"),
    ("%cuda_real_host", cuda_real + " --cuda-host-only"),
]
