#!/usr/bin/python3
"""Filters a raw float64 file with SigLab on a Dask cluster, chunk by chunk, into a raw file.

    # on this machine: a LocalCluster of worker processes, each with a memory limit
    PYTHONPATH=build/python /usr/bin/python3 scripts/dask-filter.py IN.f64 OUT.f64 --window 5 --mode reflect
    # any pipeline whose stages have a finite history, as siglab-cli filter's --chain or --pipeline
    PYTHONPATH=build/python /usr/bin/python3 scripts/dask-filter.py IN.f64 OUT.f64 --chain "median 5; mean 3"
    # on a real cluster: the same code against a running scheduler (every worker needs siglab
    # importable and the files on a shared file system)
    ... scripts/dask-filter.py IN.f64 OUT.f64 --scheduler tcp://scheduler:8786

With --compare-cli PATH it also runs `siglab-cli filter` on the same file, checks that both outputs
are byte-identical and prints both throughputs and the workers' peak resident memory.

OUT is written as siglab-cli writes: refused when it is IN (the same path, a hard link or a
symlink), the blocks written to a temporary beside it that is renamed over it only once every block
is done; a failure, SIGINT or SIGTERM removes the temporary and leaves OUT as it was.
"""
import argparse
import contextlib
import os
import resource
import subprocess
import sys
import time

import dask.array as da
import distributed

import siglab
import siglab.dask
from siglab.raw_files import Interrupted, RawFileTarget, read_raw, stop_on_signals


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def filter_on_dask(args):
    """Filters args.input into args.output on the cluster; the output is renamed into place only
    once every block is written (RawFileTarget). Returns the seconds, each worker's peak resident
    memory and whether every worker kept within its limit."""
    x = read_raw(args.input, "<f8", chunk_samples=args.chunk_mib << 17)
    y = filtered(args, x)  # a stage that cannot run on x is refused here, before any output or cluster
    target = RawFileTarget(args.output, "<f8", x.shape[0], inputs=[args.input]).create()  # checked before the cluster starts
    with target, cluster_for(args) as cluster, distributed.Client(args.scheduler or cluster) as client:
        print(f"loadavg at the start: {open('/proc/loadavg').read().strip()}")
        start = time.perf_counter()
        da.store(y, target, lock=False)
        dask_s = time.perf_counter() - start
        peaks = client.run(peak_rss_mib)
        limits = {address: w["memory_limit"] for address, w in client.scheduler_info()["workers"].items()}
    within = all(peak * 2**20 <= limits[address] for address, peak in peaks.items() if limits.get(address))
    return dask_s, peaks, within


def pipeline_of(args):
    """The pipeline --chain or --pipeline names, or None for --window and --mode."""
    if args.chain:
        return siglab.Pipeline(args.chain)
    return siglab.Pipeline.load(args.pipeline) if args.pipeline else None


def filtered(args, x):
    pipeline = pipeline_of(args)
    if pipeline is None:
        return siglab.dask.filter(x, window=args.window, mode=args.mode)
    return siglab.dask.run(pipeline, x)


def cluster_for(args):
    """A LocalCluster of worker processes, each with a memory limit; nothing with --scheduler."""
    if args.scheduler:
        return contextlib.nullcontext()
    return distributed.LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                    memory_limit=args.memory_limit, dashboard_address=None)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--window", type=int, default=5)
    parser.add_argument("--mode", default="zero")
    stages = parser.add_mutually_exclusive_group()
    stages.add_argument("--chain", help='stages as siglab-cli filter --chain takes them, e.g. "median 5; mean 3"')
    stages.add_argument("--pipeline", help="a pipeline file (JSON), as siglab-cli filter --pipeline")
    parser.add_argument("--chunk-mib", type=int, default=32, help="samples per task, in MiB of float64")
    parser.add_argument("--scheduler", help="a running scheduler's address instead of a LocalCluster")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="512MiB", help="per worker process (LocalCluster)")
    parser.add_argument("--compare-cli", metavar="SIGLAB_CLI", help="also run siglab-cli filter and compare")
    args = parser.parse_args()

    try:
        with stop_on_signals():
            size = os.path.getsize(args.input)
            dask_s, peaks, within = filter_on_dask(args)
    except Interrupted as interruption:
        print(f"dask-filter: interrupted by {interruption.name}; {args.output} kept as it was, no temporary file left",
              file=sys.stderr)
        return interruption.exit_code
    except (ValueError, OSError) as error:  # the output refused (an input, a pipe, no folder), a read error
        print(f"dask-filter: {error}", file=sys.stderr)
        return 2 if isinstance(error, ValueError) else 3
    print(f"dask: {size / 1e9:.2f} GB in {dask_s:.2f} s = {size / 1e9 / dask_s:.2f} GB/s on {len(peaks)} workers "
          f"(limit {args.memory_limit} each); peak resident memory of each worker: "
          + ", ".join(f"{p:.0f} MiB" for p in peaks.values())
          + f"; every worker within its limit: {'yes' if within else 'NO'}")
    if not args.compare_cli:
        return 0 if within else 1
    cli_out = args.output + ".cli.raw"  # .raw: siglab-cli picks the output format by extension
    stages = (["--chain", args.chain] if args.chain else ["--pipeline", args.pipeline] if args.pipeline
              else ["--window", str(args.window), "--mode", args.mode])
    command = [args.compare_cli, "filter", args.input, "--raw", "f64", "-o", cli_out, *stages]
    subprocess.run(command, check=True, capture_output=True)  # warm-up: page cache and first-touch
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    cli_s = time.perf_counter() - start
    same = subprocess.run(["cmp", "-s", args.output, cli_out]).returncode == 0
    print(f"siglab-cli filter: {cli_s:.2f} s = {size / 1e9 / cli_s:.2f} GB/s; dask reaches "
          f"{100 * cli_s / dask_s:.0f}% of its throughput (target >= 50%); byte-identical: {'yes' if same else 'NO'}")
    os.remove(cli_out)
    return 0 if same and within else 1


if __name__ == "__main__":
    sys.exit(main())
