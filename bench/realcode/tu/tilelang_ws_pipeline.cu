// tma-tidy bench wrapper: one kernel in the shape tilelang's CUDA code
// generator emits for a warp-specialized, TMA-fed reduction (our own code;
// tilelang generates its kernels at run time, so no file of the repository
// instantiates barrier.h's helpers). Where each piece of the shape comes
// from, in tilelang's sources:
// - the kernel head, the dynamic pool, `((int)threadIdx.x)`, the producer
//   (`128 <= threadIdx.x`) / consumer split, the parities `(bk & 1) ^ 1` and
//   `bk & 1`, `fence_proxy_async()` after the consumers' reads and before
//   their arrive: the generated kernel printed in
//   docs/deeplearning_operators/gemv.md;
// - `__shared__ __align__(16) uint64_t mbarrier_mem[N]` and
//   `auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem)`, the
//   `.init(n)`, `.wait(p)`, `.arrive()`, `.expect_transaction(bytes)` members,
//   `tl::tma_load(desc, mbarrier[i], smem, crd...)`, `tl::fence_proxy_async()`,
//   `tl::tma_store(...)`, `tl::tma_store_arrive()` and
//   `tl::tma_store_wait<count, read>()`: src/cuda/codegen/codegen_cuda.cc;
// - the inits under `tl::tl_shuffle_elect<0>()` followed by
//   `tl::fence_barrier_init()` and `__syncthreads()`:
//   src/cuda/transform/lower_shared_barrier.cc;
// - an elected thread's `expect_transaction` and `tma_load` followed by
//   every producer thread's arrive on the same barrier (count 128):
//   testing/python/transform/test_tilelang_transform_fuse_mbarrier_arrive_expect_tx.py
//   (expect, load, arrive under `shuffle_elect`) and
//   testing/python/issue/test_tilelang_issue_tma_no_ws.py
//   (`.expect_transaction(8192);`, `.init(128);`, `mbarrier[...].arrive();`);
// - the partial barrier of the consumers before the store:
//   `tl::__sync_thread_partial(id, count)` (codegen_cuda.cc PrintStorageSync).
#include "tl_templates/cuda/common.h"
#include "tl_templates/cuda/barrier.h"
#include "tl_templates/cuda/copy_sm90.h"
#include "tl_templates/cuda/intrin.h"

extern "C" __global__ void __launch_bounds__(256, 1)
    main_kernel(const __grid_constant__ CUtensorMap A_desc,
                const __grid_constant__ CUtensorMap C_desc) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  float C_reg[1];
  __shared__ __align__(16) uint64_t mbarrier_mem[2];
  auto mbarrier = reinterpret_cast<Barrier *>(mbarrier_mem);
  if (tl::tl_shuffle_elect<0>()) {
    mbarrier[0].init(128);
    mbarrier[1].init(128);
  }
  tl::fence_barrier_init();
  __syncthreads();
  if (128 <= ((int)threadIdx.x)) {
    for (int bk = 0; bk < 8; ++bk) {
      mbarrier[1].wait(((bk & 1) ^ 1));
      if (tl::tl_shuffle_elect<128>()) {
        mbarrier[0].expect_transaction(16384);
        tl::tma_load(A_desc, mbarrier[0], (&(((half_t *)buf_dyn_shmem)[0])), 0,
                     (bk * 64));
      }
      mbarrier[0].arrive();
    }
  } else {
    C_reg[0] = 0.000000e+00f;
    for (int bk_1 = 0; bk_1 < 8; ++bk_1) {
      mbarrier[0].wait((bk_1 & 1));
      for (int tk = 0; tk < 64; ++tk) {
        C_reg[0] = (C_reg[0] +
                    ((float)((half_t *)buf_dyn_shmem)[(
                        (((int)threadIdx.x) * 64) + tk)]));
      }
      tl::fence_proxy_async();
      mbarrier[1].arrive();
    }
    ((float *)buf_dyn_shmem)[(((int)threadIdx.x) + 4096)] = C_reg[0];
    tl::fence_proxy_async();
    tl::__sync_thread_partial(1, 128);
    if (((int)threadIdx.x) == 0) {
      tl::tma_store(C_desc, (&(((float *)buf_dyn_shmem)[4096])),
                    (((int)blockIdx.x) * 128));
      tl::tma_store_arrive();
      tl::tma_store_wait<0, true>();
    }
  }
}
