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
	if (tu.init_fn) {
		fact_begin("module_init");
		fact_str("fn", sym_name(tu.init_fn));
		fact_end();
	}
	if (tu.exit_fn) {
		fact_begin("module_exit");
		fact_str("fn", sym_name(tu.exit_fn));
		fact_end();
		provide("module-exit");
	}
	if (tu.init_fn)
		provide("module-init");
}

static void facts_function(struct symbol *fn)
{
	fact_begin("fn");
	fact_str("name", sym_name(fn));
	fact_pos(fn->pos);
	fact_int("static", !!(fn->ctype.modifiers & MOD_STATIC));
	fact_end();
}

static void facts_call(struct walk_ctx *ctx, struct expression *call,
		       struct symbol *callee)
{
	const char *name = callee_name(callee);

	if (!name || callee->builtin || !strncmp(name, "__compiletime_assert", 20))
		return;
	fact_begin("call");
	fact_str("from", ctx->fn ? sym_name(ctx->fn) : NULL);
	fact_str("to", name);
	fact_pos(call->pos);
	fact_end();
	provide("call:%s", name);
}

/* A function stored into a struct member: the indirect-call edges. */
static void store_fact(const char *how, struct symbol *member,
		       struct expression *value, struct symbol *obj,
		       struct position pos)
{
	struct symbol *fn = expr_symbol(value), *c;

	if (!fn || !ml_is_function(fn) || !member || !member->ident)
		return;
	c = member_container(member);
	fact_begin("store");
	fact_str("struct", c ? type_name(c) : NULL);
	fact_str("member", show_ident(member->ident));
	fact_str("fn", sym_name(fn));
	fact_str("obj", obj ? sym_name(obj) : NULL);
	fact_str("how", how);
	fact_pos(pos);
	fact_end();
}

static void facts_assign(struct walk_ctx *ctx, struct expression *expr)
{
	if (expr->op == '=')
		store_fact("assign", member_of_lvalue(expr->left), expr->right,
			   NULL, expr->pos);
}

static void facts_symref(struct walk_ctx *ctx, struct symbol *sym)
{
	if (sym == ctx->obj || sym->namespace != NS_SYMBOL || ml_is_function(sym))
		return;
	if (!(sym->ctype.modifiers & (MOD_TOPLEVEL | MOD_EXTERN | MOD_STATIC)))
		return;
	provide("ref:obj:%s", sym_name(sym));
}


static void leaf_store(struct symbol *obj, struct symbol *member,
		       struct expression *value, unsigned long offset)
{
	store_fact("init", member, value, obj, value->pos);
}

static void facts_object(struct symbol *obj)
{
	fact_begin("object");
	fact_str("name", sym_name(obj));
	fact_str("type", type_name(obj));
	fact_int("static", !!(obj->ctype.modifiers & MOD_STATIC));
	fact_pos(obj->pos);
	fact_end();
	for_each_init_leaf(obj, obj->initializer, leaf_store);
}

const struct modlife_check check_facts = {
	.name = "facts",
	.begin_tu = facts_begin_tu,
	.function = facts_function,
	.call = facts_call,
	.assign = facts_assign,
	.symref = facts_symref,
	.object = facts_object,
};
