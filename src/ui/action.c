/*
 * action.c: the action table (action.h) turned into lookups and documents:
 * (scope, key) -> action, the `--list-keys` text and the README's Markdown
 * tables, one section per scope.
 * The key bindings are parsed from the table's tmux names once, on first
 * use.  Nothing here knows about curses.
 */
#include "scopeview/action.h"

#include <errno.h>
#include <string.h>

#include "scopeview/keys.h"

static const struct sv_action_info action_rows[SV_ACTION_COUNT] = {
	[SV_ACTION_NONE] = {"none", "", 0, ""},
#define ACTION_ROW(id, str, keys, scopes, help) \
	[SV_ACTION_##id] = {str, keys, scopes, help},
	SV_ACTION_TABLE(ACTION_ROW)
#undef ACTION_ROW
};

/* The bindings in effect: the table's defaults, parsed on first use, then
 * whatever sv_action_bind() changed.  A row binds key to action in the
 * scopes of its bits; a rebinding takes the scope's bit away from the
 * row that had the key there, so a key still means one thing per scope. */
#define ACTION_MAX_BINDINGS 512

static const struct {
	const char *name, *title;
} action_scopes[SV_SCOPE_COUNT] = {
#define ACTION_SCOPE(id, name, title) [SV_SCOPE_INDEX_##id] = {name, title},
	SV_SCOPE_TABLE(ACTION_SCOPE)
#undef ACTION_SCOPE
};
static struct {
	int key;
	int action;
	unsigned scopes;
} action_bindings[ACTION_MAX_BINDINGS];
static size_t action_nbindings;
static bool action_bound;

/* Split the table's key names and parse them; a name that does not parse
 * is a programming error caught by test_action. */
static void action_bind(void)
{
	int a;

	if (action_bound)
		return;
	action_nbindings = 0;
	for (a = 1; a < SV_ACTION_COUNT; a++) {
		const char *s = action_rows[a].keys;
		while (*s) {
			char word[32];
			size_t len;
			int key;

			while (*s == ' ')
				s++;
			len = strcspn(s, " ");
			if (!len)
				break;
			if (len < sizeof word) {
				memcpy(word, s, len);
				word[len] = '\0';
				if (!sv_key_parse(word, &key, NULL) &&
					action_nbindings <
						ACTION_MAX_BINDINGS) {
					action_bindings[action_nbindings].key =
						key;
					action_bindings[action_nbindings]
						.scopes = action_rows[a].scopes;
					action_bindings[action_nbindings++]
						.action = a;
				}
			}
			s += len;
		}
	}
	action_bound = true;
}

int sv_action_bind(unsigned scopes, int key, int action)
{
	size_t i;

	if (action < SV_ACTION_NONE || action >= SV_ACTION_COUNT ||
		(action == SV_ACTION_NONE && !scopes) ||
		(scopes & ~((1u << SV_SCOPE_COUNT) - 1u)))
		return -EINVAL;
	if (!scopes)
		scopes = action_rows[action].scopes;
	if (action != SV_ACTION_NONE && (scopes & ~action_rows[action].scopes))
		return -EINVAL;
	action_bind();
	if (action != SV_ACTION_NONE) {
		for (i = 0; i < action_nbindings; i++)
			if (action_bindings[i].key == key &&
				action_bindings[i].action == action &&
				(action_bindings[i].scopes & scopes) == scopes)
				return 0; /* already so */
		if (action_nbindings >= ACTION_MAX_BINDINGS)
			return -ENOSPC;
	}
	for (i = 0; i < action_nbindings; i++)
		if (action_bindings[i].key == key)
			action_bindings[i].scopes &= ~scopes;
	if (action != SV_ACTION_NONE) {
		action_bindings[action_nbindings].key = key;
		action_bindings[action_nbindings].action = action;
		action_bindings[action_nbindings++].scopes = scopes;
	}
	return 0;
}

int sv_action_binding(size_t i, int *key, int *action, unsigned *scopes)
{
	action_bind();
	if (i >= action_nbindings)
		return -ENOENT;
	if (key)
		*key = action_bindings[i].key;
	if (action)
		*action = action_bindings[i].action;
	if (scopes)
		*scopes = action_bindings[i].scopes;
	return 0;
}

void sv_action_reset_bindings(void)
{
	action_bound = false;
	action_bind();
}

const struct sv_action_info *sv_action_info(int action)
{
	if (action <= SV_ACTION_NONE || action >= SV_ACTION_COUNT)
		return NULL;
	return &action_rows[action];
}

int sv_action_for_key(unsigned scope, int key)
{
	size_t i;

	action_bind();
	for (i = 0; i < action_nbindings; i++)
		if (action_bindings[i].key == key &&
			(action_bindings[i].scopes & scope))
			return action_bindings[i].action;
	return SV_ACTION_NONE;
}

static int action_scope_index(unsigned s)
{
	int i;

	for (i = 0; i < SV_SCOPE_COUNT; i++)
		if (s == 1u << i)
			return i;
	return -1;
}

const char *sv_scope_name(unsigned s)
{
	int i = action_scope_index(s);
	return i < 0 ? NULL : action_scopes[i].name;
}

const char *sv_scope_title(unsigned s)
{
	int i = action_scope_index(s);
	return i < 0 ? NULL : action_scopes[i].title;
}

int sv_action_by_name(const char *name)
{
	int a;

	if (!name)
		return SV_ACTION_NONE;
	for (a = 1; a < SV_ACTION_COUNT; a++)
		if (!strcmp(action_rows[a].name, name))
			return a;
	return SV_ACTION_NONE;
}

const char *sv_action_key_label(const char *tmux_name, char *buf, size_t n)
{
	static const struct {
		const char *tmux, *label;
	} labels[] = {
		{"BTab", "Shift-Tab"},
		{"BSpace", "Backspace"},
		{"Escape", "Esc"},
		{"PageUp", "PgUp"},
		{"PageDown", "PgDn"},
	};
	size_t i;

	if (!buf || !n)
		return buf;
	for (i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (!strcmp(tmux_name, labels[i].tmux)) {
			snprintf(buf, n, "%s", labels[i].label);
			return buf;
		}
	if (!strncmp(tmux_name, "C-", 2) && tmux_name[2])
		snprintf(buf, n, "Ctrl-%s", tmux_name + 2);
	else
		snprintf(buf, n, "%s", tmux_name);
	return buf;
}

/* label made bold for scdoc, its markup characters escaped: the key
 * "\\" is written "*\\\\*". */
static void action_scdoc_key(char *label, size_t n)
{
	char tmp[40];
	size_t i, o = 0;

	tmp[o++] = '*';
	for (i = 0; label[i] && o + 4 < sizeof tmp; i++) {
		if (strchr("\\*_", label[i]))
			tmp[o++] = '\\';
		tmp[o++] = label[i];
	}
	tmp[o++] = '*';
	tmp[o] = '\0';
	snprintf(label, n, "%s", tmp);
}

/* "h, Left" style list of the keys bound to a in any of scopes, in
 * human spelling, in the order of the table (rebound keys last). */
static void action_keys(int a, unsigned scopes, const char *sep, char *out,
	size_t n, enum sv_action_doc doc)
{
	bool markdown = doc == SV_ACTION_DOC_MARKDOWN;
	size_t used = 0, i;

	out[0] = '\0';
	action_bind();
	for (i = 0; i < action_nbindings && used < n; i++) {
		char word[32], label[40];

		if (action_bindings[i].action != a ||
			!(action_bindings[i].scopes & scopes))
			continue;
		sv_key_name(action_bindings[i].key, word, sizeof word);
		sv_action_key_label(word, label, sizeof label);
		if (doc == SV_ACTION_DOC_SCDOC)
			action_scdoc_key(label, sizeof label);
		if (markdown) {
			/* A backquoted "\" or "|" must survive the table. */
			if (!strcmp(label, "|"))
				snprintf(label, sizeof label, "\\|");
			used += (size_t)snprintf(out + used, n - used, "%s`%s`",
				used ? sep : "", label);
		} else {
			used += (size_t)snprintf(out + used, n - used, "%s%s",
				used ? sep : "", label);
		}
	}
}

void sv_action_key_list(int a, char *out, size_t n)
{
	sv_action_key_list_in(a, ~0u, ", ", out, n);
}

void sv_action_key_list_in(
	int a, unsigned scopes, const char *sep, char *out, size_t n)
{
	if (!out || !n)
		return;
	out[0] = '\0';
	if (a > SV_ACTION_NONE && a < SV_ACTION_COUNT)
		action_keys(a, scopes, sep ? sep : ", ", out, n,
			SV_ACTION_DOC_TEXT);
}

int sv_action_write_keys(FILE *out, enum sv_action_doc doc)
{
	bool md = doc == SV_ACTION_DOC_MARKDOWN;
	bool scdoc = doc == SV_ACTION_DOC_SCDOC;
	int a, si;

	if (scdoc)
		fputs("# KEYS\n\n", out);
	for (si = 0; si < SV_SCOPE_COUNT; si++) {
		if (scdoc)
			fprintf(out, "## %s\n\n", action_scopes[si].title);
		else if (md)
			fprintf(out,
				"%s%s:\n\n| Keys | Action | What it does |\n"
				"|---|---|---|\n",
				si ? "\n" : "", action_scopes[si].title);
		else
			fprintf(out, "%s%s\n", si ? "\n" : "",
				action_scopes[si].title);
		for (a = 1; a < SV_ACTION_COUNT; a++) {
			char keys[160];
			unsigned sc = action_rows[a].scopes;
			if (!(sc & (1u << si)))
				continue;
			action_keys(a, 1u << si, ", ", keys, sizeof keys, doc);
			if (scdoc) {
				const char *h = action_rows[a].help;
				fprintf(out, "%s (%s)\n\t", keys,
					action_rows[a].name);
				for (; *h; h++)
					fprintf(out, "%s%c",
						strchr("\\*_", *h) ? "\\" : "",
						*h);
				fputs("\n\n", out);
			} else if (md)
				fprintf(out, "| %s | `%s` | %s |\n", keys,
					action_rows[a].name,
					action_rows[a].help);
			else
				fprintf(out, "  %-18s %-17s %s\n", keys,
					action_rows[a].name,
					action_rows[a].help);
		}
	}
	fputs(scdoc ? "## Mouse\n\n" : "\n", out);
	fputs("Mouse: click selects a call, the wheel zooms around the "
	      "pointer, dragging pans; dragging the summary panel's border "
	      "sets its width; dragging along the time ruler marks that "
	      "time as the range.\n"
	      "A count before a move repeats it (20l, 5j, 3n).\n"
	      "In a prompt, other keys type text.\n",
		out);
	return ferror(out) ? -EIO : 0;
}
