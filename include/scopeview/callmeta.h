/*
 * callmeta.h: per-call event metadata (doc/format.md 4.11): what
 * scope-profiler's sp.metadata(phase="steady", iter=12) and
 * @profile(record_outcome=True) attach to each call.
 *
 * Storage (in struct sv_profile): call_meta[c] is an offset into one text
 * arena, meta_arena, where call c's metadata object is kept as compact
 * JSON text ({"phase":"steady","iter":12}: the file's text with the
 * whitespace outside strings dropped, strings and numbers exactly as
 * written, so Python's \uXXXX escapes and bare NaN / Infinity stay).
 * Offset 0 means no metadata (also for {}).  Consecutive calls with the
 * same object share its text.  A profile whose file has no metadata has
 * call_meta == NULL and costs nothing.
 *
 * The JSON read here is Python's json module's: RFC 8259 plus NaN,
 * Infinity and -Infinity as numbers.  Nothing here prints or knows HDF5.
 */
#ifndef SCOPEVIEW_CALLMETA_H
#define SCOPEVIEW_CALLMETA_H

#include "scopeview/layer.h"
#if !(SV_LAYER_ALLOW & SV_LAYER_MODEL)
#error "scopeview/callmeta.h belongs to the model layer, which this layer may not use"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scopeview/common.h"
#include "scopeview/profile.h"

struct sv_regex; /* regex.h */

/*
 * Store one row's metadata: text is the row's element of
 * /rank_region_index/event_metadata, a JSON list that must hold either no
 * entry or exactly count entries, each an object, for calls first ..
 * first + count - 1 (already added with sv_profile_add_row).  NULL, "" and
 * "[]" store nothing.  Returns 0, or -EINVAL with a reason in why (at most
 * whyn bytes: "not JSON: ... at byte 12", "holds 2 entries for 3 calls",
 * "entry 1 is a string, not an object") and nothing stored.
 */
int sv_callmeta_set_row(struct sv_profile *p, uint64_t first, uint64_t count,
	const char *text, char *why, size_t whyn);

/* Call c's metadata object as compact JSON text, or NULL when it has
 * none.  Valid while the profile is. */
const char *sv_callmeta_of(const struct sv_profile *p, uint32_t c);

/* One member of an object: key is the JSON string (with its quotes),
 * value the compact JSON value; both point into the object text. */
struct sv_callmeta_kv {
	const char *key, *val;
	size_t key_len, val_len;
};

/* Step through the members of object text obj: *cur starts at obj (its
 * '{').  Fills kv and returns true for each member in file order; false
 * at the end. */
bool sv_callmeta_next(const char **cur, struct sv_callmeta_kv *kv);

/* The member of obj called key (UTF-8, compared after decoding the JSON
 * key), or false.  A key given twice: the last one, as Python keeps. */
bool sv_callmeta_find(
	const char *obj, const char *key, struct sv_callmeta_kv *kv);

/*
 * A JSON value as a person reads it: a string decoded (no quotes, escapes
 * resolved, \uXXXX surrogate pairs joined, a lone surrogate as U+FFFD),
 * anything else (numbers, true, null, nested objects and lists folded to
 * one line) as its compact text.  Writes at most n bytes including the
 * NUL (n > 0); returns the length the whole text needs (without NUL).
 */
size_t sv_callmeta_show(const char *val, size_t len, char *out, size_t n);

/* A call's metadata object obj (may be NULL) on one line, its members as
 * key=value (sv_callmeta_show) two spaces apart, into out (n > 0 bytes,
 * cut at n - 1).  Returns the length written. */
size_t sv_callmeta_line(const char *obj, char *out, size_t n);

/* group_of's value for a call without the key. */
#define SV_CALLMETA_NO_GROUP UINT32_MAX

/*
 * The distinct values of key over p's calls (summary --group-by), as
 * compact JSON texts in order of first appearance (call order), and each
 * call's group: (*group_of)[c] indexes *values, or is
 * SV_CALLMETA_NO_GROUP when c has no such key.  Values are told apart by
 * their compact text (1 and 1.0 are two values).  Returns the number of
 * values; the caller frees *values (sv_strv_free_array) and *group_of
 * (p->ncalls long, also when no call has the key).
 */
size_t sv_callmeta_groups(const struct sv_profile *p, const char *key,
	char ***values, uint32_t **group_of);

/* A search term on metadata: "key=value" (the shown value equals value)
 * or "key~regex" (regex found anywhere in the shown value). */
struct sv_callmeta_term {
	char *key;
	char *value;         /* key=value; NULL for key~regex */
	struct sv_regex *re; /* key~regex; NULL for key=value */
};

/* Read spec as a term.  Returns 1 (t filled; sv_callmeta_term_fini it),
 * 0 when spec is not a term (no '=' or '~' after a non-empty key without
 * spaces), or -EINVAL with err when the regex does not compile. */
int sv_callmeta_term_parse(
	const char *spec, struct sv_callmeta_term *t, struct sv_error *err);

/* Whether call c's metadata satisfies t. */
bool sv_callmeta_term_match(const struct sv_profile *p,
	const struct sv_callmeta_term *t, uint32_t c);

/* NULL-safe; t may be reused after. */
void sv_callmeta_term_fini(struct sv_callmeta_term *t);

#endif
