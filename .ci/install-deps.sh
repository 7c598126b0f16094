#!/usr/bin/env bash
# Installs what tma-tidy needs to build and test, from Debian's packages:
# LLVM/Clang 22 (compiler, clang-tidy, clangd, development files, lit and
# FileCheck), the gRPC/Protobuf packages that Debian's Clang CMake files
# reference, GoogleTest, CMake, Ninja, python3-jsonschema (the SARIF
# schema test), and dpkg-dev and binutils (dpkg-shlibdeps and readelf for
# the package's dependencies, .ci/package.sh). Does nothing when all are
# present.
set -euo pipefail

packages=(clang-22 clang-tidy-22 clangd-22 libclang-22-dev llvm-22-dev
          llvm-22-tools libgrpc++-dev libprotobuf-dev protobuf-compiler-grpc
          libgtest-dev cmake ninja-build python3 python3-jsonschema
          dpkg-dev binutils)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
