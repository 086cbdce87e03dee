/*
 * layer.h: the arrows between the layers of src/, checked by the compiler.
 *
 * Every public header names its layer with SV_LAYER_HEADER(bit) right
 * after its include guard.  Each layer's library is compiled with
 * -DSV_LAYER_ALLOW=<the bits of the layers it may use> (src/meson.build),
 * so a header of a layer it may not use stops the build with an #error
 * naming that layer.  Code outside the layered libraries (tests,
 * benchmarks) sees every layer.
 *
 *   core   1   errors, allocation, formatting, sorting: libc only
 *   model  2   the profile, nesting, statistics, regexes
 *   io     4   HDF5 in and out, the generator, the demo
 *   report 8   summary and other outputs for scripts
 *   ui     16  layout, grid, session, modes, actions: no curses, no HDF5
 *   term   32  the curses backend
 *   cli    64  the subcommands' command lines; the only printing code
 *   mpi    128 scopeview-mpi: the report commands on every process of an
 *              MPI job; the only code that includes mpi.h
 */
#ifndef SCOPEVIEW_LAYER_H
#define SCOPEVIEW_LAYER_H

#define SV_LAYER_CORE   1
#define SV_LAYER_MODEL  2
#define SV_LAYER_IO     4
#define SV_LAYER_REPORT 8
#define SV_LAYER_UI     16
#define SV_LAYER_TERM   32
#define SV_LAYER_CLI    64
#define SV_LAYER_MPI    128

#ifndef SV_LAYER_ALLOW
#define SV_LAYER_ALLOW 127
#endif

#endif
