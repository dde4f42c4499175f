// SPDX-License-Identifier: GPL-2.0
/*
 * Trap: put-then-wait in code without a module_exit() (built in, or a
 * module rmmod refuses to remove): no exit path, nothing to report.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/slab.h>

struct quux {
	struct device dev;
};

static DECLARE_COMPLETION(quux_released);

static void quux_release(struct device *dev)
{
	kfree(container_of(dev, struct quux, dev));
	complete(&quux_released);
}

static int __init quux_probe_once(void)
{
	struct quux *q;
	int err;

	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q)
		return -ENOMEM;
	q->dev.release = quux_release;
	dev_set_name(&q->dev, "quux");
	err = device_register(&q->dev);
	if (err) {
		put_device(&q->dev);
		wait_for_completion(&quux_released);
	}
	return err;
}
late_initcall(quux_probe_once);
MODULE_LICENSE("GPL");
