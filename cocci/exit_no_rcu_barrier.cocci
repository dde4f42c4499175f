// SPDX-License-Identifier: GPL-2.0-only
/// Find modules that queue RCU callbacks but do not wait for them at exit
///
/// call_rcu(head, fn) and call_srcu(ssp, head, fn) only queue fn; it runs
/// a grace period later.  synchronize_rcu() waits for a grace period, not
/// for the callbacks already queued: only rcu_barrier() (srcu_barrier(ssp)
/// for SRCU) does.  A module whose exit function returns while such a
/// callback is pending has its text freed before the callback runs, and
/// the RCU core then jumps into freed memory.  Reported: call_rcu() and
/// call_srcu() whose callback is a function defined in the same file, in
/// a file with a module_exit(fn), when neither fn nor a function of the
/// same file that fn calls directly contains rcu_barrier() or an exported
/// core function that runs it (unregister_pernet_subsys(),
/// target_backend_unregister(), ...: the "barrier:" rows of
/// kb/owner-reads.tsv, as the checker takes them); for call_srcu():
/// srcu_barrier() with the same srcu_struct expression.
///
/// Patch mode adds rcu_barrier(); (srcu_barrier(ssp);) as the last
/// statement of the exit function.  The barrier must come after the last
/// call_rcu() can happen, and before anything the callback uses is freed:
/// when the callback frees into a kmem_cache that the exit function
/// destroys, move the barrier up before kmem_cache_destroy(); an early
/// return in the exit function also skips it.
/// srcu_barrier() is only added when the srcu_struct is a variable of the
/// file (call_srcu(&ssp, ...) with ssp defined at file scope); otherwise
/// the call is only reported.
///
//# False positives: exit paths that wait through another callee that
//# calls rcu_barrier() itself (for example kmem_cache_destroy() of a
//# SLAB_TYPESAFE_BY_RCU cache, or unregistering net devices when their
//# destructors queue no callback), through a helper more than one call
//# deep or in another file, or with a completion that the callback
//# completes; and callbacks that can only be queued in a way the exit
//# path already waits for.  Missed: callbacks named through a pointer or
//# a cast, call_rcu() in a file of a multi-file module without the
//# module_exit(), and files whose exit function comes from a macro
//# (module_platform_driver() and the like).
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// Prefilter: module_exit; call_rcu | call_srcu
// Keywords: call_rcu, rcu_barrier, call_srcu, srcu_barrier, module_exit

virtual patch
virtual context
virtual org
virtual report

// The file is module code that can be unloaded.
@mod@
declarer name module_exit;
identifier exitfn;
@@

module_exit(exitfn);

@initialize:python@
@@

import re

# call_rcu()/call_srcu() positions whose barrier is on the exit path
_covered = set()

def _key(p):
	return (p.file, p.line, p.column)

# the checker's words (sparse-plugin/check_rcu.c)
def _msg(c, f):
	b = "srcu_barrier" if c == "call_srcu" else "rcu_barrier"
	return ("WARNING: %s() queues %s(), module code, and no exit path reaches %s(): a callback still pending at unload runs in freed module text; call %s() in the exit function after the last %s()"
		% (c, f, b, b, c))

// call_rcu() and call_srcu() whose callback is a function of this file.
@cr depends on mod@
expression H;
identifier F;
position p;
@@

call_rcu@p(H, F)

@crdef@
identifier cr.F;
@@

F(...) { ... }

@cs depends on mod@
expression S, H;
identifier F;
position p;
@@

call_srcu@p(S, H, F)

@csdef@
identifier cs.F;
@@

F(...) { ... }

// One level of same-file helpers called from the exit function.
@helper depends on cr || cs@
identifier mod.exitfn, h;
@@

 exitfn(...) { <+... h(...) ...+> }

// The barriers on the exit path: rcu_barrier(), or an exported core
// function that calls it (unregister_pernet_operations(), the target
// core's backend unregistration, which waits for its backends'
// call_rcu()s, ...: kb/owner-reads.tsv's "barrier:" rows).
@hr depends on crdef@
identifier fn = {mod.exitfn, helper.h};
// modlife-gen begin barriers: generated from kb/api.tsv rcu-barrier, kb/owner-reads.tsv barrier: (make cocci-gen)
identifier B = {rcu_barrier, __dev_change_net_namespace, elv_unregister,
		flush_rcu_work, register_pernet_device,
		register_pernet_subsys, target_backend_unregister,
		target_unregister_template, tcf_register_action,
		tcf_unregister_action, unregister_pernet_device,
		unregister_pernet_subsys, unregister_tcf_proto_ops};
// modlife-gen end barriers
position q;
@@

 fn(...) { <+... B@q(...) ...+> }

@script:python@
p << cr.p;
q << hr.q;
@@

_covered.add(_key(p[0]))

@hs depends on csdef@
identifier fn = {mod.exitfn, helper.h};
expression cs.S;
position q;
@@

 fn(...) { <+... srcu_barrier@q(S) ...+> }

@script:python@
p << cs.p;
q << hs.q;
@@

_covered.add(_key(p[0]))

// The calls with no barrier.
@br depends on crdef@
position cr.p;
position p1 : script:python() { _key(p1[0]) not in _covered };
@@

call_rcu@p@p1(...)

@bs depends on csdef@
position cs.p;
position p1 : script:python() { _key(p1[0]) not in _covered };
@@

call_srcu@p@p1(...)

// One binding per call (br and bs bindings are combined pairwise).
@bad depends on br || bs@
position p = {br.p1, bs.p1};
position p2;
@@

(
 call_rcu@p@p2(...)
|
 call_srcu@p@p2(...)
)

// ----------------------------------------------------------------------------

// srcu_barrier() can only be added for a srcu_struct of the file:
// call_srcu(&I, ...) with I defined at file scope.
@script:python sname depends on patch && bs@
S << cs.S;
I;
@@

m = re.match(r"^&\s*([A-Za-z_]\w*)$", S.strip())
coccinelle.I = cocci.make_ident(m.group(1) if m else "__modlife_not_a_file_variable")

@sglob depends on patch && bs@
declarer name DEFINE_SRCU, DEFINE_STATIC_SRCU;
identifier sname.I;
@@

(
 DEFINE_SRCU(I);
|
 DEFINE_STATIC_SRCU(I);
|
 struct srcu_struct I;
)

@fixs depends on patch && !context && !org && !report && sglob@
identifier mod.exitfn;
identifier sname.I;
@@

 exitfn(...) {
 ...
+srcu_barrier(&I);
 }

@fixr depends on patch && !context && !org && !report && br@
identifier mod.exitfn;
@@

 exitfn(...) {
 ...
+rcu_barrier();
 }

// ----------------------------------------------------------------------------

@ctx depends on bad && !patch && (context || org || report)@
identifier C, F;
position bad.p2;
position j0;
@@

*C@p2@j0(..., F)

@script:python depends on org@
C << ctx.C;
F << ctx.F;
j0 << ctx.j0;
@@

coccilib.org.print_safe_todo(j0[0], _msg(C, F))

@script:python depends on report@
C << ctx.C;
F << ctx.F;
j0 << ctx.j0;
@@

coccilib.report.print_report(j0[0], _msg(C, F))
