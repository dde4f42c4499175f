// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler: a periodic sampler that keeps a running minimum, maximum and
 * last value of a pseudo-random signal, exported by a "port" device.
 *
 * On exit the port device is dropped and the module waits for the timer
 * to take its final sample and complete(): the completion belongs to the
 * timer, not to any release callback, so the wait cannot hang on a
 * reference to the device.
 */
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timer.h>

#define SAMPLER_PERIOD	msecs_to_jiffies(50)

struct sampler_port {
	struct device dev;
};

struct sampler {
	struct timer_list timer;
	struct completion stopped;
	bool stopping;
	u32 last, min, max;
	struct sampler_port *port;
};

static struct sampler sampler = { .min = U32_MAX };

static void sampler_tick(struct timer_list *t)
{
	struct sampler *s = from_timer(s, t, timer);
	u32 v = get_random_u32() >> 16;

	WRITE_ONCE(s->last, v);
	WRITE_ONCE(s->min, min(s->min, v));
	WRITE_ONCE(s->max, max(s->max, v));

	if (READ_ONCE(s->stopping)) {
		pr_info("sampler: final min %u max %u\n", s->min, s->max);
		complete(&s->stopped);
		return;
	}
	mod_timer(&s->timer, jiffies + SAMPLER_PERIOD);
}

static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u %u %u\n", READ_ONCE(sampler.last),
			  READ_ONCE(sampler.min), READ_ONCE(sampler.max));
}
static DEVICE_ATTR_RO(stats);

static struct attribute *sampler_port_attrs[] = {
	&dev_attr_stats.attr,
	NULL
};
ATTRIBUTE_GROUPS(sampler_port);

static void sampler_port_release(struct device *dev)
{
	kfree(container_of(dev, struct sampler_port, dev));
}

static int __init sampler_init(void)
{
	struct sampler_port *port;
	int ret;

	init_completion(&sampler.stopped);
	timer_setup(&sampler.timer, sampler_tick, 0);

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	port->dev.groups = sampler_port_groups;
	port->dev.release = sampler_port_release;
	dev_set_name(&port->dev, "sampler0");
	ret = device_register(&port->dev);
	if (ret) {
		put_device(&port->dev);
		return ret;
	}
	sampler.port = port;

	mod_timer(&sampler.timer, jiffies + SAMPLER_PERIOD);
	return 0;
}

static void __exit sampler_exit(void)
{
	WRITE_ONCE(sampler.stopping, true);
	device_del(&sampler.port->dev);
	put_device(&sampler.port->dev);
	wait_for_completion(&sampler.stopped);
	del_timer_sync(&sampler.timer);
}

module_init(sampler_init);
module_exit(sampler_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Periodic sampler (exit waits on a timer's completion)");
