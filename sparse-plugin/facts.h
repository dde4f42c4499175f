/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Facts as data: what the checks of one translation unit record, what a
 * facts file holds (one JSON object a line), and what the link step
 * decides from. The checks write them (emit.c), factread.c reads them
 * back, link.c decides; the same decision serves one file under kbuild
 * and every file of a module under "modlife scan"/"modlife link".
 */
#ifndef MODLIFE_FACTS_H
#define MODLIFE_FACTS_H
#include <stdio.h>

enum fval_type { FV_NULL, FV_STR, FV_INT, FV_LIST };

/* strings are the set's (interned once per set), never a fact's own */
struct fval {
	const char *name;
	enum fval_type type;
	int n;			/* FV_LIST: its length */
	union {
		const char *s;
		long i;
		const char **list;
	};
};

struct factset;
struct fact {
	const char *kind;
	struct fval *v;
	int n, cap;
	struct factset *set;
};

struct factset {
	struct fact *v;
	int n, cap;
	void *strings;		/* the interned strings (fact.c) */
};

struct fact *factset_new(struct factset *set, const char *kind);
void fact_add_str(struct fact *f, const char *name, const char *s);
void fact_add_int(struct fact *f, const char *name, long i);
void fact_add_list(struct fact *f, const char *name, char *const *list,
		   int n);
void fact_done(struct fact *f);
const char *fact_get(const struct fact *f, const char *name);
long fact_get_int(const struct fact *f, const char *name);
const char **fact_get_list(const struct fact *f, const char *name, int *n);
void fact_write(FILE *out, const struct fact *f);
void json_string(FILE *out, const char *s);
void factset_clear(struct factset *set);
void factset_drop_last(struct factset *set);

/* factread.c: JSON lines; a line that is no fact is reported, skipped */
int fact_parse(struct factset *set, const char *line, const char **err);
int facts_read(struct factset *set, FILE *in, const char *name,
	       int stop_at_end, char *why, size_t size);

/* link.c: the decision */
enum link_scope {
	SCOPE_FILE,	/* one file's facts: other files may hold more */
	SCOPE_MODULE,	/* every file of the module */
};
struct verdict {
	const struct fact *finding;
	const char *rule, *file, *message;	/* message: %PATH% filled */
	long line, col;
	/* set: does not stand, its file did not parse (the first error) */
	const char *withheld;
};
void link_decide(const struct factset *set, enum link_scope scope,
		 void (*out)(const struct verdict *v, void *arg), void *arg);
/* set: link_decide() writes there why each dropped candidate was */
extern FILE *link_explain;
int link_main(int argc, char **argv);
/* rules.c, generated from kb/rules.tsv */
int rule_is_experimental(const char *rule);

#endif
