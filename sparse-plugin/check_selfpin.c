// SPDX-License-Identifier: GPL-2.0-only
/*
 * self-pin: __module_get(THIS_MODULE) in a callback that nothing pinned
 * the module for. __module_get() cannot fail, even while the module is
 * going away, so a sysfs store, a timer or work function or a notifier
 * that takes its own reference races with rmmod. Inside file operations
 * whose owner is set, open already pinned the module; try_module_get()
 * whose failure is handled is the correct way and is not flagged.
 */
#include <string.h>
#include "modlife.h"

/* struct members whose callers do not pin the module for the callee */
static int unpinned_slot(struct symbol *member)
{
	struct symbol *c = member ? member_container(member) : NULL;
	const char *st, *m;
	size_t n;

	if (!c || !c->ident || !member->ident)
		return 0;
	st = id_str(c->ident);
	m = id_str(member->ident);
	n = strlen(st);
	if (n > 10 && !strcmp(st + n - 10, "_attribute"))
		return !strcmp(m, "store") || !strcmp(m, "show");
	return (!strcmp(st, "timer_list") && !strcmp(m, "function")) ||
	       (!strcmp(st, "hrtimer") && !strcmp(m, "function")) ||
	       (!strcmp(st, "work_struct") && !strcmp(m, "func")) ||
	       (!strcmp(st, "notifier_block") && !strcmp(m, "notifier_call"));
}

static void slot(struct symbol *member, struct expression *value)
{
	struct symbol *fn = expr_symbol(value);

	if (fn && ml_is_function(fn) && unpinned_slot(member))
		provide(KEY_UNPINNED_CALLBACK "%s", sym_name(fn));
}

static void pin_leaf(struct symbol *obj, struct symbol *member,
		     struct expression *value, unsigned long offset)
{
	slot(member, value);
}

static void pinned_leaf(struct symbol *obj, struct symbol *member,
			struct expression *value, unsigned long offset)
{
	struct symbol *fn = expr_symbol(value);

	if (fn && ml_is_function(fn))
		provide(KEY_PINNED_CALLBACK "%s", sym_name(fn));
}

static void selfpin_object(struct symbol *obj)
{
	struct symbol *c;
	struct expression *v;
	char path[128];
	unsigned long off;

	for_each_init_leaf(obj, obj->initializer, pin_leaf);
	/* file operations with an owner: open pinned the module */
	c = find_owner_path(obj, path, sizeof(path), &off);
	if (!c || strchr(path, '.'))
		return;
	v = init_leaf_at(obj->initializer, off, built_in_ident(path));
	if (v && !is_zero_constant(v))
		for_each_init_leaf(obj, obj->initializer, pinned_leaf);
}

static void selfpin_assign(struct walk_ctx *ctx, struct expression *expr)
{
	if (expr->op == '=')
		slot(member_of_lvalue(expr->left), expr->right);
}

static void selfpin_call(struct walk_ctx *ctx, struct expression *call,
			 struct symbol *callee)
{
	const char *name = callee_name(callee);
	struct finding *f;

	if (!name || !ctx->fn)
		return;
	if (!strcmp(name, "init_timer_key")) {
		struct symbol *fn = expr_symbol(
			ptr_list_nth_entry((struct ptr_list *)call->args, 1));

		if (fn && ml_is_function(fn))
			provide(KEY_UNPINNED_CALLBACK "%s", sym_name(fn));
		return;
	}
	if (strcmp(name, "__module_get") || !tu.is_module ||
	    !is_this_module(first_expression(call->args)))
		return;
	f = finding_new("self-pin", call->pos, NULL);
	f->unload = 1;
	finding_requires(f, KEY_UNPINNED_CALLBACK "%s", sym_name(ctx->fn));
	finding_unless(f, KEY_PINNED_CALLBACK "%s", sym_name(ctx->fn));
	finding_message(f, "__module_get(THIS_MODULE) in %s(), a callback (sysfs attribute, timer, work or notifier) that nothing pinned the module for: it cannot fail, so it races with rmmod; set the owner of the object that leads here (.owner = THIS_MODULE), or use try_module_get() and handle its failure",
			sym_name(ctx->fn));
	finding_report(f);
}

const struct modlife_check check_selfpin = {
	.name = "self-pin",
	.modes = CHECK_RULES,
	.call = selfpin_call,
	.assign = selfpin_assign,
	.object = selfpin_object,
};
