"""The anchor for bench/load_bench: read a profile's raw columns with h5py.

This is the least a Python user does to look at a profile: every /events
column and every /rank_region_index column into numpy arrays, with no
statistics and no nesting.  Prints one line: the seconds it took and the
peak resident set size of the process in KiB (load_bench reads the first,
scale_bench both).
"""
import resource
import sys
import time

import h5py

t0 = time.perf_counter()
with h5py.File(sys.argv[1], "r") as f:
    events = {k: f["events"][k][:] for k in f["events"]}
    index = {k: f["rank_region_index"][k][:] for k in f["rank_region_index"]}
    names = f["region_table/names"][:]
print("%.6f %d" % (time.perf_counter() - t0,
                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
