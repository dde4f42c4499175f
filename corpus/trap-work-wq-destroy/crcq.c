// SPDX-License-Identifier: GPL-2.0-only
/*
 * crcq: asynchronous checksum service. Each write() to /dev/crcq becomes a
 * request processed on the module's own workqueue; read() returns the
 * number of buffers checksummed and the CRC32 of the last one.
 *
 * Nothing cancels the requests one by one: exit destroys the workqueue,
 * which first drains every queued request, so no crcq_work() runs later.
 */
#include <linux/crc32.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#define CRCQ_MAX_LEN	(64 * 1024)

struct crcq_req {
	struct work_struct work;
	size_t len;
	u8 data[];
};

static struct workqueue_struct *crcq_wq;
static DEFINE_SPINLOCK(crcq_lock);
static unsigned long crcq_done;
static u32 crcq_last;

static void crcq_work(struct work_struct *work)
{
	struct crcq_req *req = container_of(work, struct crcq_req, work);
	u32 crc = crc32_le(~0, req->data, req->len) ^ ~0;

	spin_lock(&crcq_lock);
	crcq_done++;
	crcq_last = crc;
	spin_unlock(&crcq_lock);
	kvfree(req);
}

static ssize_t crcq_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct crcq_req *req;

	if (!count || count > CRCQ_MAX_LEN)
		return -EINVAL;
	req = kvmalloc(struct_size(req, data, count), GFP_KERNEL);
	if (!req)
		return -ENOMEM;
	if (copy_from_user(req->data, ubuf, count)) {
		kvfree(req);
		return -EFAULT;
	}
	req->len = count;
	INIT_WORK(&req->work, crcq_work);
	queue_work(crcq_wq, &req->work);
	return count;
}

static ssize_t crcq_read(struct file *file, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	unsigned long done;
	char tmp[40];
	u32 last;
	int len;

	spin_lock(&crcq_lock);
	done = crcq_done;
	last = crcq_last;
	spin_unlock(&crcq_lock);

	len = scnprintf(tmp, sizeof(tmp), "%lu %08x\n", done, last);
	return simple_read_from_buffer(ubuf, count, ppos, tmp, len);
}

static const struct file_operations crcq_fops = {
	.owner	= THIS_MODULE,
	.read	= crcq_read,
	.write	= crcq_write,
	.llseek	= no_llseek,
};

static struct miscdevice crcq_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "crcq",
	.fops	= &crcq_fops,
};

static int __init crcq_init(void)
{
	int ret;

	crcq_wq = alloc_workqueue("crcq", WQ_UNBOUND, 0);
	if (!crcq_wq)
		return -ENOMEM;

	ret = misc_register(&crcq_misc);
	if (ret)
		destroy_workqueue(crcq_wq);
	return ret;
}

static void __exit crcq_exit(void)
{
	misc_deregister(&crcq_misc);
	destroy_workqueue(crcq_wq);
}

module_init(crcq_init);
module_exit(crcq_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Asynchronous CRC32 service (workqueue destroyed on exit)");
