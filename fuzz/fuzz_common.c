/*
 * fuzz_common.c: the harnesses' shared part (fuzz_common.h).  Any
 * failure of the project's own API on a profile it loaded is a bug and
 * aborts, so that libFuzzer reports it.
 */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scopeview/gen.h"
#include "scopeview/grid.h"
#include "scopeview/keys.h"
#include "scopeview/snapshot.h"
#include "scopeview/stats.h"
#include "scopeview/summary.h"

uint8_t fuzz_u8(struct fuzz_in *in)
{
	uint8_t v = 0;
	if (in->n) {
		v = *in->p++;
		in->n--;
	}
	return v;
}

uint32_t fuzz_u32(struct fuzz_in *in)
{
	uint32_t v = 0;
	int i;
	for (i = 0; i < 4; i++)
		v = v << 8 | fuzz_u8(in);
	return v;
}

uint64_t fuzz_u64(struct fuzz_in *in)
{
	return (uint64_t)fuzz_u32(in) << 32 | fuzz_u32(in);
}

void fuzz_path(char *buf, size_t n, const char *name)
{
	static char dir[256];
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/scopeview-fuzz-XXXXXX",
			t && *t ? t : "/tmp");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			abort();
		}
	}
	snprintf(buf, n, "%s/%s", dir, name);
}

void fuzz_gen(const char *path, uint32_t ranks, uint32_t threads,
	uint32_t tasks, uint64_t events, uint64_t seed)
{
	struct sv_gen_opts o;
	struct sv_error e = {0};

	sv_gen_opts_init(&o);
	o.ranks = ranks;
	o.threads = threads;
	o.tasks = tasks;
	o.events = events;
	o.gpu = true;
	o.await = tasks > 0;
	o.seed = seed;
	if (sv_gen_write(path, &o, NULL, NULL, &e) != 0) {
		fprintf(stderr, "fuzz: gen: %s\n", e.msg);
		abort();
	}
}

/* Every main view, by its :view name, and a few keys in each. */
static const char *const fuzz_views[] = {
	"",
	"Tab Tab f + + - Home End / s o l Enter n",
	"V p > > < j j Enter",
	": v i e w Space t r e e Enter j Enter",
	": v i e w Space f l a m e Enter j Enter",
	": v i e w Space c a l l e r s Enter j",
	": v i e w Space r a n k s Enter j l",
	": v i e w Space h i s t o g r a m Enter",
	": v i e w Space c a l l s Enter j",
	"? j j Escape I j Escape",
	/* the source popup: the profile's text, its line profile, or the
	 * source file it names (read by the input rule, infile.h) */
	"Tab v j j",
	"V v G",
	/* folded rank tracks and rank rows */
	"Z ) ) j z",
	"p Enter p b (",
};

static void fuzz_draw(
	const struct sv_profile *p, int w, int h, const int *keys, size_t n)
{
	struct sv_grid g;
	struct sv_error e = {0};

	sv_grid_init(&g);
	if (sv_snapshot_draw(&g, p, w, h, keys, n, NULL, &e) != 0) {
		fprintf(stderr, "fuzz: snapshot: %s\n", e.msg);
		abort();
	}
	sv_grid_fini(&g);
}

void fuzz_exercise(
	const struct sv_profile *p, int w, int h, const int *keys, size_t nkeys)
{
	struct sv_stats_table t;
	struct sv_summary_opts so;
	struct sv_error e = {0};
	FILE *null = fopen("/dev/null", "w");
	size_t i;

	memset(&t, 0, sizeof t);
	memset(&so, 0, sizeof so);
	if (sv_stats_table_compute(&t, p, NULL, &e) == 0) {
		if (null)
			sv_summary_write(null, p, &t, &so);
		/* with the counters and per rank, as --counters --per-rank */
		so.counters = true;
		so.per_rank = true;
		if (null)
			sv_summary_write(null, p, &t, &so);
		sv_stats_table_fini(&t);
	}
	if (null)
		fclose(null);
	if (keys) {
		fuzz_draw(p, w, h, keys, nkeys);
		return;
	}
	for (i = 0; i < sizeof fuzz_views / sizeof fuzz_views[0]; i++) {
		int *k = NULL;
		size_t n = 0;
		if (sv_keys_parse_script(fuzz_views[i], &k, &n, &e) != 0) {
			fprintf(stderr, "fuzz: keys: %s\n", e.msg);
			abort();
		}
		fuzz_draw(p, w, h, k, n);
		free(k);
	}
}
