// SPDX-License-Identifier: GPL-2.0-only
/*
 * tagdir: rcu-bug with the tags in a kmem_cache of their own. Exit queues
 * one RCU callback per tag, which frees into the cache, then destroys the
 * cache without rcu_barrier(): the callbacks run in freed module text and
 * free into a destroyed cache. The barrier belongs before
 * kmem_cache_destroy(); the semantic patch would add it at the end of exit,
 * after it: modlife fix refuses that change.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define TAG_LEN		32

struct tag {
	struct list_head node;
	struct rcu_head rcu;
	char name[TAG_LEN];
};

static LIST_HEAD(tag_list);
static DEFINE_MUTEX(tag_lock);	/* serializes writers */
static struct kmem_cache *tag_cache;

static void tagdir_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(tag_cache, container_of(head, struct tag, rcu));
}

static void tag_remove(struct tag *t)
{
	list_del_rcu(&t->node);
	call_rcu(&t->rcu, tagdir_free_rcu);
}

static int tag_edit(const char *cmd)
{
	struct tag *t;

	list_for_each_entry(t, &tag_list, node) {
		if (!strcmp(t->name, cmd + 1)) {
			if (cmd[0] == '-')
				tag_remove(t);
			return cmd[0] == '+' ? -EEXIST : 0;
		}
	}
	if (cmd[0] == '-')
		return -ENOENT;

	t = kmem_cache_zalloc(tag_cache, GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	strscpy(t->name, cmd + 1, TAG_LEN);
	list_add_tail_rcu(&t->node, &tag_list);
	return 0;
}

static ssize_t tagdir_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char cmd[TAG_LEN + 1];
	int ret;

	if (count < 2 || count > TAG_LEN)
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	if (cmd[count - 1] == '\n')
		cmd[count - 1] = '\0';
	if (cmd[0] != '+' && cmd[0] != '-')
		return -EINVAL;

	mutex_lock(&tag_lock);
	ret = tag_edit(cmd);
	mutex_unlock(&tag_lock);
	return ret ? ret : count;
}

static ssize_t tagdir_read(struct file *file, char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	struct tag *t;
	size_t len = 0;
	char *buf;
	ssize_t ret;

	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rcu_read_lock();
	list_for_each_entry_rcu(t, &tag_list, node)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%s\n", t->name);
	rcu_read_unlock();
	ret = simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kfree(buf);
	return ret;
}

static const struct file_operations tagdir_fops = {
	.owner	= THIS_MODULE,
	.read	= tagdir_read,
	.write	= tagdir_write,
	.llseek	= no_llseek,
};

static struct miscdevice tagdir_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "tagdir",
	.fops	= &tagdir_fops,
	.mode	= 0600,
};

static int __init tagdir_init(void)
{
	int ret;

	tag_cache = KMEM_CACHE(tag, 0);
	if (!tag_cache)
		return -ENOMEM;
	ret = misc_register(&tagdir_misc);
	if (ret)
		kmem_cache_destroy(tag_cache);
	return ret;
}

static void __exit tagdir_exit(void)
{
	struct tag *t, *tmp;

	misc_deregister(&tagdir_misc);

	mutex_lock(&tag_lock);
	list_for_each_entry_safe(t, tmp, &tag_list, node)
		tag_remove(t);
	mutex_unlock(&tag_lock);
	kmem_cache_destroy(tag_cache);
}

module_init(tagdir_init);
module_exit(tagdir_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RCU-protected tag set (exit leaves RCU callbacks pending)");
