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

/*
 * Another object of the module's own data handed to the same call: the
 * module's own notifier chain or list, which goes with the module
 */
static int own_container(struct expression *call, struct expression *kept)
{
	struct expression *arg;
	struct symbol *o;

	FOR_EACH_PTR(call->args, arg) {
		if (arg == kept || is_this_module(arg))
			continue;
		o = base_object(arg);
		if (o && !ml_is_function(o) && is_static_object(o) &&
		    is_own_symbol(o))
			return 1;
	} END_FOR_EACH_PTR(arg);
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
	struct symbol *o, *t;
	char k[KEYLEN + 16], undo[KEYLEN];
	int n = 0;

	if (!name || !ctx->fn || !tu.is_module)
		return;
	FOR_EACH_PTR(call->args, arg) {
		snprintf(k, sizeof(k), "keeps:%s:%d", name, n++);
		how = kb_lookup_how(k);
		if (!how || strncmp(how, "undo: ", 6))
			continue;
		o = base_object(arg);
		t = o ? strip_type(o) : NULL;
		/* an array's elements are registered one by one, elsewhere */
		if (!o || ml_is_function(o) || !is_static_object(o) ||
		    !is_own_symbol(o) || is_kobject_bearing(o) || !t ||
		    t->type == SYM_ARRAY || own_container(call, arg))
			continue;
		undo_name(how + 6, undo, sizeof(undo));
		f = finding_new("never-unregistered", call->pos, sym_name(o));
		f->unload = 1;
		finding_message(f, "'%s' (%s) lives in module data and %s() keeps it until %s() takes it back, but nothing before the unload does: after rmmod the core still reaches it (a list walk, a lookup, a callback through it) in freed memory; take it back with %s() in the exit path",
				sym_name(o), type_name(o), name, undo, undo);
		finding_unless(f, KEY_UNREGISTERED_OBJ "%s", sym_name(o));
		finding_report(f);
	} END_FOR_EACH_PTR(arg);
}

const struct modlife_check check_kept = {
	.modes = CHECK_RULES,
	.name = "kept",
	.call = kept_call,
};
