#!/usr/bin/env python3
"""Times the guide's own Numba kernels and cupy.matmul on a CUDA device, for the comparison table of
issue 6 (scripts/device-check runs it on a lent GPU; Numba and CuPy are on that machine's image).

  - `numba-guide`: the guide's gpu_matrix_mult, as printed (x index to row, 16x16 blocks);
  - `numba-guide-shared`: the guide's shared_mem_mult, as printed. Its result is WRONG (see
    docs/gpu-matmul.md); it is timed only to show what the guide's "1.8x faster" measured, and its
    error is reported beside its time;
  - `cupy.matmul`: float32 (cuBLAS underneath; CuPy's default keeps FP32 compute unless CUPY_TF32=1,
    which this script records).

Method, as gpulab bench's: the first call (Numba's JIT, CuPy's handle creation) is timed apart; then
repeats timed with CUDA events, median/min/max; every result is compared with a float64 reference
(NumPy on the host up to 2048, CuPy float64 on the device above). Inputs are uniform in [0, 1) as in
the guide, so no zeros hide a missed product.

  python3 scripts/guide_peers.py --sizes 1024,4096 --cupy-sizes 1024,4096,8192 --out peers.json
"""
import argparse
import json
import math
import os
import statistics
import sys
import time


def guide_kernels(cuda, np):
    @cuda.jit
    def gpu_matrix_mult(a, b, result):
        i, j = cuda.grid(2)
        n = a.shape[0]
        if i < n and j < n:
            sum = 0.0
            for k in range(n):
                sum += a[i, k] * b[k, j]
            result[i, j] = sum

    @cuda.jit
    def shared_mem_mult(a, b, result):
        i, j = cuda.grid(2)
        n = a.shape[0]
        TILE_SIZE = 16
        s_a = cuda.shared.array((16, 16), dtype=np.float32)
        s_b = cuda.shared.array((16, 16), dtype=np.float32)
        sum = 0.0
        for k_tile in range(0, n, TILE_SIZE):
            tx = cuda.threadIdx.x
            ty = cuda.threadIdx.y
            if k_tile + tx < n and i < n:
                s_a[ty, tx] = a[i, k_tile + tx]
            else:
                s_a[ty, tx] = 0.0
            if k_tile + ty < n and j < n:
                s_b[ty, tx] = b[k_tile + ty, j]
            else:
                s_b[ty, tx] = 0.0
            cuda.syncthreads()
            for k in range(TILE_SIZE):
                sum += s_a[ty, k] * s_b[k, tx]
            cuda.syncthreads()
        if i < n and j < n:
            result[i, j] = sum

    return {"numba-guide": gpu_matrix_mult, "numba-guide-shared": shared_mem_mult}


def rel_frobenius(ref, got, xp):
    num = float(xp.linalg.norm((got.astype(xp.float64) - ref).ravel()))
    den = float(xp.linalg.norm(ref.ravel()))
    return num / den if den else (0.0 if num == 0 else math.inf)


def timed(run, sync, make_events, repeat, budget_ms):
    """First call apart (host clock), then up to `repeat` event-timed runs within about budget_ms."""
    sync()
    t0 = time.perf_counter()
    run()
    sync()
    first_ms = (time.perf_counter() - t0) * 1e3
    samples = []
    spent = 0.0
    while len(samples) < repeat and (not samples or spent < budget_ms):
        start, end, elapsed = make_events()
        start()
        run()
        ms = end()
        samples.append(ms)
        spent += ms
    return first_ms, samples


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1024,4096", help="sizes for the Numba kernels")
    parser.add_argument("--cupy-sizes", default="1024,4096,8192")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--budget-ms", type=float, default=1500)
    parser.add_argument("--out", default="-")
    args = parser.parse_args()

    import numpy as np
    from numba import cuda
    import cupy as cp

    rows = []
    rng = np.random.default_rng()
    kernels = guide_kernels(cuda, np)

    def numba_events():
        s, e = cuda.event(timing=True), cuda.event(timing=True)

        def start():
            s.record()

        def end():
            e.record()
            e.synchronize()
            return cuda.event_elapsed_time(s, e)

        return start, end, None

    def cupy_events():
        s, e = cp.cuda.Event(), cp.cuda.Event()

        def start():
            s.record()

        def end():
            e.record()
            e.synchronize()
            return cp.cuda.get_elapsed_time(s, e)

        return start, end, None

    def reference(a, b):
        n = a.shape[0]
        if n <= 2048:
            return a.astype(np.float64) @ b.astype(np.float64), np
        return cp.matmul(cp.asarray(a, dtype=cp.float64), cp.asarray(b, dtype=cp.float64)), cp

    def record(impl, n, first_ms, samples, err, note=""):
        med = statistics.median(samples)
        rows.append({"impl": impl, "m": n, "n": n, "k": n, "dtype": "float32", "first_call_ms": first_ms,
                     "median_ms": med, "min_ms": min(samples), "max_ms": max(samples), "samples_ms": samples,
                     "gflops": 2.0 * n ** 3 / (med * 1e6), "rel_error": err, "note": note})
        print(f"{impl:20s} n={n:5d}  median {med:9.3f} ms  {2.0 * n ** 3 / (med * 1e6):9.1f} GFLOP/s  "
              f"first call {first_ms:8.1f} ms  rel error {err:.2e} {note}", flush=True)

    for n in [int(s) for s in args.sizes.split(",") if s]:
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        ref, xp = reference(a, b)
        d_a, d_b = cuda.to_device(a), cuda.to_device(b)
        d_c = cuda.device_array((n, n), dtype=np.float32)
        threads = (16, 16)
        blocks = ((n + 15) // 16, (n + 15) // 16)
        for impl, kernel in kernels.items():
            d_c.copy_to_device(np.full((n, n), np.nan, dtype=np.float32))  # poisoned: unwritten shows
            first_ms, samples = timed(lambda: kernel[blocks, threads](d_a, d_b, d_c), cuda.synchronize, numba_events,
                                      args.repeat, args.budget_ms)
            got = d_c.copy_to_host()
            err = rel_frobenius(ref, xp.asarray(got), xp)
            note = "WRONG RESULT (the guide's printed kernel)" if err > 1e-3 else ""
            record(impl, n, first_ms, samples, err, note)

    for n in [int(s) for s in args.cupy_sizes.split(",") if s]:
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        ref, xp = reference(a, b)
        d_a, d_b = cp.asarray(a), cp.asarray(b)
        out = {}

        def run():
            out["c"] = cp.matmul(d_a, d_b)

        first_ms, samples = timed(run, cp.cuda.Device().synchronize, cupy_events, args.repeat, args.budget_ms)
        got = out["c"] if xp is cp else cp.asnumpy(out["c"])
        record("cupy.matmul", n, first_ms, samples, rel_frobenius(ref, got, xp))

    report = {"schema": "gpulab-guide-peers/1", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
              "numba": __import__("numba").__version__, "cupy": cp.__version__,
              "environment": {k: os.environ.get(k) for k in ("CUPY_TF32", "NVIDIA_TF32_OVERRIDE")},
              "results": rows}
    text = json.dumps(report, indent=2) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
