/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * modlife-sparse: shared declarations of its layers, each calling only
 * those listed before it (tests/test_layers.py holds it to that):
 *   strmap.c, the generated tables      containers, kb/ data (keys.h:
 *                                       the key prefixes, kb/keys.tsv)
 *   fact.c, factread.c, graph.c, link.c facts and the decision (facts.h)
 *   kb.c, kbapi.c                       the knowledge file, kb/api.tsv
 *   tu.c                                the file being checked (tu.h)
 *   emit.c                              facts, keys, candidate findings
 *   types.c, objkeys.c                  types, expressions, object keys
 *   walk.c                              the walk, calling the hook tables
 *   track_*.c, kbscan.c                 trackers: state and facts
 *   check_*.c                           rule checks: findings
 *   checks.c (generated), main.c        the hook tables, the driver
 */
#ifndef MODLIFE_H
#define MODLIFE_H

#include <stdio.h>
#include "lib.h"
#include "token.h"
#include "symbol.h"
#include "expression.h"
#include "parse.h"
#include "scope.h"
#include "facts.h"
#include "keys.h"
#include "tu.h"

/* What the walker knows while it visits one expression. */
/* the conditional branches around a statement: if arms, switches, loops */
#define MAX_BRANCH 8
struct branches {
	const void *b[MAX_BRANCH];
	int n;			/* may exceed MAX_BRANCH: deeper ones unkept */
};
int branches_enclose(const struct branches *outer,
		     const struct branches *inner);

struct walk_ctx {
	struct symbol *fn;	/* function whose body is walked, or NULL */
	struct symbol *obj;	/* object whose initializer is walked, or NULL */
	struct branches br;
};

/*
 * A hook table: one tracker (track_*.c, kbscan.c) or one check family
 * (smatch-style check_*.c files). Every hook is optional.
 */
enum { CHECK_RULES = 1, CHECK_KB = 2 };	/* which runs use a table */
struct api_row;
/*
 * A call hook (smatch's add_function_hook()): runs for calls, inside a
 * function, of @name, or of any function of kb/api.tsv's class @cls.
 * The first hook of a table that matches a call runs.
 */
struct call_hook {
	const char *name, *cls;
	void (*fn)(struct walk_ctx *ctx, struct expression *call,
		   const char *name, const struct api_row *row);
};
struct modlife_check {
	const char *name;
	unsigned int modes;
	void (*begin_tu)(void);
	void (*function)(struct symbol *fn);
	void (*call)(struct walk_ctx *ctx, struct expression *call,
		     struct symbol *callee);
	const struct call_hook *call_hooks;
	void (*assign)(struct walk_ctx *ctx, struct expression *assign);
	void (*symref)(struct walk_ctx *ctx, struct symbol *sym);
	void (*decl)(struct walk_ctx *ctx, struct symbol *local);
	void (*ret)(struct walk_ctx *ctx, struct statement *stmt);
	void (*object)(struct symbol *obj);	/* static-storage object */
	void (*end_tu)(void);
};

/*
 * checks.c, generated: the tables of track_*.c, kbscan.c and check_*.c,
 * in the order they run (trackers first), each named as its file
 */
extern const struct modlife_check *const all_checks[];
int is_kobject_bearing(struct symbol *t);

/* types.c: types, names, the member table; objkeys.c: object keys */
struct symbol *strip_type(struct symbol *t);
const char *type_name(struct symbol *t);
struct symbol *member_container(struct symbol *member);
int same_member(struct symbol *a, struct symbol *b);
int is_owner_member(struct symbol *m);
struct symbol *find_owner_path(struct symbol *type, char *path, size_t len,
			       unsigned long *offset);
int ml_is_struct(struct symbol *t);
int ml_is_function(struct symbol *sym);
int is_module_pointer(struct symbol *member);
int param_index(struct symbol *fn, struct symbol *sym);
struct symbol *formal_param(struct symbol *fn, int i);
struct symbol *pointee_struct(struct symbol *t);
struct expression *strip_expr(struct expression *e);
struct symbol *expr_symbol(struct expression *e);
struct symbol *base_object(struct expression *e);
int is_this_module(struct expression *e);
int is_own_symbol(struct symbol *sym);
int in_local_dir(const char *name);
int is_static_object(struct symbol *sym);
struct symbol *member_of_lvalue(struct expression *e);
typedef void (*init_leaf_fn)(struct symbol *obj, struct symbol *member,
			     struct expression *value, unsigned long offset);
void for_each_init_leaf(struct symbol *obj, struct expression *init,
			init_leaf_fn fn);
/* words.c, generated from kb/teardown-words.txt, kb/generic-wrappers.txt */
extern const char *const teardown_words[];
extern const char *const teardown_ops[];
extern const char *const generic_wrappers[];
extern const char *const bind_members[];

/* object keys ("struct foo.a.b", "obj:x") fit in KEYLEN */
#define KEYLEN 512
const char *addr_key(struct expression *addr, char *buf, size_t len);
int addr_key_others(struct expression *addr, char (*keys)[KEYLEN],
		    char (*types)[KEYLEN], int max);
int addr_key_suffixes(struct expression *addr, char (*keys)[KEYLEN], int max);
struct symbol *addr_struct(struct expression *addr);
struct symbol *addr_member(struct expression *addr);
struct symbol *addr_first_member(struct expression *addr);
struct symbol *root_struct(struct expression *addr);
int begins_with_struct(struct symbol *t, const char *name);
const char *callee_name(struct symbol *callee);
int is_exported_symbol(struct symbol *fn);
const char *key_label(const char *key);
const char *value_key(struct expression *e, char *buf, size_t len);
const char *type_key(struct expression *addr, char *buf, size_t len);
struct expression *init_leaf_at(struct expression *init, unsigned long want,
				struct ident *member);
const char *sym_name(struct symbol *sym);
const char *id_str(const struct ident *ident);
void alias_set(struct expression *lvalue, struct expression *value);
void types_reset(void);
void keys_reset(void);

/* walk.c: @hooks, NULL-terminated, run in their order */
void walk_tu(struct symbol_list *syms,
	     const struct modlife_check *const *hooks);
void walk_initializer(struct walk_ctx *ctx, struct expression *init);

/* graph.c: the call graph that link.c builds from facts */
void graph_call(const char *from, const char *to);
void graph_icall(const char *from, const char *st, const char *member);
void graph_unreg(const char *from, const char *drv);
void graph_store(const char *st, const char *member, const char *fn,
		 const char *obj);
void graph_export(const char *fn);
void graph_waits(const char *from, const char *key);
void graph_passes(const char *from, const char *fn);
void graph_runs(const char *key, const char *fn);
void graph_queued(const char *item, const char *on);
enum { REACH_EXIT, REACH_MAY, REACH_EXPORTS };
struct reach;
struct reach *graph_reach(const char *const *roots, int nroots, int mode);
int graph_exports(void);
int reach_has(const struct reach *r, const char *fn);
int reach_count(const struct reach *r);
const char *reach_fn(const struct reach *r, int i);
const char *reach_path(const struct reach *r, const char *fn, char *buf,
		       size_t len);
void reach_free(struct reach *r);
void graph_reset(void);
int is_teardown_name(const char *name);
int is_undo_name(const char *name);
int is_teardown_member(const char *m);
int is_teardown_store(const char *st, const char *member);

/* emit.c: facts (JSON lines) and candidate findings */
void facts_open(const char *path);
int facts_close(void);
FILE *facts_stream(void);
void facts_flush(void);
void fact_error(const char *file, const char *message, int fatal);
void fact_begin(const char *kind);
void fact_str(const char *key, const char *val);
void fact_int(const char *key, long val);
void fact_pos(struct position pos);
void fact_end(void);
void provide(const char *fmt, ...) FORMAT_ATTR(1);
void implies(const char *if_key, const char *then_key);
void provide_if_reached(const char *fn, const char *key);
void provide_if_may_reach(const char *fn, const char *key);
void provide_unless_exported(const char *fn, const char *key);
void provide_unless_export_reaches(const char *fn, const char *key);
void provide_unless_init_reaches(const char *fn, const char *key);
/* track_selfheld.c: what a missing-owner candidate of @obj requires */
char *selfheld_required(const char *obj);

/* A candidate finding; its strings are its own (no fixed buffers). */
struct finding {
	const char *rule;
	struct position pos;
	char *message;
	char *object;
	char **unless;		/* dropped if the module provides one */
	int nunless;
	char **requires;	/* kept only if each is provided ("a|b") */
	int nrequires;
	int unload;		/* needs a module that can be unloaded */
	char *path_to;		/* "%PATH%" in message: exit -> ... -> this */
	char *once;		/* of a file's candidates alike, one stands */
};
struct finding *finding_new(const char *rule, struct position pos,
			    const char *object);
void finding_message(struct finding *f, const char *fmt, ...) FORMAT_ATTR(2);
void finding_unless(struct finding *f, const char *fmt, ...) FORMAT_ATTR(2);
void finding_requires(struct finding *f, const char *fmt, ...)
	FORMAT_ATTR(2);
void finding_path_to(struct finding *f, const char *fn);
void finding_once(struct finding *f, const char *fmt, ...) FORMAT_ATTR(2);
void finding_report(struct finding *f);
void finding_free(struct finding *f);
extern FILE *diag_out;
extern int findings_printed, show_experimental, quiet_findings;
void findings_flush(const char *file);
void emit_reset(void);

/* kbapi.c: kb/api.tsv, generated into api_table.c */
struct api_row {
	const char *cls, *name;	/* name: a glob */
	int a, b;		/* class-specific arguments */
};
extern const struct api_row api_table[];
const struct api_row *api_find(const char *cls, const char *name);
const struct api_row *api_first(const char *cls);
int api_is(const char *cls, const char *name);

/*
 * Rows of a kb/ table with string columns, ending in a row whose first
 * column is NULL: kb/owner-paths.tsv (via, table type, reader, its file:
 * the core reader of a table the module hands over by "via"),
 * kb/constructors.tsv (object type, advice), kb/owner-guards.tsv (type,
 * the members a table must set for its owner to be read, why).
 */
struct kb_row {
	const char *c[4];
};
extern const struct kb_row owner_paths[], constructors[], owner_guards[];
const char *constructor_advice(const char *type, int via);

/* kb.c */
const char *kb_lookup_owner(const char *type);
const char *kb_lookup_how(const char *type);
void kb_each(const char *type, void (*fn)(const char *value, void *arg),
	     void *arg);
void kb_load(const char *path);

#endif
