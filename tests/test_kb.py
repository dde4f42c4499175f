# SPDX-License-Identifier: GPL-2.0-only
"""'modlife kb' derives which owner fields matter from a kernel tree."""
import os
import unittest

from util import (cold, CORPUS, MODLIFE, TempDir, read_entry, run, shared_cache,
                  write)

PIN_C = """\
#include <linux/module.h>

struct foo_ops { struct module *owner; int (*run)(void); };
struct bar_ops { struct module *owner; };
struct baz_ops { struct module *owner; };
struct holder { struct module *owner; };
struct qux_ops { struct module *owner; };

int foo_get(struct foo_ops *ops)
{
	return try_module_get(ops->owner);
}

void bar_hold(struct bar_ops *ops)
{
	struct module *m = ops->owner;

	__module_get(m);
}

void baz_attach(struct holder *h, struct baz_ops *b)
{
	h->owner = b->owner;
}

int holder_get(struct holder *h)
{
	return try_module_get(h ? h->owner : NULL);
}

int qux_named(struct qux_ops *q)
{
	return q->owner != NULL;
}
"""

# an owner reached through a wrapper object: the inline registration
# passes the nested table's owner, the helper copies it into the cdev
VID_H = """\
#include <linux/cdev.h>
#include <linux/module.h>

struct vid_fops { struct module *owner; int (*open)(void); };
struct vid { const struct vid_fops *fops; struct cdev cdev; };

int __vid_register(struct vid *v, int nr, struct module *owner);

static inline int vid_register(struct vid *v, int nr)
{
	return __vid_register(v, nr, v->fops->owner);
}
"""

VID_CORE_C = """\
#include <linux/export.h>
#include "../../include/media/vid.h"

int __vid_register(struct vid *v, int nr, struct module *owner)
{
	v->cdev.owner = owner;
	return nr;
}
EXPORT_SYMBOL(__vid_register);
"""

CDEV_PIN_C = """\
#include <linux/cdev.h>
#include <linux/module.h>

int cdev_pin(struct cdev *c)
{
	return try_module_get(c->owner);
}
"""


WL_H = """\
#include <linux/hrtimer.h>
#include <linux/usb.h>
#include <linux/workqueue.h>

struct wl_dev {
	struct workqueue_struct *workqueue;
	struct work_struct txdone_work;
	struct hrtimer txstatus_timer;
};

void wllib_remove_dev(struct wl_dev *wl);
void wlusb_disconnect(struct usb_interface *intf);
"""

WLLIB_C = """\
#include <linux/export.h>
#include <linux/timer.h>
#include "wl.h"

static struct timer_list wllib_watchdog;

static void wllib_uninitialize(struct wl_dev *wl)
{
	hrtimer_cancel(&wl->txstatus_timer);
	cancel_work_sync(&wl->txdone_work);
}

void wllib_stop_watchdog(void)
{
	del_timer_sync(&wllib_watchdog);
}
EXPORT_SYMBOL(wllib_stop_watchdog);

void wllib_kick(struct wl_dev *wl)
{
	queue_work(wl->workqueue, &wl->txdone_work);
}
EXPORT_SYMBOL(wllib_kick);

/* rt2x00lib_remove_dev() in small */
void wllib_remove_dev(struct wl_dev *wl)
{
	wllib_uninitialize(wl);
	destroy_workqueue(wl->workqueue);
}
EXPORT_SYMBOL(wllib_remove_dev);
"""

WLUSB_C = """\
#include <linux/export.h>
#include "wl.h"

void wlusb_disconnect(struct usb_interface *intf)
{
	wllib_remove_dev(usb_get_intfdata(intf));
}
EXPORT_SYMBOL(wlusb_disconnect);
"""

# the driver: its work and timer are stopped by the library's disconnect
WL2USB_C = """\
#include <linux/module.h>
#include <linux/slab.h>
#include "wl.h"

static void wl2usb_txdone(struct work_struct *work)
{
}

static enum hrtimer_restart wl2usb_txstatus(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

static int wl2usb_probe(struct usb_interface *intf,
			const struct usb_device_id *id)
{
	struct wl_dev *wl = kzalloc(sizeof(*wl), GFP_KERNEL);

	if (!wl)
		return -ENOMEM;
	wl->workqueue = alloc_ordered_workqueue("wl2usb", 0);
	INIT_WORK(&wl->txdone_work, wl2usb_txdone);
	hrtimer_init(&wl->txstatus_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	wl->txstatus_timer.function = wl2usb_txstatus;
	usb_set_intfdata(intf, wl);
	queue_work(wl->workqueue, &wl->txdone_work);
	hrtimer_start(&wl->txstatus_timer, ms_to_ktime(10), HRTIMER_MODE_REL);
	return 0;
}

static const struct usb_device_id wl2usb_ids[] = {
	{ USB_DEVICE(0x148f, 0x2770) },
	{ }
};
MODULE_DEVICE_TABLE(usb, wl2usb_ids);

static struct usb_driver wl2usb_driver = {
	.name = "wl2usb",
	.id_table = wl2usb_ids,
	.probe = wl2usb_probe,
	.disconnect = wlusb_disconnect,
};
module_usb_driver(wl2usb_driver);
MODULE_LICENSE("GPL");
"""

# registration helpers: a core that registers the member of what it is
# passed (through a static function), one that holds its objects (its
# unregistration waits for the completion its release completes), an
# inline wrapper in a header, a parent handed along, a devm_ variant
GAD_H = """\
#include <linux/completion.h>
#include <linux/device.h>

struct gad { int id; struct device dev; };
struct hold { struct device dev; struct completion released; };

int gad_add(struct gad *g);
int gad_add_child(struct gad *g, struct kobject *parent);
int hold_add(struct hold *h);
void hold_del(struct hold *h);
"""

GAD_CORE_C = """\
#include <linux/export.h>
#include "../../include/gad/gad.h"

static int gad_register_one(struct gad *g)
{
	return device_add(&g->dev);
}

int gad_add(struct gad *g)
{
	device_initialize(&g->dev);
	return gad_register_one(g);
}
EXPORT_SYMBOL(gad_add);

int gad_add_child(struct gad *g, struct kobject *parent)
{
	return kobject_add(&g->dev.kobj, parent, "gad%d", g->id);
}
EXPORT_SYMBOL(gad_add_child);

int devm_gad_add(struct device *owner, struct gad *g)
{
	return gad_add(g);
}
EXPORT_SYMBOL(devm_gad_add);

static void hold_release(struct device *dev)
{
	complete(&container_of(dev, struct hold, dev)->released);
}

int hold_add(struct hold *h)
{
	init_completion(&h->released);
	h->dev.release = hold_release;
	return device_register(&h->dev);
}
EXPORT_SYMBOL(hold_add);

void hold_del(struct hold *h)
{
	device_unregister(&h->dev);
	wait_for_completion(&h->released);
}
EXPORT_SYMBOL(hold_del);
"""

GAD_WRAP_H = """\
#include "gad.h"

static inline int gad_add_named(struct gad *g, const char *name)
{
	dev_set_name(&g->dev, "%s", name);
	return gad_add(g);
}
"""

# a driver with a static gad (reported) and a static hold (held)
GADDRV_C = """\
#include <linux/module.h>
#include "../../include/gad/gadwrap.h"

static struct gad one_gad;
static struct hold one_hold;

static int __init gaddrv_init(void)
{
	int ret = gad_add_named(&one_gad, "one");

	return ret ? ret : hold_add(&one_hold);
}

static void __exit gaddrv_exit(void)
{
	hold_del(&one_hold);
	device_unregister(&one_gad.dev);
}

module_init(gaddrv_init);
module_exit(gaddrv_exit);
MODULE_LICENSE("GPL");
"""


UCORE_C = """\
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/wait.h>

struct ucore {
	atomic_t users;
	wait_queue_head_t idle;
	wait_queue_head_t busy;
	wait_queue_head_t pinned;
};
static struct ucore uc;

static int ucore_pinned_release(struct inode *inode, struct file *file)
{
	wake_up(&uc.pinned);
	return 0;
}

static int ucore_release(struct inode *inode, struct file *file)
{
	if (atomic_dec_and_test(&uc.users))
		wake_up(&uc.idle);
	wake_up(&uc.busy);
	return 0;
}

static const struct file_operations ucore_fops = {
	.release = ucore_release,
};

static const struct file_operations ucore_pinned_fops = {
	.owner = THIS_MODULE,
	.release = ucore_pinned_release,
};

void ucore_pinned_gone(void)
{
	wait_event(uc.pinned, !atomic_read(&uc.users));
}
EXPORT_SYMBOL(ucore_pinned_gone);

static void ucore_drain(void)
{
	wait_event(uc.idle, !atomic_read(&uc.users));
}

void ucore_unregister(void)
{
	ucore_drain();
}
EXPORT_SYMBOL(ucore_unregister);

void ucore_quiesce(void)
{
	wait_event_timeout(uc.idle, !atomic_read(&uc.users), HZ);
}
EXPORT_SYMBOL(ucore_quiesce);

void ucore_kick(void)
{
	wake_up(&uc.busy);
}
EXPORT_SYMBOL(ucore_kick);

void ucore_settle(void)
{
	wait_event(uc.busy, !atomic_read(&uc.users));
}
EXPORT_SYMBOL(ucore_settle);
"""

UDRV_C = """\
#include <linux/module.h>

void ucore_unregister(void);
void ucore_quiesce(void);

static int __init udrv_init(void)
{
	return 0;
}

static void __exit udrv_exit(void)
{
	ucore_quiesce();
	ucore_unregister();
}

module_init(udrv_init);
module_exit(udrv_exit);
MODULE_LICENSE("GPL");
"""

# a core that fills in its callers' owners, pins one only while bound,
# and falls back to the bound driver's owner
FILL_CORE_C = """\
#include <linux/module.h>
#include <linux/export.h>
#include <linux/device.h>

struct sk_ops { struct module *owner; int (*bind)(void); };
struct sk_type { struct module *owner; struct sk_ops *ops; };
struct bdrv { struct module *owner; struct device_driver driver; };
struct acomp_ops { struct module *owner; };
struct acomp { struct acomp_ops *ops; };
struct master_ops { int (*bind)(struct acomp *);
		    void (*unbind)(struct acomp *); };
struct cell_cfg { struct module *owner; struct device *dev; };
struct cell { struct module *owner; };

int sk_register_type(struct sk_type *type)
{
	type->ops->owner = THIS_MODULE;
	return 0;
}
EXPORT_SYMBOL(sk_register_type);

int sk_get_type(struct sk_type *type)
{
	return try_module_get(type->owner) && try_module_get(type->ops->owner);
}
EXPORT_SYMBOL(sk_get_type);

int __bdrv_register(struct bdrv *drv, struct module *owner)
{
	drv->driver.owner = owner;
	return try_module_get(drv->owner);
}
EXPORT_SYMBOL(__bdrv_register);

static int master_bind(struct acomp *a)
{
	return try_module_get(a->ops->owner);
}

static void master_unbind(struct acomp *a)
{
	module_put(a->ops->owner);
}

static const struct master_ops acomp_master = {
	.bind = master_bind,
	.unbind = master_unbind,
};

const void *acomp_master_ops(void)
{
	return &acomp_master;
}
EXPORT_SYMBOL(acomp_master_ops);

static void cell_defaults(struct cell *c, struct device *dev)
{
	if (!c->owner && dev->driver)
		c->owner = dev->driver->owner;
}

int mtd_like_register(struct cell *c, struct device *dev)
{
	cell_defaults(c, dev);
	return 0;
}
EXPORT_SYMBOL(mtd_like_register);

int cell_add(struct cell *c, struct cell_cfg *cfg)
{
	c->owner = cfg->owner;
	if (!c->owner && cfg->dev->driver)
		c->owner = cfg->dev->driver->owner;
	return try_module_get(c->owner);
}
EXPORT_SYMBOL(cell_add);
"""

SKDRV_C = """\
#include <linux/module.h>
#include <linux/platform_device.h>

struct sk_ops { struct module *owner; int (*bind)(void); };
struct sk_type { struct module *owner; struct sk_ops *ops; };
struct cell { struct module *owner; };
int sk_register_type(struct sk_type *type);
int mtd_like_register(struct cell *c, struct device *dev);

static int my_bind(void)
{
	return 0;
}

static struct sk_ops my_ops = { .bind = my_bind };
static struct sk_type my_type = { .owner = THIS_MODULE, .ops = &my_ops };
static struct cell my_cell;
static struct platform_driver my_driver = {
	.driver = { .name = "skdrv" },
};

static int __init skdrv_init(void)
{
	sk_register_type(&my_type);
	mtd_like_register(&my_cell, NULL);
	return platform_driver_register(&my_driver);
}

static void __exit skdrv_exit(void)
{
	platform_driver_unregister(&my_driver);
}

module_init(skdrv_init);
module_exit(skdrv_exit);
MODULE_LICENSE("GPL");
"""

# a mount that pins its filesystem type's owner as it runs, three files
# and two static steps away from the pin (kern_mount() -> ... ->
# get_filesystem()), beside a lookup by name and a registration
PX_TYPE = "struct px_type { const char *name; struct module *owner; " \
    "struct px_type *next; };\n"
PX_FILES = {
    "fs/px/filesystems.c": """\
#include <linux/module.h>
#include <linux/export.h>
#include <linux/string.h>
""" + PX_TYPE + """\
static struct px_type *px_types;

struct px_type *get_px(struct px_type *t)
{
	__module_get(t->owner);
	return t;
}

struct px_type *px_lookup(const char *name)
{
	struct px_type *t;

	for (t = px_types; t; t = t->next)
		if (!strcmp(t->name, name) && try_module_get(t->owner))
			return t;
	return NULL;
}
EXPORT_SYMBOL(px_lookup);

int px_register(struct px_type *t)
{
	t->next = px_types;
	px_types = t;
	return 0;
}
EXPORT_SYMBOL(px_register);
""",
    "fs/px/context.c": """\
#include <linux/module.h>
#include <linux/export.h>
""" + PX_TYPE + """\
struct px_type *get_px(struct px_type *t);

static void *alloc_px_ctx(struct px_type *t, int flags)
{
	return flags ? get_px(t) : NULL;
}

void *px_ctx_for_mount(struct px_type *t)
{
	return alloc_px_ctx(t, 1);
}
EXPORT_SYMBOL(px_ctx_for_mount);
""",
    "fs/px/namespace.c": """\
#include <linux/module.h>
#include <linux/export.h>
""" + PX_TYPE + """\
struct px_mount;
void *px_ctx_for_mount(struct px_type *t);

struct px_mount *px_kern_mount(struct px_type *t)
{
	return px_ctx_for_mount(t);
}
EXPORT_SYMBOL(px_kern_mount);
""",
    "drivers/px/pxdrv.c": """\
#include <linux/module.h>
""" + PX_TYPE + """\
struct px_mount *px_kern_mount(struct px_type *t);
void px_kern_unmount(struct px_mount *mnt);

static struct px_mount *pxdrv_mnt;
static struct px_type pxdrv_type = { .name = "pxdrv" };

static int __init pxdrv_mount(void)
{
	pxdrv_mnt = px_kern_mount(&pxdrv_type);
	return 0;
}

static int __init pxdrv_init(void)
{
	return pxdrv_mount();
}

static void __exit pxdrv_exit(void)
{
	px_kern_unmount(pxdrv_mnt);
}

module_init(pxdrv_init);
module_exit(pxdrv_exit);
MODULE_LICENSE("GPL");
""",
    "drivers/px/Kbuild": "obj-m += pxdrv.o\n",
}


def derive_cmd(tree, out):
    """modlife kb of tree into out, the kernel's flags from the tests'
    shared cache (learned once)."""
    return [MODLIFE, "kb", "--cache-dir", shared_cache(), "--tree", tree,
            "-o", out]


def without_rows(kb, tmp, prefix):
    """A copy of knowledge file kb in tmp without the rows of prefix."""
    with open(kb) as f:
        text = f.read()
    bare = os.path.join(tmp, "bare.tsv")
    write(bare, "".join(ln + "\n" for ln in text.splitlines()
                        if not ln.startswith(prefix)))
    return bare


CHAIN_H = """\
struct chain_link {
	int (*call)(void);
	struct chain_link *next;
};

struct chain_drv {
	const char *name;
	struct chain_link link;
};

int chain_register(struct chain_link *l);
void chain_unregister(struct chain_link *l);
int chain_drv_probe(struct chain_drv *d, int (*probe)(void));
int devm_chain_register(void *dev, struct chain_link *l);
int tally_register(struct chain_link *l, int n);
void tally_unregister(int n);
int tmpl_register(struct chain_drv **out, const struct chain_link *tmpl);
void tmpl_unregister(struct chain_link *l);

struct chain_head {
	struct chain_link *first;
};

extern struct chain_head core_head;
int head_register(struct chain_head *h, struct chain_link *l);
void head_unregister(struct chain_head *h, struct chain_link *l);
"""

CHAIN_C = """\
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/export.h>
#include "../include/chain/chain.h"

static struct chain_link *first;

int chain_register(struct chain_link *l)
{
	l->next = first;
	first = l;
	return 0;
}
EXPORT_SYMBOL(chain_register);

void chain_unregister(struct chain_link *l)
{
	first = l->next;
}
EXPORT_SYMBOL(chain_unregister);

int chain_drv_probe(struct chain_drv *d, int (*probe)(void))
{
	return probe() ? -ENODEV : chain_register(&d->link);
}
EXPORT_SYMBOL(chain_drv_probe);

int devm_chain_register(void *dev, struct chain_link *l)
{
	return chain_register(l);
}
EXPORT_SYMBOL(devm_chain_register);

static void chain_release_managed(struct device *dev, void *res)
{
}

int chain_add_managed(struct device *dev, struct chain_link *l)
{
	void *res = devres_alloc(chain_release_managed, 0, GFP_KERNEL);

	devres_add(dev, res);
	return chain_register(l);
}
EXPORT_SYMBOL(chain_add_managed);

static int tally;

int tally_register(struct chain_link *l, int n)
{
	tally += n;
	return l->call();
}
EXPORT_SYMBOL(tally_register);

void tally_unregister(int n)
{
	tally -= n;
}
EXPORT_SYMBOL(tally_unregister);

static struct chain_drv copy;

int tmpl_register(struct chain_drv **out, const struct chain_link *tmpl)
{
	copy.link = *tmpl;
	*out = &copy;
	return 0;
}
EXPORT_SYMBOL(tmpl_register);

void tmpl_unregister(struct chain_link *l)
{
}
EXPORT_SYMBOL(tmpl_unregister);

struct chain_head core_head;
EXPORT_SYMBOL(core_head);

int head_register(struct chain_head *h, struct chain_link *l)
{
	l->next = h->first;
	h->first = l;
	return 0;
}
EXPORT_SYMBOL(head_register);

void head_unregister(struct chain_head *h, struct chain_link *l)
{
	h->first = l->next;
}
EXPORT_SYMBOL(head_unregister);
"""

CHAINDRV_C = """\
#include <linux/module.h>
#include <linux/slab.h>
#include "../../include/chain/chain.h"

static int chaindrv_call(void)
{
	return 0;
}

static struct chain_link kept_link = { .call = chaindrv_call };
static struct chain_link given_back = { .call = chaindrv_call };
static struct chain_drv kept_drv = { .name = "chaindrv" };
static struct chain_link counted = { .call = chaindrv_call };
static struct chain_link tmpl = { .call = chaindrv_call };
static struct chain_drv *copied;
static struct chain_link *dyn;
static struct chain_head own_head;
static struct chain_link on_own, on_core, on_dyn;

static int __init chaindrv_init(void)
{
	struct chain_head *h = kzalloc(sizeof(*h), GFP_KERNEL);

	chain_register(&kept_link);
	chain_register(&given_back);
	tally_register(&counted, 1);
	tmpl_register(&copied, &tmpl);
	dyn = kzalloc(sizeof(*dyn), GFP_KERNEL);
	chain_register(dyn);
	head_register(&own_head, &on_own);
	head_register(h, &on_dyn);
	head_register(&core_head, &on_core);
	return chain_drv_probe(&kept_drv, chaindrv_call);
}

static void __exit chaindrv_exit(void)
{
	chain_unregister(&given_back);
	tally_unregister(1);
}

module_init(chaindrv_init);
module_exit(chaindrv_exit);
MODULE_LICENSE("GPL");
"""

def warned_at(stdout, rule=None):
    """FILE:LINE:COL (the base name) of each warning a scan printed, of
    @rule if given, sorted."""
    return sorted(ln.split(": warning")[0].rsplit("/", 1)[-1]
                  for ln in stdout.splitlines()
                  if rule is None or ln.endswith("[modlife-%s]" % rule))


class CalledNamesTest(unittest.TestCase):
    def test_a_call_is_a_whole_name_then_a_parenthesis(self):
        """What a later round of the knowledge scan looks for: a call of
        one of the helpers found so far, as a whole name."""
        import sys
        sys.path.insert(0, os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        from frontend.scanning.kb import as_called, called, calls_one_of
        calls = called(b"\tret = foo_stop (x);\n\tbar_unreg\n\t\t(y);\n"
                       b"x1baz(z); wait_for = 1; q = &qux;\n")
        for name, want in (("foo_stop", True), ("bar_unreg", True),
                           ("stop", False), ("baz", False),
                           ("x1baz", True), ("wait_for", False),
                           ("qux", False)):
            self.assertEqual(calls_one_of(calls, as_called([name])), want,
                             name)
        self.assertTrue(calls_one_of(calls, as_called(["nope", "foo_stop"])))
        self.assertFalse(calls_one_of(calls, as_called([])))


class KbTest(unittest.TestCase):
    def knowledge(self, tree, tmp, prefix):
        """'modlife kb' of @tree: the file and its rows (split at tabs)
        that start with @prefix."""
        out = os.path.join(tmp, "kb.tsv")
        res = run(derive_cmd(tree, out))
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(out) as f:
            return out, [ln.rstrip("\n").split("\t") for ln in f
                         if ln.startswith(prefix)]

    @staticmethod
    def pin_tree(tmp, name="pin.c"):
        """A tree of 6.1.99 whose kernel/NAME is PIN_C."""
        tree = os.path.join(tmp, "linux")
        os.makedirs(os.path.join(tree, "include", "linux"))
        write(os.path.join(tree, "Makefile"),
              "VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 99\n")
        write(os.path.join(tree, "kernel", name), PIN_C)
        return tree

    def test_reads_copies_and_locals(self):
        with TempDir() as tmp:
            tree = self.pin_tree(tmp)
            out = os.path.join(tmp, "kb.tsv")
            res = run(derive_cmd(tree, out))
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(out) as f:
                text = f.read()
            rows = [ln.split("\t") for ln in text.splitlines()
                    if not ln.startswith("#")]
            got = {r[0]: r[1] for r in rows}
            self.assertEqual(sorted(got), ["struct bar_ops", "struct baz_ops",
                                           "struct foo_ops", "struct holder"])
            self.assertEqual(got["struct foo_ops"], "kernel/pin.c:11 foo_get()")
            self.assertEqual(got["struct holder"],
                             "kernel/pin.c:28 holder_get()")
            self.assertEqual(got["struct bar_ops"],
                             "kernel/pin.c:18 bar_hold()")
            self.assertEqual(got["struct baz_ops"],
                             "kernel/pin.c:23 baz_attach()")
            self.assertIn("Linux 6.1.99", text)
            self.assertNotIn(tmp, text)

    def test_a_file_name_makes_no_rows(self):
        """A tab or newline in a file's name stays inside its field; a
        name that is no UTF-8 is written with "?"."""
        for name, shown in (("pin\tx\nstruct evil\t.c",
                             "pin?x?struct evil?.c"),
                            ("pin\udcff.c", "pin?.c")):
            with TempDir() as tmp:
                tree = self.pin_tree(tmp, name)
                _, rows = self.knowledge(tree, tmp, "struct ")
                self.assertEqual(sorted(r[0] for r in rows), [
                    "struct bar_ops", "struct baz_ops", "struct foo_ops",
                    "struct holder"])
                self.assertEqual({len(r) for r in rows}, {3})
                self.assertIn("kernel/%s:11 foo_get()" % shown,
                              [r[1] for r in rows])

    def test_owner_copied_through_a_registration_helper(self):
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            write(os.path.join(tree, "include", "media", "vid.h"), VID_H)
            write(os.path.join(tree, "drivers", "media", "vid-core.c"),
                  VID_CORE_C)
            write(os.path.join(tree, "fs", "cdev-pin.c"), CDEV_PIN_C)
            os.makedirs(os.path.join(tree, "include", "linux"))
            out = os.path.join(tmp, "kb.tsv")
            res = run(derive_cmd(tree, out))
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(out) as f:
                rows = {ln.split("\t")[0]: ln.split("\t")[1:]
                        for ln in f.read().splitlines()
                        if not ln.startswith("#")}
            self.assertEqual(rows["struct cdev"],
                             ["fs/cdev-pin.c:6 cdev_pin()", "try_module_get"])
            self.assertEqual(rows["struct vid_fops"],
                             ["drivers/media/vid-core.c:6 __vid_register()",
                              "copied into struct cdev owner"])

    def test_barrier_helpers_across_files(self):
        """An exported helper reaching rcu_barrier() through another
        file's exported helper is a barrier too; a file that only calls
        the first helper is found in a later round."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            write(os.path.join(tree, "net", "core", "ns.c"), """\
#include <linux/export.h>
#include <linux/rcupdate.h>
static void ops_free(void) { rcu_barrier(); }
void unregister_things(void) { ops_free(); }
EXPORT_SYMBOL(unregister_things);
void register_things(void) { }
EXPORT_SYMBOL(register_things);
""")
            write(os.path.join(tree, "net", "sched", "act.c"), """\
#include <linux/export.h>
void unregister_things(void);
void register_things(void);
void act_unregister(void) { unregister_things(); }
EXPORT_SYMBOL(act_unregister);
void act_register(void) { register_things(); }
EXPORT_SYMBOL(act_register);
""")
            out = os.path.join(tmp, "kb.tsv")
            res = run(derive_cmd(tree, out))
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(out) as f:
                rows = [ln.split("\t") for ln in f
                        if ln.startswith("barrier:")]
            self.assertEqual([r[0] for r in rows],
                             ["barrier:act_unregister",
                              "barrier:unregister_things"])
            self.assertEqual(rows[0][1], "net/sched/act.c:4 act_unregister()")

    def test_stop_helpers_across_files(self):
        """What an exported helper stops, through static helpers and
        another file's exported helper, is listed per key; a stop of a
        file's own static object is not (it means nothing to callers).
        A driver whose .disconnect is such a helper is silent with the
        generated knowledge and reported without it."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            d = os.path.join(tree, "drivers", "net", "wl")
            write(os.path.join(d, "wl.h"), WL_H)
            write(os.path.join(d, "wllib.c"), WLLIB_C)
            write(os.path.join(d, "wlusb.c"), WLUSB_C)
            write(os.path.join(d, "wl2usb.c"), WL2USB_C)
            write(os.path.join(d, "Kbuild"), "obj-m += wllib.o wlusb.o "
                  "wl2usb.o\n")
            out, rows = self.knowledge(tree, tmp, "stops:")
            keys = ["exit-cancels-wq:struct wl_dev.workqueue",
                    "exit-cancels:struct wl_dev.txdone_work",
                    "exit-stops:struct wl_dev.txstatus_timer"]
            self.assertEqual([(r[0], r[1]) for r in rows],
                             [("stops:wllib_remove_dev", k) for k in keys] +
                             [("stops:wlusb_disconnect", k) for k in keys])
            self.assertEqual(rows[0][2],
                             "drivers/net/wl/wllib.c:26 wllib_remove_dev()")

            drv = os.path.join(d, "wl2usb.c")
            cmd = [MODLIFE, "scan", "--no-cocci", *cold(),
                   "--rules", "all", drv]
            before = run(cmd)
            self.assertEqual(warned_at(before.stdout),
                             ["wl2usb.c:26:19", "wl2usb.c:27:22"],
                             before.stderr)
            after = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            self.assertEqual(after.stdout, "", after.stderr)

    def test_user_wait_helpers(self):
        """An exported helper that waits with no time limit (through a
        static function) for what only a file's ->release signals is a
        user-wait row; a timed wait, a wait queue that a plain
        exported function also wakes, and one that only the ->release of
        a table with an owner wakes (the open pins some module), are
        not. A module whose exit calls
        the helper is reported there with the generated knowledge."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            d = os.path.join(tree, "drivers", "misc", "ucore")
            write(os.path.join(d, "ucore.c"), UCORE_C)
            write(os.path.join(d, "udrv.c"), UDRV_C)
            write(os.path.join(d, "Kbuild"), "obj-m += ucore.o udrv.o\n")
            out, rows = self.knowledge(tree, tmp, "user-wait:")
            self.assertEqual([r[0] for r in rows],
                             ["user-wait:ucore_unregister"])
            self.assertIn("ucore_release() (the ->release of 'ucore_fops')",
                          rows[0][1])
            self.assertEqual(rows[0][2], "drivers/misc/ucore/ucore.c:46")

            drv = os.path.join(d, "udrv.c")
            cmd = [MODLIFE, "scan", "--no-cocci", *cold(), drv]
            self.assertEqual(run(cmd).stdout, "")
            after = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            self.assertEqual(warned_at(after.stdout,
                                       "unregister-wait-in-exit"),
                             ["udrv.c:14:25"], after.stderr)
            self.assertIn("udrv_exit -> ucore_unregister(): it waits "
                          "(through ucore_drain()) in wait_event() on "
                          "'struct ucore.idle'", after.stdout)

    def test_registration_helpers(self):
        """Exported helpers (and a header's inline wrappers) that register
        what their callers pass are listed with the member registered;
        a parent handed along is not, a devm_ helper is not, a core that
        waits for its objects' release holds them. A static object handed
        to such a helper is reported with the generated knowledge, a held
        one is not."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            write(os.path.join(tree, "include", "gad", "gad.h"), GAD_H)
            write(os.path.join(tree, "include", "gad", "gadwrap.h"),
                  GAD_WRAP_H)
            write(os.path.join(tree, "drivers", "gad", "gad-core.c"),
                  GAD_CORE_C)
            drv = os.path.join(tree, "drivers", "gad", "gaddrv.c")
            write(drv, GADDRV_C)
            write(os.path.join(tree, "drivers", "gad", "Kbuild"),
                  "obj-m += gaddrv.o\n")
            out, rows = self.knowledge(tree, tmp, "registers:")
            self.assertEqual(rows, [
                ["registers:gad_add:0", ".dev",
                 "register: drivers/gad/gad-core.c:6 gad_register_one()"],
                ["registers:gad_add_child:0", ".dev.kobj",
                 "register: drivers/gad/gad-core.c:18 gad_add_child()"],
                ["registers:gad_add_named:0", ".dev",
                 "register: drivers/gad/gad-core.c:6 gad_register_one()"],
                ["registers:hold_add:0", ".dev",
                 "held: hold_del() waits for the release "
                 "(struct hold.released)"]])

            cmd = [MODLIFE, "scan", "--no-cocci", *cold(), drv]
            self.assertEqual(run(cmd).stdout, "")
            after = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            self.assertEqual(warned_at(after.stdout), ["gaddrv.c:4:19"],
                             after.stderr)
            self.assertIn("'one_gad' (struct gad)", after.stdout)

    def test_keeping_functions(self):
        """A function named with "register" keeps parameter N when the
        tree exports its undo ("unregister"/"deregister") taking the
        same struct; a function handing its parameter on to one keeps
        it too, a devm_ one or one that hands the core an action for
        unbind (devres_add()) does not, one whose undo takes something
        else keeps nothing, nor does a const parameter (a template). A
        static object kept and never taken back is reported at the call,
        with the generated knowledge."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            write(os.path.join(tree, "include", "chain", "chain.h"),
                  CHAIN_H)
            write(os.path.join(tree, "kernel", "chain.c"), CHAIN_C)
            drv = os.path.join(tree, "drivers", "chain", "chaindrv.c")
            write(drv, CHAINDRV_C)
            write(os.path.join(tree, "drivers", "chain", "Kbuild"),
                  "obj-m += chaindrv.o\n")
            out, rows = self.knowledge(tree, tmp, "keeps:")
            undo = "undo: kernel/chain.c:16 chain_unregister()"
            head = "undo: kernel/chain.c:88 head_unregister()"
            self.assertEqual(rows, [
                ["keeps:chain_drv_probe:0", ".link", undo],
                ["keeps:chain_register:0", "-", undo],
                ["keeps:head_register:0", "-", head],
                ["keeps:head_register:1", "-", head]])

            cmd = [MODLIFE, "scan", "--no-cocci", "--rules",
                   "never-unregistered", *cold(), drv]
            self.assertEqual(run(cmd).stdout, "")
            after = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            # kept where the core keeps it: not the module's own
            # chain, not a chain reached through a pointer; a pointer
            # variable's value is no object of the module's data
            self.assertEqual(warned_at(after.stdout),
                             ["chaindrv.c:24:23", "chaindrv.c:32:22",
                              "chaindrv.c:33:31"], after.stderr)
            self.assertIn("'kept_link' (struct chain_link) lives in module "
                          "data and chain_register() keeps it until "
                          "chain_unregister() takes it back", after.stdout)

    def test_held_rows_keep_static_objects_silent(self):
        """The corpus traps with a static i2c adapter and a static video
        node are silent because of the shipped knowledge's held: rows:
        read as plain registrations, both objects are reported."""
        kb = os.path.join(os.path.dirname(MODLIFE), "kb", "owner-reads.tsv")
        with open(kb) as f:
            text = f.read()
        self.assertIn("registers:i2c_add_adapter:0\t.dev\theld: ", text)
        self.assertIn("registers:video_register_device:0\t.dev\theld: ",
                      text)
        traps = [os.path.join(CORPUS, d) for d in
                 ("trap-static-i2c-adapter", "trap-static-video-device")]
        cmd = [MODLIFE, "scan", "--no-cocci", *cold()] + traps
        self.assertEqual(run(cmd).stdout, "")
        with TempDir() as tmp:
            plain = os.path.join(tmp, "kb.tsv")
            write(plain, text.replace("\theld: ", "\tregister: "))
            res = run(cmd, env=dict(os.environ, MODLIFE_KB=plain))
        self.assertEqual(warned_at(res.stdout, "static-object"),
                         ["vcapnull.c:44:28", "vsmbus.c:50:27"], res.stderr)

    def test_owners_filled_bound_or_falling_back(self):
        """An exported helper that fills in the owner of what its caller
        passes has fills: rows (the path, and from what); a pin that one
        callback of a static table takes and its teardown callback drops
        makes no type row but a bind-pin: row; a core that copies T's
        owner and falls back to the bound driver's makes a fallback: row
        for T."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            write(os.path.join(tree, "net", "sk", "core.c"), FILL_CORE_C)
            out, rows = self.knowledge(tree, tmp, "")
            rows = [r for r in rows if not r[0].startswith("#")]
            got = {r[0]: r[1:] for r in rows}
            self.assertEqual(sorted(r for r in got if r.startswith("fills:")),
                             ["fills:__bdrv_register:0", "fills:cell_add:0",
                              "fills:mtd_like_register:0",
                              "fills:sk_register_type:0"])
            # through the static helper it hands the cell to
            self.assertEqual(got["fills:mtd_like_register:0"],
                             ["- driver", "net/sk/core.c:59 cell_defaults()"])
            self.assertEqual(got["fills:cell_add:0"][0], "- driver")
            self.assertEqual(got["fills:sk_register_type:0"],
                             [".ops-> core", "net/sk/core.c:17 "
                              "sk_register_type()"])
            self.assertEqual(got["fills:__bdrv_register:0"][0],
                             ".driver param:1")
            self.assertNotIn("struct acomp_ops", got)
            self.assertEqual(got["bind-pin:struct acomp_ops"], [
                "net/sk/core.c:37 master_bind()",
                "pinned by struct master_ops.bind, dropped by .unbind "
                "(acomp_master)"])
            self.assertIn("struct sk_ops", got)
            self.assertEqual(got["fallback:struct cell_cfg"][0],
                             "net/sk/core.c:71 cell_add()")
            self.assertNotIn("fallback:struct cell", got)

            # a module that relies on them: the ops its type points to,
            # and a cell whose owner falls back to its platform driver's
            drv = os.path.join(tree, "drivers", "sk", "skdrv.c")
            write(drv, SKDRV_C)
            write(os.path.join(tree, "drivers", "sk", "Kbuild"),
                  "obj-m += skdrv.o\n")
            cmd = [MODLIFE, "scan", "--no-cocci", *cold(), drv]
            res = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            self.assertEqual(res.stdout, "", res.stderr)
            bare = without_rows(out, tmp, "fills:")
            res = run(cmd, env=dict(os.environ, MODLIFE_KB=bare))
            self.assertEqual(warned_at(res.stdout), ["skdrv.c:15:22",
                                                     "skdrv.c:17:20"],
                             res.stderr)
            self.assertIn("'my_ops' (struct sk_ops)", res.stdout)
            self.assertIn("'my_cell' (struct cell)", res.stdout)

    def test_pins_at_call(self):
        """An exported function that pins the owner of what its caller
        passes, through the functions it hands the parameter to in other
        files, has a pins-at-call: row; a lookup by name and a
        registration have none. A module whose only use of its object is
        such a call from its init, whose result its exit releases, pins
        itself: no missing-owner then; one at the object's line without
        the rows, or when the exit keeps the mount (logs it; another
        file releases a variable of the same name)."""
        with TempDir() as tmp:
            tree = os.path.join(tmp, "linux")
            os.makedirs(os.path.join(tree, "include", "linux"))
            write(os.path.join(tree, "Makefile"), "VERSION = 6\n")
            for name, text in PX_FILES.items():
                write(os.path.join(tree, name), text)
            out, rows = self.knowledge(tree, tmp, "pins-at-call:")
            self.assertEqual(rows, [
                ["pins-at-call:px_ctx_for_mount:0", "struct px_type",
                 "fs/px/filesystems.c:9 get_px()"],
                ["pins-at-call:px_kern_mount:0", "struct px_type",
                 "fs/px/filesystems.c:9 get_px()"]])
            drv = os.path.join(tree, "drivers", "px", "pxdrv.c")
            cmd = [MODLIFE, "scan", "--no-cocci", *cold(), drv]
            res = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            self.assertEqual(res.stdout, "", res.stderr)
            bare = without_rows(out, tmp, "pins-at-call:")
            res = run(cmd, env=dict(os.environ, MODLIFE_KB=bare))
            self.assertEqual(warned_at(res.stdout, "missing-owner"),
                             ["pxdrv.c:7:23"], res.stderr)
            # the exit only logs the mount; another file of the module
            # releases a variable of the same name
            with open(drv) as f:
                kept = f.read().replace(
                    "\tpx_kern_unmount(pxdrv_mnt);\n",
                    '\tpr_info("mnt %p\\n", pxdrv_mnt);\n\tother_exit();\n')
            self.assertIn("other_exit();", kept)
            write(drv, "void other_exit(void);\n" + kept)
            write(os.path.join(tree, "drivers", "px", "other.c"), """\
struct px_mount;
void px_kern_unmount(struct px_mount *mnt);
static struct px_mount *pxdrv_mnt;

void other_exit(void)
{
	px_kern_unmount(pxdrv_mnt);
}
""")
            write(os.path.join(tree, "drivers", "px", "Kbuild"),
                  "obj-m += pxmod.o\npxmod-objs := pxdrv.o other.o\n")
            cmd = [MODLIFE, "scan", "--no-cocci", *cold(),
                   os.path.dirname(drv)]
            res = run(cmd, env=dict(os.environ, MODLIFE_KB=out))
            self.assertEqual(warned_at(res.stdout, "missing-owner"),
                             ["pxdrv.c:8:23"], res.stderr)

    def test_flags_kept_in_the_cache_named(self):
        """The flags learned from KDIR land in --cache-dir, as a scan's
        do; an entry there not of the probe's shape is learned again."""
        with TempDir() as tmp:
            tree = self.pin_tree(tmp)
            c = os.path.join(tmp, "cache")
            cmd = [MODLIFE, "kb", "--cache-dir", c, "--tree", tree, "-o",
                   os.path.join(tmp, "kb.tsv")]
            self.assertEqual(run(cmd).returncode, 0)
            kept = [n for n in os.listdir(c) if n.startswith("kflags-")]
            self.assertEqual(len(kept), 1, os.listdir(c))
            with open(os.path.join(c, kept[0]), "w") as f:
                f.write("not flags")
            # an entry not of the probe's shape is learned again
            self.assertEqual(run(cmd).returncode, 0)
            self.assertIsInstance(read_entry(os.path.join(c, kept[0])),
                                  list)

    def test_not_a_tree(self):
        with TempDir() as tmp:
            res = run([MODLIFE, "kb", "--tree", tmp, "-o",
                       os.path.join(tmp, "x.tsv")])
            self.assertEqual(res.returncode, 2)
            self.assertIn("not a kernel source tree", res.stderr)

    def test_shipped_knowledge_covers_the_core_types(self):
        kb = os.path.join(os.path.dirname(MODLIFE), "kb", "owner-reads.tsv")
        with open(kb) as f:
            types = {ln.split("\t")[0] for ln in f if not ln.startswith("#")}
        for t in ("struct file_operations", "struct block_device_operations",
                  "struct cdev", "struct device_driver"):
            self.assertIn(t, types)
        # class.owner is not pinned by 6.1's core
        self.assertNotIn("struct class", types)
        # pinned only while an audio component is bound
        self.assertNotIn("struct drm_audio_component_ops", types)
        for row in ("bind-pin:struct drm_audio_component_ops",
                    "fallback:struct nvmem_config",
                    "fallback:struct gpio_chip",
                    "fills:af_alg_register_type:0",
                    "fills:mtd_device_parse_register:0",
                    "fills:__platform_driver_register:0"):
            self.assertIn(row, types)


if __name__ == "__main__":
    unittest.main()
