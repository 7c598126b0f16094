/* The CUDA_VERSION line of a CUDA 12.6 cuda.h, for clang's driver to detect
 * this directory as a CUDA 12.6 installation. Testing purposes only: no
 * test includes it (-nocudainc). */
#define CUDA_VERSION 12060
