/*
 * dist.c: the MPI job of scopeview-mpi (dist.h): starting and ending MPI,
 * which process this is, errors agreed across the processes, and the
 * broadcast the loader hands the index through.  The only file besides
 * the rest of src/mpi/ that includes mpi.h is libhdf5's parallel header,
 * inside src/io/ of the parallel build.
 */
#include "scopeview/dist.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int dist_me, dist_n = 1;

int sv_dist_init(int *argc, char ***argv)
{
	int provided = 0;

	/* The loader calls the broadcast from its own thread while the
	 * main thread waits for it: one thread at a time. */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) !=
		MPI_SUCCESS)
		return -EIO;
	if (provided < MPI_THREAD_SERIALIZED) {
		MPI_Finalize();
		return -ENOTSUP;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &dist_me);
	MPI_Comm_size(MPI_COMM_WORLD, &dist_n);
	return 0;
}

void sv_dist_end(void)
{
	MPI_Finalize();
}

int sv_dist_rank(void)
{
	return dist_me;
}

int sv_dist_size(void)
{
	return dist_n;
}

int sv_dist_agree(int rc, struct sv_error *err)
{
	/* The lowest process that failed first-hand, else the lowest that
	 * failed at all, else none (dist_n). */
	int own = rc < 0 && (!err || err->code != SV_DIST_ELSEWHERE) ? dist_me
								     : dist_n;
	int any = rc < 0 ? dist_me : dist_n, who[2], low[2];
	char msg[sizeof err->msg];

	who[0] = own;
	who[1] = any;
	MPI_Allreduce(who, low, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (low[1] == dist_n)
		return 0;
	if (low[0] == dist_n)
		low[0] = low[1];
	rc = rc < 0 ? rc : -EIO;
	memset(msg, 0, sizeof msg);
	if (err && dist_me == low[0])
		memcpy(msg, err->msg, sizeof msg);
	MPI_Bcast(&rc, 1, MPI_INT, low[0], MPI_COMM_WORLD);
	MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, low[0], MPI_COMM_WORLD);
	if (err) {
		err->code = rc;
		memcpy(err->msg, msg, sizeof msg);
		err->msg[sizeof err->msg - 1] = '\0';
	}
	return rc;
}

int sv_dist_bcast(void *ctx, void *buf, size_t n, int rc)
{
	unsigned char *p = buf;

	(void)ctx;
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rc < 0)
		return rc;
	/* In pieces MPI's int counts hold. */
	while (n > 0) {
		size_t k = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
		MPI_Bcast(p, (int)k, MPI_BYTE, 0, MPI_COMM_WORLD);
		p += k;
		n -= k;
	}
	return rc;
}

void *sv_dist_gather(
	const void *mine, size_t n, size_t size, size_t *nall, size_t **at)
{
	int me = dist_me, cnt = (int)n, k;
	int *cnts = NULL, *off = NULL;
	MPI_Datatype item;
	void *all = NULL;

	MPI_Type_contiguous((int)size, MPI_BYTE, &item);
	MPI_Type_commit(&item);
	*nall = 0;
	if (at)
		*at = NULL;
	if (me == 0) {
		cnts = sv_xcalloc((size_t)dist_n, sizeof *cnts);
		off = sv_xcalloc((size_t)dist_n, sizeof *off);
	}
	MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (me == 0) {
		for (k = 0; k < dist_n; k++) {
			off[k] = (int)*nall;
			*nall += (size_t)cnts[k];
		}
		all = sv_xcalloc(*nall ? *nall : 1, size);
		if (at) {
			*at = sv_xcalloc((size_t)dist_n, sizeof **at);
			for (k = 0; k < dist_n; k++)
				(*at)[k] = (size_t)off[k];
		}
	}
	MPI_Gatherv(mine, cnt, item, all, cnts, off, item, 0, MPI_COMM_WORLD);
	MPI_Type_free(&item);
	free(cnts);
	free(off);
	return all;
}
