#pragma once
// Everything a host program needs: devices, arrays, streams and events, launches, matmul.
#include <gpulab/array.hpp>
#include <gpulab/device.hpp>
#include <gpulab/dtype.hpp>
#include <gpulab/error.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/matmul.hpp>
#include <gpulab/stream.hpp>
#include <gpulab/version.hpp>
#include <gpulab/view.hpp>
