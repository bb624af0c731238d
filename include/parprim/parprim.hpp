// Umbrella header: the whole public API in plain C++ (no CUDA headers needed); device lambdas
// for transform need parprim/cuda/transform.cuh and nvcc.
#pragma once

#include "parprim/buffer.hpp"
#include "parprim/context.hpp"
#include "parprim/counting_sort.hpp"
#include "parprim/device_info.hpp"
#include "parprim/dot.hpp"
#include "parprim/error.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/gemm.hpp"
#include "parprim/histogram.hpp"
#include "parprim/ops.hpp"
#include "parprim/partition.hpp"
#include "parprim/reduce.hpp"
#include "parprim/scan.hpp"
#include "parprim/sort.hpp"
#include "parprim/span.hpp"
#include "parprim/transform.hpp"
#include "parprim/transform_fn.hpp"
#include "parprim/types.hpp"
#include "parprim/version.hpp"
#include "parprim/workspace.hpp"
