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

@rm@
identifier pdrv.drv, rmfn;
@@

struct platform_driver drv = { ..., .remove = rmfn, ... };

// One level of same-file helpers called from the exit function.
@helper@
identifier mod.exitfn, h;
@@

 exitfn(...) { <+... h(...) ...+> }

// The non-waiting calls in those functions.
@t@
identifier fn = {mod.exitfn, helper.h, rm.rmfn};
identifier D = {del_timer, timer_delete, timer_shutdown};
position p;
@@

 fn(...) { <+... D@p(...) ...+> }

@ht@
identifier fn = {mod.exitfn, helper.h, rm.rmfn};
position p;
@@

 fn(...) { <+... hrtimer_try_to_cancel@p(...); ...+> }

// ----------------------------------------------------------------------------

// ht.p only binds calls that are whole statements.
@fix depends on patch && !context && !org && !report@
position p = {t.p, ht.p};
expression T;
@@

(
- del_timer@p(T)
+ del_timer_sync(T)
|
- timer_delete@p(T)
+ timer_delete_sync(T)
|
- timer_shutdown@p(T)
+ timer_shutdown_sync(T)
|
- hrtimer_try_to_cancel@p(T)
+ hrtimer_cancel(T)
)

// ----------------------------------------------------------------------------

@ctx depends on !patch && (context || org || report)@
identifier F;
position p = {t.p, ht.p};
position j0;
@@

*F@p@j0(...)

@initialize:python@
@@

_SYNC = {
	"del_timer": "del_timer_sync",
	"timer_delete": "timer_delete_sync",
	"timer_shutdown": "timer_shutdown_sync",
	"hrtimer_try_to_cancel": "hrtimer_cancel",
}

def _msg(f):
	return ("WARNING: %s() on the exit path: the callback may still be running on another CPU when the module is freed; use %s()"
		% (f, _SYNC.get(f, f + "_sync")))

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
