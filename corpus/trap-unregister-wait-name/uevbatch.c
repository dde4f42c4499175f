// SPDX-License-Identifier: GPL-2.0-only
/*
 * uevbatch: coalesces change notifications. Writes to the device's "poke"
 * attribute are counted, and a kernel thread sends at most one KOBJ_CHANGE
 * uevent per batch period carrying the count.
 *
 * On exit the thread is asked for a final flush and acknowledges through
 * uevb_unregister_waitq / unregister_wait_pending. Only the names mention
 * "unregister_wait": nothing waits for a release, and the device comes
 * from device_create().
 */
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/wait.h>

#define UEVB_BATCH	msecs_to_jiffies(100)

static struct class *uevb_class;
static struct device *uevb_dev;
static struct task_struct *uevb_task;
static atomic_t uevb_pending = ATOMIC_INIT(0);

static DECLARE_WAIT_QUEUE_HEAD(uevb_unregister_waitq);
static bool unregister_wait_pending;

static void uevb_flush(void)
{
	char count[24];
	char *envp[] = { count, NULL };
	int n = atomic_xchg(&uevb_pending, 0);

	if (!n)
		return;
	snprintf(count, sizeof(count), "UEVB_COUNT=%d", n);
	kobject_uevent_env(&uevb_dev->kobj, KOBJ_CHANGE, envp);
}

static int uevb_thread(void *unused)
{
	while (!kthread_should_stop()) {
		uevb_flush();
		if (READ_ONCE(unregister_wait_pending)) {
			WRITE_ONCE(unregister_wait_pending, false);
			wake_up(&uevb_unregister_waitq);
		}
		schedule_timeout_interruptible(UEVB_BATCH);
	}
	return 0;
}

static ssize_t poke_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	atomic_inc(&uevb_pending);
	return count;
}
static DEVICE_ATTR_WO(poke);

static struct attribute *uevb_attrs[] = {
	&dev_attr_poke.attr,
	NULL
};
ATTRIBUTE_GROUPS(uevb);

static int __init uevb_init(void)
{
	int ret;

	uevb_class = class_create(THIS_MODULE, "uevbatch");
	if (IS_ERR(uevb_class))
		return PTR_ERR(uevb_class);

	uevb_dev = device_create_with_groups(uevb_class, NULL, 0, NULL,
					     uevb_groups, "uevbatch0");
	if (IS_ERR(uevb_dev)) {
		ret = PTR_ERR(uevb_dev);
		goto err_class;
	}

	uevb_task = kthread_run(uevb_thread, NULL, "uevbatch");
	if (IS_ERR(uevb_task)) {
		ret = PTR_ERR(uevb_task);
		goto err_dev;
	}
	return 0;

err_dev:
	device_unregister(uevb_dev);
err_class:
	class_destroy(uevb_class);
	return ret;
}

static void __exit uevb_exit(void)
{
	WRITE_ONCE(unregister_wait_pending, true);
	wake_up_process(uevb_task);
	wait_event(uevb_unregister_waitq, !READ_ONCE(unregister_wait_pending));
	kthread_stop(uevb_task);

	device_unregister(uevb_dev);
	class_destroy(uevb_class);
}

module_init(uevb_init);
module_exit(uevb_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Uevent batching (names contain unregister_wait, no such call)");
