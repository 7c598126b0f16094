// tma-tidy bench wrapper: flashinfer's mamba TMA descriptor builder (inline,
// std::vector-based, rank = runtime vector size).
#include <flashinfer/mamba/create_tensor_map.cuh>
