// SPDX-License-Identifier: GPL-2.0-only
/// Find module exit paths that wait for a device or kobject release
///
/// An exit function that drops its reference and then waits until the
/// object is released cannot return while anyone else holds a reference
/// (in 2004 an open sysfs attribute file was enough; today another
/// subsystem's get_device() or a child device is).  That is why the *_unregister_wait() API
/// proposed in 2004 (class_device_unregister_wait(),
/// platform_device_unregister_wait()) was turned down.  Looked at: the
/// module's exit function (module_exit(fn)) and the functions of the same
/// file it calls directly.  Reported: a call to any *_unregister_wait()
/// function, and wait_for_completion*() after put_device(), kobject_put(),
/// kobject_del(), device_unregister() or any *_unregister() call in the
/// same function.
///
/// Patch mode calls *_unregister() instead of *_unregister_wait() (when
/// the file declares or defines that function) and
/// removes a wait_for_completion*() statement that follows the put.  The
/// object must then not be freed by the module after the put: let the
/// core own it and its release (net_device pattern) or pin the module
/// while references exist (cdev pattern).
///
//# False positives: a wait for a completion that no release callback
//# completes (a timer, an interrupt, a kthread) after an unrelated
//# put/unregister: matching the release callback's complete() to the
//# waited completion is beyond SmPL here (the sparse engine does it by
//# struct type and member).  Missed: paths deeper than one helper,
//# helpers in other files, the remove callbacks that
//# platform_driver_unregister() runs, and waits reached through function
//# pointers.  The patch does not touch a kfree() that follows the removed
//# wait.  Timed waits (wait_for_completion_timeout()) are reported here,
//# which the sparse engine leaves out as waits that end by themselves;
//# and waits that only a file's ->release or a kref release ends (no
//# put before them) are the sparse engine's alone: telling those
//# signallers apart needs the function tables and kref_put() arguments
//# of the whole module.
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// modlife-gen begin prefilter-tokens: generated from kb/api.tsv wait-completion (make cocci-gen)
// Prefilter: module_exit; _unregister_wait | wait_for_completion
// modlife-gen end prefilter-tokens
// Prefilter-re: \b\w+_unregister_wait\s*\(
// modlife-gen begin prefilter-put-wait: generated from kb/api.tsv put wait-completion (make cocci-gen)
// Prefilter-re: (?:\A|^(?=\}))(?:(?>(?:[^\w\n]++|\w++|\n(?!\}))*?\b(?:kobject_put|put_device|kobject_del|\w+_unregister)\s*\()(?:[^\w\n]++|\w++|\n(?!\}))*?\b(?:wait_for_completion\w*+)|(?>(?:[^\w\n]++|\w++|\n(?!\}))*?\b(?:wait_for_completion\w*+))(?:[^\w\n]++|\w++|\n(?!\}))*?\b(?:kobject_put|put_device|kobject_del|\w+_unregister)\s*\()
// modlife-gen end prefilter-put-wait
// Keywords: unregister, wait_for_completion, release, rmmod, deadlock

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

// Cheap pre-checks: the file calls one of the reported functions at all.
@hasu depends on mod@
identifier W =~ "_unregister_wait$";
@@

 W(...)

@hasw depends on mod@
// modlife-gen begin wait: generated from kb/api.tsv wait-completion (make cocci-gen)
identifier WAIT =~ "^(wait_for_completion[A-Za-z0-9_]*)$";
// modlife-gen end wait
@@

 WAIT(...)

// One level of same-file helpers called from the exit function.
@helper depends on hasu || hasw@
identifier mod.exitfn, h;
@@

 exitfn(...) { <+... h(...) ...+> }

// (a) foo_unregister_wait(...)
@wa depends on hasu@
identifier fn = {mod.exitfn, helper.h};
identifier W =~ "_unregister_wait$";
position p;
@@

 fn(...) { <+... W@p(...) ...+> }

// (b) put/unregister, then wait_for_completion*() in the same function.
@wb depends on hasw exists@
identifier fn = {mod.exitfn, helper.h};
// modlife-gen begin put: generated from kb/api.tsv put (make cocci-gen)
// kb: put
identifier PUT =~ "^(kobject_put|put_device|kobject_del|[A-Za-z0-9_]+_unregister)$";
// modlife-gen end put
// modlife-gen begin wait: generated from kb/api.tsv wait-completion (make cocci-gen)
identifier WAIT =~ "^(wait_for_completion[A-Za-z0-9_]*)$";
// modlife-gen end wait
expression E;
statement S1, S2;
position p;
@@

 fn(...) {
 ... when any
 PUT(...);
 ... when any
(
 WAIT@p(...);
|
 E = WAIT@p(...);
|
 if (<+... WAIT@p(...) ...+>) S1 else S2
|
 if (<+... WAIT@p(...) ...+>) S1
|
 return <+... WAIT@p(...) ...+>;
)
 ... when any
 }

// ----------------------------------------------------------------------------

// The message, in the checker's words (sparse-plugin/check_exit_wait.c):
// the exit path to the call, and for a put and a wait, what is waited for.
@initialize:python@
@@

import re

uw_msg = {}	# wait position -> message
uw_key = {}	# wait position -> "struct T.member" of the completion

def uw_pos(p):
	return (p[0].file, p[0].line, p[0].column)

def uw_path(exitfn, fn):
	return exitfn if fn == exitfn else "%s -> %s" % (exitfn, fn)

@script:python depends on wa@
p << wa.p;
fn << wa.fn;
W << wa.W;
exitfn << mod.exitfn;
@@

uw_msg[uw_pos(p)] = ("%s -> %s(): waiting in the exit path for the release deadlocks rmmod while anyone holds a reference (another subsystem's get_device() is enough); unregister without waiting and let the core own the release (net_device pattern) or pin the module (cdev pattern)"
	% (uw_path(exitfn, fn), W))

@wbk depends on wb@
identifier wb.WAIT, F;
position wb.p;
type T;
T *E;
@@

 WAIT@p(&E->F, ...)

@script:python depends on wbk@
p << wb.p;
T << wbk.T;
F << wbk.F;
@@

uw_key[uw_pos(p)] = "%s.%s" % (" ".join(T.split()), F)

@wbc depends on wb@
identifier wb.WAIT;
expression C;
position wb.p;
@@

 WAIT@p(C, ...)

@script:python depends on wb && wbc@
p << wb.p;
fn << wb.fn;
PUT << wb.PUT;
WAIT << wb.WAIT;
C << wbc.C;
exitfn << mod.exitfn;
@@

c = re.sub(r"\s*(->|\.|\[|\]|\(|\))\s*", r"\1", C.strip())
key = uw_key.get(uw_pos(p), c[1:].strip() if c.startswith("&") else c)
uw_msg[uw_pos(p)] = ("%s: %s() and then %s() on '%s', which a release callback completes: rmmod deadlocks while anyone holds a reference (another subsystem's get_device() is enough); drop the wait and let the core own the release (net_device pattern) or pin the module (cdev pattern)"
	% (uw_path(exitfn, fn), PUT, WAIT, key))

@ctx depends on (wa || wb) && !patch && (context || org || report)@
identifier F;
position p = {wa.p, wb.p};
position j0;
@@

*F@p@j0(...)

@script:python depends on (wa || wb) && ctx && org@
j0 << ctx.j0;
p << ctx.p;
@@

coccilib.org.print_safe_todo(j0[0], "WARNING: " + uw_msg[uw_pos(p)])

@script:python depends on (wa || wb) && ctx && report@
j0 << ctx.j0;
p << ctx.p;
@@

coccilib.report.print_report(j0[0], "WARNING: " + uw_msg[uw_pos(p)])


@fixb depends on patch && !context && !org && !report@
identifier WAIT;
position wb.p;
@@

- WAIT@p(...);

@script:python wan depends on wa && patch@
W << wa.W;
N;
@@

coccinelle.N = cocci.make_ident(W[:-len("_wait")])

// Rename only to a function the file declares or defines: a look-alike
// without a plain twin would stop building.
@hasn_def depends on patch@
identifier wan.N;
type T;
@@

 T N(...) { ... }

@hasn_proto depends on patch@
identifier wan.N;
type T;
@@

 T N(...);

// Exit function and helpers in separate rules: a rule inheriting both
// would see the exit function once per helper and edit it repeatedly.
@fixa depends on patch && !context && !org && !report && (hasn_def || hasn_proto)@
identifier mod.exitfn;
identifier wa.W, wan.N;
@@

 exitfn(...) { <...
- W
+ N
  (...)
 ...> }

@fixah depends on patch && !context && !org && !report && (hasn_def || hasn_proto)@
identifier helper.h;
identifier wa.W, wan.N;
@@

 h(...) { <...
- W
+ N
  (...)
 ...> }
