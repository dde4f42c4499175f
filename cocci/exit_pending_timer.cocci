// SPDX-License-Identifier: GPL-2.0-only
/// Find timers deleted without waiting for their callback on the exit path
///
/// del_timer() and timer_delete() only dequeue a pending timer, and
/// hrtimer_try_to_cancel() gives up when the callback is running: none of
/// them waits for a callback that is already running on another CPU.  On
/// the module exit path the module text (the callback itself) and data
/// are freed right after, so the callback can run on freed memory.  The
/// _sync variants (del_timer_sync(), timer_delete_sync(),
/// timer_shutdown_sync(), hrtimer_cancel()) wait for it.  Looked at: the
/// module's exit function (module_exit(fn)), the functions of the same
/// file it calls directly, and the .remove function of a platform driver
/// registered with module_platform_driver() (platform_driver_unregister()
/// runs it for every bound device before the module is freed).
///
/// Patch mode switches to the waiting variant: del_timer() to
/// del_timer_sync(), timer_delete() to timer_delete_sync(),
/// timer_shutdown() to timer_shutdown_sync(), and an
/// hrtimer_try_to_cancel() used as a statement (its result ignored) to
/// hrtimer_cancel().
///
//# False positives: a timer whose callback cannot be running any more
//# (never armed, or already stopped with a _sync call earlier), and a
//# call that runs with a lock held that the callback also takes (the
//# _sync variant would deadlock there: check before applying the patch)
//# or in interrupt context.  Missed: paths deeper than one helper,
//# helpers of the .remove function, helpers in other files, remove
//# callbacks of drivers registered otherwise than with
//# module_platform_driver(), and an hrtimer_try_to_cancel() whose result
//# is used.
//
// Confidence: Moderate
// Copyright: (C) 2026 The modlife authors.
// URL: https://coccinelle.gitlabpages.inria.fr/website
// Options: --no-includes --include-headers
// modlife-gen begin prefilter: generated from kb/api.tsv timer-async-stop (make cocci-gen)
// Prefilter: module_exit | module_platform_driver; del_timer | timer_delete | timer_shutdown | hrtimer_try_to_cancel
// Prefilter-re: ^(?>(?:\w[^\n;]*?\b)?(?P<f>\w+)\s*\()(?=(?:[^;{\n)]++|\n(?!(?:\w[^\n;]*?\b)?\w+\s*\()|\)(?!\s*\{))*+(?:\n|\)\s*\{(?:[^\w\n]++|\w++|\n(?!\}|(?:\w[^\n;]*?\b)?\w+\s*\())*?(?:\n(?=(?:\w[^\n;]*?\b)?\w+\s*\()|\b(?:del_timer|timer_delete|timer_shutdown|hrtimer_try_to_cancel)\s*\()))
// Prefilter-and: \bmodule_exit\s*\(\s*@f@\s*\)
// Prefilter-re: ^(?>(?:\w[^\n;]*?\b)?(?P<f>\w+)\s*\()(?=(?:[^;{\n)]++|\n(?!(?:\w[^\n;]*?\b)?\w+\s*\()|\)(?!\s*\{))*+(?:\n|\)\s*\{(?:[^\w\n]++|\w++|\n(?!\}|(?:\w[^\n;]*?\b)?\w+\s*\())*?(?:\n(?=(?:\w[^\n;]*?\b)?\w+\s*\()|\b(?:del_timer|timer_delete|timer_shutdown|hrtimer_try_to_cancel)\s*\()))
// Prefilter-and: \.remove\w*\s*=\s*&?\s*@f@\b
// Prefilter-re: ^(?>(?:\w[^\n;]*?\b)?(?P<f>\w+)\s*\()(?=(?:[^;{\n)]++|\n(?!(?:\w[^\n;]*?\b)?\w+\s*\()|\)(?!\s*\{))*+(?:\n|\)\s*\{(?:[^\w\n]++|\w++|\n(?!\}|(?:\w[^\n;]*?\b)?\w+\s*\())*?(?:\n(?=(?:\w[^\n;]*?\b)?\w+\s*\()|\b(?:del_timer|timer_delete|timer_shutdown|hrtimer_try_to_cancel)\s*\()))
// Prefilter-and: ^(?>(?:\w[^\n;]*?\b)?(?P<e>\w+)\s*\()(?=(?:[^;{\n)]++|\n(?!(?:\w[^\n;]*?\b)?\w+\s*\()|\)(?!\s*\{))*+(?:\n|\)\s*\{(?:[^\w\n]++|\w++|\n(?!\}|(?:\w[^\n;]*?\b)?\w+\s*\())*?(?:\n(?=(?:\w[^\n;]*?\b)?\w+\s*\()|\b@f@\s*\()))
// Prefilter-and: \bmodule_exit\s*\(\s*@e@\s*\)
// modlife-gen end prefilter
// Keywords: del_timer, del_timer_sync, hrtimer_cancel, module_exit, remove

virtual patch
virtual context
virtual org
virtual report

// The file is module code that can be unloaded ...
@mod@
declarer name module_exit;
identifier exitfn;
@@

module_exit(exitfn);

// ... or a platform driver that module_platform_driver() unregisters.
@pdrv@
declarer name module_platform_driver;
identifier drv;
@@

module_platform_driver(drv);

// Only files that stop a timer are looked at further.
@any depends on mod || pdrv@
@@

// modlife-gen begin async-stops: generated from kb/api.tsv timer-async-stop (make cocci-gen)
// kb: timer-async-stop
(
 del_timer(...)
|
 timer_delete(...)
|
 timer_shutdown(...)
|
 hrtimer_try_to_cancel(...)
)
// modlife-gen end async-stops

@initialize:python@
@@

# (file, function) of the exit functions, their helpers and remove functions
_exitpath = set()

# modlife-gen begin sync-names: generated from kb/api.tsv timer-async-stop timer-stop (make cocci-gen)
# kb: timer-async-stop timer-stop
_SYNC = {
	"del_timer": "del_timer_sync",
	"timer_delete": "timer_delete_sync",
	"timer_shutdown": "timer_shutdown_sync",
	"hrtimer_try_to_cancel": "hrtimer_cancel",
}
# modlife-gen end sync-names

def _msg(f):
	return ("WARNING: %s() on the exit path: the callback may still be running on another CPU when the module is freed; use %s()"
		% (f, _SYNC.get(f, f + "_sync")))

def _onpath(p):
	return (p.file, p.current_element) in _exitpath

@rm depends on any && pdrv@
identifier pdrv.drv, rmfn;
position q;
@@

struct platform_driver drv@q = { ..., .remove = rmfn, ... };

@script:python@
rmfn << rm.rmfn;
q << rm.q;
@@

_exitpath.add((q[0].file, rmfn))

// The exit function and one level of same-file helpers it calls.
@helper depends on any && mod@
identifier mod.exitfn, h;
position q;
@@

 exitfn(...) { <+... h@q(...) ...+> }

@script:python@
exitfn << mod.exitfn;
h << helper.h;
q << helper.q;
@@

_exitpath.add((q[0].file, exitfn))
_exitpath.add((q[0].file, h))

// The non-waiting calls in those functions; hrtimer_try_to_cancel() only
// when its result is ignored.
@t depends on any@
position p : script:python() { _onpath(p[0]) };
@@

// modlife-gen begin async-stop-calls: generated from kb/api.tsv timer-async-stop timer-stop (make cocci-gen)
(
 del_timer@p(...)
|
 timer_delete@p(...)
|
 timer_shutdown@p(...)
)
// modlife-gen end async-stop-calls

@ht depends on any@
position p : script:python() { _onpath(p[0]) };
@@

// modlife-gen begin async-stop-statements: generated from kb/api.tsv timer-async-stop timer-stop (make cocci-gen)
 hrtimer_try_to_cancel@p(...);
// modlife-gen end async-stop-statements

// One binding per call (t and ht bindings are combined pairwise).
@bad depends on t || ht@
identifier F;
position p = {t.p, ht.p};
position p1;
@@

 F@p@p1(...)

// ----------------------------------------------------------------------------

// ht.p only binds hrtimer_try_to_cancel() calls that are whole statements.
@fix depends on patch && !context && !org && !report@
position bad.p1;
expression T;
@@

// modlife-gen begin sync-fix: generated from kb/api.tsv timer-async-stop timer-stop (make cocci-gen)
(
- del_timer@p1(T)
+ del_timer_sync(T)
|
- timer_delete@p1(T)
+ timer_delete_sync(T)
|
- timer_shutdown@p1(T)
+ timer_shutdown_sync(T)
|
- hrtimer_try_to_cancel@p1(T)
+ hrtimer_cancel(T)
)
// modlife-gen end sync-fix

// ----------------------------------------------------------------------------

@ctx depends on !patch && (context || org || report)@
identifier F;
position bad.p1;
position j0;
@@

*F@p1@j0(...)

@script:python depends on org@
F << ctx.F;
j0 << ctx.j0;
@@

coccilib.org.print_safe_todo(j0[0], _msg(F))

@script:python depends on report@
F << ctx.F;
j0 << ctx.j0;
@@

coccilib.report.print_report(j0[0], _msg(F))
