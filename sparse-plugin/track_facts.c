// SPDX-License-Identifier: GPL-2.0-only
/*
 * The facts every rule family builds on, written for the front end's link
 * step: functions and their direct calls, functions stored into struct
 * members, the module's init and exit functions, static objects, and which
 * objects are referenced. Keys other files may need are "provided".
 */
#include <string.h>
#include "modlife.h"

static void facts_begin_tu(void)
{
	struct symbol *sym;
	const char *p;

	/* "own-file:drivers/foo/bar.c", ".../foo/bar.c", "bar.c": the
	 * module's files, however the knowledge file names them */
	for (p = tu.file; p; p = strchr(p + 1, '/'))
		if (p[0] == '/' || p == tu.file)
			provide(KEY_OWN_FILE "%s", p[0] == '/' ? p + 1 : p);

	if (tu.init_fn) {
		fact_begin("module_init");
		fact_str("fn", sym_name(tu.init_fn));
		fact_end();
	}
	if (tu.exit_fn) {
		fact_begin("module_exit");
		fact_str("fn", sym_name(tu.exit_fn));
		fact_end();
	}

	/*
	 * EXPORT_SYMBOL(fn), written where it is: the link step marks fn
	 * exported wherever the module defines it, which may be another
	 * file (fs/dlm's main.c exports lockspace.c's functions)
	 */
	FOR_EACH_PTR(tu.symbols, sym) {
		const char *name = sym->ident ? id_str(sym->ident) : "";
		struct symbol *fn;

		/* EXPORT_SYMBOL() leaves an __ADDRESSABLE(fn) */
		if (strncmp(name, "__UNIQUE_ID___addressable_", 26))
			continue;
		fn = base_object(sym->initializer);
		if (!fn || !ml_is_function(fn) || !is_exported_symbol(fn))
			continue;
		fact_begin("export");
		fact_str("name", sym_name(fn));
		fact_end();
	} END_FOR_EACH_PTR(sym);
}

static void facts_function(struct symbol *fn)
{
	fact_begin("fn");
	fact_str("name", sym_name(fn));
	fact_pos(fn->pos);
	fact_int("static", !!(fn->ctype.modifiers & MOD_STATIC));
	fact_int("exported", is_exported_symbol(fn));
	fact_end();
}

/* "ops->member(...)": the struct member called through, or NULL. */
static struct symbol *called_member(struct expression *fn)
{
	struct symbol *m;

	fn = strip_expr(fn);
	m = member_of_lvalue(fn);
	if (!m && fn && fn->type == EXPR_PREOP && fn->op == '*')
		m = member_of_lvalue(fn->unop);
	return m;
}


/*
 * "kref_put(&x->ref, foo_destroy)": a module function handed to another
 * one is a callback too; recorded as a store into "(arg).<callee>", so
 * that a teardown-like callee or function name makes it a "may" root,
 * and with the caller (@from): the may graph lets the caller run it
 * (device_for_each_child(), execute_in_process_context(), ...).
 */
static void emit_store(const char *st, const char *member, const char *fn,
		       const char *obj, const char *how, const char *from,
		       struct position pos)
{
	fact_begin("store");
	fact_str("struct", st);
	fact_str("member", member);
	fact_str("fn", fn);
	fact_str("obj", obj);
	fact_str("how", how);
	if (from)
		fact_str("from", from);
	fact_pos(pos);
	fact_end();
}

static void fn_args(struct expression *call, const char *callee,
		    const char *from)
{
	struct expression *arg;

	FOR_EACH_PTR(call->args, arg) {
		struct symbol *fn = expr_symbol(arg);
		char name[256];

		if (!fn || !ml_is_function(fn) || !is_own_symbol(fn))
			continue;
		snprintf(name, sizeof(name), "%s", sym_name(fn));
		emit_store("(arg)", is_teardown_name(callee) ? callee : name,
			   name, NULL, "arg", from, arg->pos);
	} END_FOR_EACH_PTR(arg);
}

static void emit_call(const char *from, const char *to, struct position pos)
{
	fact_begin("call");
	fact_str("from", from);
	fact_str("to", to);
	fact_pos(pos);
	fact_end();
}

/* The functions in "{ f, g, [4] = h }", as calls from @from. */
static void table_calls(const char *from, struct expression *init,
			struct position pos, int depth)
{
	struct expression *e;
	struct symbol *fn;

	init = strip_expr(init);
	if (!init || depth > 4)
		return;
	if (init->type == EXPR_POS) {
		table_calls(from, init->init_expr, pos, depth + 1);
		return;
	}
	if (init->type == EXPR_INITIALIZER) {
		FOR_EACH_PTR(init->expr_list, e) {
			table_calls(from, e, pos, depth + 1);
		} END_FOR_EACH_PTR(e);
		return;
	}
	fn = expr_symbol(init);
	if (fn && ml_is_function(fn))
		emit_call(from, sym_name(fn), pos);
}

/*
 * "_exits[i]()" or "hook()" through a static table or pointer that the
 * file initializes with functions (device-mapper's _exits[]): a call to
 * each of them.
 */
static int table_call(struct walk_ctx *ctx, struct expression *call,
		      struct symbol *callee)
{
	struct symbol *tbl = callee ? callee : base_object(call->fn);
	struct symbol *t;

	if (!ctx->fn || !tbl || ml_is_function(tbl) || !tbl->initializer ||
	    !(tbl->ctype.modifiers & (MOD_TOPLEVEL | MOD_STATIC)))
		return 0;
	t = strip_type(tbl);
	if (t && t->type == SYM_ARRAY)
		t = strip_type(t->ctype.base_type);
	/* pointers to functions only: "cur_ops->stop()" is an ops call */
	if (!t || t->type != SYM_PTR || !ml_is_function(t->ctype.base_type))
		return 0;
	table_calls(sym_name(ctx->fn), tbl->initializer, call->pos, 0);
	return 1;
}

static void facts_call(struct walk_ctx *ctx, struct expression *call,
		       struct symbol *callee)
{
	const char *name = callee_name(callee);
	const char *from = ctx->fn ? sym_name(ctx->fn) : NULL;
	char key[KEYLEN];

	if (table_call(ctx, call, callee))
		return;
	if (!callee && ctx->fn) {
		struct symbol *m = called_member(call->fn);
		struct symbol *c = m ? member_container(m) : NULL;

		if (c) {
			char st[256];

			snprintf(st, sizeof(st), "%s", type_name(c));
			fact_begin("icall");
			fact_str("from", from);
			fact_str("struct", st);
			fact_str("member", id_str(m->ident));
			fact_pos(call->pos);
			fact_end();
		}
		return;
	}

	if (!name || callee->builtin || !strncmp(name, "__compiletime_assert", 20))
		return;
	emit_call(from, name, call->pos);
	fn_args(call, name, from);
	provide(KEY_CALL "%s", name);
	if (ctx->fn && api_is("driver-unregister", name) &&
	    addr_key(first_expression(call->args), key, sizeof(key))) {
		fact_begin("unreg_driver");
		fact_str("from", from);
		fact_str("driver", key);
		fact_pos(call->pos);
		fact_end();
	}
}

/* A function stored into a struct member: the indirect-call edges. */
static void store_fact(const char *how, struct symbol *member,
		       struct expression *value, const char *obj,
		       struct position pos)
{
	struct symbol *fn = expr_symbol(value), *c;
	char st[256], fname[256];

	if (!fn || !ml_is_function(fn) || !member || !member->ident)
		return;
	c = member_container(member);
	snprintf(st, sizeof(st), "%s", c ? type_name(c) : "?");
	snprintf(fname, sizeof(fname), "%s", sym_name(fn));
	emit_store(st, id_str(member->ident), fname, obj, how, NULL, pos);
}

static void facts_assign(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *lv = strip_expr(expr->left);
	char key[KEYLEN];
	const char *obj = NULL;

	if (expr->op != '=')
		return;
	if (member_of_lvalue(lv))
		obj = addr_key(strip_expr(lv->unop)->left, key, sizeof(key));
	store_fact("assign", member_of_lvalue(lv), expr->right, obj,
		   expr->pos);
}

static void facts_symref(struct walk_ctx *ctx, struct symbol *sym)
{
	if (sym == ctx->obj || sym->namespace != NS_SYMBOL || ml_is_function(sym))
		return;
	if (!(sym->ctype.modifiers & (MOD_TOPLEVEL | MOD_EXTERN | MOD_STATIC)))
		return;
	provide(KEY_REF_OBJ "%s", sym_name(sym));
}


static void leaf_store(struct symbol *obj, struct symbol *member,
		       struct expression *value, unsigned long offset)
{
	char key[KEYLEN];

	snprintf(key, sizeof(key), "obj:%s", sym_name(obj));
	store_fact("init", member, value, key, value->pos);
}

/* functions in a static object's initializer: stores into its members */
static void facts_object(struct symbol *obj)
{
	for_each_init_leaf(obj, obj->initializer, leaf_store);
}

const struct modlife_check track_facts = {
	.name = "facts",
	.modes = CHECK_RULES,
	.begin_tu = facts_begin_tu,
	.function = facts_function,
	.call = facts_call,
	.assign = facts_assign,
	.symref = facts_symref,
	.object = facts_object,
};
