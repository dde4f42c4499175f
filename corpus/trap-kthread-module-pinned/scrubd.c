// SPDX-License-Identifier: GPL-2.0-only
/*
 * scrubd: writing 1 to /sys/kernel/scrubd/start runs one pass of a memory
 * scrubber in its own kernel thread; "passes" counts completed passes.
 *
 * Exit stops no thread: each pass holds a module reference, taken with
 * try_module_get() (refused once unloading has begun) before the thread
 * starts, and the thread gives it back and ends in one step with
 * module_put_and_kthread_exit(), which never returns into module text.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#define SCRUBD_CHUNK	4096
#define SCRUBD_CHUNKS	256

static struct kobject *scrubd_kobj;
static atomic_t scrubd_passes = ATOMIC_INIT(0);
static atomic_t scrubd_running = ATOMIC_INIT(0);
static struct task_struct *scrubd_task;	/* last pass started, for its pid */

static int scrubd_pass(void *unused)
{
	u8 *buf = kmalloc(SCRUBD_CHUNK, GFP_KERNEL);
	int i;

	for (i = 0; buf && i < SCRUBD_CHUNKS; i++) {
		memset(buf, i, SCRUBD_CHUNK);
		cond_resched();
	}
	kfree(buf);
	atomic_inc(&scrubd_passes);
	atomic_set(&scrubd_running, 0);
	module_put_and_kthread_exit(0);
}

static ssize_t start_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	if (atomic_cmpxchg(&scrubd_running, 0, 1))
		return -EBUSY;
	if (!try_module_get(THIS_MODULE)) {
		atomic_set(&scrubd_running, 0);
		return -ENODEV;
	}
	scrubd_task = kthread_run(scrubd_pass, NULL, "scrubd");
	if (IS_ERR(scrubd_task)) {
		module_put(THIS_MODULE);
		atomic_set(&scrubd_running, 0);
		return PTR_ERR(scrubd_task);
	}
	return count;
}

static ssize_t passes_show(struct kobject *kobj, struct kobj_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&scrubd_passes));
}

static struct kobj_attribute start_attr = __ATTR_WO(start);
static struct kobj_attribute passes_attr = __ATTR_RO(passes);

static struct attribute *scrubd_attrs[] = {
	&start_attr.attr,
	&passes_attr.attr,
	NULL
};

static const struct attribute_group scrubd_group = {
	.attrs = scrubd_attrs,
};

static int __init scrubd_init(void)
{
	int ret;

	scrubd_kobj = kobject_create_and_add("scrubd", kernel_kobj);
	if (!scrubd_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(scrubd_kobj, &scrubd_group);
	if (ret)
		kobject_put(scrubd_kobj);
	return ret;
}

static void __exit scrubd_exit(void)
{
	kobject_put(scrubd_kobj);
}

module_init(scrubd_init);
module_exit(scrubd_exit);
MODULE_DESCRIPTION("one-shot memory scrub passes in a kernel thread");
MODULE_LICENSE("GPL");
