#!/usr/bin/env bash
# Build the real-code corpus (README.md, "REALCODE layout") from fetched
# repository snapshots: one directory per manifest repo at the snapshot
# commits of real-code.md, the CUTLASS submodules at their pinned commits
# (include/ and tools/util/include of NVIDIA/cutlass), and _deps from PyPI
# wheels. Nothing here is committed: the corpus lives outside the repo.
#
# usage: bench/realcode/setup-corpus.sh [MIRRORS=/work/.mirror] [REALCODE=/work/realcode]
#   MIRRORS holds OWNER+NAME/repo git directories (the session's `fetch` of
#   github:OWNER/NAME puts them there); fetch the 10 repos below first.
# env: EXTRACT (corpus-extract.sh, default /work/shared/tools/corpus-extract.sh),
#      NO_DEPS=1 to skip the pip downloads.
set -euo pipefail
MIRRORS=${1:-/work/.mirror}
REALCODE=${2:-/work/realcode}
EXTRACT=${EXTRACT:-/work/shared/tools/corpus-extract.sh}

# name  owner+repo  snapshot commit  [paths]
REPOS='fast.cu           pranjalssh+fast.cu           38eb642e0c08
simplegemm        bertmaher+simplegemm         068b32fa8381
h100_gemm         HamzaElshafie+h100_gemm      3788686e92e3
learn-cuda        gau-nernst+learn-cuda        1454f8b71499
ThunderKittens    HazyResearch+ThunderKittens  0b55588d2769
DeepGEMM          deepseek-ai+DeepGEMM         54e22612409371d6
tilelang          tile-ai+tilelang             a35008a42531
TransformerEngine NVIDIA+TransformerEngine     d0067d0da6cb
flashinfer        flashinfer-ai+flashinfer     fb28d7242b35
cutlass           NVIDIA+cutlass               7107b05535f8 include tools/util/include examples/cute'
# Submodules that matter: the CUTLASS pin of each superproject.
SUBS='DeepGEMM third-party/cutlass
tilelang 3rdparty/cutlass
TransformerEngine 3rdparty/cutlass
flashinfer 3rdparty/cutlass'

mkdir -p "$REALCODE"
while read -r name mirror commit paths; do
  g=$MIRRORS/$mirror/repo
  if [[ ! -d $g ]]; then echo "skip $name: no snapshot at $g (fetch github:${mirror/+//})"; continue; fi
  full=$(git --git-dir="$g" rev-parse "$commit^{commit}")
  rm -rf "${REALCODE:?}/$name"
  # shellcheck disable=SC2086
  "$EXTRACT" "$g" "$full" "$REALCODE/$name" $paths | tail -1
done <<<"$REPOS"

cg=$MIRRORS/NVIDIA+cutlass/repo
while read -r name path; do
  top=$(awk -v n="$name" '$1 == n {print $2}' <<<"$REPOS")
  [[ -d $REALCODE/$name ]] || continue
  pin=$(git --git-dir="$MIRRORS/$top/repo" ls-tree \
        "$(awk -v n="$name" '$1 == n {print $3}' <<<"$REPOS")" -- "$path" | awk '{print $3}')
  rm -rf "${REALCODE:?}/$name/$path"
  "$EXTRACT" "$cg" "$pin" "$REALCODE/$name/$path" include tools/util/include | tail -1
done <<<"$SUBS"

[[ ${NO_DEPS:-0} == 1 ]] && exit 0
# _deps: the include directories of three wheels (pip download --no-deps).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download -q --no-deps --only-binary=:all: -d "$tmp" \
  torch==2.15.0 apache-tvm-ffi==0.1.15.post2 apache-tvm==0.27.0.post1
python3 - "$tmp" "$REALCODE/_deps" <<'EOF'
import glob, os, sys, zipfile
tmp, deps = sys.argv[1:]
for pat, prefix, dest in [('torch-*.whl', 'torch/include/', 'torch_include'),
                          ('apache_tvm_ffi-*.whl', 'tvm_ffi/include/', 'tvm_ffi_include'),
                          ('apache_tvm-*.whl', 'tvm/include/', 'tvm_include')]:
    z = zipfile.ZipFile(glob.glob(os.path.join(tmp, pat))[0])
    n = 0
    for m in z.namelist():
        if m.startswith(prefix) and not m.endswith('/'):
            out = os.path.join(deps, dest, m[len(prefix):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, 'wb') as f:
                f.write(z.read(m))
            n += 1
    print('%s: %d headers' % (dest, n))
EOF
