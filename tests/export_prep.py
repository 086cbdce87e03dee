"""export_prep.py: a profile with hostile names and per-call metadata,
for e2e_export.sh.

Usage: /usr/bin/python3 export_prep.py IN.h5 OUT.h5

Copies IN.h5 (a schema 3 file from `scopeview gen`), adds
/rank_region_index/event_metadata as scope-profiler 0.7 writes it
(groupby_check.write_metadata) and renames the first regions to names
with commas, quotes, newlines, a carriage return, a tab, a backslash, a
semicolon, non-ASCII letters and a control character, the names an
export must escape (JSON) or quote (CSV).
"""

import os
import sys

import h5py

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import groupby_check  # noqa: E402

HOSTILE = ['a,b', 'say "hi"', 'two\nlines', 'cr\rret', 'tab\tx',
           'back\\slash', 'semi;colon', 'uni\u00e9\u2603', '\x01ctl',
           '"', ',', '\n']


def main(src, dst):
    groupby_check.write_metadata(src, dst, False)
    with h5py.File(dst, "r+") as f:
        names = [n.decode() if isinstance(n, bytes) else n
                 for n in f["region_table/names"][()]]
        for i, h in enumerate(HOSTILE[:len(names)]):
            names[i] = h + " " + names[i]
        del f["region_table/names"]
        f["region_table"].create_dataset(
            "names", data=names, dtype=h5py.string_dtype("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
