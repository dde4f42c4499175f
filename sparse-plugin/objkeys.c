// SPDX-License-Identifier: GPL-2.0-only
/*
 * Object keys: the name a check gives the object an expression reaches,
 * so that facts of different functions and files meet.
 *   "obj:NAME"            a static object
 *   "struct T.m.n"        a member reached through any pointer, with the
 *                         member path from the outermost struct type
 *   "var:FILE:FN:x"       a pointer variable, unless it aliases an object
 * After evaluation "p->m.n" is "*(p + off1 + off2)": the steps are matched
 * against the members that start at each offset (types.c keeps the member
 * table), the last against the member read or the pointed-to type.
 * Local pointers set from one object ("t = &p->timer") name that object;
 * the walker records them for every check (alias_set()).
 */
#include <string.h>
#include <stdlib.h>
#include "target.h"
#include "modlife.h"

/*
 * Local pointers set from an object: "wq = ioc->wq", "t = &p->timer".
 * A stop or arm through the local names that object.
 */
static struct alias {
	struct symbol *local;
	char key[KEYLEN];
} *aliases;
static int naliases;

/* a pointer variable of a function (a struct copy is no alias) */
static int is_local_var(struct symbol *sym)
{
	struct symbol *t = sym ? sym->ctype.base_type : NULL;

	return sym && sym->type == SYM_NODE && t && t->type == SYM_PTR &&
	       !(sym->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC |
					 MOD_EXTERN));
}

static struct alias *find_alias(struct symbol *local)
{
	int i;

	for (i = 0; i < naliases; i++)
		if (aliases[i].local == local)
			return &aliases[i];
	return NULL;
}

/* NULL unless every assignment of the local names the same object */
static const char *alias_of(struct symbol *local)
{
	struct alias *a = find_alias(local);

	return a && a->key[0] ? a->key : NULL;
}

void alias_set(struct expression *lvalue, struct expression *value)
{
	struct expression *lv = strip_expr(lvalue);
	struct symbol *local;
	struct alias *a;
	char key[KEYLEN];

	if (!lv || lv->type != EXPR_PREOP || lv->op != '*')
		return;
	lv = strip_expr(lv->unop);
	if (!lv || lv->type != EXPR_SYMBOL || !is_local_var(lv->symbol))
		return;
	local = lv->symbol;
	value = strip_expr(value);
	/* a pointer read ("ioc->wq", "gwq") or an address ("&p->timer") */
	if (value && value->type == EXPR_PREOP && value->op == '*' ?
	    !value_key(value, key, sizeof(key)) :
	    !addr_key(value, key, sizeof(key)))
		return;
	if (!strncmp(key, "var:", 4))
		return;		/* another local: nothing gained */
	a = find_alias(local);
	if (a) {
		if (strcmp(a->key, key))
			a->key[0] = 0;	/* ambiguous */
		return;
	}
	aliases = realloc(aliases, (naliases + 1) * sizeof(*aliases));
	aliases[naliases].local = local;
	snprintf(aliases[naliases++].key, sizeof(aliases->key), "%s", key);
}

void keys_reset(void)
{
	free(aliases);
	aliases = NULL;
	naliases = 0;
}

static struct symbol *member_at(struct symbol *st, unsigned long off, int any)
{
	struct symbol *m, *found = NULL;

	FOR_EACH_PTR(st->symbol_list, m) {
		struct symbol *t = strip_type(m);
		unsigned long start = m->offset;

		if (!m->ident && ml_is_struct(t) && off >= start &&
		    off < start + bits_to_bytes(t->bit_size)) {
			struct symbol *r = member_at(t, off - start, any);

			if (r)
				return r;
			continue;
		}
		if (!m->ident || start != off)
			continue;
		if (ml_is_struct(t))
			return m;
		if (any && !found)
			found = m;
	} END_FOR_EACH_PTR(m);
	return found;
}

/*
 * The struct an explicit cast points to: "((struct foo_sb *)sb->s_fs_info)",
 * as filesystems' FOO_SB(sb) accessors read a void pointer.
 */
static struct symbol *cast_struct(struct expression *e)
{
	while (e) {
		if (e->type == EXPR_CAST || e->type == EXPR_FORCE_CAST) {
			struct symbol *t = pointee_struct(e->ctype);

			if (t)
				return t;
			e = e->cast_expression;
		} else if (e->type == EXPR_IMPLIED_CAST) {
			e = e->cast_expression;
		} else if (e->type == EXPR_PREOP && e->op == '(') {
			e = e->unop;
		} else {
			return NULL;
		}
	}
	return NULL;
}

/*
 * Each "." or "->" leaves one "+ offset" step; in a union every member
 * starts at the same offset, so offsets alone do not tell "u.a.x" from
 * "u.b.y". The steps are matched against the members that start there,
 * the last one against the member (a value read keeps it) or against the
 * type the address points to ("&p->u.b.t").
 */
#define MAX_STEPS 16
struct chain {
	struct symbol *st;		/* where the first step starts */
	struct symbol *m[MAX_STEPS];
	int n;
};

static int step_match(struct symbol *m, struct symbol *leaf,
		      struct symbol *type)
{
	if (leaf)
		return same_member(m, leaf);
	return !type || strip_type(m) == type;
}

/* up to MAX_ALT resolutions: union alternatives the steps fit alike */
#define MAX_ALT 8
struct chains {
	struct chain c[MAX_ALT];
	int n;
};

static void match_steps(struct symbol *st, const unsigned long *off, int i,
			struct chain *c, struct chains *out,
			struct symbol *leaf, struct symbol *type,
			unsigned long base)
{
	struct symbol *m;

	FOR_EACH_PTR(st->symbol_list, m) {
		struct symbol *t = strip_type(m);
		unsigned long at = base + m->offset;

		if (out->n == MAX_ALT)
			return;
		if (!m->ident) {
			/* an anonymous struct/union: its members are ours */
			if (ml_is_struct(t))
				match_steps(t, off, i, c, out, leaf, type, at);
			continue;
		}
		if (at != off[i])
			continue;
		c->m[i] = m;
		if (i < c->n - 1) {
			if (ml_is_struct(t))
				match_steps(t, off, i + 1, c, out, leaf, type,
					    0);
		} else if (step_match(m, leaf, type)) {
			out->c[out->n++] = *c;
		}
	} END_FOR_EACH_PTR(m);
}

/* Every way the steps of @addr fit its struct; the first is the likeliest. */
static int resolve_chains(struct expression *addr, struct symbol *leaf,
			  struct chains *out)
{
	unsigned long off[MAX_STEPS];
	struct symbol *type = NULL;
	struct expression *raw = NULL;
	struct chain c;
	int i, n = 0;

	out->n = 0;
	if (!leaf && addr->ctype && addr->ctype != &lazy_ptr_ctype) {
		struct symbol *t = strip_type(addr->ctype);

		if (t && t->type == SYM_PTR)
			type = strip_type(t->ctype.base_type);
	}
	while (addr && addr->type == EXPR_BINOP && addr->op == '+' &&
	       addr->right && addr->right->type == EXPR_VALUE) {
		if (n == MAX_STEPS)
			return 0;
		off[n++] = addr->right->value;
		raw = addr->left;
		/* a cast to a struct pointer starts the steps anew */
		if (cast_struct(raw))
			break;
		addr = strip_expr(raw);
	}
	if (!n || !addr)
		return 0;
	for (i = 0; i < n / 2; i++) {
		unsigned long x = off[i];

		off[i] = off[n - 1 - i];
		off[n - 1 - i] = x;
	}
	c.n = n;
	c.st = addr_struct(raw);
	if (c.st)
		match_steps(c.st, off, 0, &c, out, leaf, type, 0);
	return out->n;
}

static int resolve_chain(struct expression *addr, struct symbol *leaf,
			 struct chain *c)
{
	static struct chains all;

	if (!resolve_chains(addr, leaf, &all))
		return 0;
	*c = all.c[0];
	return 1;
}

/* The member whose address a "base + offset" expression computes. */
struct symbol *addr_member(struct expression *addr)
{
	struct symbol *parent;
	struct chain c;

	if (!addr->right || addr->right->type != EXPR_VALUE)
		return NULL;
	if (resolve_chain(addr, NULL, &c))
		return c.m[c.n - 1];
	parent = addr_struct(addr->left);
	return parent ? member_at(parent, addr->right->value, 1) : NULL;
}

/*
 * The outermost member of "&x.a.b": a ("drvwrap" of a usb_driver's
 * "&drv.drvwrap.driver"), where addr_member() gives b.
 */
struct symbol *addr_first_member(struct expression *addr)
{
	struct chain c;

	if (!addr->right || addr->right->type != EXPR_VALUE)
		return NULL;
	if (resolve_chain(addr, NULL, &c))
		return c.m[0];
	return addr_member(addr);
}

/* "struct foo.u.b.t": the key of a resolved chain */
static const char *chain_key(const struct chain *c, char *buf, size_t len)
{
	size_t used;
	int i;

	used = snprintf(buf, len, "%s", type_name(c->st));
	for (i = 0; i < c->n && used < len; i++)
		used += snprintf(buf + used, len - used, ".%s",
				 id_str(c->m[i]->ident));
	return buf;
}

/* The struct type an address expression points to, if any. */
struct symbol *addr_struct(struct expression *addr)
{
	struct symbol *m, *t;

	t = cast_struct(addr);
	if (t)
		return t;
	addr = strip_expr(addr);
	if (!addr)
		return NULL;
	switch (addr->type) {
	case EXPR_SYMBOL:
		t = strip_type(addr->symbol);
		return ml_is_struct(t) ? t : NULL;
	case EXPR_BINOP:
		if (addr->op != '+')
			return NULL;
		m = addr_member(addr);
		if (!m)		/* "&a->ring[i]": an element of an array */
			return pointee_struct(addr->ctype);
		t = strip_type(m);
		return ml_is_struct(t) ? t : NULL;
	default:
		return pointee_struct(addr->ctype);
	}
}

/* The outermost struct of a member address: p's for "&p->a.b.c". */
struct symbol *root_struct(struct expression *addr)
{
	addr = strip_expr(addr);
	while (addr && addr->type == EXPR_BINOP && addr->op == '+' &&
	       addr_member(addr)) {
		struct expression *left = strip_expr(addr->left);

		if (!left || left->type != EXPR_BINOP || left->op != '+' ||
		    !addr_member(left))
			return addr_struct(addr->left);
		addr = left;
	}
	return NULL;
}

/* Is @t "struct @name", or does it begin with one (a first member)? */
int begins_with_struct(struct symbol *t, const char *name)
{
	int depth;

	for (depth = 0; depth < 8; depth++) {
		struct symbol *first;

		t = strip_type(t);
		if (!ml_is_struct(t))
			return 0;
		if (t->ident && !strcmp(id_str(t->ident), name))
			return 1;
		first = first_ptr_list((struct ptr_list *)t->symbol_list);
		if (!first || first->offset)
			return 0;
		t = first;
	}
	return 0;
}

/*
 * A key naming the object an address points to, the same in every file of
 * a module: a named object ("obj:name"); a member by its path from the
 * outermost struct type, reached through a pointer or a named object alike
 * ("struct foo.dwork.work"); or a pointer variable ("var:...").
 */
/*
 * "&sdata->u.ibss.timer" and "&sdata->u.mgd.timer" leave the same steps
 * when both union members begin with a timer: the keys of every reading
 * but the first (which addr_key() gives), for stops, which may name any.
 */
int addr_key_others(struct expression *addr, char (*keys)[KEYLEN],
		    char (*types)[KEYLEN], int max)
{
	static struct chains all;
	int i, n = 0;

	addr = strip_expr(addr);
	if (!addr || addr->type != EXPR_BINOP || addr->op != '+' ||
	    resolve_chains(addr, NULL, &all) < 2)
		return 0;
	for (i = 1; i < all.n && n < max; i++, n++) {
		struct chain *c = &all.c[i];
		struct symbol *m = c->m[c->n - 1];
		struct symbol *ct = member_container(m);

		chain_key(c, keys[n], KEYLEN);
		snprintf(types[n], KEYLEN, "%s.%s",
			 ct ? type_name(ct) : type_name(c->st),
			 id_str(m->ident));
	}
	return n;
}

/*
 * "&guc->ct.requests.worker" is also "struct intel_guc_ct.requests.worker",
 * the path from each named struct the steps pass through: what code
 * given the inner struct arms, the container's teardown may stop.
 */
int addr_key_suffixes(struct expression *addr, char (*keys)[KEYLEN], int max)
{
	struct chain c;
	int i, j, n = 0;

	addr = strip_expr(addr);
	if (!addr || addr->type != EXPR_BINOP || addr->op != '+' ||
	    !resolve_chain(addr, NULL, &c))
		return 0;
	for (i = 0; i < c.n - 1 && n < max; i++) {
		struct symbol *t = strip_type(c.m[i]);
		size_t used;

		if (!ml_is_struct(t) || !t->ident)
			continue;
		used = snprintf(keys[n], KEYLEN, "%s", type_name(t));
		for (j = i + 1; j < c.n && used < KEYLEN; j++)
			used += snprintf(keys[n] + used, KEYLEN - used, ".%s",
					 id_str(c.m[j]->ident));
		n++;
	}
	return n;
}

static const char *addr_key_raw(struct expression *addr, struct symbol *leaf,
				char *buf, size_t len)
{
	struct symbol *m, *c, *sym;
	struct chain ch;

	addr = strip_expr(addr);
	if (!addr)
		return NULL;
	switch (addr->type) {
	case EXPR_SYMBOL:
		sym = addr->symbol;
		if (is_local_var(sym) && alias_of(sym)) {
			/* value_key() of a local set from an object */
			snprintf(buf, len, "%s", alias_of(sym));
			return buf;
		}
		if (!is_static_object(sym) &&
		    !(sym->ctype.modifiers & MOD_EXTERN))
			return NULL;
		snprintf(buf, len, "obj:%s", sym_name(sym));
		return buf;
	case EXPR_BINOP: {
		struct expression *left = strip_expr(addr->left);
		char prefix[512];

		if (addr->op != '+')
			return NULL;
		if (resolve_chain(addr, leaf, &ch))
			return chain_key(&ch, buf, len);
		m = addr_member(addr);
		if (!m || !m->ident)
			return NULL;
		/* "&x->a.b": the path from the outermost object or type */
		if (left && left->type == EXPR_BINOP &&
		    addr_key(left, prefix, sizeof(prefix))) {
			snprintf(buf, len, "%s.%s", prefix, id_str(m->ident));
			return buf;
		}
		c = member_container(m);
		if (!c)
			return NULL;
		snprintf(buf, len, "%s.%s", type_name(c), id_str(m->ident));
		return buf;
	}
	case EXPR_PREOP:
		sym = expr_symbol(addr);
		if (addr->op != '*' || !sym)
			return NULL;
		if (is_local_var(sym) && alias_of(sym)) {
			snprintf(buf, len, "%s", alias_of(sym));
			return buf;
		}
		if (sym->ctype.modifiers & MOD_TOPLEVEL)
			snprintf(buf, len, "var:%s", sym_name(sym));
		else
			snprintf(buf, len, "var:%s:%s",
				 tu.file, sym_name(sym));
		return buf;
	default:
		return NULL;
	}
}

/*
 * A key cut short by its buffer would name another object, or match one
 * cut alike: such an object gets no key (the checks then pass it by).
 */
static const char *whole(const char *key, size_t len)
{
	return key && strlen(key) + 1 < len ? key : NULL;
}

static const char *addr_key_of(struct expression *addr, struct symbol *leaf,
			       char *buf, size_t len)
{
	return whole(addr_key_raw(addr, leaf, buf, len), len);
}

const char *addr_key(struct expression *addr, char *buf, size_t len)
{
	return addr_key_of(addr, NULL, buf, len);
}

/*
 * The struct type and member an address designates, whatever path led
 * there: "&sb->child.done" and "&c->done" are both "struct child.done".
 */
const char *type_key(struct expression *addr, char *buf, size_t len)
{
	struct symbol *m, *c;

	addr = strip_expr(addr);
	if (!addr || addr->type != EXPR_BINOP || addr->op != '+')
		return addr_key(addr, buf, len);
	m = addr_member(addr);
	c = m && m->ident ? member_container(m) : NULL;
	if (!c)
		return NULL;
	snprintf(buf, len, "%s.%s", type_name(c), id_str(m->ident));
	return whole(buf, len);
}

/* The key of the object a pointer value designates: "x", "p->task". */
const char *value_key(struct expression *e, char *buf, size_t len)
{
	struct symbol *leaf;

	e = strip_expr(e);
	if (!e || e->type != EXPR_PREOP || e->op != '*')
		return NULL;
	/* "p->u.b.wq" read: its ctype is the member itself */
	leaf = e->ctype && e->ctype->type == SYM_NODE && e->ctype->ident ?
	       e->ctype : NULL;
	return addr_key_of(e->unop, leaf, buf, len);
}

/* An object key as a message shows it: "var:FILE:x", "var:x", "obj:x": x */
const char *key_label(const char *key)
{
	const char *c;

	if (!strncmp(key, "obj:", 4))
		return key + 4;
	if (strncmp(key, "var:", 4))
		return key;
	c = strrchr(key + 4, ':');
	return c ? c + 1 : key + 4;
}
