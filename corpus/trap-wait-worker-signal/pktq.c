// SPDX-License-Identifier: GPL-2.0-only
/*
 * pktq: a packet queue exposed as a misc device.
 *
 * Each open holds a reference on the queue; the kref release completes
 * "drained". The exit does not wait for user space, though: it queues a
 * drain work item that flushes the queue and completes "drained" itself,
 * and waits for that. The wait ends without any user reference. (The
 * file_operations have no owner: that is a missing-owner finding of its
 * own.)
 */
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct pktq {
	struct kref ref;
	struct completion drained;
	struct work_struct drain;
	struct sk_buff_head queue;
	struct miscdevice misc;
};

static struct pktq *pq;

static void pktq_last_put(struct kref *ref)
{
	struct pktq *q = container_of(ref, struct pktq, ref);

	complete(&q->drained);
}

static void pktq_drain(struct work_struct *work)
{
	struct pktq *q = container_of(work, struct pktq, drain);

	skb_queue_purge(&q->queue);
	complete(&q->drained);
}

static int pktq_open(struct inode *inode, struct file *file)
{
	kref_get(&pq->ref);
	file->private_data = pq;
	return 0;
}

static int pktq_release(struct inode *inode, struct file *file)
{
	struct pktq *q = file->private_data;

	kref_put(&q->ref, pktq_last_put);
	return 0;
}

static ssize_t pktq_read(struct file *file, char __user *buf, size_t len,
			 loff_t *ppos)
{
	struct pktq *q = file->private_data;
	u32 n = skb_queue_len(&q->queue);

	return simple_read_from_buffer(buf, len, ppos, &n, sizeof(n));
}

static const struct file_operations pktq_fops = {
	.open		= pktq_open,
	.release	= pktq_release,
	.read		= pktq_read,
	.llseek		= default_llseek,
};

static int __init pktq_init(void)
{
	int ret;

	pq = kzalloc(sizeof(*pq), GFP_KERNEL);
	if (!pq)
		return -ENOMEM;
	kref_init(&pq->ref);
	init_completion(&pq->drained);
	INIT_WORK(&pq->drain, pktq_drain);
	skb_queue_head_init(&pq->queue);
	pq->misc.minor = MISC_DYNAMIC_MINOR;
	pq->misc.name = "pktq";
	pq->misc.fops = &pktq_fops;
	ret = misc_register(&pq->misc);
	if (ret)
		kfree(pq);
	return ret;
}

static void __exit pktq_exit(void)
{
	misc_deregister(&pq->misc);
	schedule_work(&pq->drain);
	wait_for_completion(&pq->drained);
	flush_work(&pq->drain);
	kref_put(&pq->ref, pktq_last_put);
	kfree(pq);
}

module_init(pktq_init);
module_exit(pktq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Packet queue whose exit waits for its own drain work");
