// tma-tidy bench wrapper: tilelang's SM90 TMA copy and mbarrier device
// templates (generated kernels include these headers).
#include "tl_templates/cuda/copy_sm90.h"
#include "tl_templates/cuda/barrier.h"
