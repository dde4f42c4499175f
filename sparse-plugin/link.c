// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decision: which candidate findings stand, given facts. It runs for
 * one translation unit under kbuild (SCOPE_FILE: its own facts) and for
 * every file of a module under "modlife scan" and "modlife link"
 * (SCOPE_MODULE, through --modlife-link); there is no other copy.
 *
 * A finding fact names keys: "unless" (dropped when a key is provided),
 * "requires" (kept only when each is provided; "a|b": either) and
 * "unload" (needs a module that can be unloaded). Keys are provided by
 * "provide" facts, derived by "implies" facts, and by reachability in
 * the call graph (graph.c): "provide_if_reached" when the exit function
 * reaches a function, "provide_if_may_reach" when it may run before the
 * unload, "provide_unless_exported" unless an exported function reaches
 * it (or, in a module that exports anything, unless its init does),
 * "provide_unless_init_reaches" unless the init function reaches it,
 * and "exit-reaches:FN" for each function the exit path reaches.
 * "path_to" names the function whose exit path fills %PATH%. Of a
 * file's standing candidates of one rule with the same "once" (the arms
 * of one timer), the first is reported. A file that did not parse
 * wholly (an "error" fact in its unit) has its findings withheld.
 * A module that keeps itself loaded (track_pinned.c: a THIS_MODULE get
 * in its init or a bind callback, no THIS_MODULE put anywhere) is
 * treated as one without an exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "modlife.h"
#include "strmap.h"

struct linker {
	struct strmap keys;
	struct strmap impl;		/* if-key -> then-keys (ivec of facts) */
	const struct factset *set;
	char **exits;
	int nexits, exits_cap;
	int has_init;
	struct strmap defined;		/* non-static, not exported here */
	struct strmap exported;
	struct strmap elsewhere;	/* EXPORT_SYMBOL() of any file */
	struct strmap binds;		/* init and bind callbacks */
	char **inits;
	int ninits, inits_cap;
	struct strmap self_gets;	/* functions taking THIS_MODULE */
	int self_put;
	int pinned;			/* keeps itself loaded */
};

/* A key and, breadth first, whatever it implies. */
static void add_key(struct linker *l, const char *key)
{
	const char **queue = NULL;
	int n = 0, cap = 0, i, j;

	if (!key || strmap_get(&l->keys, key))
		return;
	strmap_add(&l->keys, key);
	queue = xgrow(queue, &cap, 1, sizeof(*queue));
	queue[n++] = key;
	for (i = 0; i < n; i++) {
		void **slot = strmap_get(&l->impl, queue[i]);
		struct ivec *v = slot ? *slot : NULL;

		for (j = 0; v && j < v->n; j++) {
			const char *then = fact_get(&l->set->v[v->v[j]],
						    "then");

			if (!then || strmap_get(&l->keys, then))
				continue;
			strmap_add(&l->keys, then);
			queue = xgrow(queue, &cap, n + 1, sizeof(*queue));
			queue[n++] = then;
		}
	}
	free(queue);
}

static int has_key(const struct linker *l, const char *key)
{
	return strmap_get(&l->keys, key) != NULL;
}

/* "a|b|!c": a or b is provided, or c is not. */
static int any_provided(const struct linker *l, const char *alts)
{
	const char *p = alts, *bar;
	char buf[1024];

	for (;; p = bar + 1) {
		size_t n;

		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		if (n < sizeof(buf)) {
			memcpy(buf, p, n);
			buf[n] = 0;
			if (buf[0] == '!' ? !has_key(l, buf + 1) :
			    has_key(l, buf))
				return 1;
		}
		if (!bar)
			return 0;
	}
}

static int is_bind_member(const char *member)
{
	int i;

	for (i = 0; member && bind_members[i]; i++)
		if (!strcmp(member, bind_members[i]))
			return 1;
	return 0;
}

/* Facts into the graph and the linker's tables. */
static void ingest(struct linker *l, const struct fact *f, int index)
{
	const char *k = f->kind;

	if (!strcmp(k, "call")) {
		graph_call(fact_get(f, "from"), fact_get(f, "to"));
	} else if (!strcmp(k, "icall")) {
		graph_icall(fact_get(f, "from"), fact_get(f, "struct"),
			    fact_get(f, "member"));
	} else if (!strcmp(k, "unreg_driver")) {
		graph_unreg(fact_get(f, "from"), fact_get(f, "driver"));
	} else if (!strcmp(k, "store")) {
		graph_store(fact_get(f, "struct"), fact_get(f, "member"),
			    fact_get(f, "fn"), fact_get(f, "obj"));
		if (fact_get(f, "from"))
			graph_passes(fact_get(f, "from"), fact_get(f, "fn"));
		if (is_bind_member(fact_get(f, "member")) && fact_get(f, "fn"))
			strmap_add(&l->binds, fact_get(f, "fn"));
	} else if (!strcmp(k, "self_get") && fact_get(f, "fn")) {
		strmap_add(&l->self_gets, fact_get(f, "fn"));
	} else if (!strcmp(k, "self_put")) {
		l->self_put = 1;
	} else if (!strcmp(k, "waits")) {
		graph_waits(fact_get(f, "from"), fact_get(f, "key"));
	} else if (!strcmp(k, "runs")) {
		graph_runs(fact_get(f, "key"), fact_get(f, "fn"));
	} else if (!strcmp(k, "queued")) {
		graph_queued(fact_get(f, "item"), fact_get(f, "on"));
	} else if (!strcmp(k, "fn") && fact_get(f, "name")) {
		if (fact_get_int(f, "exported")) {
			if (!strmap_get(&l->exported, fact_get(f, "name"))) {
				strmap_add(&l->exported, fact_get(f, "name"));
				graph_export(fact_get(f, "name"));
			}
		} else if (!fact_get_int(f, "static")) {
			strmap_add(&l->defined, fact_get(f, "name"));
		}
	} else if (!strcmp(k, "export") && fact_get(f, "name")) {
		strmap_add(&l->elsewhere, fact_get(f, "name"));
	} else if (!strcmp(k, "module_exit") && fact_get(f, "fn")) {
		l->exits = xgrow(l->exits, &l->exits_cap, l->nexits + 1,
				 sizeof(*l->exits));
		l->exits[l->nexits++] = (char *)fact_get(f, "fn");
	} else if (!strcmp(k, "module_init")) {
		l->has_init = 1;
		if (fact_get(f, "fn")) {
			strmap_add(&l->binds, fact_get(f, "fn"));
			l->inits = xgrow(l->inits, &l->inits_cap,
					 l->ninits + 1, sizeof(*l->inits));
			l->inits[l->ninits++] = (char *)fact_get(f, "fn");
		}
	} else if (!strcmp(k, "implies") && fact_get(f, "if")) {
		ivec_push(strmap_ivec(&l->impl, fact_get(f, "if")), index);
	}
}

/*
 * A function EXPORT_SYMBOL()ed by another file of the module than the
 * one defining it (fs/dlm: lockspace.c's interface, exported in main.c).
 */
static void exports_elsewhere(struct linker *l)
{
	unsigned long i;

	for (i = 0; i < l->defined.cap; i++) {
		const char *name = l->defined.v[i].key;

		if (name && strmap_get(&l->elsewhere, name) &&
		    !strmap_get(&l->exported, name))
			graph_export(name);
	}
}

/* Taken in the init or at bind, never given back: never unloaded. */
static int keeps_itself_loaded(const struct linker *l)
{
	unsigned long i;

	if (l->self_put)
		return 0;
	for (i = 0; i < l->self_gets.cap; i++) {
		const char *fn = l->self_gets.v[i].key;

		if (fn && strmap_get(&l->binds, fn))
			return 1;
	}
	return 0;
}

static void cond_keys(struct linker *l, const char *kind,
		      const struct reach *r, int want)
{
	int i;

	for (i = 0; i < l->set->n; i++) {
		const struct fact *f = &l->set->v[i];

		if (!strcmp(f->kind, kind) &&
		    reach_has(r, fact_get(f, "fn")) == want)
			add_key(l, fact_get(f, "key"));
	}
}

/*
 * "provide_unless_exported": the module's own objects. Not when an
 * exported function reaches the registration (made for a dependent);
 * and in a library (a module that exports anything), only when its init
 * reaches it: a library's objects made at a bind, from a work item or
 * through a callback are made for its users (usbserial's ports, mmc's
 * cards, the firmware loader's fallback devices), which pin it.
 */
static void own_keys(struct linker *l, const struct reach *exports,
		     const struct reach *init)
{
	int i, library = graph_exports() > 0;

	for (i = 0; i < l->set->n; i++) {
		const struct fact *f = &l->set->v[i];
		const char *fn = fact_get(f, "fn");

		if (strcmp(f->kind, "provide_unless_exported") ||
		    reach_has(exports, fn) || (library && !reach_has(init, fn)))
			continue;
		add_key(l, fact_get(f, "key"));
	}
}

/* why a candidate does not stand, for --modlife-explain */
struct why {
	const char *what;	/* what dropped it */
	const char *key;
	const char *detail;	/* said after it, in parentheses */
};

static int dropped(struct why *why, const char *what, const char *key)
{
	why->what = what;
	why->key = key;
	why->detail = NULL;
	return 0;
}

static int stands(const struct linker *l, const struct fact *f,
		  const struct reach *exit, enum link_scope scope,
		  struct why *why)
{
	const char **keys;
	int i, n;

	keys = fact_get_list(f, "unless", &n);
	for (i = 0; i < n; i++)
		if (has_key(l, keys[i]))
			return dropped(why, "unless key provided", keys[i]);
	keys = fact_get_list(f, "requires", &n);
	for (i = 0; i < n; i++)
		if (!any_provided(l, keys[i]))
			return dropped(why, "required key not provided",
				       keys[i]);
	if (fact_get(f, "path_to") && !reach_has(exit, fact_get(f, "path_to")))
		return dropped(why, "no exit path reaches",
			       fact_get(f, "path_to"));
	/*
	 * Nothing to unload without an exit function: a module with an
	 * init and no exit cannot be unloaded. One file alone cannot tell
	 * when it has neither (another file may hold the exit).
	 */
	if (fact_get_int(f, "unload") && !l->nexits &&
	    (scope == SCOPE_MODULE || l->has_init))
		return dropped(why, "needs an unload; the module has no exit",
			       NULL);
	if (fact_get_int(f, "unload") && l->pinned)
		return dropped(why, "needs an unload; the module pins itself",
			       NULL);
	return 1;
}

/*
 * Where link_decide() says why each candidate that does not stand was
 * dropped ("FILE:LINE:COL: RULE: dropped: WHY 'KEY'"), or NULL.
 */
FILE *link_explain;

static void explain(const struct fact *f, const struct why *why)
{
	fprintf(link_explain, "%s:%ld:%ld: %s: dropped: %s",
		fact_get(f, "file") ?: "?", fact_get_int(f, "line"),
		fact_get_int(f, "col"), fact_get(f, "rule") ?: "?", why->what);
	if (why->key)
		fprintf(link_explain, " '%s'", why->key);
	if (why->detail)
		fprintf(link_explain, " (%s)", why->detail);
	fputc('\n', link_explain);
}

static char *fill_path(const char *msg, const struct reach *exit,
		       const char *fn)
{
	const char *at = fn ? strstr(msg, "%PATH%") : NULL;
	char path[1024], *out;
	size_t n;

	if (!at)
		return ml_strdup(msg);
	reach_path(exit, fn, path, sizeof(path));
	n = strlen(msg) + strlen(path) + 1;
	out = malloc(n);
	if (!out)
		out_of_memory();
	snprintf(out, n, "%.*s%s%s", (int)(at - msg), msg, path, at + 6);
	return out;
}

/*
 * The translation units: unit[i] is the index of the "tu" fact that
 * begins fact i's unit (-1: none), err[i] its unit's parse error or NULL.
 */
struct units {
	int *unit;
	const struct fact **err;
};

static void find_units(const struct factset *set, struct units *u)
{
	int i, cur = -1;

	u->unit = calloc(set->n ?: 1, sizeof(*u->unit));
	u->err = calloc(set->n ?: 1, sizeof(*u->err));
	if (!u->unit || !u->err)
		out_of_memory();
	for (i = 0; i < set->n; i++) {
		const struct fact *f = &set->v[i];

		if (!strcmp(f->kind, "tu"))
			cur = i;
		u->unit[i] = cur;
		if (!strcmp(f->kind, "error") && cur >= 0 && !u->err[cur])
			u->err[cur] = f;
	}
	/* err[] of a "tu" fact is its unit's: give it to every member */
	for (i = 0; i < set->n; i++)
		if (u->unit[i] >= 0 && u->unit[i] != i)
			u->err[i] = u->err[u->unit[i]];
}

/*
 * A standing candidate with a "once" (the arms of one timer in a file):
 * whether one of its unit's with the same rule and once stood before.
 */
static int stood_before(struct strmap *seen, const struct fact *f, int unit)
{
	const char *once = fact_get(f, "once");
	char *k;
	size_t n;
	int dup;

	if (!once)
		return 0;
	n = strlen(once) + strlen(fact_get(f, "rule") ?: "") + 32;
	k = malloc(n);
	if (!k)
		out_of_memory();
	snprintf(k, n, "%d %s %s", unit, fact_get(f, "rule") ?: "", once);
	dup = strmap_get(seen, k) != NULL;
	if (!dup)
		strmap_add(seen, k);
	free(k);
	return dup;
}

void link_decide(const struct factset *set, enum link_scope scope,
		 void (*out)(const struct verdict *v, void *arg), void *arg)
{
	struct linker l;
	struct reach *exit, *may, *exports, *init;
	struct strmap once = { 0 };
	struct units u;
	struct why why;
	int i;

	memset(&l, 0, sizeof(l));
	l.set = set;
	find_units(set, &u);
	graph_reset();
	for (i = 0; i < set->n; i++)
		ingest(&l, &set->v[i], i);
	exports_elsewhere(&l);
	l.pinned = keeps_itself_loaded(&l);
	for (i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].kind, "provide"))
			add_key(&l, fact_get(&set->v[i], "key"));

	exit = graph_reach((const char *const *)l.exits, l.nexits,
			   REACH_EXIT);
	may = graph_reach((const char *const *)l.exits, l.nexits, REACH_MAY);
	exports = graph_reach(NULL, 0, REACH_EXPORTS);
	init = graph_reach((const char *const *)l.inits, l.ninits, REACH_EXIT);
	cond_keys(&l, "provide_if_reached", exit, 1);
	cond_keys(&l, "provide_if_may_reach", may, 1);
	own_keys(&l, exports, init);
	cond_keys(&l, "provide_unless_export_reaches", exports, 0);
	cond_keys(&l, "provide_unless_init_reaches", init, 0);
	for (i = 0; i < reach_count(exit); i++) {
		char *k;
		size_t n = strlen(reach_fn(exit, i)) + 16;

		k = malloc(n);
		if (!k)
			out_of_memory();
		snprintf(k, n, KEY_EXIT_REACHES "%s", reach_fn(exit, i));
		add_key(&l, k);
		free(k);
	}

	for (i = 0; i < set->n; i++) {
		const struct fact *f = &set->v[i];
		struct verdict v;
		char *msg;

		if (strcmp(f->kind, "finding"))
			continue;
		memset(&v, 0, sizeof(v));
		if (!stands(&l, f, exit, scope, &why)) {
			if (link_explain)
				explain(f, &why);
			continue;
		} else if (u.err[i]) {
			/*
			 * A partial AST may lack what discharges a finding
			 * (the owner assignment, the stop in exit): the other
			 * files still count, and their keys, but not this
			 * file's own findings. Said, so that they are not
			 * lost unseen.
			 */
			v.withheld = fact_get(u.err[i], "message") ?: "?";
			if (link_explain) {
				dropped(&why, "its file did not parse wholly",
					NULL);
				why.detail = v.withheld;
				explain(f, &why);
			}
		} else if (stood_before(&once, f, u.unit[i])) {
			if (link_explain) {
				dropped(&why, "an earlier one of the file stands",
					fact_get(f, "once"));
				explain(f, &why);
			}
			continue;
		}
		msg = fill_path(fact_get(f, "message") ?: "", exit,
				fact_get(f, "path_to"));
		v.finding = f;
		v.rule = fact_get(f, "rule") ?: "?";
		v.file = fact_get(f, "file") ?: "?";
		v.line = fact_get_int(f, "line");
		v.col = fact_get_int(f, "col");
		v.message = msg;
		out(&v, arg);
		free(msg);
	}
	free(u.unit);
	free(u.err);
	strmap_free(&once, NULL);
	reach_free(exit);
	reach_free(may);
	reach_free(exports);
	reach_free(init);
	free(l.inits);
	free(l.exits);
	strmap_free(&l.keys, NULL);
	strmap_free(&l.impl, ivec_free);
	strmap_free(&l.defined, NULL);
	strmap_free(&l.exported, NULL);
	strmap_free(&l.elsewhere, NULL);
	strmap_free(&l.binds, NULL);
	strmap_free(&l.self_gets, NULL);
	graph_reset();
}

/* ---- --modlife-link: facts files in, standing findings out ---- */

/*
 * A key's declared prefix (kb/keys.tsv, generated into keys.c): the
 * longest one that the key begins with, where a prefix that does not
 * end in ':' is a whole key and matches only itself. NULL: undeclared.
 */
static const char *key_prefix(const char *key, size_t len)
{
	const char *best = NULL;
	size_t n, best_n = 0;
	int i;

	for (i = 0; key_prefixes[i]; i++) {
		n = strlen(key_prefixes[i]);
		if (n > len || strncmp(key, key_prefixes[i], n) ||
		    (key_prefixes[i][n - 1] != ':' && n != len))
			continue;
		if (n > best_n) {
			best = key_prefixes[i];
			best_n = n;
		}
	}
	return best;
}

/*
 * A key that a fact provides or names, of no declared prefix: a check
 * and kb/keys.tsv disagree. Said on stderr once for each beginning (up
 * to and including the first ':'), whatever the module; the decision is
 * not changed. @alts: "a|b" is either key (a "requires" key).
 */
static void check_key(const char *key, int alts)
{
	static struct strmap warned;
	const char *end;
	char group[128];
	size_t len, n;

	for (; key; key = end ? end + 1 : NULL) {
		end = alts ? strchr(key, '|') : NULL;
		if (alts && *key == '!')
			key++;	/* "!a": a not provided */
		len = end ? (size_t)(end - key) : strlen(key);
		if (key_prefix(key, len))
			continue;
		n = strcspn(key, ":");
		n = n < len ? n + 1 : len;
		snprintf(group, sizeof(group), "%.*s", (int)n, key);
		if (strmap_get(&warned, group))
			continue;
		strmap_add(&warned, group);
		fprintf(stderr, "modlife-sparse: warning: key '%.*s' begins with no prefix that kb/keys.tsv declares (said once for '%s')\n",
			(int)len, key, group);
	}
}

static void check_keys(const struct factset *set)
{
	static const char *const names[] = { "key", "if", "then", NULL };
	static const char *const lists[] = { "unless", "requires", NULL };
	const char **keys;
	int i, j, k, n;

	for (i = 0; i < set->n; i++) {
		const struct fact *f = &set->v[i];

		if (strcmp(f->kind, "provide") && strcmp(f->kind, "implies") &&
		    strncmp(f->kind, "provide_", 8) &&
		    strcmp(f->kind, "finding"))
			continue;
		for (j = 0; names[j]; j++)
			check_key(fact_get(f, names[j]), 0);
		for (j = 0; lists[j]; j++) {
			keys = fact_get_list(f, lists[j], &n);
			for (k = 0; k < n; k++)
				check_key(keys[k], j == 1);
		}
	}
}

static void print_json(const struct verdict *v, void *arg)
{
	FILE *o = arg;

	if (v->withheld)
		return;		/* the front end reports the file's error */
	fputs("{\"k\":\"finding\",\"rule\":", o);
	json_string(o, v->rule);
	fputs(",\"file\":", o);
	json_string(o, v->file);
	fprintf(o, ",\"line\":%ld,\"col\":%ld,\"message\":", v->line, v->col);
	json_string(o, v->message);
	fputs(",\"object\":", o);
	json_string(o, fact_get(v->finding, "object"));
	fprintf(o, ",\"experimental\":%d}\n", rule_is_experimental(v->rule));
}

/*
 * A facts file, only when it is a regular file: a FIFO would block the
 * open (hence O_NONBLOCK) and a device would never end the read.
 */
static FILE *open_facts(const char *path, const char **why)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *in = NULL;

	*why = NULL;
	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	/* O_NONBLOCK does not change how a regular file reads */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (!(in = fdopen(fd, "r")))
		*why = strerror(errno);
	if (!in)
		close(fd);
	return in;
}

/*
 * "--modlife-link FILE..." decides the facts of all FILEs as one module
 * ("-": standard input). With no FILE, standard input holds modules one
 * after another, each ended by {"k":"end"}: each gets its findings, an
 * {"k":"error"} line if some of its lines were no facts (the decision
 * may miss what they said), and an {"k":"end"} line, so that one process
 * links a whole scan. "--modlife-explain" first: why each candidate that
 * does not stand was dropped, on stderr.
 */
int link_main(int argc, char **argv)
{
	struct factset set = { 0 };
	char why[128], msg[256];
	int i, bad = 0, r;

	if (argc > 0 && !strcmp(argv[0], "--modlife-explain")) {
		link_explain = stderr;
		argc--;
		argv++;
	}
	if (argc > 0) {
		for (i = 0; i < argc; i++) {
			const char *why = NULL;
			FILE *in = strcmp(argv[i], "-") ?
				   open_facts(argv[i], &why) : stdin;

			if (!in) {
				fprintf(stderr, "modlife-sparse: cannot read facts file %s: %s\n",
					argv[i], why);
				return 2;
			}
			bad += facts_read(&set, in, argv[i], 0, NULL, 0);
			if (in != stdin)
				fclose(in);
		}
		check_keys(&set);
		link_decide(&set, SCOPE_MODULE, print_json, stdout);
		factset_clear(&set);
		return bad ? 2 : 0;
	}
	while ((r = facts_read(&set, stdin, NULL, 1, why, sizeof(why))) >= 0) {
		bad += r;
		check_keys(&set);
		link_decide(&set, SCOPE_MODULE, print_json, stdout);
		factset_clear(&set);
		if (r) {
			fputs("{\"k\":\"error\",\"message\":", stdout);
			snprintf(msg, sizeof(msg), "malformed facts: %d line%s skipped (%s)",
				 r, r == 1 ? "" : "s", why);
			json_string(stdout, msg);
			fputs("}\n", stdout);
		}
		fputs("{\"k\":\"end\"}\n", stdout);
		fflush(stdout);
	}
	return bad ? 2 : 0;
}
