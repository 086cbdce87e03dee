/*
 * test_policy.c: the architecture rules of doc/design.md (section 1, the
 * layers) that a compiler does not check by itself.
 *
 * Each rule is a function from a file's layer, name and text to the first
 * violation (or NULL), so that the rules are tested on planted violations
 * (a curses include in the model, a printf in the UI) as well as run over
 * the real tree:
 *  - every project include of a file in src/LAYER/ names a header of the
 *    same or a lower layer (the header's own SV_LAYER guard says which);
 *  - curses only in src/term/, HDF5 and jansson only in src/io/ (the
 *    reports write JSON with their own writer, report/json.c);
 *  - nothing outside src/cli/ and src/term/ writes to stdout or stderr or
 *    calls exit(), except the one allocation-failure helper (sv_die);
 *  - in src/cli/ only cli.c writes to stderr: every message goes through
 *    sv_cli_eprintf, which escapes control characters (issue 43);
 *  - every file opens with a purpose comment, no source file is over 800
 *    lines, every module has a public header and a test suite;
 *  - the session's selection (sel, sel2) is written only in
 *    src/ui/session.c (sv_session_select and the one helper it uses, which
 *    notifies), in every file of src/, bench/ and tests/, and only the
 *    session's own files (src/ui/session*.c) include session_priv.h.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "scopeview/common.h"

#define POLICY_MAX_LINES 800

static const char *const policy_layers[] = {
	"core", "model", "io", "report", "ui", "term", "cli", "mpi"};
#define POLICY_NLAYERS (sizeof policy_layers / sizeof policy_layers[0])

/* Which layers each layer may include (the arrows of src/meson.build). */
static const char *const policy_allowed[POLICY_NLAYERS] = {
	"core",
	"core model",
	"core model io",
	"core model report",
	"core model ui",
	"core model ui term",
	"core model io report ui term cli",
	/* scopeview-mpi (src/mpi/): the command line run by an MPI job */
	"core model io report ui term cli mpi",
};

static bool has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

static int layer_index(const char *layer)
{
	size_t i;
	for (i = 0; i < POLICY_NLAYERS; i++)
		if (!strcmp(policy_layers[i], layer))
			return (int)i;
	return -1;
}

static bool layer_may_use(const char *layer, const char *used)
{
	int i = layer_index(layer);
	const char *list, *p;
	size_t n = strlen(used);

	if (i < 0)
		return false;
	list = policy_allowed[i];
	for (p = strstr(list, used); p; p = strstr(p + 1, used))
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* The layer a public header declares in its guard ("ui" for
 * "SV_LAYER_ALLOW & SV_LAYER_UI"), into buf; false when it has none. */
static bool header_layer(const char *header, char *buf, size_t n)
{
	char *path = sv_xasprintf(
		"%s/include/scopeview/%s", svt_source_root(), header);
	char *text = svt_read_file(path, NULL);
	const char *g =
		text ? strstr(text, "SV_LAYER_ALLOW & SV_LAYER_") : NULL;
	size_t i = 0;

	free(path);
	if (!g) {
		free(text);
		return false;
	}
	g += strlen("SV_LAYER_ALLOW & SV_LAYER_");
	while (i + 1 < n && g[i] >= 'A' && g[i] <= 'Z') {
		buf[i] = (char)(g[i] - 'A' + 'a');
		i++;
	}
	buf[i] = '\0';
	free(text);
	return i > 0;
}

/* Calls fn(line) for every #include line of text until fn returns a
 * message. */
static char *each_include(const char *text,
	char *(*fn)(const char *line, const void *ctx), const void *ctx)
{
	const char *p = text;
	while ((p = strstr(p, "#include"))) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512];
		char *msg;
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		msg = fn(line, ctx);
		if (msg)
			return msg;
		p += 8;
	}
	return NULL;
}

struct file_ctx {
	const char *layer, *name;
};

static char *check_arrow(const char *line, const void *vctx)
{
	const struct file_ctx *f = vctx;
	const char *h = strstr(line, "\"scopeview/");
	char header[128], used[16];
	size_t len;

	if (!h)
		return NULL;
	h += strlen("\"scopeview/");
	len = strcspn(h, "\"");
	if (len >= sizeof header)
		return NULL;
	memcpy(header, h, len);
	header[len] = '\0';
	if (!strcmp(header, "layer.h"))
		return NULL;
	if (!header_layer(header, used, sizeof used))
		return sv_xasprintf("src/%s/%s includes scopeview/%s, which "
				    "names no layer",
			f->layer, f->name, header);
	if (!layer_may_use(f->layer, used))
		return sv_xasprintf("src/%s/%s (layer %s) includes "
				    "scopeview/%s of the %s layer above it",
			f->layer, f->name, f->layer, header, used);
	return NULL;
}

static char *check_system(const char *line, const void *vctx)
{
	const struct file_ctx *f = vctx;
	if (strstr(line, "curses.h") && strcmp(f->layer, "term"))
		return sv_xasprintf("src/%s/%s includes curses; only src/term/ "
				    "may",
			f->layer, f->name);
	if (strstr(line, "hdf5") && strcmp(f->layer, "io"))
		return sv_xasprintf("src/%s/%s includes HDF5; only src/io/ may",
			f->layer, f->name);
	if (strstr(line, "jansson") && strcmp(f->layer, "io"))
		return sv_xasprintf("src/%s/%s includes jansson; only src/io/ "
				    "may (src/report/json.c writes JSON)",
			f->layer, f->name);
	return NULL;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* A copy of text with its comments and the insides of its string and
 * character literals blanked (spaces; newlines kept, so offsets are
 * text's), for the rules to read the code alone.  Malloc'd. */
static char *code_only(const char *text)
{
	enum { CODE, BLOCK, LINE, STR, CHR } st = CODE;
	char *c = sv_xstrdup(text), *p;

	for (p = c; *p; p++) {
		if (st == CODE) {
			if (p[0] == '/' && (p[1] == '*' || p[1] == '/')) {
				st = p[1] == '*' ? BLOCK : LINE;
				*p++ = ' ';
				*p = ' ';
			} else if (*p == '"' || *p == '\'') {
				st = *p == '"' ? STR : CHR;
			}
		} else if (st == BLOCK && p[0] == '*' && p[1] == '/') {
			st = CODE;
			*p++ = ' ';
			*p = ' ';
		} else if (st == LINE && *p == '\n') {
			st = CODE;
		} else if ((st == STR || st == CHR) &&
			   *p == (st == STR ? '"' : '\'')) {
			st = CODE;
		} else if (*p != '\n') {
			if ((st == STR || st == CHR) && *p == '\\' && p[1] &&
				p[1] != '\n')
				*p++ = ' ';
			*p = ' ';
		}
	}
	return c;
}

/* Whether word (an identifier) occurs in code (outside comments and
 * string literals) as a whole word; with call, followed by "(". */
static bool code_has(const char *text, const char *word, bool call)
{
	size_t n = strlen(word);
	char *code = code_only(text);
	const char *p;
	bool found = false;

	for (p = code; !found && (p = strstr(p, word)); p++) {
		const char *q = p + n;
		if ((p > code && ident_char(p[-1])) || ident_char(*q))
			continue;
		while (*q == ' ')
			q++;
		found = !call || *q == '(';
	}
	free(code);
	return found;
}

/* Members named sel or sel2 that are not a session's: the flame graph's
 * selected node (mode_flame.c) and the stats worker's selection
 * (stats.c), each written as file:receiver. */
static const char *const policy_sel_others[] = {
	"mode_flame.c:d->sel", "stats.c:w.sel"};

/* Whether the assignment whose receiver starts at q in file name is one
 * of policy_sel_others. */
static bool sel_other(const char *name, const char *q)
{
	size_t i;

	for (i = 0; i < sizeof policy_sel_others / sizeof policy_sel_others[0];
		i++) {
		const char *o = policy_sel_others[i], *r;
		size_t len = strcspn(o, ":");
		r = o + len + 1;
		if (strlen(name) == len && !strncmp(o, name, len) &&
			!strncmp(q, r, strlen(r)) && !ident_char(q[strlen(r)]))
			return true;
	}
	return false;
}

/* Where text (outside comments and string literals) assigns a member
 * named sel or sel2 (x->sel = ..., x.sel2 = ...; not ==, and not a
 * designated initializer { .sel = ... }) other than name's entries in
 * policy_sel_others: the member's offset, or -1. */
static long code_assigns_sel(const char *name, const char *text)
{
	char *code = code_only(text);
	const char *p, *m, *q;
	long at = -1;

	for (p = code; at < 0 && *p; p++) {
		if (p[0] == '-' && p[1] == '>')
			m = p + 2;
		else if (p[0] == '.' && p > code &&
			 (ident_char(p[-1]) || p[-1] == ')' || p[-1] == ']'))
			m = p + 1;
		else
			continue;
		q = m + 3 + (m[3] == '2');
		if (strncmp(m, "sel", 3) || ident_char(*q))
			continue;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (q[0] != '=' || q[1] == '=')
			continue;
		/* the receiver: the identifier before the member's access */
		for (q = p; q > code && ident_char(q[-1]); q--)
			;
		if (!sel_other(name, q))
			at = (long)(m - code);
	}
	free(code);
	return at;
}

/* Whether text has an #include directive (at the start of a line) of
 * a file named session_priv.h. */
static bool includes_priv(const char *text)
{
	const char *p = text;

	while ((p = strstr(p, "#include"))) {
		const char *b = p, *eol = strchr(p, '\n'), *h;
		while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		h = strstr(p, "session_priv.h");
		if ((b == text || b[-1] == '\n') && h && (!eol || h < eol))
			return true;
		p += 8;
	}
	return false;
}

/* The session's rules for any file (dir "ui" for src/ui/, else "tests",
 * "bench", ...): the selection written only by session.c, session_priv.h
 * included only by session*.c.  The first broken, or NULL (malloc'd). */
static char *session_check(const char *dir, const char *name, const char *text)
{
	const char *src = strcmp(dir, "tests") && strcmp(dir, "bench") &&
					  strcmp(dir, "fuzz")
				  ? "src/"
				  : "";
	long at;

	if (!(!strcmp(dir, "ui") && !strcmp(name, "session.c")) &&
		(at = code_assigns_sel(name, text)) >= 0)
		return sv_xasprintf("%s%s/%s assigns the selection (%.*s) "
				    "itself; only sv_session_select "
				    "(session.c) writes it, and notifies",
			src, dir, name, text[at + 3] == '2' ? 4 : 3, text + at);
	if (includes_priv(text) &&
		!(!strcmp(dir, "ui") && !strncmp(name, "session", 7)))
		return sv_xasprintf("%s%s/%s includes session_priv.h; only the "
				    "session's own files (src/ui/session*.c) "
				    "may",
			src, dir, name);
	return NULL;
}

/* The first rule broken by file name of layer with text, or NULL (the
 * message is malloc'd). */
static char *policy_check(const char *layer, const char *name, const char *text)
{
	static const char *const calls[] = {
		"printf", "puts", "putchar", "perror", "exit", "vprintf"};
	static const char *const streams[] = {"stdout", "stderr"};
	struct file_ctx f = {layer, name};
	char *msg;
	size_t i;
	bool may_print =
		!strcmp(layer, "cli") || !strcmp(layer, "term") ||
		/* scopeview-mpi's main: its usage and start-up */
		(!strcmp(layer, "mpi") && !strcmp(name, "mpi_main.c")) ||
		/* sv_die: allocation failure, the one exception */
		(!strcmp(layer, "core") && !strcmp(name, "common.c"));

	if (strncmp(text, "/*", 2))
		return sv_xasprintf("src/%s/%s does not open with a purpose "
				    "comment",
			layer, name);
	msg = each_include(text, check_arrow, &f);
	if (!msg)
		msg = each_include(text, check_system, &f);
	if (!msg)
		msg = session_check(layer, name, text);
	if (!msg && !strcmp(layer, "cli") && strcmp(name, "cli.c") &&
		(code_has(text, "stderr", false) ||
			code_has(text, "perror", true)))
		return sv_xasprintf("src/%s/%s writes to stderr itself; "
				    "messages go through sv_cli_eprintf "
				    "(cli.c), which escapes them",
			layer, name);
	if (msg || may_print)
		return msg;
	for (i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (code_has(text, calls[i], true))
			return sv_xasprintf(
				"src/%s/%s calls %s(); only src/cli/ "
				"and src/term/ print or exit",
				layer, name, calls[i]);
	for (i = 0; i < sizeof streams / sizeof streams[0]; i++)
		if (code_has(text, streams[i], false))
			return sv_xasprintf("src/%s/%s uses %s; only src/cli/ "
					    "and src/term/ print",
				layer, name, streams[i]);
	return NULL;
}

static size_t count_lines(const char *text)
{
	size_t n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Calls fn(label, name, text) for every .c/.h file in directory dir
 * (under the source root). */
static void each_file_in(const char *dir, const char *label,
	void (*fn)(const char *label, const char *name, const char *text))
{
	char *path = sv_xasprintf("%s/%s", svt_source_root(), dir);
	DIR *d = opendir(path);
	struct dirent *e;

	ck_assert_msg(d != NULL, "cannot open %s", path);
	while ((e = readdir(d))) {
		char *f, *text;
		if (!has_suffix(e->d_name, ".c") &&
			!has_suffix(e->d_name, ".h"))
			continue;
		f = sv_xasprintf("%s/%s", path, e->d_name);
		text = svt_read_file(f, NULL);
		ck_assert_msg(text != NULL, "cannot read %s", f);
		fn(label, e->d_name, text);
		free(text);
		free(f);
	}
	closedir(d);
	free(path);
}

/* Calls fn(layer, name, text) for every .c/.h file under src/LAYER/. */
static void each_source(
	void (*fn)(const char *layer, const char *name, const char *text))
{
	size_t li;
	for (li = 0; li < POLICY_NLAYERS; li++) {
		char *dir = sv_xasprintf("src/%s", policy_layers[li]);
		each_file_in(dir, policy_layers[li], fn);
		free(dir);
	}
}

static size_t files_seen;

static void check_file(const char *layer, const char *name, const char *text)
{
	char *msg = policy_check(layer, name, text);
	ck_assert_msg(msg == NULL, "%s", msg ? msg : "");
	ck_assert_msg(count_lines(text) <= POLICY_MAX_LINES,
		"src/%s/%s has %zu lines (over %d: it has become two modules)",
		layer, name, count_lines(text), POLICY_MAX_LINES);
	files_seen++;
}

START_TEST(test_tree_follows_the_rules)
{
	files_seen = 0;
	each_source(check_file);
	/* the walk saw the tree, not an empty directory */
	ck_assert_uint_ge(files_seen, 30);
}
END_TEST

/* The session's rules hold in the tests, benchmarks and fuzzers too. */
static void check_session_rules(
	const char *dir, const char *name, const char *text)
{
	char *msg = session_check(dir, name, text);
	ck_assert_msg(msg == NULL, "%s", msg ? msg : "");
	files_seen++;
}

START_TEST(test_others_follow_the_session_rules)
{
	files_seen = 0;
	each_file_in("tests", "tests", check_session_rules);
	each_file_in("bench", "bench", check_session_rules);
	each_file_in("fuzz", "fuzz", check_session_rules);
	ck_assert_uint_ge(files_seen, 30);
}
END_TEST

/* The module a .c file implements: its first scopeview/ header. */
static void check_module(const char *layer, const char *name, const char *text)
{
	const char *h = strstr(text, "#include \"scopeview/");
	char base[128];
	size_t len;
	char *test;

	if (!has_suffix(name, ".c") || !strcmp(name, "main.c"))
		return;
	if (!h && strstr(text, "#include \"")) {
		/* A part of a module behind a private header of its layer
		 * (load_h5_groups.c): the module is its name's first word. */
		h = name;
		len = strcspn(h, "_.");
		/* the HDF5 helpers are tested through the loader */
		if (!strncmp(h, "h5util", len))
			h = "load", len = 4;
	} else {
		ck_assert_msg(
			h != NULL, "src/%s/%s includes no header", layer, name);
		h += strlen("#include \"scopeview/");
		len = strcspn(h, ".");
	}
	ck_assert_uint_lt(len, sizeof base);
	memcpy(base, h, len);
	base[len] = '\0';
	test = sv_xasprintf("%s/tests/test_%s.c", svt_source_root(), base);
	ck_assert_msg(access(test, R_OK) == 0,
		"src/%s/%s (module %s) has no test suite tests/test_%s.c",
		layer, name, base, base);
	free(test);
}

START_TEST(test_modules_have_header_and_tests)
{
	each_source(check_module);
}
END_TEST

START_TEST(test_headers_name_their_layer)
{
	char *path = sv_xasprintf("%s/include/scopeview", svt_source_root());
	DIR *d = opendir(path);
	struct dirent *e;
	char layer[16];

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		if (!has_suffix(e->d_name, ".h") ||
			!strcmp(e->d_name, "layer.h"))
			continue;
		ck_assert_msg(header_layer(e->d_name, layer, sizeof layer),
			"include/scopeview/%s names no layer", e->d_name);
		ck_assert_msg(layer_index(layer) >= 0,
			"include/scopeview/%s: unknown layer %s", e->d_name,
			layer);
	}
	closedir(d);
	free(path);
}
END_TEST

/* The rules catch what they are for: planted violations. */
static const struct {
	const char *layer, *name, *text, *expect;
} planted[] = {
	{"model", "stats.c", "/* x */\n#include <curses.h>\n", "curses"},
	{"ui", "grid.c", "/* x */\n#include <ncursesw/curses.h>\n", "curses"},
	{"ui", "view.c", "/* x */\nvoid f(void) { printf(\"x\"); }\n",
		"printf"},
	{"ui", "view.c", "/* x */\nvoid f(void) { fputs(\"x\", stderr); }\n",
		"stderr"},
	{"model", "profile.c", "/* x */\nvoid f(void) { exit(1); }\n", "exit"},
	{"model", "profile.c", "/* x */\n#include \"scopeview/view.h\"\n",
		"above"},
	{"ui", "app.c", "/* x */\n#include \"scopeview/load.h\"\n", "above"},
	{"io", "load_h5.c", "/* x */\n#include \"scopeview/summary.h\"\n",
		"above"},
	{"ui", "app.c", "/* x */\n#include <hdf5.h>\n", "HDF5"},
	{"report", "summary.c", "/* x */\n#include <jansson.h>\n", "jansson"},
	{"ui", "view.c", "int x;\n", "purpose"},
	{"cli", "cmd_summary.c",
		"/* x */\nvoid f(const char *m) { fprintf(stderr, m); }\n",
		"sv_cli_eprintf"},
	{"cli", "cmd_view.c", "/* x */\nvoid f(void) { perror(\"x\"); }\n",
		"sv_cli_eprintf"},
	{"ui", "timeline.c",
		"/* x */\nvoid f(struct sv_session *s) { s->sel = 0; }\n",
		"sv_session_select"},
	{"ui", "mode_tree.c",
		"/* x */\nvoid f(struct sv_view *v) { v->s.sel2 =\n1; }\n",
		"sv_session_select"},
	{"ui", "session_two.c",
		"/* x */\nvoid f(struct sv_session *s) { (s)->sel\t= 2; }\n",
		"sv_session_select"},
	/* a session called d in the flame graph is still a session */
	{"ui", "mode_flame.c",
		"/* x */\nvoid f(struct sv_view *d) { d->s.sel = 3; }\n",
		"sv_session_select"},
	{"ui", "view.c", "/* x */\n#include \"session_priv.h\"\n",
		"session_priv.h"},
	{"cli", "cmd_view.c", "/* x */\n#include \"../ui/session_priv.h\"\n",
		"session_priv.h"},
};

START_TEST(test_planted_violation_is_caught)
{
	char *msg = policy_check(
		planted[_i].layer, planted[_i].name, planted[_i].text);
	ck_assert_msg(msg != NULL, "%s/%s: %s not caught", planted[_i].layer,
		planted[_i].name, planted[_i].expect);
	ck_assert_msg(strstr(msg, planted[_i].expect), "%s", msg);
	free(msg);
}
END_TEST

START_TEST(test_allowed_is_allowed)
{
	/* the same texts where they belong, and words in comments and
	 * strings, pass */
	static const struct {
		const char *layer, *text;
	} ok[] = {
		{"term", "/* x */\n#include <curses.h>\n"},
		{"cli", "/* x */\nvoid f(void) { printf(\"x\"); exit(2); }\n"},
		{"cli", "/* x */\nvoid f(void) { sv_cli_stderr(\"\", \"x\"); "
			"}\n"},
		{"ui", "/* x */\n/* printf(stderr) */\nconst char *s = "
		       "\"exit(1) stdout\";\n"},
		{"ui", "/* x */\n#include \"scopeview/stats.h\"\n"},
		{"io", "/* x */\n#include <hdf5.h>\n_exit(1);\n"},
		{"io", "/* x */\n#include <jansson.h>\n"},
		/* reading the selection, comparing it, a designated
		 * initializer, words in comments and strings */
		{"ui", "/* x */\nint f(struct sv_session *s) { return s->sel "
		       "== 2 || s->sel2 != 1; }\n"},
		{"ui", "/* x */\nstatic const struct r r0 = {.sel = 1, "
		       ".sel2 = 2};\n"},
		{"ui", "/* s->sel = 1 */\nconst char *t = \"s->sel = 2\";\n"},
		{"ui", "/* x */\nvoid f(struct r *x) { x->selected = 1; "
		       "x->sel_row = 2; }\n"},
	};
	size_t i;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char *msg = policy_check(ok[i].layer, "f.c", ok[i].text);
		ck_assert_msg(msg == NULL, "%s", msg ? msg : "");
	}
	/* and the session's own files may do what no other file may */
	ck_assert_ptr_null(policy_check("ui", "session.c",
		"/* x */\n#include \"session_priv.h\"\nvoid f(struct "
		"sv_session *s) { s->sel = 1; }\n"));
	ck_assert_ptr_null(policy_check("ui", "session_two.c",
		"/* x */\n#include \"session_priv.h\"\n"));
	/* as may the flame graph's own selected node */
	ck_assert_ptr_null(policy_check("ui", "mode_flame.c",
		"/* x */\nvoid f(struct flame_data *d) { d->sel = 1; }\n"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("policy");
	TCase *t = tcase_create("tree");
	TCase *r = tcase_create("rules");
	tcase_add_test(t, test_tree_follows_the_rules);
	tcase_add_test(t, test_others_follow_the_session_rules);
	tcase_add_test(t, test_modules_have_header_and_tests);
	tcase_add_test(t, test_headers_name_their_layer);
	suite_add_tcase(s, t);
	tcase_add_loop_test(r, test_planted_violation_is_caught, 0,
		(int)(sizeof planted / sizeof planted[0]));
	tcase_add_test(r, test_allowed_is_allowed);
	suite_add_tcase(s, r);
	return s;
}

int main(void)
{
	return svt_run(suite());
}
