// SPDX-License-Identifier: GPL-2.0-only
/*
 * never-unregistered: a static object of the module handed to a function
 * that keeps it until its undo takes it back (the knowledge file's
 * "keeps:FN:N" rows, derived from the tree: misc_register() and
 * misc_deregister(), __platform_driver_probe()), and that nothing takes
 * back before the unload. The core's list, tree or chain then still
 * points into freed module data, and through it into module text.
 * Objects embedding a kobject are static-object's (it reports those
 * whether they are unregistered or not).
 */
#include <string.h>
#include "modlife.h"

/* parameter @n of @name is kept until an undo: its "keeps:" row, or NULL */
static const char *kept_param(const char *name, int n)
{
	char k[KEYLEN + 16];
	const char *how;

	snprintf(k, sizeof(k), "keeps:%s:%d", name, n);
	how = kb_lookup_how(k);
	return how && !strncmp(how, "undo: ", 6) ? how + 6 : NULL;
}

/*
 * @arg, based on @o, is "&o" or "&o.member": o is the object itself, not
 * a pointer whose value is handed over ("p", "&p->m"), nor an array
 */
static int is_address_of(struct expression *arg, struct symbol *o)
{
	struct symbol *t = strip_type(o);

	return arg && t && t->type != SYM_PTR && t->type != SYM_ARRAY;
}

/* an object of static storage that another file defines */
static int is_core_object(struct symbol *o)
{
	return o && o->type == SYM_NODE && o->namespace == NS_SYMBOL &&
	       !ml_is_function(o) && !is_own_symbol(o) &&
	       (o->ctype.modifiers & (MOD_EXTERN | MOD_TOPLEVEL | MOD_STATIC));
}

/*
 * What else the call keeps, when the undo takes it too, is where the
 * object is kept: a chain or list of the core that outlives the module
 * (an object of another file: &panic_notifier_list, &pci_bus_type)
 * only. The module's own data (its own notifier chain), or something
 * reached through a pointer (a jack of the card, freed at unbind), goes
 * with the module or before it.
 */
static int kept_in_own(const char *name, struct expression *call,
		       struct expression *kept)
{
	struct expression *arg;
	struct symbol *o;
	int n = -1;

	FOR_EACH_PTR(call->args, arg) {
		n++;
		if (arg == kept || is_this_module(arg) || !kept_param(name, n))
			continue;
		o = base_object(arg);
		if (!is_core_object(o) || !is_address_of(arg, o))
			return 1;
	} END_FOR_EACH_PTR(arg);
	return 0;
}

/* @e, a call or "x = call", undoes @o: an unregistration of it */
static int undoes(struct expression *e, struct symbol *o)
{
	struct expression *arg;
	const char *name;

	e = strip_expr(e);
	if (e && e->type == EXPR_ASSIGNMENT)
		e = strip_expr(e->right);
	if (!e || e->type != EXPR_CALL)
		return 0;
	name = callee_name(expr_symbol(e->fn));
	if (!name || !is_undo_name(name))
		return 0;
	FOR_EACH_PTR(e->args, arg) {
		if (base_object(arg) == o)
			return 1;
	} END_FOR_EACH_PTR(arg);
	return 0;
}

/*
 * The function that registers @o takes it back itself, in a statement of
 * its body's top level after @call and before any label: a use for the
 * length of the call (a self-test's probe), not an error path's undo
 * ("if (ret)", "err: ...")
 */
static int undone_in_place(struct symbol *fn, struct expression *call,
			   struct symbol *o)
{
	struct symbol *base = strip_type(fn);
	struct statement *body = base ? base->stmt : NULL, *s;

	if (!body || body->type != STMT_COMPOUND)
		return 0;
	FOR_EACH_PTR(body->stmts, s) {
		if (s->type == STMT_LABEL)
			return 0;
		if (s->pos.line <= call->pos.line)
			continue;
		if (s->type == STMT_EXPRESSION && undoes(s->expression, o))
			return 1;
	} END_FOR_EACH_PTR(s);
	return 0;
}

/* "drivers/char/misc.c:270 misc_deregister()": the name, without "()" */
static const char *undo_name(const char *how, char *buf, size_t len)
{
	const char *s = strrchr(how, ' ');
	size_t n;

	s = s ? s + 1 : how;
	n = strcspn(s, "(");
	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

static void kept_call(struct walk_ctx *ctx, struct expression *call,
		      struct symbol *callee)
{
	const char *name = callee_name(callee), *how;
	struct expression *arg;
	struct finding *f;
	struct symbol *o;
	char undo[KEYLEN];
	int n = 0;

	if (!name || !ctx->fn || !tu.is_module)
		return;
	FOR_EACH_PTR(call->args, arg) {
		how = kept_param(name, n++);
		if (!how)
			continue;
		o = base_object(arg);
		/* an array's elements are registered one by one, elsewhere */
		if (!o || ml_is_function(o) || !is_static_object(o) ||
		    !is_own_symbol(o) || is_kobject_bearing(o) ||
		    !is_address_of(arg, o) || kept_in_own(name, call, arg) ||
		    undone_in_place(ctx->fn, call, o))
			continue;
		undo_name(how, undo, sizeof(undo));
		f = finding_new("never-unregistered", call->pos, sym_name(o));
		f->unload = 1;
		finding_message(f, "'%s' (%s) lives in module data and %s() keeps it until %s() takes it back, but nothing before the unload does: after rmmod the core still reaches it (a list walk, a lookup, a callback through it) in freed memory; take it back with %s() before the unload (in the exit path, or in the remove of the driver whose probe registered it)",
				sym_name(o), type_name(o), name, undo, undo);
		finding_unless(f, KEY_UNREGISTERED_OBJ "%s", sym_name(o));
		finding_unless(f, KEY_UNREGISTERED_TYPE "%s", type_name(o));
		finding_unless(f, KEY_KEEPER_DEFINED "%s", name);
		finding_report(f);
	} END_FOR_EACH_PTR(arg);
}

/*
 * A keeping function that the module defines itself keeps what it is
 * given in the module's own list (viafb_pm_register() of via-core.c):
 * said for the link step, which knows every file of the module
 */
static void kept_function(struct symbol *fn)
{
	const char *name = sym_name(fn);
	int n = 0;

	if (!name || (fn->ctype.modifiers & MOD_STATIC))
		return;
	while (formal_param(fn, n))
		if (kept_param(name, n++)) {
			provide(KEY_KEEPER_DEFINED "%s", name);
			return;
		}
}

const struct modlife_check check_kept = {
	.modes = CHECK_RULES,
	.name = "kept",
	.function = kept_function,
	.call = kept_call,
};
