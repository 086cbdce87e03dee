/*
 * view_complete.c: what Tab offers at a prompt (view.h).
 *
 * At `:` the first word is a command; the word after it is what that
 * command takes: a view's name (view), a file or directory (open, and
 * export's FILE), an export format (export), a sort key (sort), a region
 * name (region, search, filter), on or off (second).  At `/` and `\` the
 * word is a region name (after a filter's `!`).  Candidates are whole
 * words, sorted and unique; a directory ends in '/'.  Nothing here knows
 * about curses or HDF5; a path is completed from the directory's listing,
 * read when Tab is pressed, never per frame.
 */
#include "scopeview/view.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scopeview/panel.h"
#include "scopeview/stats.h"

/* The directory entries read for one Tab at most. */
#define COMPLETE_MAX 2000

enum complete_arg {
	ARG_NONE,
	ARG_VIEW,
	ARG_PATH,
	ARG_EXPORT, /* a format, then a path */
	ARG_SORT,
	ARG_REGION,
	ARG_ONOFF,
};

/* The commands of `:` (the viewer's and the timeline's) and what their
 * first argument is. */
static const struct {
	const char *name;
	enum complete_arg arg;
} complete_cmds[] = {
	{"export", ARG_EXPORT},
	{"filter", ARG_REGION},
	{"goto", ARG_NONE},
	{"open", ARG_PATH},
	{"quit", ARG_NONE},
	{"range", ARG_NONE},
	{"rank", ARG_NONE},
	{"ranks", ARG_NONE},
	{"region", ARG_REGION},
	{"search", ARG_REGION},
	{"second", ARG_ONOFF},
	{"sort", ARG_SORT},
	{"view", ARG_VIEW},
	{"zoom", ARG_NONE},
};

static void complete_add(struct sv_strv *out, const char *prefix,
	const char *cand, const char *word)
{
	size_t plen = strlen(prefix);
	char *full;

	if (strncmp(cand, word + plen, strlen(word) - plen))
		return;
	full = sv_xasprintf("%s%s", prefix, cand);
	sv_strv_push(out, full);
	free(full);
}

/* Each name of the space-separated list, as a candidate. */
static void complete_words(
	struct sv_strv *out, const char *list, const char *word)
{
	char name[64];

	while (list && *list) {
		size_t n = strcspn(list, " ");
		if (n && n < sizeof name) {
			memcpy(name, list, n);
			name[n] = '\0';
			complete_add(out, "", name, word);
		}
		list += n;
		list += strspn(list, " ");
	}
}

/* The entries of word's directory that start as its last part does;
 * directories end in '/'; hidden ones only for a part that starts with
 * a dot. */
static void complete_path(struct sv_strv *out, const char *word)
{
	const char *slash = strrchr(word, '/');
	char *dir = slash ? sv_xasprintf("%.*s", (int)(slash - word + 1), word)
			  : sv_xasprintf("%s", "");
	const char *part = slash ? slash + 1 : word;
	DIR *d = opendir(*dir ? dir : ".");
	struct dirent *e;
	size_t seen = 0;

	while (d && (e = readdir(d)) != NULL && seen++ < COMPLETE_MAX) {
		struct stat st;
		char *path, *cand;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
			(e->d_name[0] == '.' && part[0] != '.') ||
			strncmp(e->d_name, part, strlen(part)))
			continue;
		path = sv_xasprintf("%s%s", *dir ? dir : "./", e->d_name);
		cand = sv_xasprintf("%s%s%s", dir, e->d_name,
			!stat(path, &st) && S_ISDIR(st.st_mode) ? "/" : "");
		sv_strv_push(out, cand);
		free(cand);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
}

static int complete_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort out's strings and drop the repeats. */
static void complete_sort(struct sv_strv *out)
{
	size_t i, n = 0;

	if (out->n < 2)
		return;
	qsort(out->v, out->n, sizeof *out->v, complete_cmp);
	for (i = 0; i < out->n; i++) {
		if (n && !strcmp(out->v[n - 1], out->v[i])) {
			free(out->v[i]);
			continue;
		}
		out->v[n++] = out->v[i];
	}
	out->n = n;
}

static void complete_arg(struct sv_view *v, enum complete_arg arg,
	const char *word, struct sv_strv *out)
{
	const struct sv_profile *p = v->s.p;
	size_t i;

	switch (arg) {
	case ARG_VIEW:
		for (i = 0; sv_mode_table[i]; i++)
			if (sv_mode_fits(v, sv_mode_table[i], false))
				complete_add(
					out, "", sv_mode_table[i]->name, word);
		break;
	case ARG_PATH:
		complete_path(out, word);
		break;
	case ARG_EXPORT:
		if (v->sink)
			complete_words(out, v->sink->formats, word);
		break;
	case ARG_SORT:
		for (i = 0; i < SV_PANEL_COL_COUNT; i++)
			complete_add(out, "",
				sv_stats_key_name(sv_panel_col_key((int)i)),
				word);
		if (v->s.p2)
			complete_words(out, "delta delta%", word);
		break;
	case ARG_REGION:
		for (i = 0; i < p->nregions; i++)
			complete_add(out, "", p->regions[i], word);
		break;
	case ARG_ONOFF:
		complete_words(out, "on off", word);
		break;
	case ARG_NONE:
		break;
	}
}

size_t sv_view_complete(struct sv_view *v, int kind, const char *text,
	size_t cursor, size_t *start, struct sv_strv *out)
{
	char line[SV_VIEW_PROMPT_MAX], cmd[32], *word;
	size_t at, nwords = 0, i;

	snprintf(line, sizeof line, "%.*s", (int)cursor, text);
	/* The word before the cursor, and how many come before it. */
	at = strlen(line);
	while (at && line[at - 1] != ' ')
		at--;
	for (i = 0; i < at; i++)
		if (line[i] != ' ' && (i == 0 || line[i - 1] == ' '))
			nwords++;
	word = line + at;
	*start = at;
	if (kind == SV_PROMPT_SEARCH || kind == SV_PROMPT_FILTER) {
		if (kind == SV_PROMPT_FILTER && *word == '!') {
			(*start)++;
			word++;
		}
		complete_arg(v, ARG_REGION, word, out);
	} else if (kind == SV_PROMPT_COMMAND) {
		sv_view_command_word(line, cmd, sizeof cmd);
		if (nwords == 0) {
			for (i = 0; i < sizeof complete_cmds /
						sizeof complete_cmds[0];
				i++)
				complete_add(
					out, "", complete_cmds[i].name, word);
		} else {
			for (i = 0; i < sizeof complete_cmds /
						sizeof complete_cmds[0];
				i++) {
				enum complete_arg a = complete_cmds[i].arg;
				if (strcmp(complete_cmds[i].name, cmd))
					continue;
				/* export FORMAT FILE: the file second; a
				 * filter takes patterns, each may be !NAME */
				if (a == ARG_EXPORT && nwords >= 2)
					a = nwords == 2 ? ARG_PATH : ARG_NONE;
				else if (!strcmp(cmd, "filter") &&
					 *word == '!') {
					(*start)++;
					word++;
				} else if (nwords >= 2 && strcmp(cmd, "filter"))
					a = ARG_NONE;
				complete_arg(v, a, word, out);
			}
		}
	}
	complete_sort(out);
	return out->n;
}
