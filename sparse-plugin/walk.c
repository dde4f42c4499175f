// SPDX-License-Identifier: GPL-2.0-only
/*
 * One walk over the evaluated AST of a translation unit: every function
 * body and every initializer of a static-storage object, calling each
 * registered check's hooks. No flow analysis: the rules need declarations,
 * initializers, calls and assignments only.
 */
#include <string.h>
#include "evaluate.h"
#include "scope.h"
#include "modlife.h"

/* the hook tables of this run, in order (main.c picks them) */
static const struct modlife_check *const *checks;

#define FOR_EACH_CHECK(c) \
	for (const struct modlife_check *const *c##p = checks, *c; \
	     (c = *c##p) != NULL; c##p++)

static void walk_stmt(struct walk_ctx *ctx, struct statement *stmt);

/* "struct timer_list *t = &p->timer;": t names p->timer from now on */
static void alias_decl(struct symbol *local)
{
	struct expression lv = { .type = EXPR_PREOP, .op = '*' };
	struct expression sym = { .type = EXPR_SYMBOL };

	if (!local->initializer)
		return;
	sym.symbol = local;
	lv.unop = &sym;
	alias_set(&lv, local->initializer);
}
static void walk_expr(struct walk_ctx *ctx, struct expression *expr);

static void add_object(struct symbol *sym)
{
	struct symbol *s;

	FOR_EACH_PTR(tu.objects, s) {
		if (s == sym)
			return;
	} END_FOR_EACH_PTR(s);
	add_symbol(&tu.objects, sym);
}

static void run_call_hooks(const struct call_hook *h, struct walk_ctx *ctx,
			   struct expression *call, struct symbol *callee)
{
	const char *name = callee_name(callee);
	const struct api_row *row;

	if (!name || !ctx->fn)
		return;
	for (; h->fn; h++) {
		if (h->name && !strcmp(h->name, name)) {
			h->fn(ctx, call, name, NULL);
			return;
		}
		row = h->cls ? api_find(h->cls, name) : NULL;
		if (row) {
			h->fn(ctx, call, name, row);
			return;
		}
	}
}

static void walk_call(struct walk_ctx *ctx, struct expression *expr)
{
	struct symbol *callee = expr_symbol(expr->fn);
	struct expression *arg;

	if (callee && callee->definition)
		callee = callee->definition;
	FOR_EACH_CHECK(c) {
		if (c->call)
			c->call(ctx, expr, callee);
		if (c->call_hooks)
			run_call_hooks(c->call_hooks, ctx, expr, callee);
	}
	walk_expr(ctx, expr->fn);
	FOR_EACH_PTR(expr->args, arg) {
		walk_expr(ctx, arg);
	} END_FOR_EACH_PTR(arg);
}

static void walk_decls(struct walk_ctx *ctx, struct symbol_list *list)
{
	struct symbol *sym;

	FOR_EACH_PTR(list, sym) {
		if (is_static_object(sym)) {
			/* a function-local static lives in module data */
			add_object(sym);
			continue;
		}
		FOR_EACH_CHECK(c)
			if (c->decl)
				c->decl(ctx, sym);
		alias_decl(sym);
		if (sym->initializer)
			walk_expr(ctx, sym->initializer);
	} END_FOR_EACH_PTR(sym);
}

static void walk_expr(struct walk_ctx *ctx, struct expression *expr)
{
	struct expression *e;

	if (!expr)
		return;
	switch (expr->type) {
	case EXPR_CALL:
		walk_call(ctx, expr);
		return;
	case EXPR_ASSIGNMENT:
		FOR_EACH_CHECK(c)
			if (c->assign)
				c->assign(ctx, expr);
		/* after the checks: "p = &x" names x from the next use on */
		alias_set(expr->left, expr->right);
		/* fallthrough */
	case EXPR_BINOP:
	case EXPR_COMMA:
	case EXPR_COMPARE:
	case EXPR_LOGICAL:
		walk_expr(ctx, expr->left);
		walk_expr(ctx, expr->right);
		return;
	case EXPR_PREOP:
	case EXPR_POSTOP:
		walk_expr(ctx, expr->unop);
		return;
	case EXPR_STATEMENT:
		walk_stmt(ctx, expr->statement);
		return;
	case EXPR_CAST:
	case EXPR_FORCE_CAST:
	case EXPR_IMPLIED_CAST:
		walk_expr(ctx, expr->cast_expression);
		return;
	case EXPR_CONDITIONAL:
	case EXPR_SELECT:
		walk_expr(ctx, expr->conditional);
		walk_expr(ctx, expr->cond_true);
		walk_expr(ctx, expr->cond_false);
		return;
	case EXPR_SLICE:
		walk_expr(ctx, expr->base);
		return;
	case EXPR_INITIALIZER:
		FOR_EACH_PTR(expr->expr_list, e) {
			walk_expr(ctx, e);
		} END_FOR_EACH_PTR(e);
		return;
	case EXPR_POS:
		walk_expr(ctx, expr->init_expr);
		return;
	case EXPR_IDENTIFIER:
		walk_expr(ctx, expr->ident_expression);
		return;
	case EXPR_INDEX:
		walk_expr(ctx, expr->idx_expression);
		return;
	case EXPR_SYMBOL:
		if (!expr->symbol)	/* an undefined identifier */
			return;
		FOR_EACH_CHECK(c)
			if (c->symref)
				c->symref(ctx, expr->symbol);
		return;
	default:
		return;
	}
}

/* walk @stmt as code that runs only on some paths (@id: which branch) */
static void walk_branch(struct walk_ctx *ctx, struct statement *stmt,
			const void *id)
{
	if (!stmt)
		return;
	if (ctx->br.n < MAX_BRANCH)
		ctx->br.b[ctx->br.n] = id;
	ctx->br.n++;
	walk_stmt(ctx, stmt);
	ctx->br.n--;
}

/*
 * Is every branch around @outer's statement also around @inner's: does
 * code at @outer run whenever code at @inner (earlier in one function)
 * has run and the function goes on? Too deep to tell: no.
 */
int branches_enclose(const struct branches *outer,
		     const struct branches *inner)
{
	int i;

	if (outer->n > MAX_BRANCH || outer->n > inner->n)
		return 0;
	for (i = 0; i < outer->n; i++)
		if (outer->b[i] != inner->b[i])
			return 0;
	return 1;
}

static void walk_stmt(struct walk_ctx *ctx, struct statement *stmt)
{
	struct statement *s;

	if (!stmt)
		return;
	switch (stmt->type) {
	case STMT_DECLARATION:
		walk_decls(ctx, stmt->declaration);
		return;
	case STMT_EXPRESSION:
		walk_expr(ctx, stmt->expression);
		return;
	case STMT_COMPOUND:
		FOR_EACH_PTR(stmt->stmts, s) {
			walk_stmt(ctx, s);
		} END_FOR_EACH_PTR(s);
		return;
	case STMT_IF:
		walk_expr(ctx, stmt->if_conditional);
		walk_branch(ctx, stmt->if_true, stmt->if_true);
		walk_branch(ctx, stmt->if_false, stmt->if_false);
		return;
	case STMT_RETURN:
		walk_expr(ctx, stmt->ret_value);
		FOR_EACH_CHECK(c)
			if (c->ret)
				c->ret(ctx, stmt);
		return;
	case STMT_SWITCH:
		walk_expr(ctx, stmt->switch_expression);
		walk_branch(ctx, stmt->switch_statement, stmt);
		return;
	case STMT_CASE:
		walk_stmt(ctx, stmt->case_statement);
		return;
	case STMT_LABEL:
		walk_stmt(ctx, stmt->label_statement);
		return;
	case STMT_ITERATOR:
		walk_decls(ctx, stmt->iterator_syms);
		walk_stmt(ctx, stmt->iterator_pre_statement);
		walk_expr(ctx, stmt->iterator_pre_condition);
		walk_branch(ctx, stmt->iterator_statement, stmt);
		walk_stmt(ctx, stmt->iterator_post_statement);
		walk_expr(ctx, stmt->iterator_post_condition);
		return;
	case STMT_GOTO:
		walk_expr(ctx, stmt->goto_expression);
		return;
	default:
		return;
	}
}

void walk_initializer(struct walk_ctx *ctx, struct expression *init)
{
	walk_expr(ctx, init);
}

/* module_init/module_exit with -DMODULE define __inittest/__exittest. */
static struct symbol *testfn_target(const char *name)
{
	struct symbol *sym = lookup_symbol(built_in_ident(name), NS_SYMBOL);
	struct symbol *base;
	struct statement *stmt, *first;

	if (!sym)
		return NULL;
	base = strip_type(sym);
	if (!base || base->type != SYM_FN)
		return NULL;
	stmt = base->stmt ? base->stmt : base->inline_stmt;
	if (!stmt)
		return NULL;
	if (stmt->type == STMT_COMPOUND) {
		first = first_ptr_list((struct ptr_list *)stmt->stmts);
		stmt = first;
	}
	if (!stmt || stmt->type != STMT_RETURN)
		return NULL;
	sym = expr_symbol(stmt->ret_value);
	if (sym && sym->definition)
		sym = sym->definition;
	return sym;
}

/* Built in, module_exit(fn) is "static exitcall_t __exitcall_fn = fn". */
static void builtin_initcalls(struct symbol *sym)
{
	const char *name = sym_name(sym);
	struct symbol *target;

	if (strncmp(name, "__exitcall_", 11) && strncmp(name, "__initcall_", 11))
		return;
	target = expr_symbol(sym->initializer);
	if (target && target->definition)
		target = target->definition;
	if (!target)
		return;
	if (name[2] == 'e' && !tu.exit_fn)
		tu.exit_fn = target;
	else if (name[2] == 'i' && !tu.init_fn)
		tu.init_fn = target;
}

static int in_list(struct symbol_list *list, struct symbol *sym)
{
	struct symbol *s;

	FOR_EACH_PTR(list, s) {
		if (s == sym)
			return 1;
	} END_FOR_EACH_PTR(s);
	return 0;
}

void walk_tu(struct symbol_list *syms,
	     const struct modlife_check *const *hooks)
{
	struct symbol_list *superseded = NULL;
	struct symbol *sym;
	struct walk_ctx ctx = { 0 };

	checks = hooks;
	tu.symbols = syms;
	tu.init_fn = testfn_target("__inittest");
	tu.exit_fn = testfn_target("__exittest");

	/*
	 * Definitions only: a tentative "static T x;" before a "T x = {..}"
	 * is a separate symbol that the later one names as same_symbol
	 */
	FOR_EACH_PTR(syms, sym) {
		struct symbol *p;

		if (sym->initializer)
			for (p = sym->same_symbol; p; p = p->same_symbol)
				add_symbol(&superseded, p);
	} END_FOR_EACH_PTR(sym);
	FOR_EACH_PTR(syms, sym) {
		if (!is_own_symbol(sym))
			continue;
		if (ml_is_function(sym)) {
			if (strip_type(sym)->stmt)
				add_symbol(&tu.functions, sym);
			continue;
		}
		if (!is_static_object(sym))
			continue;
		if (!sym->initializer && (in_list(superseded, sym) ||
		    (sym->definition && sym->definition != sym &&
		     sym->definition->initializer)))
			continue;
		builtin_initcalls(sym);
		add_object(sym);
	} END_FOR_EACH_PTR(sym);

	/*
	 * sparse keeps "static inline" definitions out of the list it
	 * returns; they are in the file scope, still open until the next file
	 */
	FOR_EACH_PTR(file_scope->symbols, sym) {
		struct symbol *def = sym->definition ? sym->definition : sym;

		if (!ml_is_function(def) || !strip_type(def)->inline_stmt ||
		    !is_own_symbol(def) || in_list(tu.functions, def))
			continue;
		if (!strip_type(def)->stmt) {
			/* an evaluated copy of the body, as for &fn */
			struct symbol_list *one = NULL;

			add_symbol(&one, def);
			def->evaluated = 0;
			evaluate_symbol_list(one);
			free_ptr_list(&one);
		}
		if (strip_type(def)->stmt)
			add_symbol(&tu.functions, def);
	} END_FOR_EACH_PTR(sym);

	FOR_EACH_CHECK(c)
		if (c->begin_tu)
			c->begin_tu();

	FOR_EACH_PTR(tu.functions, sym) {
		ctx.fn = sym;
		ctx.obj = NULL;
		FOR_EACH_CHECK(c)
			if (c->function)
				c->function(sym);
		walk_decls(&ctx, sym->symbol_list);
		walk_stmt(&ctx, strip_type(sym)->stmt);
	} END_FOR_EACH_PTR(sym);

	/* objects, including static locals found in the bodies above */
	FOR_EACH_PTR(tu.objects, sym) {
		ctx.fn = NULL;
		ctx.obj = sym;
		FOR_EACH_CHECK(c)
			if (c->object)
				c->object(sym);
		walk_expr(&ctx, sym->initializer);
	} END_FOR_EACH_PTR(sym);

	FOR_EACH_CHECK(c)
		if (c->end_tu)
			c->end_tu();
	free_ptr_list(&superseded);
}
