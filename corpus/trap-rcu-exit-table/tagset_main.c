// SPDX-License-Identifier: GPL-2.0-only
/*
 * tagset: a set of names edited through /dev/tagset ("+name" adds,
 * "-name" drops). The module is brought up and down in steps kept in two
 * tables, as device-mapper's core does: exit runs every step's exit
 * function through a function pointer, the cache's (which waits for its
 * RCU callbacks) among them.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#include "tagset.h"

#define TAGSET_CMD_LEN	33

static ssize_t tagset_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char cmd[TAGSET_CMD_LEN];
	int ret = 0;

	if (count < 2 || count >= TAGSET_CMD_LEN)
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	if (cmd[count - 1] == '\n')
		cmd[count - 1] = '\0';
	if (cmd[0] == '+')
		ret = tagset_cache_add(cmd + 1);
	else if (cmd[0] == '-')
		tagset_cache_drop(cmd + 1);
	else
		ret = -EINVAL;
	return ret ? ret : count;
}

static const struct file_operations tagset_fops = {
	.owner = THIS_MODULE,
	.write = tagset_write,
	.llseek = noop_llseek,
};

static struct miscdevice tagset_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tagset",
	.fops = &tagset_fops,
};

static int tagset_misc_init(void)
{
	return misc_register(&tagset_misc);
}

static void tagset_misc_exit(void)
{
	misc_deregister(&tagset_misc);
}

static int (*tagset_inits[])(void) = {
	tagset_cache_init,
	tagset_misc_init,
};

static void (*tagset_exits[])(void) = {
	tagset_cache_exit,
	tagset_misc_exit,
};

static int __init tagset_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(tagset_inits); i++) {
		ret = tagset_inits[i]();
		if (ret)
			goto undo;
	}
	return 0;
undo:
	while (i--)
		tagset_exits[i]();
	return ret;
}

static void __exit tagset_exit(void)
{
	int i = ARRAY_SIZE(tagset_exits);

	/* the device goes first: no new drops once the cache is torn down */
	while (i--)
		tagset_exits[i]();
}

module_init(tagset_init);
module_exit(tagset_exit);
MODULE_DESCRIPTION("Named tag set with table-driven init and exit");
MODULE_LICENSE("GPL");
