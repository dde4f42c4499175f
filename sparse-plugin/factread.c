// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads facts back: one flat JSON object a line, as fact.c writes them
 * (strings, integers, null, booleans, lists of strings). A line that is
 * not such an object is named with its file and line and skipped.
 */
#include <stdlib.h>
#include <string.h>
#include "facts.h"
#include "strmap.h"

struct parser {
	const char *p;
	const char *err;
};

static void ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' ||
	       *ps->p == '\n')
		ps->p++;
}

static void put_utf8(char **out, unsigned long c)
{
	unsigned char *o = (unsigned char *)*out;

	if (c >= 0xdc80 && c <= 0xdcff) {
		*o++ = c - 0xdc00;	/* a byte Python kept as a surrogate */
	} else if (c < 0x80) {
		*o++ = c;
	} else if (c < 0x800) {
		*o++ = 0xc0 | c >> 6;
		*o++ = 0x80 | (c & 0x3f);
	} else if (c < 0x10000) {
		*o++ = 0xe0 | c >> 12;
		*o++ = 0x80 | ((c >> 6) & 0x3f);
		*o++ = 0x80 | (c & 0x3f);
	} else {
		*o++ = 0xf0 | c >> 18;
		*o++ = 0x80 | ((c >> 12) & 0x3f);
		*o++ = 0x80 | ((c >> 6) & 0x3f);
		*o++ = 0x80 | (c & 0x3f);
	}
	*out = (char *)o;
}

static int hex4(const char *p, unsigned long *c)
{
	int i;

	*c = 0;
	for (i = 0; i < 4; i++) {
		char h = p[i];

		*c <<= 4;
		if (h >= '0' && h <= '9')
			*c |= h - '0';
		else if (h >= 'a' && h <= 'f')
			*c |= h - 'a' + 10;
		else if (h >= 'A' && h <= 'F')
			*c |= h - 'A' + 10;
		else
			return 0;
	}
	return 1;
}

/* A JSON string at ps->p (after its quote), decoded into a new string. */
static char *string(struct parser *ps)
{
	/* every escape decodes to at most as many bytes as it takes */
	char *buf = malloc(strlen(ps->p) + 1), *o = buf;
	unsigned long c, lo;

	if (!buf)
		return NULL;
	while (*ps->p && *ps->p != '"') {
		if (*ps->p != '\\') {
			*o++ = *ps->p++;
			continue;
		}
		ps->p++;
		switch (*ps->p) {
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case '"':
		case '\\':
		case '/':
			*o++ = *ps->p;
			break;
		case 'u':
			if (!hex4(ps->p + 1, &c))
				goto bad;
			ps->p += 4;
			if (c >= 0xd800 && c < 0xdc00 && ps->p[1] == '\\' &&
			    ps->p[2] == 'u' && hex4(ps->p + 3, &lo) &&
			    lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				ps->p += 6;
			}
			put_utf8(&o, c);
			break;
		default:
			goto bad;
		}
		ps->p++;
	}
	if (*ps->p != '"')
		goto bad;
	ps->p++;
	*o = 0;
	return buf;
bad:
	ps->err = "bad string";
	free(buf);
	return NULL;
}

static int value(struct parser *ps, struct fact *f, const char *name)
{
	char *s, *end;
	long i;

	ws(ps);
	if (*ps->p == '"') {
		ps->p++;
		s = string(ps);
		if (!s)
			return 0;
		fact_add_str(f, name, s);
		free(s);
		return 1;
	}
	if (!strncmp(ps->p, "null", 4)) {
		ps->p += 4;
		fact_add_str(f, name, NULL);
		return 1;
	}
	if (!strncmp(ps->p, "true", 4) || !strncmp(ps->p, "false", 5)) {
		fact_add_int(f, name, *ps->p == 't');
		ps->p += *ps->p == 't' ? 4 : 5;
		return 1;
	}
	if (*ps->p == '[') {
		char **list = NULL;
		int n = 0, cap = 0, ok = 1;

		ps->p++;
		ws(ps);
		while (ok && *ps->p != ']') {
			if (n)
				ok = *ps->p == ',' && (ps->p++, ws(ps), 1);
			if (!ok || *ps->p != '"')
				break;
			ps->p++;
			s = string(ps);
			if (!s)
				break;
			list = xgrow(list, &cap, n + 1, sizeof(*list));
			list[n++] = s;
			ws(ps);
		}
		ok = *ps->p == ']';
		if (ok) {
			ps->p++;
			fact_add_list(f, name, list, n);
		}
		while (n--)
			free(list[n]);
		free(list);
		if (!ok && !ps->err)
			ps->err = "bad list";
		return ok;
	}
	i = strtol(ps->p, &end, 10);
	if (end == ps->p) {
		ps->err = "bad value";
		return 0;
	}
	ps->p = end;
	fact_add_int(f, name, i);
	return 1;
}

/* Steps over @c when it comes next: never past the end of the line. */
static int eat(struct parser *ps, char c)
{
	if (*ps->p != c)
		return 0;
	ps->p++;
	return 1;
}

/* One line into @set; 0 and @err when it is no fact. */
int fact_parse(struct factset *set, const char *line, const char **err)
{
	struct parser ps = { line, NULL };
	struct fact *f;
	char *name;

	ws(&ps);
	if (!eat(&ps, '{') || (ws(&ps), strncmp(ps.p, "\"k\"", 3))) {
		*err = "not a fact";
		return 0;
	}
	ps.p += 3;
	ws(&ps);
	if (!eat(&ps, ':') || (ws(&ps), !eat(&ps, '"'))) {
		*err = "no kind";
		return 0;
	}
	name = string(&ps);
	if (!name) {
		*err = "no kind";
		return 0;
	}
	f = factset_new(set, name);
	free(name);
	name = NULL;	/* the set keeps its own copy; "bad" frees name */
	for (;;) {
		ws(&ps);
		if (eat(&ps, '}'))
			break;
		if (!eat(&ps, ',') || (ws(&ps), !eat(&ps, '"')))
			goto bad;
		name = string(&ps);
		if (!name)
			goto bad;
		ws(&ps);
		if (!eat(&ps, ':') || !value(&ps, f, name))
			goto bad;
		free(name);
		name = NULL;
	}
	ws(&ps);
	if (*ps.p)
		goto bad;
	return 1;
bad:
	free(name);
	*err = ps.err ? ps.err : "malformed";
	factset_drop_last(set);	/* the partial fact */
	return 0;
}

/*
 * Every fact of @in into @set, until EOF or, with @stop_at_end, a
 * {"k":"end"} line. Returns the number of malformed lines; -1 at EOF
 * before any line when @stop_at_end. Each malformed line is named on
 * stderr with @name, or, without @name, the first one in @why.
 */
int facts_read(struct factset *set, FILE *in, const char *name,
	       int stop_at_end, char *why, size_t size)
{
	char *line = NULL;
	size_t cap = 0;
	long lineno = 0;
	int bad = 0, any = 0;
	const char *err;

	while (getline(&line, &cap, in) > 0) {
		lineno++;
		any = 1;
		if (!line[strspn(line, " \t\r\n")])
			continue;
		if (!fact_parse(set, line, &err)) {
			if (name)
				fprintf(stderr, "%s:%ld: malformed fact (%s), skipped\n",
					name, lineno, err);
			else if (!bad && why)
				snprintf(why, size, "line %ld: %s", lineno, err);
			bad++;
			continue;
		}
		if (stop_at_end && !strcmp(set->v[set->n - 1].kind, "end")) {
			factset_drop_last(set);
			break;
		}
		fact_done(&set->v[set->n - 1]);
	}
	free(line);
	return stop_at_end && !any ? -1 : bad;
}
