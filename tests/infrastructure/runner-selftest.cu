// Self-test of check_clang_tidy.py with stock clang-tidy checks only, so it
// does not depend on the plugin. The kernel has two warnings:
// bugprone-integer-division (device pass only: it is behind __CUDA_ARCH__)
// and modernize-use-nullptr (both passes; it has a fix-it).

// Passing runs. The unsuffixed lines are shared by both passes.
// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s bugprone-integer-division,modernize-use-nullptr %t -- -- %cuda_stub_device
// RUN: %check_clang_tidy %s bugprone-integer-division,modernize-use-nullptr %t -- -- %cuda_stub_host
// Only integer division, on the host: a suffix without lines means silence.
// RUN: %check_clang_tidy -check-suffixes=HOST %s bugprone-integer-division %t -- -- %cuda_stub_host
// Notes: CHECK-NOTES checks every note as well.
// RUN: %check_clang_tidy -check-suffixes=BRANCH %s bugprone-branch-clone %t -- -- %cuda_stub_host
// An expected compile error.
// RUN: %check_clang_tidy -expect-clang-tidy-error -check-suffixes=ERROR %s bugprone-integer-division %t -- -- %cuda_stub_host -DSELFTEST_BROKEN

// Failing runs; each must fail, and for the reason given.
// An unexpected warning:
// RUN: not %check_clang_tidy -check-suffixes=PARTIAL %s bugprone-integer-division,modernize-use-nullptr %t -- -- %cuda_stub_device 2>&1 | FileCheck --check-prefix=FAIL-PARTIAL %s
// FAIL-PARTIAL: error: IMPLICIT-CHECK-NOT: excluded string found in input
// FAIL-PARTIAL: FAIL: diagnostics do not match
// A warning in a run that has no lines, so must be silent:
// RUN: not %check_clang_tidy -check-suffixes=SILENT %s bugprone-integer-division %t -- -- %cuda_stub_device 2>&1 | FileCheck --check-prefix=FAIL-SILENT %s
// FAIL-SILENT: FAIL: no CHECK-MESSAGES/CHECK-NOTES lines for CHECK-MESSAGES-SILENT, so the run must be silent
// A fix-it that no CHECK-FIXES line checks:
// RUN: not %check_clang_tidy -check-suffixes=NOFIX %s modernize-use-nullptr %t -- -- %cuda_stub_host 2>&1 | FileCheck --check-prefix=FAIL-NOFIX %s
// FAIL-NOFIX: FAIL: fix-its were applied but there are no CHECK-FIXES-NOFIX lines
// An unexpected note:
// RUN: not %check_clang_tidy -check-suffixes=NONOTE %s bugprone-branch-clone %t -- -- %cuda_stub_host 2>&1 | FileCheck --check-prefix=FAIL-NONOTE %s
// FAIL-NONOTE: FAIL: diagnostics do not match
// A compile error that the test does not expect:
// RUN: not %check_clang_tidy -check-suffixes=ERROR %s bugprone-integer-division %t -- -- %cuda_stub_host -DSELFTEST_BROKEN 2>&1 | FileCheck --check-prefix=FAIL-ERROR %s
// FAIL-ERROR: FAIL: clang-tidy exited with 1

#include <cuda_runtime.h>

__global__ void kernel(float *out, int *p) {
#if __CUDA_ARCH__ >= 900
  out[0] = 1 / 2;
  // CHECK-MESSAGES-DEVICE: :[[@LINE-1]]:12: warning: result of integer division used in a floating point context; possible loss of precision [bugprone-integer-division]
#endif
  p = 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: use nullptr [modernize-use-nullptr]
  // CHECK-FIXES: p = nullptr;
  // CHECK-MESSAGES-PARTIAL: :[[@LINE-3]]:7: warning: use nullptr [modernize-use-nullptr]
  // CHECK-MESSAGES-NOFIX: :[[@LINE-4]]:7: warning: use nullptr [modernize-use-nullptr]
}

int branches(int x) {
  int y;
  if (x)
    y = 1;
  else
    y = 1;
  // CHECK-NOTES-BRANCH: :[[@LINE-4]]:3: warning: if with identical then and else branches [bugprone-branch-clone]
  // CHECK-NOTES-BRANCH: :[[@LINE-3]]:3: note: else branch starts here
  // CHECK-NOTES-NONOTE: :[[@LINE-6]]:3: warning: if with identical then and else branches [bugprone-branch-clone]
  return y;
}

#ifdef SELFTEST_BROKEN
int broken = ;
// CHECK-MESSAGES-ERROR: :[[@LINE-1]]:14: error: expected expression [clang-diagnostic-error]
#endif
