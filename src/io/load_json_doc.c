/*
 * load_json_doc.c: sv_load_json (load_priv.h): a JSON profile's blocks
 * (load_json_in.c) fed to YAJL with the reader's callbacks
 * (load_json.c), then the checks of the document as a whole: the format
 * and its version, the rank count (doc/format.md 16.3).
 */
#include "load_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* YAJL's reason, one line, and where (bytes of the document before the
 * failing block, plus how far into it YAJL got). */
static int jin_parse_error(
	struct jl *j, yajl_handle h, yajl_status st, bool gz, uint64_t before)
{
	unsigned char *why;
	char *nl;

	if (st == yajl_status_client_canceled && j->rc)
		return j->rc;
	why = yajl_get_error(h, 0, NULL, 0);
	nl = why ? strchr((char *)why, '\n') : NULL;
	if (nl)
		*nl = '\0';
	sv_jl_fail(j, -EINVAL, "not valid JSON near byte %" PRIu64 "%s (%s)",
		before + yajl_get_bytes_consumed(h),
		gz ? " of the uncompressed text" : "",
		why ? (char *)why : "parse error");
	if (why)
		yajl_free_error(h, why);
	return j->rc;
}

static void jin_state_free(struct jl *j)
{
	size_t c;

	sv_jl_row_reset(j);
	for (c = 0; c < JL_NCOLS; c++)
		free(j->cols[c]);
	sv_load_names_fini(&j->names);
	free(j->pairs);
	free(j->meta_key);
	sv_strv_fini(&j->meta_list);
	free(j->thread.name);
	free(j->task.kind);
	free(j->task.name);
	free(j->task.coro_name);
	for (c = 0; c < j->nemeta; c++)
		free(j->emeta[c].text);
	free(j->emeta);
	free(j->likwid_text);
	free(j->lines_text);
	free(j->cap_text);
	free(j->cap_st);
	free(j);
}

int sv_load_json(const char *path, bool gz, const struct sv_load_opts *opts,
	struct sv_profile **out, struct sv_error *err)
{
	struct sv_jin in;
	struct jl *j;
	yajl_handle h;
	const unsigned char *buf;
	uint64_t before = 0, guess;
	yajl_status st = yajl_status_ok;
	ssize_t n;
	int rc;

	if (opts && opts->summary_only)
		return sv_error_set(err, -ENOTSUP,
			"%s: a JSON profile has no index apart from its "
			"calls; it is only read whole",
			path);
	rc = sv_jin_open(&in, path, gz, err);
	if (rc)
		return rc;
	j = sv_xcalloc(1, sizeof *j);
	j->p = sv_profile_new(path);
	j->p->layout = SV_LAYOUT_COLUMNAR;
	j->p->has_calls = true;
	j->path = path;
	j->err = err;
	j->row.source_line = -1;
	/* Room for the calls the text can hardly hold fewer of (two numbers
	 * of about 20 characters a call; gzip shrinks it about 8 times):
	 * pages not written are never touched. */
	guess = (gz ? in.size * 8 : in.size) / 48;
	if (guess > SV_MAX_CALLS)
		guess = SV_MAX_CALLS;
	sv_profile_reserve_calls(j->p, guess);
	h = yajl_alloc(&sv_jl_callbacks, NULL, j);
	for (;;) {
		n = sv_jin_next(&in, &buf, err);
		if (n < 0) {
			rc = (int)n;
			break;
		}
		if (n == 0)
			break;
		st = yajl_parse(h, buf, (size_t)n);
		if (st != yajl_status_ok) {
			rc = jin_parse_error(j, h, st, gz, before);
			break;
		}
		before += (uint64_t)n;
		rc = sv_load_step(
			opts, path, 0.85 * sv_jin_fraction(&in), "calls", err);
		if (rc)
			break;
	}
	if (!rc) {
		st = yajl_complete_parse(h);
		if (st != yajl_status_ok)
			rc = jin_parse_error(j, h, st, gz, before);
	}
	if (!rc && !j->has_format)
		rc = sv_error_set(err, -EINVAL,
			"%s: is JSON, but not a scope-profiler JSON profile "
			"(no \"format\": \"scope-profiler-profile\"; such "
			"files are written by `scope-profiler export "
			"--format json` or `-o NAME.json`)",
			path);
	if (!rc && j->has_version && j->version > 1)
		rc = sv_error_set(err, -ENOTSUP,
			"%s: uses JSON profile format version %" PRId64
			"; this scopeview reads version 1: upgrade scopeview "
			"to read this file",
			path, j->version);
	if (!rc)
		sv_jl_extras(j);
	if (!rc && j->has_num_ranks)
		j->p->num_ranks = j->num_ranks < 0 ? 0
				  : j->num_ranks > (int64_t)UINT32_MAX
					  ? UINT32_MAX
					  : (uint32_t)j->num_ranks;
	yajl_free(h);
	sv_jin_close(&in);
	if (!rc)
		*out = j->p;
	else
		sv_profile_free(j->p);
	jin_state_free(j);
	return rc;
}
