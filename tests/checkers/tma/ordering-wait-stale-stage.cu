// A consumer that waits on full[s] once and then reads the stages of a loop
// that moves s on every pass (a peeled first pass, then the main loop
// without its wait: the real shape of fast.cu's consumers) reads every
// later stage before its copy is known to be done: the wait before the loop
// orders one pass's read at most (TMA-LOAD-WAIT-BEFORE-READ across roles,
// with a note at that wait). Each wrong kernel has its twin with the wait;
// a wait on every stage before the loop, a tile pointer computed before the
// loop, a wait in the loop for the next stage and a step that some pass
// skips stay silent.
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_device
// RUN: %check_clang_tidy %s tma-ordering %t -- --load=%tma_plugin -- %cuda_stub_host

#include <cstdint>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ size_t __cvta_generic_to_shared(const void *);


__device__ static inline void initBarrier(uint64_t *bar, int count) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count));
}
__device__ static inline void expectBytes(uint64_t *bar, uint32_t bytes) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
               ::"r"(a), "r"(bytes));
}
__device__ static inline void arriveOn(uint64_t *bar) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
}
__device__ static inline void loadTile(void *dst, const void *map,
                                       uint64_t *bar, int x, int y) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%3, %4}], [%2];"
      ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(dst))), "l"(map),
        "r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(x),
        "r"(y)
      : "memory");
}
__device__ static inline void waitBarrier(uint64_t *bar, int phase) {
  uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra.uni DONE;\nbra.uni LAB_WAIT;\nDONE:\n}\n"
               ::"r"(a), "r"(phase));
}

// A descriptor built from a pointer (the 14-bit start address, 16-byte
// units; leading and stride offsets; 128-byte swizzle).
__device__ static inline uint64_t encodeField(uint64_t x) {
  return (x & 0x3FFFF) >> 4;
}
__device__ uint64_t makeDesc(uint16_t *ptr) {
  uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
  uint64_t desc = 0;
  desc |= encodeField(addr);
  desc |= encodeField(16) << 16;
  desc |= encodeField(1024) << 32;
  desc |= 1llu << 62;
  return desc;
}

__device__ static inline void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ void wgmma64(float d[4], uint16_t *sA, uint16_t *sB) {
  uint64_t descA = makeDesc(&sA[0]);
  uint64_t descB = makeDesc(&sB[0]);
  asm volatile("{\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
               "}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(descA), "l"(descB));
}

constexpr int S = 4;
constexpr int TILE = 64 * 64;

// A producer thread fills stage s of sA on full[s] once the consumers
// released it on empty[s]. The consumers' peeled first pass waits on
// full[s]; the main loop, whose increment steps s, lost its wait.
__global__ void __launch_bounds__(256)
peeledNoWait(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float d[4] = {};
    int s = 0, ph = 0;
    waitBarrier(&full[s], ph);
    wgmma64(d, &sA[s * TILE], &sA[s * TILE]);
    arriveOn(&empty[s]);
    ++s;
    for (int k = 1; k < nk; ++k, ++s) {
      if (s == S) {
        s = 0;
        ph ^= 1;
      }
      uint16_t *tile = &sA[s * TILE];
      wgmma64(d, tile, tile);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: the MMA (shared-memory descriptor) reads 'sA' that the TMA load at line [[#@LINE-21]] (in other threads' code) writes, with no wait on 'full' before it on this path (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-22]]:9: note: the TMA load into 'sA' completes on 'full'; wait on it before reading
      // CHECK-NOTES: :35:3: note: issued here
      // CHECK-NOTES: :[[@LINE-14]]:5: note: this wait on 'full' lies before the loop around the read, which moves the read to another stage on every pass: it orders one pass's read at most
      // CHECK-NOTES: :45:3: note: issued here
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0];
  }
}

// Its twin: the main loop waits on full[s].
__global__ void __launch_bounds__(256)
peeledWait(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float d[4] = {};
    int s = 0, ph = 0;
    waitBarrier(&full[s], ph);
    wgmma64(d, &sA[s * TILE], &sA[s * TILE]);
    arriveOn(&empty[s]);
    ++s;
    for (int k = 1; k < nk; ++k, ++s) {
      if (s == S) {
        s = 0;
        ph ^= 1;
      }
      waitBarrier(&full[s], ph);
      uint16_t *tile = &sA[s * TILE];
      wgmma64(d, tile, tile);
      arriveOn(&empty[s]);
    }
    out[threadIdx.x] = d[0];
  }
}

// Generic loads of the stage in a loop stepping s = (s + 1) % S in its
// body, after one wait on full[s] before it.
__global__ void __launch_bounds__(256)
stepInBodyNoWait(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float acc = 0;
    int s = 0;
    waitBarrier(&full[s], 0);
    for (int k = 0; k < nk; ++k) {
      acc += sA[s * TILE + threadIdx.x];
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: generic load reads 'sA' that the TMA load at line [[#@LINE-13]] (in other threads' code) writes, with no wait on 'full' before it on this path (TMA-LOAD-WAIT-BEFORE-READ) [tma-ordering]
      // CHECK-NOTES: :[[@LINE-14]]:9: note: the TMA load into 'sA' completes on 'full'; wait on it before reading
      // CHECK-NOTES: :35:3: note: issued here
      // CHECK-NOTES: :[[@LINE-6]]:5: note: this wait on 'full' lies before the loop around the read, which moves the read to another stage on every pass: it orders one pass's read at most
      // CHECK-NOTES: :45:3: note: issued here
      fenceProxyAsync();
      arriveOn(&empty[s]);
      s = (s + 1) % S;
    }
    out[threadIdx.x] = acc;
  }
}

// Its twin waits in the loop.
__global__ void __launch_bounds__(256)
stepInBodyWait(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float acc = 0;
    int s = 0, ph = 0;
    for (int k = 0; k < nk; ++k) {
      waitBarrier(&full[s], ph);
      acc += sA[s * TILE + threadIdx.x];
      fenceProxyAsync();
      arriveOn(&empty[s]);
      s = (s + 1) % S;
      ph ^= s == 0;
    }
    out[threadIdx.x] = acc;
  }
}

// Silent: every stage is waited for before a loop that reads each once.
__global__ void __launch_bounds__(256)
waitAllFirst(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float acc = 0;
    for (int i = 0; i < S; ++i)
      waitBarrier(&full[i], 0);
    int s = 0;
    for (int k = 0; k < S; ++k, ++s)
      acc += sA[s * TILE + threadIdx.x];
    out[threadIdx.x] = acc;
  }
}

// Silent: the tile pointer is computed before the loop, which reads the
// one stage waited for on every pass.
__global__ void __launch_bounds__(256)
tileBeforeLoop(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float acc = 0;
    int s = 0;
    waitBarrier(&full[s], 0);
    const uint16_t *tile = &sA[s * TILE];
    for (int k = 0; k < nk; ++k, ++s)
      acc += tile[k % 64];
    out[threadIdx.x] = acc;
  }
}

// Silent: the loop waits for the next stage at the end of each pass.
__global__ void __launch_bounds__(256)
waitNextAtEnd(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float acc = 0;
    int s = 0, ph = 0;
    waitBarrier(&full[s], ph);
    for (int k = 0; k < nk; ++k) {
      acc += sA[s * TILE + threadIdx.x];
      fenceProxyAsync();
      arriveOn(&empty[s]);
      if (++s == S) {
        s = 0;
        ph ^= 1;
      }
      waitBarrier(&full[s], ph);
    }
    out[threadIdx.x] = acc;
  }
}

// Silent: a pass may skip the step (it reads the stage waited for again).
__global__ void __launch_bounds__(256)
stepSkipped(const __grid_constant__ CUtensorMap mapA, float *out, int nk) {
  __shared__ alignas(1024) uint16_t sA[S * TILE];
  __shared__ uint64_t full[S], empty[S];
  if (threadIdx.x == 0) {
    for (int i = 0; i < S; ++i) {
      initBarrier(&full[i], 1);
      initBarrier(&empty[i], 128);
    }
  }
  __syncthreads();
  if (threadIdx.x >= 128) {
    if (threadIdx.x == 128) {
      int s = 0, ph = 0;
      for (int k = 0; k < nk; ++k) {
        waitBarrier(&empty[s], ph ^ 1);
        expectBytes(&full[s], TILE * 2);
        loadTile(&sA[s * TILE], &mapA, &full[s], k * 64, 0);
        if (++s == S) {
          s = 0;
          ph ^= 1;
        }
      }
    }
  } else {
    float acc = 0;
    int s = 0;
    waitBarrier(&full[s], 0);
    for (int k = 0; k < nk; ++k) {
      acc += sA[s * TILE + threadIdx.x];
      if (acc > 1.0f)
        continue;
      ++s;
    }
    out[threadIdx.x] = acc;
  }
}
