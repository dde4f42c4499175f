// SPDX-License-Identifier: GPL-2.0-only
/*
 * Modules that keep themselves loaded: try_module_get(THIS_MODULE) or
 * __module_get(THIS_MODULE) on the straight path of a function (not
 * under a branch), and whether the module ever calls
 * module_put(THIS_MODULE). The link step decides: a get in the init or a
 * bind callback (kb/bind-members.txt) with no put anywhere in the module
 * means the module is never unloaded once it has bound, and findings
 * that need an unload do not stand.
 */
#include <string.h>
#include "modlife.h"

static void pinned_get(struct walk_ctx *ctx, struct expression *call,
		       const char *name, const struct api_row *row)
{
	if (!ctx->fn || ctx->br.n || !tu.is_module ||
	    !is_this_module(first_expression(call->args)))
		return;
	fact_begin("self_get");
	fact_str("fn", sym_name(ctx->fn));
	fact_pos(call->pos);
	fact_end();
}

static void pinned_put(struct walk_ctx *ctx, struct expression *call,
		       const char *name, const struct api_row *row)
{
	if (!is_this_module(first_expression(call->args)))
		return;
	/* a table whose callback puts the module manages its own count */
	if (ctx->fn)
		provide(KEY_SELF_PUT_FN "%s", sym_name(ctx->fn));
	fact_begin("self_put");
	fact_pos(call->pos);
	fact_end();
}

static const struct call_hook pinned_hooks[] = {
	{ "try_module_get", NULL, pinned_get },
	{ "__module_get", NULL, pinned_get },
	{ "module_put", NULL, pinned_put },
	{ NULL }
};

const struct modlife_check track_pinned = {
	.name = "pinned",
	.modes = CHECK_RULES,
	.call_hooks = pinned_hooks,
};
