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

/* The names of actions that every list now shares (a config file may
 * still bind them): each view once had its own copy. */
static const struct {
	const char *old;
	int action;
} action_aliases[] = {
	{"collapse-lane", SV_ACTION_FOLD_RANK},
	{"collapse-all", SV_ACTION_FOLD_ALL},
	{"panel-down", SV_ACTION_LIST_DOWN},
	{"panel-up", SV_ACTION_LIST_UP},
	{"panel-page-down", SV_ACTION_LIST_PAGE_DOWN},
	{"panel-page-up", SV_ACTION_LIST_PAGE_UP},
	{"panel-first", SV_ACTION_LIST_FIRST},
	{"panel-last", SV_ACTION_LIST_LAST},
	{"popup-down", SV_ACTION_LIST_DOWN},
	{"popup-up", SV_ACTION_LIST_UP},
	{"popup-page-down", SV_ACTION_LIST_PAGE_DOWN},
	{"popup-page-up", SV_ACTION_LIST_PAGE_UP},
	{"popup-top", SV_ACTION_LIST_FIRST},
	{"popup-bottom", SV_ACTION_LIST_LAST},
	{"tree-down", SV_ACTION_LIST_DOWN},
	{"tree-up", SV_ACTION_LIST_UP},
	{"tree-page-down", SV_ACTION_LIST_PAGE_DOWN},
	{"tree-page-up", SV_ACTION_LIST_PAGE_UP},
	{"tree-first", SV_ACTION_LIST_FIRST},
	{"tree-last", SV_ACTION_LIST_LAST},
	{"tree-sort-prev", SV_ACTION_LIST_SORT_PREV},
	{"tree-sort-next", SV_ACTION_LIST_SORT_NEXT},
	{"tree-select", SV_ACTION_LIST_ENTER},
	{"tree-back", SV_ACTION_BACK},
	{"callers-down", SV_ACTION_LIST_DOWN},
	{"callers-up", SV_ACTION_LIST_UP},
	{"callers-focus", SV_ACTION_LIST_ENTER},
	{"callers-back", SV_ACTION_BACK},
	{"ranks-down", SV_ACTION_LIST_DOWN},
	{"ranks-up", SV_ACTION_LIST_UP},
	{"ranks-page-down", SV_ACTION_LIST_PAGE_DOWN},
	{"ranks-page-up", SV_ACTION_LIST_PAGE_UP},
	{"ranks-solo", SV_ACTION_LIST_ENTER},
	{"hist-down", SV_ACTION_LIST_DOWN},
	{"hist-up", SV_ACTION_LIST_UP},
	{"hist-list", SV_ACTION_LIST_ENTER},
	{"calls-down", SV_ACTION_LIST_DOWN},
	{"calls-up", SV_ACTION_LIST_UP},
	{"calls-page-down", SV_ACTION_LIST_PAGE_DOWN},
	{"calls-page-up", SV_ACTION_LIST_PAGE_UP},
	{"calls-first", SV_ACTION_LIST_FIRST},
	{"calls-last", SV_ACTION_LIST_LAST},
	{"calls-sort-next", SV_ACTION_LIST_SORT_NEXT},
	{"calls-sort-prev", SV_ACTION_LIST_SORT_PREV},
	{"calls-reverse", SV_ACTION_LIST_REVERSE},
	{"calls-show", SV_ACTION_LIST_ENTER},
};

int sv_action_by_name(const char *name)
{
	size_t i;
	int a;

	if (!name)
		return SV_ACTION_NONE;
	for (a = 1; a < SV_ACTION_COUNT; a++)
		if (!strcmp(action_rows[a].name, name))
			return a;
	for (i = 0; i < sizeof action_aliases / sizeof action_aliases[0]; i++)
		if (!strcmp(action_aliases[i].old, name))
			return action_aliases[i].action;
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
		bool any = false;
		/* A view whose keys are all the list's has no table. */
		for (a = 1; a < SV_ACTION_COUNT; a++)
			any = any || (action_rows[a].scopes & (1u << si));
		if (!any)
			continue;
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
	      "A count before a move repeats it (20l, 5j, 3n); in a list, "
	      "24G goes to row 24.\n"
	      "In a prompt, other keys type text.\n",
		out);
	return ferror(out) ? -EIO : 0;
}
