// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlog: the event log's file. Each open takes a reference on the log,
 * each close drops it; the last one runs evlog_last_put().
 */
#include <linux/fs.h>
#include <linux/module.h>
#include "evlog.h"

static int evlog_open(struct inode *inode, struct file *file)
{
	struct evlog *ev = container_of(file->private_data, struct evlog,
					misc);

	kref_get(&ev->ref);
	file->private_data = ev;
	return 0;
}

static int evlog_release(struct inode *inode, struct file *file)
{
	struct evlog *ev = file->private_data;

	kref_put(&ev->ref, evlog_last_put);
	return 0;
}

static ssize_t evlog_read(struct file *file, char __user *buf, size_t len,
			  loff_t *ppos)
{
	struct evlog *ev = file->private_data;
	ssize_t ret;

	mutex_lock(&ev->lock);
	ret = simple_read_from_buffer(buf, len, ppos, ev->buf, ev->len);
	mutex_unlock(&ev->lock);
	return ret;
}

const struct file_operations evlog_fops = {
	.owner		= THIS_MODULE,
	.open		= evlog_open,
	.release	= evlog_release,
	.read		= evlog_read,
	.llseek		= default_llseek,
};
