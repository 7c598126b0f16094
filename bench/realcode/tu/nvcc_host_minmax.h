// tma-tidy bench shim: nvcc's headers declare max/min(int,int) for host code;
// clang's CUDA wrappers only provide the device overloads. Force-included
// (-include) into TUs that call them unqualified from host code.
#pragma once
static inline __host__ int max(int a, int b) { return a > b ? a : b; }
static inline __host__ int min(int a, int b) { return a < b ? a : b; }
