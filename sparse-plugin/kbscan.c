// SPDX-License-Identifier: GPL-2.0-only
/*
 * Knowledge scan (--modlife-kb-scan), run over core kernel code: which
 * struct types have an owner field read to pin a module: any "struct
 * module *" member, whatever its name (crypto_alg.cra_module,
 * scsi_host_template.module). Records
 *   owner_read: try_module_get()/__module_get() (fops_get() expands to
 *               try_module_get()) of T->member, directly, through a
 *               local, or through a conditional; "param" N when it
 *               is the owner of what the function's parameter N points
 *               to (get_filesystem(): a caller passing its object pins
 *               that object's owner then and there);
 *   owner_copy: U->owner = T->owner (e.g. a NULL owner falling back to the
 *               driver's), so T matters when U does;
 *   owner_param: U->owner = a "struct module *" parameter of the function,
 *   owner_arg:   a call passing T->owner as a parameter: together a copy
 *               through a registration helper (video_register_device()
 *               passes vdev->fops->owner, which __video_register_device()
 *               copies into the cdev);
 *   kparam:     a pointer parameter, or a member of what it points to,
 *               or an element of a "struct T **" one (path "[]"),
 *               handed to a call (flagged when the call is a driver-core
 *               registration of kb/api.tsv): the front end derives the
 *               exported helpers that register what their callers pass;
 *   kdone, kwait: complete()/wait_for_completion() of a struct member:
 *               a core whose unregistration waits for the release its
 *               own release callback completes (i2c_del_adapter()) keeps
 *               the object until nobody holds it.
 * The front end closes these into the knowledge file.
 */
#include <string.h>
#include "modlife.h"

#define MAX_LOCALS 32
#define MAX_SRC 4

/*
 * local "struct module *" variables and the owner members (their struct
 * and name) they were loaded from
 */
static struct local_src {
	struct symbol *var;
	struct symbol *types[MAX_SRC];
} locals[MAX_LOCALS];
static int nlocals;

static struct local_src *local_of(struct symbol *var, int create)
{
	int i;

	for (i = 0; i < nlocals; i++)
		if (locals[i].var == var)
			return &locals[i];
	if (!create || nlocals == MAX_LOCALS)
		return NULL;
	memset(&locals[nlocals], 0, sizeof(locals[0]));
	locals[nlocals].var = var;
	return &locals[nlocals++];
}

static int owner_sources(struct expression *e, struct symbol **out, int n)
{
	struct symbol *m, *sym;
	struct local_src *l;
	int i;

	e = strip_expr(e);
	if (!e || n >= MAX_SRC)
		return n;
	if (e->type == EXPR_CONDITIONAL || e->type == EXPR_SELECT) {
		n = owner_sources(e->cond_true ? e->cond_true : e->conditional,
				  out, n);
		return owner_sources(e->cond_false, out, n);
	}
	m = member_of_lvalue(e);
	if (m && m->ident && is_module_pointer(m)) {
		struct symbol *c = member_container(m);

		if (c)
			out[n++] = m;	/* the member: its struct and name */
		return n;
	}
	sym = expr_symbol(e);
	l = sym ? local_of(sym, 0) : NULL;
	if (l)
		for (i = 0; i < MAX_SRC && l->types[i] && n < MAX_SRC; i++)
			out[n++] = l->types[i];
	return n;
}

/*
 * "const struct x *": what the pointer points to is const (a pointer
 * examined has its target's qualifiers, its target node folded away)
 */
static int pointee_const(struct symbol *p)
{
	struct symbol *t = strip_type(p);

	if (!t || t->type != SYM_PTR)
		return 0;
	return (t->ctype.modifiers & MOD_CONST) || (t->ctype.base_type &&
		(t->ctype.base_type->ctype.modifiers & MOD_CONST));
}

/*
 * The struct each parameter points to, "|"-separated ("-" for any other
 * parameter): an unregistration taking back what its registration was
 * given takes a parameter of the same struct (misc_deregister()). A
 * const one is a template read or copied (dvb_register_device()), not
 * an object linked in: "-" too.
 */
static const char *param_structs(struct symbol *fn, char *buf, size_t len)
{
	struct symbol *t = strip_type(fn), *arg, *st;
	size_t n = 0;
	int first = 1;

	buf[0] = 0;
	if (!t || t->type != SYM_FN)
		return buf;
	FOR_EACH_PTR(t->arguments, arg) {
		st = pointee_const(arg) ? NULL : pointee_struct(arg);
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s",
			      first ? "" : "|",
			      st && st->ident ? type_name(st) : "-");
		first = 0;
		if (n >= len) {
			buf[0] = 0;	/* too long to say: no types */
			break;
		}
	} END_FOR_EACH_PTR(arg);
	return buf;
}

static void kb_function(struct symbol *fn)
{
	char buf[KEYLEN];

	nlocals = 0;
	/* static functions are the file's own: the front end keys them so */
	fact_begin("kfn");
	fact_str("name", sym_name(fn));
	fact_int("static", !!(fn->ctype.modifiers & MOD_STATIC));
	fact_str("params", param_structs(fn, buf, sizeof(buf)));
	fact_end();
}

static const char *param_path(struct expression *arg, struct symbol *p,
			      char *buf, size_t len);

/*
 * THIS_MODULE of the code being scanned: "&__this_module" in a module,
 * "((struct module *)0)" built in (an explicit cast, where a NULL is
 * "(void *)0" converted implicitly)
 */
static int is_own_module(struct expression *e)
{
	struct symbol *t;

	if (is_this_module(e))
		return 1;
	if (!e || e->type != EXPR_CAST || !e->cast_expression ||
	    e->cast_expression->type != EXPR_VALUE || e->cast_expression->value)
		return 0;
	t = e->cast_type;
	if (t && t->type == SYM_NODE)
		t = t->ctype.base_type;
	t = t && t->type == SYM_PTR ? strip_type(t->ctype.base_type) : NULL;
	return t && t->type == SYM_STRUCT && t->ident &&
	       !strcmp(id_str(t->ident), "module");
}

/*
 * The owner of what parameter @p (or its member on the way) holds: ""
 * for p's own struct, ".driver" for one embedded in it, ".ops->" for the
 * table a member points to. NULL when @addr (the address of the struct
 * whose owner is assigned) is not reached from p so.
 */
static const char *fill_path(struct expression *addr, struct symbol *p,
			     char *buf, size_t len)
{
	struct expression *e = strip_expr(addr);
	struct symbol *m;
	const char *path;
	char inner[KEYLEN];

	path = param_path(e, p, buf, len);
	if (path)
		return path;
	/* a load of a pointer member: "type->ops" */
	if (!e || e->type != EXPR_PREOP || e->op != '*')
		return NULL;
	m = member_of_lvalue(e);
	path = m && m->ident ? param_path(e->unop, p, inner, sizeof(inner)) :
	       NULL;
	if (!path || strlen(path) + strlen(id_str(m->ident)) + 4 > len)
		return NULL;
	/* param_path() named the pointer member itself: ".ops" */
	snprintf(buf, len, "%s->", path);
	return buf;
}

/*
 * "p->m.owner = owner", "p->ops->owner = THIS_MODULE", "p->owner =
 * p->dev->driver->owner": a function that fills in the owner of what its
 * caller passes (owner_fill: the parameter, the path, and where the owner
 * comes from: the caller's parameter M, the code's own module, or the
 * driver bound to the object's device)
 */
static void owner_fill(struct walk_ctx *ctx, struct expression *dst,
		       struct expression *src, struct symbol *m,
		       struct symbol **types, int n, struct position pos)
{
	struct expression *lv = strip_expr(dst), *e;
	struct symbol *b, *sym = expr_symbol(strip_expr(src));
	char buf[KEYLEN], how[64];
	const char *path;
	int i, p, param = sym ? param_index(ctx->fn, sym) : -1;

	if (param >= 0 && is_module_pointer(sym))
		snprintf(how, sizeof(how), "param:%d", param);
	else if (is_own_module(src) || is_own_module(strip_expr(src)))
		snprintf(how, sizeof(how), "core");
	else {
		for (i = 0; i < n; i++)
			if (!strcmp(type_name(member_container(types[i])),
				    "struct device_driver"))
				break;
		if (i == n)
			return;
		snprintf(how, sizeof(how), "driver");
	}
	if (!lv || lv->type != EXPR_PREOP || lv->op != '*')
		return;
	e = strip_expr(lv->unop);
	/* "*(base + offset)": the struct whose owner it is is at base */
	if (e && e->type == EXPR_BINOP && e->op == '+')
		e = e->left;
	b = base_object(e);
	p = b ? param_index(ctx->fn, b) : -1;
	path = p >= 0 ? fill_path(e, b, buf, sizeof(buf)) : NULL;
	if (!path)
		return;
	fact_begin("owner_fill");
	fact_str("fn", sym_name(ctx->fn));
	fact_int("param", p);
	fact_str("path", path[0] ? path : "-");
	fact_str("member", id_str(m->ident));
	fact_str("src", how);
	fact_pos(pos);
	fact_end();
}

static void flow(struct walk_ctx *ctx, struct expression *dst,
		 struct expression *src, struct position pos)
{
	struct symbol *types[MAX_SRC], *m, *sym;
	int n = owner_sources(src, types, 0), i, param;
	struct local_src *l;

	m = member_of_lvalue(dst);
	sym = expr_symbol(strip_expr(src));
	param = sym && ctx->fn ? param_index(ctx->fn, sym) : -1;
	if (ctx->fn && m && m->ident && is_module_pointer(m) &&
	    member_container(m))
		owner_fill(ctx, dst, src, m, types, n, pos);
	if (param >= 0 && is_module_pointer(sym) && m && m->ident &&
	    is_module_pointer(m) && member_container(m)) {
		fact_begin("owner_param");
		fact_str("fn", sym_name(ctx->fn));
		fact_int("param", param);
		fact_str("to", type_name(member_container(m)));
		fact_pos(pos);
		fact_end();
	}
	if (!n)
		return;
	if (m && m->ident && is_module_pointer(m) && member_container(m)) {
		char to[256];

		snprintf(to, sizeof(to), "%s", type_name(member_container(m)));
		for (i = 0; i < n; i++) {
			fact_begin("owner_copy");
			fact_str("from", type_name(member_container(types[i])));
			fact_str("from_member", id_str(types[i]->ident));
			fact_str("to", to);
			fact_str("to_member", id_str(m->ident));
			fact_str("fn", ctx->fn ? sym_name(ctx->fn) : NULL);
			fact_pos(pos);
			fact_end();
		}
		return;
	}
	sym = expr_symbol(dst);
	if (sym && !(sym->ctype.modifiers & MOD_TOPLEVEL)) {
		l = local_of(sym, 1);
		for (i = 0; l && i < n; i++) {
			int j;

			for (j = 0; j < MAX_SRC && l->types[j]; j++)
				if (l->types[j] == types[i])
					break;
			if (j < MAX_SRC)
				l->types[j] = types[i];
		}
	}
}

static void kb_assign(struct walk_ctx *ctx, struct expression *expr)
{
	if (expr->op == '=')
		flow(ctx, expr->left, expr->right, expr->pos);
}

static void kb_decl(struct walk_ctx *ctx, struct symbol *local)
{
	struct symbol *types[MAX_SRC];
	struct local_src *l;
	int n, i;

	if (!local->initializer)
		return;
	n = owner_sources(local->initializer, types, 0);
	l = n ? local_of(local, 1) : NULL;
	for (i = 0; l && i < n; i++)
		l->types[i] = types[i];
}

/*
 * The member path from parameter @p's struct to @arg ("" for p itself,
 * ".dev" for &p->dev), or NULL when @arg is not p or inside *p.
 */
static const char *param_path(struct expression *arg, struct symbol *p,
			      char *buf, size_t len)
{
	struct symbol *st = pointee_struct(p);
	const char *t;
	size_t n;

	arg = strip_expr(arg);
	if (!st || !st->ident)
		return NULL;
	if (expr_symbol(arg))
		return expr_symbol(arg) == p ? "" : NULL;
	if (!addr_key(arg, buf, len))
		return NULL;
	t = type_name(st);
	n = strlen(t);
	return !strncmp(buf, t, n) && buf[n] == '.' ? buf + n : NULL;
}

/*
 * The struct of the elements of a "struct T **" parameter @p when @arg
 * is one of them ("devs[i]", "*devs"), else NULL: the helper registers
 * each object of an array of pointers (platform_add_devices()).
 */
static struct symbol *element_struct(struct expression *arg, struct symbol *p)
{
	struct symbol *t = strip_type(p);
	struct expression *e = strip_expr(arg);

	if (!t || t->type != SYM_PTR || !e || e->type != EXPR_PREOP ||
	    e->op != '*')
		return NULL;
	e = strip_expr(e->unop);
	if (e && e->type == EXPR_BINOP && e->op == '+')
		e = strip_expr(e->left);
	/* the parameter's value: a load of it, "*(&devs)" */
	if (e && e->type == EXPR_PREOP && e->op == '*')
		e = strip_expr(e->unop);
	if (!e || e->type != EXPR_SYMBOL || e->symbol != p)
		return NULL;
	t = pointee_struct(t->ctype.base_type);
	return t && t->ident ? t : NULL;
}

/* "register(&p->dev)", "helper(x, p)": a parameter's object handed on */
static void param_args(struct walk_ctx *ctx, struct expression *call,
		       const char *name)
{
	struct expression *arg;
	char buf[KEYLEN];
	const struct api_row *reg = api_find("register", name);
	int k = 0;

	FOR_EACH_PTR(call->args, arg) {
		struct symbol *b = base_object(arg), *st = NULL;
		int p = b ? param_index(ctx->fn, b) : -1;
		const char *path = p >= 0 ? param_path(arg, b, buf,
							 sizeof(buf)) : NULL;

		if (path)
			st = pointee_struct(b);
		else if (p >= 0 && (st = element_struct(arg, b)))
			path = "[]";
		if (path) {
			fact_begin("kparam");
			fact_str("from", sym_name(ctx->fn));
			fact_int("param", p);
			fact_str("path", path);
			fact_str("type", type_name(st));
			fact_str("to", name);
			fact_int("arg", k);
			fact_int("register", reg && k >= reg->a &&
					     k <= reg->b);
			fact_pos(call->pos);
			fact_end();
		}
		k++;
	} END_FOR_EACH_PTR(arg);
}

/* complete(&x->done) and wait_for_completion*(&x->done), by type */
static void completion_use(struct walk_ctx *ctx, struct expression *call,
			   const char *name)
{
	char key[KEYLEN];
	int done = api_is("complete", name);

	if (!done && !api_is("wait-completion", name))
		return;
	if (!type_key(first_expression(call->args), key, sizeof(key)) ||
	    strncmp(key, "struct ", 7))
		return;
	fact_begin(done ? "kdone" : "kwait");
	fact_str("fn", sym_name(ctx->fn));
	fact_str("key", key);
	fact_pos(call->pos);
	fact_end();
}

/* N when @e is "p->member" of the function's parameter N, else -1 */
static int member_of_param(struct walk_ctx *ctx, struct expression *e)
{
	struct symbol *p;

	e = strip_expr(e);
	if (!ctx->fn || !e || e->type != EXPR_PREOP || e->op != '*')
		return -1;
	e = strip_expr(e->unop);
	if (e && e->type == EXPR_BINOP && e->op == '+')
		e = strip_expr(e->left);
	p = expr_symbol(e);
	return p ? param_index(ctx->fn, p) : -1;
}

static void kb_call(struct walk_ctx *ctx, struct expression *call,
		    struct symbol *callee)
{
	const char *name = callee_name(callee);
	struct symbol *types[MAX_SRC];
	int n, i;

	if (name && ctx->fn) {
		param_args(ctx, call, name);
		completion_use(ctx, call, name);
		/* the file's call graph: which exported helper reaches a barrier */
		fact_begin("kcall");
		fact_str("from", sym_name(ctx->fn));
		fact_str("to", name);
		/* the knowledge builder follows teardown-like callees */
		fact_int("teardown", is_teardown_name(name));
		fact_end();
	}
	if (name && strcmp(name, "try_module_get") &&
	    strcmp(name, "__module_get") && strcmp(name, "module_put")) {
		struct expression *arg;
		int k = 0;

		FOR_EACH_PTR(call->args, arg) {
			n = owner_sources(arg, types, 0);
			for (i = 0; i < n; i++) {
				fact_begin("owner_arg");
				fact_str("callee", name);
				fact_int("param", k);
				fact_str("from", type_name(member_container(types[i])));
				fact_str("from_member", id_str(types[i]->ident));
				fact_pos(call->pos);
				fact_end();
			}
			k++;
		} END_FOR_EACH_PTR(arg);
		return;
	}
	if (!name)
		return;
	n = owner_sources(first_expression(call->args), types, 0);
	for (i = 0; i < n; i++) {
		fact_begin(strcmp(name, "module_put") ? "owner_read" :
			   "owner_put");
		fact_str("type", type_name(member_container(types[i])));
		fact_str("member", id_str(types[i]->ident));
		fact_str("how", name);
		fact_str("fn", ctx->fn ? sym_name(ctx->fn) : NULL);
		if (n == 1 && strcmp(name, "module_put"))
			fact_int("param", member_of_param(ctx,
					first_expression(call->args)));
		fact_pos(call->pos);
		fact_end();
	}
}

/*
 * A static table's callbacks (kstore): a pin taken in one callback and
 * dropped in a teardown callback of the same table lasts as long as what
 * the table's callbacks set up
 */
static void kb_table_leaf(struct symbol *obj, struct symbol *member,
			  struct expression *value, unsigned long offset)
{
	struct symbol *fn = expr_symbol(value);

	if (!fn || !ml_is_function(fn) || !member || !member->ident)
		return;
	fact_begin("kstore");
	fact_str("table", sym_name(obj));
	fact_str("type", type_name(obj));
	fact_str("member", id_str(member->ident));
	fact_str("fn", sym_name(fn));
	fact_end();
}

/* EXPORT_SYMBOL(fn) leaves "__UNIQUE_ID___addressable_fn<N> = &fn". */
static void kb_object(struct symbol *obj)
{
	struct symbol *fn;

	if (obj->initializer && ml_is_struct(strip_type(obj)))
		for_each_init_leaf(obj, obj->initializer, kb_table_leaf);
	if (strncmp(sym_name(obj), "__UNIQUE_ID___addressable_", 26))
		return;
	fn = expr_symbol(obj->initializer);
	if (!fn || !ml_is_function(fn) || !is_exported_symbol(fn))
		return;
	fact_begin("export");
	fact_str("fn", sym_name(fn));
	fact_pos((fn->definition ? fn->definition : fn)->pos);
	fact_int("teardown", is_teardown_name(sym_name(fn)));
	fact_end();
}

const struct modlife_check kbscan = {
	.modes = CHECK_KB,
	.object = kb_object,
	.name = "kbscan",
	.function = kb_function,
	.call = kb_call,
	.assign = kb_assign,
	.decl = kb_decl,
};
