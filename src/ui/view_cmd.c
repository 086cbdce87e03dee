/*
 * view_cmd.c: the `:` commands the viewer itself knows (view NAME, open
 * FILE, export FORMAT FILE, quit), every other command handed to the main
 * mode, and the times they take ("12.5ms").  Nothing here knows about
 * curses or HDF5.
 */
#include "scopeview/view.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sv_view_parse_time(const char *s, int64_t *ns)
{
	static const struct {
		const char *unit;
		double mul;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6},
		{"s", 1e9}, {"", 1}};
	char *end;
	double x;
	size_t i;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+')
		s++;
	x = strtod(s, &end);
	if (end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t n = strlen(units[i].unit);
		if (!strncmp(end, units[i].unit, n)) {
			const char *rest = end + n;
			double r;
			while (isspace((unsigned char)*rest))
				rest++;
			if (*rest)
				continue;
			r = x * units[i].mul;
			if (!(r > -9.2e18 && r < 9.2e18))
				return -EINVAL;
			*ns = (int64_t)(r >= 0 ? r + 0.5 : r - 0.5);
			return 0;
		}
	}
	return -EINVAL;
}

int sv_view_parse_range(const char *spec, int64_t *t0, int64_t *t1)
{
	const char *colon = strchr(spec, ':');
	char first[64];
	int64_t a, b;

	if (!colon || (size_t)(colon - spec) >= sizeof first)
		return -EINVAL;
	snprintf(first, sizeof first, "%.*s", (int)(colon - spec), spec);
	if (sv_view_parse_time(first, &a) < 0 ||
		sv_view_parse_time(colon + 1, &b) < 0 || b < a)
		return -EINVAL;
	*t0 = a;
	*t1 = b;
	return 0;
}

const char *sv_view_command_word(const char *cmd, char *word, size_t n)
{
	size_t len;

	while (*cmd == ' ')
		cmd++;
	len = strcspn(cmd, " ");
	snprintf(word, n, "%.*s", (int)len, cmd);
	cmd += len;
	while (*cmd == ' ')
		cmd++;
	return cmd;
}

int sv_view_command(struct sv_view *v, const char *cmd)
{
	struct sv_mode *main = &v->mains[v->main];
	char word[32];
	const char *arg = sv_view_command_word(cmd, word, sizeof word);
	int rc;

	while (*cmd == ' ')
		cmd++;
	if (!strcmp(word, "view"))
		return sv_view_switch(v, arg);
	if (!strcmp(word, "export"))
		return sv_view_export(v, arg);
	if (!strcmp(word, "q") || !strcmp(word, "quit"))
		return SV_REACT_QUIT;
	if (!strcmp(word, "open")) {
		if (!*arg) {
			sv_session_message(&v->s, true, "%s",
				"open FILE: a second run to compare with");
			return SV_REACT_REDRAW | SV_REACT_BELL;
		}
		snprintf(v->open_path, sizeof v->open_path, "%s", arg);
		return SV_REACT_REDRAW | SV_REACT_OPEN;
	}
	if (!*word)
		return SV_REACT_REDRAW;
	rc = main->ops->prompt ? main->ops->prompt(main, SV_PROMPT_COMMAND, cmd)
			       : -1;
	if (rc >= 0)
		return rc;
	sv_session_message(&v->s, true,
		"unknown command '%s' (view NAME, open FILE, export FORMAT "
		"FILE, quit)",
		word);
	return SV_REACT_REDRAW | SV_REACT_BELL;
}
