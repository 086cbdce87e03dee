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
 *    lines, every module has a public header and a test suite.
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

/* Whether word (an identifier) occurs in code (outside comments and
 * string literals) as a whole word; with call, followed by "(". */
static bool code_has(const char *text, const char *word, bool call)
{
	size_t n = strlen(word);
	const char *p = text;
	bool comment = false, str = false;

	for (; *p; p++) {
		if (comment) {
			if (p[0] == '*' && p[1] == '/')
				comment = false, p++;
			continue;
		}
		if (str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				str = false;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			comment = true;
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			p = strchr(p, '\n');
			if (!p)
				return false;
			continue;
		}
		if (*p == '"') {
			str = true;
			continue;
		}
		if (!strncmp(p, word, n) &&
			(p == text ||
				!(p[-1] == '_' ||
					(p[-1] >= 'a' && p[-1] <= 'z') ||
					(p[-1] >= 'A' && p[-1] <= 'Z') ||
					(p[-1] >= '0' && p[-1] <= '9'))) &&
			!(p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') ||
				(p[n] >= 'A' && p[n] <= 'Z') ||
				(p[n] >= '0' && p[n] <= '9'))) {
			const char *q = p + n;
			while (*q == ' ')
				q++;
			if (!call || *q == '(')
				return true;
		}
	}
	return false;
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

/* Calls fn(layer, name, text) for every .c/.h file under src/LAYER/. */
static void each_source(
	void (*fn)(const char *layer, const char *name, const char *text))
{
	size_t li;
	for (li = 0; li < POLICY_NLAYERS; li++) {
		char *path = sv_xasprintf(
			"%s/src/%s", svt_source_root(), policy_layers[li]);
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
			fn(policy_layers[li], e->d_name, text);
			free(text);
			free(f);
		}
		closedir(d);
		free(path);
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
	};
	size_t i;
	for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char *msg = policy_check(ok[i].layer, "f.c", ok[i].text);
		ck_assert_msg(msg == NULL, "%s", msg ? msg : "");
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("policy");
	TCase *t = tcase_create("tree");
	TCase *r = tcase_create("rules");
	tcase_add_test(t, test_tree_follows_the_rules);
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
