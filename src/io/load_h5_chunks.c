/*
 * load_h5_chunks.c: H5Dread with every chunk held to its declared size
 * (load_h5_chunks.h, doc/format.md 8.4).
 *
 * libhdf5 1.10 allocates a chunk's buffer by its stored size, runs the
 * filters that the chunk's filter mask does not skip, and then copies a
 * whole chunk out of whatever came back.  A chunk that decodes short, or
 * that is stored short with no filter to restore its size (only shuffle,
 * or its compressor skipped by the mask: h5py's LZF is optional, so such
 * chunks are normal), overruns that buffer, and heap bytes become data.
 * (An unfiltered chunk did so too through the chunk cache, which the
 * loader turns off: load_h5.c.)  Its deflate filter grows its buffer to
 * whatever the stream holds (1 GB from 1 MB in a chunk of 8 KiB), and
 * cannot be replaced (load_h5_filters.c).  So before any read:
 *
 *  - the pipeline is classified: at most one compressor (deflate, LZF and
 *    zstd decode exactly, load_h5_filters.c; a plugin's is trusted), no
 *    shuffle after it, Fletcher32 strips a known 4 bytes, and N-bit,
 *    scale-offset and SZIP, which size their output by parameters stored
 *    in the file, are refused;
 *  - every chunk the selection touches is looked at: its stored size
 *    (cheap), and for a filtered dataset its filter mask (H5Dread_chunk,
 *    which reads the stored bytes: the mask has no cheaper source in
 *    1.10); a chunk no compressor decodes must be stored at exactly its
 *    size, and a deflate stream is inflated here, into one chunk's room,
 *    so that libhdf5 only ever inflates streams of exactly that size;
 *  - the registered LZF and zstd filters are told the size their output
 *    must have.
 *
 * When one of them refused a chunk during the read, the chunks are walked
 * again and their streams decoded here, to name the chunk in the message.
 * Nothing here allocates by a size the file states beyond one chunk's.
 */
#include "load_h5_chunks.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5util.h"
#include "load_h5_filters.h"

/* A chunk larger than this (decoded) and than its whole dataset is a
 * damaged header (the rule of h5util.c's col_check_chunk). */
#define CHUNKS_MAX_SPARE ((uint64_t)16 << 20)

/* How one chunked dataset decodes. */
struct chunks_layout {
	int rank;
	hsize_t dims[H5S_MAX_RANK];  /* the extent */
	hsize_t chunk[H5S_MAX_RANK]; /* the chunk's shape */
	size_t bytes;                /* the values of one chunk */
	size_t expect;               /* what the compressor decodes to */
	int nfilters;
	int comp; /* pipeline index of the compressor, or -1 */
	H5Z_filter_t comp_id;
	unsigned fletcher_mask; /* pipeline bits of Fletcher32 filters */
	unsigned comp_ours;     /* the compressor is one of ours */
};

/* One walk over the chunks of a selection. */
struct chunks_walk {
	hid_t ds;
	const struct chunks_layout *l;
	bool decode; /* decode every compressed stream (the diagnosis), not
			only deflate's */
	unsigned char *raw, *out;
	size_t rawcap;
	struct libdeflate_decompressor *inflater;
	hsize_t last1; /* 1-D: the last chunk looked at, + 1 */
	char *why;
	size_t whyn;
};

/* Bytes of one element of type t as stored in the file: a
 * variable-length value is stored as its length and a global heap ID (an
 * address of sa bytes and an index), whatever its size in memory.  0 when
 * it cannot be known (references). */
static size_t chunks_disk_size(hid_t t, size_t sa)
{
	H5T_class_t c = H5Tget_class(t);
	size_t size = H5Tget_size(t);
	int i, n;

	if (c == H5T_VLEN || (c == H5T_STRING && H5Tis_variable_str(t) > 0))
		return 4 + sa + 4;
	if (c == H5T_REFERENCE)
		return 0;
	if (c == H5T_COMPOUND) {
		n = H5Tget_nmembers(t);
		for (i = 0; i < n; i++) {
			hid_t m = H5Tget_member_type(t, (unsigned)i);
			size_t ms, md;
			if (m < 0)
				return 0;
			ms = H5Tget_size(m);
			md = chunks_disk_size(m, sa);
			H5Tclose(m);
			if (md == 0 || size + md < ms)
				return 0;
			size = size - ms + md;
		}
	} else if (c == H5T_ARRAY) {
		hid_t b = H5Tget_super(t);
		size_t bs, bd;
		if (b < 0)
			return 0;
		bs = H5Tget_size(b);
		bd = chunks_disk_size(b, sa);
		H5Tclose(b);
		if (bd == 0 || bs == 0)
			return 0;
		size = size / bs * bd;
	}
	return size;
}

/* The size of a file address in ds's file (8 unless the file says). */
static size_t chunks_addr_size(hid_t ds)
{
	hid_t f = H5Iget_file_id(ds), fcpl;
	size_t sa = 8, ss = 8;

	if (f < 0)
		return sa;
	fcpl = H5Fget_create_plist(f);
	if (fcpl >= 0) {
		if (H5Pget_sizes(fcpl, &sa, &ss) < 0)
			sa = 8;
		H5Pclose(fcpl);
	}
	H5Fclose(f);
	return sa;
}

/* Read ds's layout into l.  Returns 0 (l->rank 0: not chunked), or -EIO
 * with why filled when the dataset cannot be read safely. */
static int chunks_layout(
	hid_t ds, struct chunks_layout *l, char *why, size_t whyn)
{
	hid_t dcpl, t, sp;
	uint64_t bytes, all;
	size_t elem;
	unsigned lzf_says = 0;
	int i, rc = 0;

	memset(l, 0, sizeof *l);
	l->comp = -1;
	dcpl = H5Dget_create_plist(ds);
	if (dcpl < 0)
		return 0; /* the read that follows says what is wrong */
	if (H5Pget_layout(dcpl) != H5D_CHUNKED) {
		H5Pclose(dcpl);
		return 0;
	}
	l->rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, l->chunk);
	l->nfilters = H5Pget_nfilters(dcpl);
	if (l->nfilters > 31) { /* (the masks below have 32 bits) */
		snprintf(why, whyn, "its pipeline holds %d filters",
			l->nfilters);
		rc = -EIO;
	}
	for (i = 0; i < l->nfilters && !rc; i++) {
		unsigned flags = 0, cd[16];
		size_t ncd = 16;
		char name[64] = "";
		H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags,
			&ncd, cd, sizeof name, name, NULL);
		if (id < 0) {
			snprintf(why, whyn, "cannot read its filters");
			rc = -EIO;
			break;
		}
		if (id == H5Z_FILTER_SHUFFLE) {
			if (l->comp >= 0) {
				snprintf(why, whyn,
					"its pipeline shuffles after it "
					"compresses");
				rc = -EIO;
			}
			continue;
		}
		if (id == H5Z_FILTER_FLETCHER32) {
			l->fletcher_mask |= 1u << i;
			continue;
		}
		if (id == H5Z_FILTER_NBIT || id == H5Z_FILTER_SCALEOFFSET ||
			id == H5Z_FILTER_SZIP) {
			snprintf(why, whyn,
				"its %s filter sizes its output by parameters "
				"stored in the file, which scopeview does not "
				"trust (scope-profiler never writes it)",
				sv_h5_filter_name(id, name));
			rc = -EIO;
		} else if (l->comp >= 0) {
			snprintf(why, whyn,
				"its pipeline holds two compressors (%s and "
				"%s)",
				sv_h5_filter_name(l->comp_id, NULL),
				sv_h5_filter_name(id, name));
			rc = -EIO;
		}
		l->comp = i;
		l->comp_id = id;
		/* h5py's LZF states the chunk's bytes (checked below). */
		lzf_says = id == SV_H5_FILTER_LZF && ncd >= 3 ? cd[2] : 0;
	}
	H5Pclose(dcpl);
	if (rc)
		return rc;
	if (l->rank < 1 || l->nfilters < 0) {
		snprintf(why, whyn, "cannot read its chunk shape");
		return -EIO;
	}
	if (l->nfilters == 0)
		return 0; /* read from the file as it is (load_h5.c) */
	l->comp_ours = l->comp_id == H5Z_FILTER_DEFLATE ||
		       l->comp_id == SV_H5_FILTER_LZF ||
		       l->comp_id == SV_H5_FILTER_ZSTD;
	t = H5Dget_type(ds);
	elem = t >= 0 ? chunks_disk_size(t, chunks_addr_size(ds)) : 0;
	if (t >= 0)
		H5Tclose(t);
	sp = H5Dget_space(ds);
	if (sp < 0 || H5Sget_simple_extent_ndims(sp) != l->rank ||
		H5Sget_simple_extent_dims(sp, l->dims, NULL) != l->rank)
		elem = 0;
	if (sp >= 0)
		H5Sclose(sp);
	if (elem == 0) {
		snprintf(why, whyn,
			"cannot tell the size of its chunks (an element type "
			"or shape scopeview does not know)");
		return -EIO;
	}
	bytes = elem;
	all = elem;
	for (i = 0; i < l->rank; i++) {
		if (l->chunk[i] == 0 ||
			bytes > (UINT64_MAX >> 1) / l->chunk[i]) {
			snprintf(why, whyn, "its chunks are of no usable size");
			return -EIO;
		}
		bytes *= l->chunk[i];
		all = l->dims[i] && all > UINT64_MAX / l->dims[i]
			      ? UINT64_MAX
			      : all * l->dims[i];
	}
	if (bytes > CHUNKS_MAX_SPARE && bytes > all) {
		snprintf(why, whyn,
			"is stored in chunks of %llu MiB for %llu bytes of "
			"values: the header is damaged, and reading it would "
			"inflate that much",
			(unsigned long long)(bytes >> 20),
			(unsigned long long)all);
		return -EIO;
	}
	l->bytes = (size_t)bytes;
	/* A Fletcher32 before the compressor checksummed the values, and
	 * the compressor's output carries the 4 bytes. */
	l->expect = l->bytes;
	for (i = 0; i < l->comp; i++)
		if (l->fletcher_mask & (1u << i))
			l->expect += 4;
	if (lzf_says && lzf_says != l->expect) {
		snprintf(why, whyn,
			"its LZF parameters say chunks of %u bytes, but its "
			"chunks hold %zu",
			lzf_says, l->expect);
		return -EIO;
	}
	return 0;
}

/* "chunk 3 (values 3072 to 4095)" or "the chunk at (0, 256)". */
static void chunks_name(
	const struct chunks_layout *l, const hsize_t *at, char *buf, size_t n)
{
	size_t used;
	int i;

	if (l->rank == 1) {
		hsize_t last = at[0] + l->chunk[0] - 1;
		if (last >= l->dims[0] && l->dims[0] > at[0])
			last = l->dims[0] - 1;
		snprintf(buf, n, "chunk %llu (values %llu to %llu)",
			(unsigned long long)(at[0] / l->chunk[0]),
			(unsigned long long)at[0], (unsigned long long)last);
		return;
	}
	used = (size_t)snprintf(buf, n, "the chunk at (");
	for (i = 0; i < l->rank && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, "%s%llu",
			i ? ", " : "", (unsigned long long)at[i]);
	if (used < n)
		snprintf(buf + used, n - used, ")");
}

static int chunks_refuse(
	struct chunks_walk *w, const hsize_t *at, const char *what)
{
	char name[128];

	chunks_name(w->l, at, name, sizeof name);
	snprintf(w->why, w->whyn, "%s: %s", name, what);
	return -EIO;
}

/* Decode the compressor's stage of a chunk stored as raw[0, len) (a
 * checksum after it already taken off), for the diagnosis. */
static bool chunks_decode(
	struct chunks_walk *w, size_t len, char why[SV_H5_WHY_MAX])
{
	const struct chunks_layout *l = w->l;

	if (!w->out)
		w->out = sv_xmalloc(l->expect);
	if (l->comp_id == SV_H5_FILTER_LZF)
		return sv_h5_lzf_decode(w->raw, len, w->out, l->expect, why);
	if (l->comp_id == SV_H5_FILTER_ZSTD)
		return sv_h5_zstd_decode(w->raw, len, w->out, l->expect, why);
	if (!w->inflater)
		w->inflater = libdeflate_alloc_decompressor();
	if (!w->inflater)
		return true; /* cannot tell: not this chunk's fault */
	return sv_h5_deflate_decode(
		w->inflater, w->raw, len, w->out, l->expect, why);
}

/* Look at the chunk whose first element is at. */
static int chunks_one(struct chunks_walk *w, hsize_t *at)
{
	const struct chunks_layout *l = w->l;
	hsize_t stored = 0;
	uint32_t mask = 0;
	uint64_t out;
	unsigned running;
	char why[SV_H5_WHY_MAX];
	int i;

	if (l->nfilters == 0)
		return 0; /* read from the file as it is (load_h5.c) */
	if (H5Dget_chunk_storage_size(w->ds, at, &stored) < 0 || stored == 0)
		return 0; /* not stored: the fill value */
	if (stored > (hsize_t)l->expect * 2 + 65536) {
		snprintf(why, sizeof why,
			"is stored in %llu bytes, more than any encoding of "
			"its "
			"%zu bytes takes",
			(unsigned long long)stored, l->bytes);
		return chunks_refuse(w, at, why);
	}
	if (w->rawcap < stored) {
		free(w->raw);
		w->rawcap = (size_t)stored;
		w->raw = sv_xmalloc(w->rawcap);
	}
	if (H5Dread_chunk(w->ds, H5P_DEFAULT, at, &mask, w->raw) < 0)
		return 0; /* H5Dread reports it */
	/* The filters that run, last in the pipeline first. */
	running = ~mask & ((1u << l->nfilters) - 1);
	out = stored;
	for (i = l->nfilters - 1; i >= 0; i--) {
		if (!(running & (1u << i)))
			continue;
		if (i == l->comp) {
			/* Decodes to l->expect or fails: LZF and zstd as
			 * they decode, deflate here and now. */
			if ((w->decode || l->comp_id == H5Z_FILTER_DEFLATE) &&
				l->comp_ours &&
				!chunks_decode(w, (size_t)out, why))
				return chunks_refuse(w, at, why);
			out = l->expect;
		} else if (l->fletcher_mask & (1u << i)) {
			if (out < 4) {
				snprintf(why, sizeof why,
					"is stored in %llu bytes, too few to "
					"hold its checksum",
					(unsigned long long)stored);
				return chunks_refuse(w, at, why);
			}
			out -= 4;
		}
	}
	if (out == l->bytes)
		return 0;
	snprintf(why, sizeof why,
		"is stored in %llu bytes and decodes to %llu (filter mask "
		"%#x), but holds %zu",
		(unsigned long long)stored, (unsigned long long)out,
		(unsigned)mask, l->bytes);
	return chunks_refuse(w, at, why);
}

/* Look at every chunk of the block of elements [lo, hi] (inclusive). */
static int chunks_block(
	struct chunks_walk *w, const hsize_t *lo, const hsize_t *hi)
{
	const struct chunks_layout *l = w->l;
	hsize_t c0[H5S_MAX_RANK], c1[H5S_MAX_RANK], idx[H5S_MAX_RANK];
	hsize_t at[H5S_MAX_RANK];
	int d, rc = 0;

	for (d = 0; d < l->rank; d++) {
		if (hi[d] < lo[d] || hi[d] >= l->dims[d])
			return 0; /* H5Dread refuses the selection */
		c0[d] = lo[d] / l->chunk[d];
		c1[d] = hi[d] / l->chunk[d];
		idx[d] = c0[d];
	}
	if (l->rank == 1) {
		/* Ranges come in ascending order: each chunk once. */
		if (idx[0] < w->last1)
			idx[0] = w->last1;
		for (; idx[0] <= c1[0] && rc == 0; idx[0]++) {
			at[0] = idx[0] * l->chunk[0];
			rc = chunks_one(w, at);
		}
		if (c1[0] + 1 > w->last1)
			w->last1 = c1[0] + 1;
		return rc;
	}
	for (;;) {
		for (d = 0; d < l->rank; d++)
			at[d] = idx[d] * l->chunk[d];
		rc = chunks_one(w, at);
		if (rc)
			return rc;
		for (d = l->rank - 1; d >= 0 && idx[d] == c1[d]; d--)
			idx[d] = c0[d];
		if (d < 0)
			return 0;
		idx[d]++;
	}
}

/* Blocks of a hyperslab selection fetched at a time. */
#define CHUNKS_BLOCKS 256

/* Look at every chunk the file selection fspace touches. */
static int chunks_select(struct chunks_walk *w, hid_t fspace)
{
	const struct chunks_layout *l = w->l;
	hsize_t lo[H5S_MAX_RANK], hi[H5S_MAX_RANK], *list;
	hssize_t nblocks;
	hsize_t b, k, j;
	int d, rc = 0;

	w->last1 = 0;
	if (fspace == H5S_ALL || H5Sget_select_type(fspace) == H5S_SEL_ALL) {
		for (d = 0; d < l->rank; d++) {
			if (l->dims[d] == 0)
				return 0;
			lo[d] = 0;
			hi[d] = l->dims[d] - 1;
		}
		return chunks_block(w, lo, hi);
	}
	if (H5Sget_select_type(fspace) == H5S_SEL_NONE)
		return 0;
	if (H5Sget_select_type(fspace) != H5S_SEL_HYPERSLABS) {
		if (H5Sget_select_bounds(fspace, lo, hi) < 0)
			return 0;
		return chunks_block(w, lo, hi);
	}
	nblocks = H5Sget_select_hyper_nblocks(fspace);
	if (nblocks <= 0)
		return 0;
	list = sv_xmalloc(sizeof *list * 2 * (size_t)l->rank * CHUNKS_BLOCKS);
	for (b = 0; b < (hsize_t)nblocks && rc == 0; b += k) {
		k = (hsize_t)nblocks - b < CHUNKS_BLOCKS ? (hsize_t)nblocks - b
							 : CHUNKS_BLOCKS;
		if (H5Sget_select_hyper_blocklist(fspace, b, k, list) < 0)
			break;
		for (j = 0; j < k && rc == 0; j++)
			rc = chunks_block(w, list + j * 2 * (size_t)l->rank,
				list + (j * 2 + 1) * (size_t)l->rank);
	}
	free(list);
	return rc;
}

static void chunks_walk_fini(struct chunks_walk *w)
{
	free(w->raw);
	free(w->out);
	if (w->inflater)
		libdeflate_free_decompressor(w->inflater);
}

int sv_h5_chunks_read(hid_t ds, hid_t memtype, hid_t mspace, hid_t fspace,
	void *buf, char *why, size_t whyn, bool *refused)
{
	struct chunks_layout l;
	struct chunks_walk w;
	char filt[SV_H5_WHY_MAX];
	bool bad = false;
	herr_t st;
	int rc;

	why[0] = '\0';
	memset(&w, 0, sizeof w);
	rc = chunks_layout(ds, &l, why, whyn);
	bad = rc != 0;
	if (!rc && l.rank > 0 && l.nfilters > 0) {
		w.ds = ds;
		w.l = &l;
		w.why = why;
		w.whyn = whyn;
		rc = chunks_select(&w, fspace);
		bad = rc != 0;
	}
	if (!rc) {
		sv_h5_filters_expect(l.rank > 0 ? l.expect : 0);
		st = H5Dread(ds, memtype, mspace, fspace, H5P_DEFAULT, buf);
		if (st < 0 && sv_h5_filters_why()[0]) {
			/* A filter refused a chunk: which one? */
			snprintf(filt, sizeof filt, "%s", sv_h5_filters_why());
			bad = true;
			w.decode = true;
			if (l.rank == 0 || chunks_select(&w, fspace) == 0)
				snprintf(why, whyn, "a chunk: %s", filt);
		} else if (st < 0) {
			snprintf(why, whyn, "%s", sv_h5_last_error());
		}
		rc = st < 0 ? -EIO : 0;
		sv_h5_filters_expect(0);
	}
	chunks_walk_fini(&w);
	if (refused)
		*refused = bad;
	return rc;
}
