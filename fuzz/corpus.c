/*
 * corpus.c: the seed corpus of the fuzz harnesses (fuzz/corpus/NAME/),
 * written from the project's own parts so that a minute of fuzzing
 * starts from real structure:
 *  - load/: edit lists in fuzz_load.h's form: each base file untouched,
 *    event metadata rows of the JSON scope-profiler writes and of the
 *    odd ones (1e999, -0, escapes, a lone surrogate, invalid UTF-8,
 *    deep nesting, a long string), counters and line-profile tables in
 *    wrong shapes, and int64 extremes in the event columns;
 *  - config/: the configuration sv_config_write dumps (the defaults and
 *    one with every directive set), and lines that do not parse;
 *  - cli/: fuzz_cli.c's inputs: each option with the values its --help
 *    gives as examples and ones next to its bounds.
 * fuzz_corpus DIR writes them into DIR/NAME/; fuzz_corpus --check DIR
 * fails (and names the file) when one of DIR's differs or is missing,
 * which keeps the committed corpus what this program writes.  The
 * formats harness's seeds (fuzz/corpus/formats/) are files of each
 * format and are kept as they are.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_load.h"
#include "scopeview/action.h"
#include "scopeview/config.h"

static const char *corpus_dir;
static bool corpus_check;
static int corpus_bad;

/* Write (or compare) DIR/sub/name: n bytes of b. */
static void corpus_put(
	const char *sub, const char *name, const void *b, size_t n)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", corpus_dir, sub);
	if (!corpus_check && mkdir(path, 0755) && errno != EEXIST) {
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof path, "%s/%s/%s", corpus_dir, sub, name);
	if (corpus_check) {
		char *have = malloc(n + 1);
		size_t got = 0;
		f = fopen(path, "rb");
		if (f) {
			got = fread(have, 1, n + 1, f);
			fclose(f);
		}
		if (!f || got != n || memcmp(have, b, n)) {
			fprintf(stderr,
				"fuzz_corpus: %s is not what fuzz/corpus.c "
				"writes (rewrite it: build/fuzz/fuzz_corpus "
				"fuzz/corpus)\n",
				path);
			corpus_bad = 1;
		}
		free(have);
		return;
	}
	f = fopen(path, "wb");
	if (!f || (n && fwrite(b, 1, n, f) != n) || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* A growing byte string. */
struct corpus_buf {
	unsigned char b[8192];
	size_t n;
};

static void buf_u8(struct corpus_buf *s, unsigned v)
{
	if (s->n < sizeof s->b)
		s->b[s->n++] = (unsigned char)v;
}

static void buf_text(struct corpus_buf *s, const char *t)
{
	while (*t)
		buf_u8(s, (unsigned char)*t++);
}

/* A META edit: row, mode and the text. */
static void buf_meta(
	struct corpus_buf *s, unsigned row, unsigned mode, const char *text)
{
	size_t n = strlen(text);
	buf_u8(s, FUZZ_OP_META);
	buf_u8(s, row);
	buf_u8(s, mode);
	buf_u8(s, (unsigned)(n >> 8));
	buf_u8(s, (unsigned)(n & 0xff));
	buf_text(s, text);
}

/* The event metadata rows: scope-profiler's, and the odd ones. */
static const struct {
	const char *name;
	unsigned mode;
	const char *text;
} corpus_meta[] = {
	{"meta-plain", 3, "[{\"phase\": \"steady\", \"iter\": 3}]"},
	{"meta-1e999", 0, "[{\"iter\": 1e999, \"x\": -1e999}]"},
	{"meta-minus-zero", 0, "[{\"iter\": -0, \"x\": -0.0, \"y\": 0e-0}]"},
	{"meta-escapes", 0,
		"[{\"phase\": \"\\u001b[31mred\\u0007\\n\\t\\\"\\\\\\/\"}]"},
	{"meta-lone-surrogate", 0,
		"[{\"phase\": \"\\ud800\", \"b\": \"\\udfff\"}]"},
	{"meta-invalid-utf8", 0,
		"[{\"phase\": \"\xff\xfe\xc0\x80\xed\xa0\x80\"}]"},
	{"meta-deep", 1, "[{\"a\": [[[[]]]]}]"},
	{"meta-long-string", 2, "\"}]"},
	{"meta-not-a-list", 3, "{\"phase\": 1}"},
	{"meta-big-ints", 0,
		"[{\"iter\": 9223372036854775808, \"j\": "
		"-9223372036854775809, \"k\": 1e-400}]"},
	{"meta-truncated", 0, "[{\"phase\": \"ste"},
};

static void corpus_load(void)
{
	struct corpus_buf s;
	size_t i;
	unsigned k, obj;

	for (i = 0; i < 2; i++) {
		char name[32];
		s.n = 0;
		buf_u8(&s, (unsigned)i);
		snprintf(name, sizeof name, "base%zu", i);
		corpus_put("load", name, s.b, s.n);
	}
	for (i = 0; i < sizeof corpus_meta / sizeof corpus_meta[0]; i++) {
		s.n = 0;
		buf_u8(&s, 1);
		buf_meta(&s, 0, corpus_meta[i].mode, corpus_meta[i].text);
		corpus_put("load", corpus_meta[i].name, s.b, s.n);
	}
	/* Each table kind, on a few of the tables (obj picks among the
	 * counters and line-profile datasets only). */
	for (k = 0; k < FUZZ_TABLE_COUNT; k++)
		for (obj = 0; obj < 3; obj++) {
			char name[32];
			unsigned cell;
			s.n = 0;
			buf_u8(&s, 1);
			buf_u8(&s, FUZZ_OP_TABLE);
			buf_u8(&s, obj * 5);
			buf_u8(&s, k);
			buf_u8(&s, 3);
			buf_u8(&s, 2);
			/* a double (NaN, inf, -inf, 0, -0 ...) and an int
			 * (the extremes) each cell */
			for (cell = 0; cell < 6; cell++) {
				buf_u8(&s, cell);
				buf_u8(&s, 4 + cell);
			}
			snprintf(name, sizeof name, "table-%u-%u", k, obj);
			corpus_put("load", name, s.b, s.n);
		}
	/* int64 extremes in the first objects of the generated file, and
	 * the same with metadata rows of the fixture. */
	for (obj = 0; obj < 24; obj += 3) {
		char name[32];
		s.n = 0;
		buf_u8(&s, obj & 1);
		buf_u8(&s, FUZZ_OP_VALUES);
		buf_u8(&s, obj);
		buf_u8(&s, 3);
		for (k = 0; k < 4; k++) {
			buf_u8(&s, 0);
			buf_u8(&s, 0);
			buf_u8(&s, 0);
			buf_u8(&s, k);
			buf_u8(&s, 4 + k);
		}
		snprintf(name, sizeof name, "values-%u", obj);
		corpus_put("load", name, s.b, s.n);
	}
}

/* The configuration files. */
static const struct {
	const char *name;
	const char *text;
} corpus_configs[] = {
	{"every-directive",
		"# every directive\n"
		"theme light\n"
		"set colors 256\n"
		"set mouse off\n"
		"set panel-columns calls,total,p95\n"
		"set panel-width 60\n"
		"set sort exclusive\n"
		"color selected black bright-yellow bold underline\n"
		"color bar region default reverse\n"
		"bind timeline C-x quit\n"
		"bind global F5 none\n"
		"bind q none\n"},
	{"bad-lines", "theme purple\n"
		      "set colors 17\n"
		      "set panel-width 19\n"
		      "set panel-width 201\n"
		      "set panel-width 99999999999999999999\n"
		      "set panel-columns calls,,nope\n"
		      "set sort\n"
		      "color nosuch red blue\n"
		      "color selected 16 -1\n"
		      "bind nosuchmode x quit\n"
		      "bind timeline C- quit\n"
		      "bind timeline x nosuchaction\n"
		      "unknown directive\n"
		      "set mouse on trailing words\n"},
	{"escapes", "bind \x1b[31m x quit\ncolor \x1b]0;title\x07 red blue\n"
		    "set sort \xff\xfe\n"},
};

static void corpus_config(void)
{
	struct sv_config c;
	char *text = NULL;
	size_t n = 0, i;
	FILE *f;

	for (i = 0; i < 2; i++) {
		sv_action_reset_bindings();
		sv_config_init(&c);
		if (i)
			sv_config_parse(
				&c, "every-directive", corpus_configs[0].text);
		sv_config_apply_bindings(&c);
		f = open_memstream(&text, &n);
		if (!f || sv_config_write(&c, f) || fclose(f)) {
			fprintf(stderr, "fuzz_corpus: sv_config_write\n");
			exit(1);
		}
		corpus_put("config",
			i ? "dump-every-directive" : "dump-defaults", text, n);
		free(text);
		text = NULL;
		sv_config_fini(&c);
	}
	sv_action_reset_bindings();
	for (i = 0; i < sizeof corpus_configs / sizeof corpus_configs[0]; i++)
		corpus_put("config", corpus_configs[i].name,
			corpus_configs[i].text, strlen(corpus_configs[i].text));
}

/* fuzz_cli.c's inputs: the case (its table's index), the form, the
 * value. */
static const struct {
	unsigned which;
	const char *value;
} corpus_cli[] = {
	{0, "0,2-5"},
	{0, "1"},
	{0, "0-"},
	{0, "-1"},
	{0, "4294967295"},
	{0, "0-18446744073709551616"},
	{1, "1.5ms:2s"},
	{1, "0:100"},
	{1, ":"},
	{1, "9223372036854775807:-9223372036854775808"},
	{1, "1e308s:inf"},
	{2, "1,1,1"},
	{3, "10us:20us"},
	{4, "5"},
	{4, "0"},
	{4, "-0"},
	{4, "1e999"},
	{4, "nan"},
	{5, "2.5"},
	{6, "3"},
	{7, "num_ranks"},
	{7, "omp_num_threads"},
	{7, "\x1b[31m"},
	{8, "0-1"},
	{9, "4G"},
	{9, "none"},
	{9, "512M"},
	{9, "16E"},
	{9, "0.5k"},
	{10, "0-63"},
};

static void corpus_cli_seeds(void)
{
	size_t i;

	for (i = 0; i < sizeof corpus_cli / sizeof corpus_cli[0]; i++) {
		unsigned char b[128];
		size_t n = strlen(corpus_cli[i].value);
		char name[32];
		b[0] = (unsigned char)corpus_cli[i].which;
		b[1] = (unsigned char)(i & 1);
		memcpy(b + 2, corpus_cli[i].value, n);
		snprintf(name, sizeof name, "cli-%02zu", i);
		corpus_put("cli", name, b, n + 2);
	}
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--check")) {
		corpus_check = true;
		corpus_dir = argv[2];
	} else if (argc == 2) {
		corpus_dir = argv[1];
	} else {
		fprintf(stderr, "usage: fuzz_corpus [--check] DIR\n");
		return 2;
	}
	corpus_load();
	corpus_config();
	corpus_cli_seeds();
	return corpus_bad;
}
