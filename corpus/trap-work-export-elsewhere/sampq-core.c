// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampq: sampling channels for client drivers. Each channel samples on
 * its own ordered workqueue; sampq_close_chan(), exported by
 * sampq-main.c with the rest of the interface, destroys it. The
 * channels belong to client modules, which depend on sampq and close
 * them before they, and so sampq, can be unloaded.
 */
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "sampq.h"

struct sampq_chan {
	struct workqueue_struct *wq;
	struct delayed_work sample;
	unsigned int period;
	unsigned long samples;
};

static void sampq_sample(struct work_struct *work)
{
	struct sampq_chan *chan = container_of(to_delayed_work(work),
					       struct sampq_chan, sample);

	chan->samples++;
	queue_delayed_work(chan->wq, &chan->sample, chan->period);
}

struct sampq_chan *sampq_open_chan(const char *name, unsigned int period_ms)
{
	struct sampq_chan *chan = kzalloc(sizeof(*chan), GFP_KERNEL);

	if (!chan)
		return NULL;
	chan->wq = alloc_ordered_workqueue("sampq-%s", 0, name);
	if (!chan->wq) {
		kfree(chan);
		return NULL;
	}
	chan->period = msecs_to_jiffies(period_ms);
	INIT_DELAYED_WORK(&chan->sample, sampq_sample);
	queue_delayed_work(chan->wq, &chan->sample, chan->period);
	return chan;
}

void sampq_close_chan(struct sampq_chan *chan)
{
	cancel_delayed_work_sync(&chan->sample);
	destroy_workqueue(chan->wq);
	kfree(chan);
}

unsigned long sampq_read(struct sampq_chan *chan)
{
	return READ_ONCE(chan->samples);
}
