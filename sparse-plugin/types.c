// SPDX-License-Identifier: GPL-2.0-only
/*
 * Type and expression helpers over sparse's evaluated AST.
 *
 * After evaluation, "p->m" is "*(p + offset)" whose ctype is the member
 * symbol; the containing struct is gone. member_container() finds it again
 * from a table of every member of every struct visible at file scope, keyed
 * by the member's declaration (position and name survive the copies that
 * evaluation makes for qualified members).
 */
#include <string.h>
#include <stdlib.h>
#include <libgen.h>
#include "target.h"
#include "modlife.h"

struct symbol *strip_type(struct symbol *t)
{
	while (t && (t->type == SYM_NODE || t->type == SYM_TYPEOF))
		t = t->ctype.base_type;
	return t;
}

int ml_is_struct(struct symbol *t)
{
	t = strip_type(t);
	return t && (t->type == SYM_STRUCT || t->type == SYM_UNION);
}

int ml_is_function(struct symbol *sym)
{
	struct symbol *t = strip_type(sym);

	return t && t->type == SYM_FN;
}

/*
 * sparse's show_ident() formats into one of four rotating buffers, so a
 * name kept across other calls changes under you. Names here are stable:
 * one copy per identifier, for the life of the process.
 */
struct id_slot {
	const struct ident *id;
	char *s;
};
static struct id_slot *id_tab;
static unsigned long id_size, id_used;

static struct id_slot *id_find(const struct ident *ident)
{
	unsigned long i = ((unsigned long)ident >> 4) & (id_size - 1);

	while (id_tab[i].id && id_tab[i].id != ident)
		i = (i + 1) & (id_size - 1);
	return &id_tab[i];
}

const char *id_str(const struct ident *ident)
{
	struct id_slot *slot;

	if (!ident)
		return "<noident>";
	if ((id_used + 1) * 2 > id_size) {
		struct id_slot *old = id_tab;
		unsigned long j, n = id_size;

		id_size = n ? n * 2 : 1024;
		id_tab = calloc(id_size, sizeof(*id_tab));
		for (j = 0; j < n; j++)
			if (old[j].id)
				*id_find(old[j].id) = old[j];
		free(old);
	}
	slot = id_find(ident);
	if (!slot->id) {
		slot->id = ident;
		slot->s = strndup(ident->name, ident->len);
		id_used++;
	}
	return slot->s;
}

const char *sym_name(struct symbol *sym)
{
	return sym && sym->ident ? id_str(sym->ident) : "?";
}

/* "struct foo", or the typedef name of an anonymous struct. */
const char *type_name(struct symbol *t)
{
	static char buf[256];

	t = strip_type(t);
	if (!t)
		return "?";
	if (t->ident) {
		snprintf(buf, sizeof(buf), "%s %s",
			 t->type == SYM_UNION ? "union" : "struct",
			 id_str(t->ident));
		return buf;
	}
	return show_typename(t);
}

struct symbol *pointee_struct(struct symbol *t)
{
	t = strip_type(t);
	if (!t || t->type != SYM_PTR)
		return NULL;
	t = strip_type(t->ctype.base_type);
	return ml_is_struct(t) ? t : NULL;
}

/* A member declared as "struct module *". */
int is_module_pointer(struct symbol *member)
{
	struct symbol *st = pointee_struct(member);

	return st && st->ident && !strcmp(id_str(st->ident), "module");
}

/* ---- member -> containing struct ---- */

struct mslot {
	struct symbol *member;	/* representative member symbol */
	struct symbol *container;
};
static struct mslot *mtab;
static unsigned long mtab_size, mtab_used;
static int mtab_built;

static unsigned long mhash(struct symbol *m)
{
	unsigned long h = (unsigned long)m->ident;

	h ^= (unsigned long)m->pos.stream * 0x9e3779b97f4a7c15ul;
	h ^= (unsigned long)m->pos.line * 0x85ebca6bul;
	h ^= (unsigned long)m->pos.pos * 0xc2b2ae35ul;
	return h ^ (h >> 29);
}

/* the same member declaration, whichever copy evaluation made */
int same_member(struct symbol *a, struct symbol *b)
{
	return a->ident == b->ident && a->pos.stream == b->pos.stream &&
	       a->pos.line == b->pos.line && a->pos.pos == b->pos.pos &&
	       a->offset == b->offset;
}

static void mtab_put(struct symbol *m, struct symbol *container);

static void mtab_grow(void)
{
	struct mslot *old = mtab;
	unsigned long i, n = mtab_size;

	mtab_size = n ? n * 2 : 4096;
	mtab = calloc(mtab_size, sizeof(*mtab));
	mtab_used = 0;
	for (i = 0; i < n; i++)
		if (old[i].member)
			mtab_put(old[i].member, old[i].container);
	free(old);
}

static void mtab_put(struct symbol *m, struct symbol *container)
{
	unsigned long i;

	if ((mtab_used + 1) * 2 > mtab_size)
		mtab_grow();
	for (i = mhash(m) & (mtab_size - 1); mtab[i].member;
	     i = (i + 1) & (mtab_size - 1))
		if (same_member(mtab[i].member, m))
			return;
	mtab[i].member = m;
	mtab[i].container = container;
	mtab_used++;
}

static void add_members(struct symbol *st, struct symbol *container)
{
	struct symbol *m;

	FOR_EACH_PTR(st->symbol_list, m) {
		struct symbol *t = strip_type(m);

		if (!m->ident) {
			/* anonymous struct/union: members belong to outer */
			if (ml_is_struct(t))
				add_members(t, container);
			continue;
		}
		mtab_put(m, container);
	} END_FOR_EACH_PTR(m);
}

static void add_scope(struct scope *scope)
{
	struct symbol *sym;

	if (!scope)
		return;
	FOR_EACH_PTR(scope->symbols, sym) {
		struct symbol *t = sym;

		if (sym->namespace == NS_TYPEDEF)
			t = strip_type(sym);
		else if (sym->namespace != NS_STRUCT)
			continue;
		if (t && (t->type == SYM_STRUCT || t->type == SYM_UNION))
			add_members(t, t);
	} END_FOR_EACH_PTR(sym);
}

struct symbol *member_container(struct symbol *member)
{
	unsigned long i;

	if (!member || !member->ident)
		return NULL;
	if (!mtab_built) {
		add_scope(file_scope);
		add_scope(global_scope);
		mtab_built = 1;
	}
	if (!mtab_size)
		return NULL;
	for (i = mhash(member) & (mtab_size - 1); mtab[i].member;
	     i = (i + 1) & (mtab_size - 1))
		if (same_member(mtab[i].member, member))
			return mtab[i].container;
	return NULL;
}

void types_reset(void)
{
	free(mtab);
	mtab = NULL;
	mtab_size = mtab_used = 0;
	mtab_built = 0;
}

/*
 * An owner field: a "struct module *" member named "owner", or one the
 * knowledge file names for its struct ("owner-member:struct crypto_alg"
 * -> cra_module: core code pins the module through it, whatever its name).
 */
int is_owner_member(struct symbol *m)
{
	struct symbol *c;
	const char *named;
	char key[KEYLEN + 16];

	if (!m || !m->ident || !is_module_pointer(m))
		return 0;
	if (!strcmp(id_str(m->ident), "owner"))
		return 1;
	c = member_container(m);
	if (!c)
		return 0;
	snprintf(key, sizeof(key), "owner-member:%s", type_name(c));
	named = kb_lookup_owner(key);
	return named && !strcmp(named, id_str(m->ident));
}

/*
 * Find the owner field (is_owner_member()) in @type, directly or in a
 * struct embedded by value (platform_driver.driver.owner). Returns the
 * struct that declares it, with the member path and its byte offset in
 * @type.
 */
struct symbol *find_owner_path(struct symbol *type, char *path, size_t len,
			       unsigned long *offset)
{
	struct symbol *st = strip_type(type), *m;

	if (!ml_is_struct(st))
		return NULL;
	/*
	 * members' types are examined when first used: a nested struct no
	 * code touches is still a bare node
	 */
	examine_symbol_type(st);
	FOR_EACH_PTR(st->symbol_list, m) {
		examine_symbol_type(m);
		if (is_owner_member(m)) {
			snprintf(path, len, "%s", id_str(m->ident));
			*offset = m->offset;
			return st;
		}
	} END_FOR_EACH_PTR(m);
	FOR_EACH_PTR(st->symbol_list, m) {
		struct symbol *t = strip_type(m), *found;
		char sub[KEYLEN];
		unsigned long off;

		if (!ml_is_struct(t))
			continue;
		found = find_owner_path(t, sub, sizeof(sub), &off);
		if (!found)
			continue;
		if (m->ident)
			snprintf(path, len, "%s.%s", id_str(m->ident), sub);
		else
			snprintf(path, len, "%s", sub);
		*offset = m->offset + off;
		return found;
	} END_FOR_EACH_PTR(m);
	return NULL;
}

/* ---- expressions ---- */

struct expression *strip_expr(struct expression *e)
{
	while (e) {
		switch (e->type) {
		case EXPR_CAST:
		case EXPR_FORCE_CAST:
		case EXPR_IMPLIED_CAST:
			e = e->cast_expression;
			continue;
		case EXPR_PREOP:
			if (e->op == '(') {
				e = e->unop;
				continue;
			}
			return e;
		default:
			return e;
		}
	}
	return e;
}

/* The symbol an expression names: "x" (as "*&x") or "&x". */
struct symbol *expr_symbol(struct expression *e)
{
	e = strip_expr(e);
	if (e && e->type == EXPR_PREOP && e->op == '*')
		e = strip_expr(e->unop);
	if (e && e->type == EXPR_SYMBOL)
		return e->symbol;
	return NULL;
}

/* The named object under "&obj", "&obj.a.b", "obj.a" and the like. */
struct symbol *base_object(struct expression *e)
{
	while ((e = strip_expr(e))) {
		switch (e->type) {
		case EXPR_SYMBOL:
			return e->symbol;
		case EXPR_PREOP:
			if (e->op != '*' && e->op != '&')
				return NULL;
			e = e->unop;
			/* "*(&x)" is x itself; a real pointer load is not */
			continue;
		case EXPR_BINOP:
			if (e->op != '+')
				return NULL;
			e = e->left;
			continue;
		default:
			return NULL;
		}
	}
	return NULL;
}

int is_this_module(struct expression *e)
{
	struct symbol *s = expr_symbol(e);

	return s && s->ident && !strcmp(id_str(s->ident), "__this_module");
}

/*
 * Symbols of the module's own source: the main file, headers beside it and
 * those under its own -I directories. Kernel headers are not the module's.
 */
int is_own_symbol(struct symbol *sym)
{
	static int cached_stream = -1, cached_own;
	const char *name;
	char a[4096], b[4096];

	if (!sym)
		return 0;
	if (sym->pos.stream == tu.stream)
		return 1;
	if (sym->pos.stream == cached_stream)
		return cached_own;
	name = stream_name(sym->pos.stream);
	snprintf(a, sizeof(a), "%s", name);
	snprintf(b, sizeof(b), "%s", tu.file);
	cached_stream = sym->pos.stream;
	cached_own = (!strcmp(dirname(a), dirname(b)) || in_local_dir(name)) &&
		     strstr(name, ".h");
	return cached_own;
}

/* @sym's position among @fn's parameters, or -1 */
int param_index(struct symbol *fn, struct symbol *sym)
{
	struct symbol *arg, *t = strip_type(fn);
	int i = 0;

	if (!t || t->type != SYM_FN)
		return -1;
	FOR_EACH_PTR(t->arguments, arg) {
		if (arg == sym)
			return i;
		i++;
	} END_FOR_EACH_PTR(arg);
	return -1;
}

/* The type of @fn's parameter number @i, or NULL. */
struct symbol *formal_param(struct symbol *fn, int i)
{
	struct symbol *t = strip_type(fn), *arg;

	if (!t || t->type != SYM_FN)
		return NULL;
	FOR_EACH_PTR(t->arguments, arg) {
		if (!i--)
			return arg;
	} END_FOR_EACH_PTR(arg);
	return NULL;
}

/* An object (not a function) with static storage duration. */
int is_static_object(struct symbol *sym)
{
	unsigned long mod;

	if (!sym || sym->type != SYM_NODE || ml_is_function(sym))
		return 0;
	if (sym->namespace != NS_SYMBOL)
		return 0;
	mod = sym->ctype.modifiers;
	if (mod & MOD_EXTERN)
		return 0;
	return (mod & MOD_TOPLEVEL) || (mod & MOD_STATIC);
}

/* For an lvalue "x.m" or "p->m": the member symbol m, else NULL. */
struct symbol *member_of_lvalue(struct expression *e)
{
	struct symbol *m;

	e = strip_expr(e);
	if (!e || e->type != EXPR_PREOP || e->op != '*')
		return NULL;
	m = e->ctype;
	if (!m || m->type != SYM_NODE || !m->ident)
		return NULL;
	e = strip_expr(e->unop);
	if (!e || e->type != EXPR_BINOP || e->op != '+')
		return NULL;
	return m;
}

/*
 * The member at byte @off of @st: a struct-typed one first (the container
 * of a deeper member), else, with @any, whatever member starts there.
 */
/* Linux 6.5 and later export through assembly (linux/export.h) */
static int exports_in_asm(void)
{
	struct symbol *m = lookup_symbol(built_in_ident("__EXPORT_SYMBOL_REF"),
					 NS_MACRO | NS_UNDEF);

	return m && m->namespace == NS_MACRO;
}

/* "__UNIQUE_ID___addressable_fn<N> = &fn" at file scope */
static int addressable(struct symbol *fn)
{
	const char *want = sym_name(fn);
	struct symbol *sym;

	FOR_EACH_PTR(tu.symbols, sym) {
		struct symbol *target;

		if (strncmp(sym_name(sym), "__UNIQUE_ID___addressable_", 26))
			continue;
		target = base_object(sym->initializer);
		if (target && !strcmp(sym_name(target), want))
			return 1;
	} END_FOR_EACH_PTR(sym);
	return 0;
}

/*
 * EXPORT_SYMBOL(fn) declares "__kstrtab_fn" up to Linux 6.4; initcalls
 * also leave an __ADDRESSABLE() of their function, but no string table
 * entry. From 6.5 on the export is assembly that the parse drops, and
 * what is left is its __ADDRESSABLE(fn). Initcalls of built-in code
 * leave one too, of a static function (an export is never static:
 * modpost refuses a local symbol), and module_init() and module_exit()
 * one of init_module and cleanup_module, the loader's entry points.
 */
int is_exported_symbol(struct symbol *fn)
{
	struct symbol *def = fn->definition ? fn->definition : fn;
	const char *fname = sym_name(fn);
	char name[300];

	snprintf(name, sizeof(name), "__kstrtab_%s", fname);
	if (lookup_symbol(built_in_ident(name), NS_SYMBOL))
		return 1;
	if ((def->ctype.modifiers | fn->ctype.modifiers) & MOD_STATIC)
		return 0;
	if (!strcmp(fname, "init_module") || !strcmp(fname, "cleanup_module"))
		return 0;
	return exports_in_asm() && addressable(fn);
}

const char *callee_name(struct symbol *callee)
{
	return callee && callee->ident ? id_str(callee->ident) : NULL;
}

/* ---- initializers ---- */

static void leaf_walk(struct symbol *obj, struct expression *init,
		      unsigned long base, init_leaf_fn fn)
{
	struct expression *e;

	if (!init || init->type != EXPR_INITIALIZER)
		return;
	FOR_EACH_PTR(init->expr_list, e) {
		unsigned long off = base;
		struct expression *v = e;
		struct symbol *m = NULL;

		/* ".stage[2] = { ... }": positions nest */
		while (v && v->type == EXPR_POS) {
			off += v->init_offset;
			m = v->ctype;
			v = v->init_expr;
		}
		if (!v)
			continue;
		if (v->type == EXPR_INITIALIZER)
			leaf_walk(obj, v, off, fn);
		else
			fn(obj, m, v, off);
	} END_FOR_EACH_PTR(e);
}

/* @fn for each leaf value of @init, with its member and byte offset */
void for_each_init_leaf(struct symbol *obj, struct expression *init,
			init_leaf_fn fn)
{
	leaf_walk(obj, init, 0, fn);
}

/*
 * In an evaluated initializer, the leaf value stored at byte @want whose
 * member is named @member ("owner"), or NULL.
 */
static struct {
	unsigned long want;
	struct ident *member;
	struct expression *found;
} leaf_query;

static void match_leaf(struct symbol *obj, struct symbol *m,
		       struct expression *value, unsigned long offset)
{
	if (!leaf_query.found && offset == leaf_query.want && m &&
	    m->ident == leaf_query.member)
		leaf_query.found = value;
}

struct expression *init_leaf_at(struct expression *init, unsigned long want,
				struct ident *member)
{
	leaf_query.want = want;
	leaf_query.member = member;
	leaf_query.found = NULL;
	for_each_init_leaf(NULL, init, match_leaf);
	return leaf_query.found;
}
