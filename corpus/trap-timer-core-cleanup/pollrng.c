// SPDX-License-Identifier: GPL-2.0-only
/*
 * pollrng: a hardware RNG whose FIFO is topped up by a polling timer.
 *
 * The timer is armed in the hwrng's .init and stopped with
 * del_timer_sync() in its .cleanup. Module exit calls hwrng_unregister(),
 * and the hwrng core calls .cleanup when it drops the device, before
 * hwrng_unregister() returns: the core runs the stop for us.
 */
#include <linux/hw_random.h>
#include <linux/jiffies.h>
#include <linux/kfifo.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/timer.h>

struct pollrng {
	struct hwrng rng;
	struct timer_list poll;
	DECLARE_KFIFO(fifo, u32, 64);
};

static void pollrng_poll(struct timer_list *t)
{
	struct pollrng *p = from_timer(p, t, poll);
	u32 word = 0x9e3779b9 ^ (u32)jiffies;	/* the "hardware" register */

	kfifo_put(&p->fifo, word);
	mod_timer(&p->poll, jiffies + msecs_to_jiffies(10));
}

static int pollrng_init(struct hwrng *rng)
{
	struct pollrng *p = container_of(rng, struct pollrng, rng);

	INIT_KFIFO(p->fifo);
	timer_setup(&p->poll, pollrng_poll, 0);
	mod_timer(&p->poll, jiffies + msecs_to_jiffies(10));
	return 0;
}

static void pollrng_cleanup(struct hwrng *rng)
{
	struct pollrng *p = container_of(rng, struct pollrng, rng);

	del_timer_sync(&p->poll);
}

static int pollrng_read(struct hwrng *rng, void *buf, size_t max, bool wait)
{
	struct pollrng *p = container_of(rng, struct pollrng, rng);
	size_t done = 0;
	u32 word;

	while (done + sizeof(word) <= max && kfifo_get(&p->fifo, &word)) {
		memcpy(buf + done, &word, sizeof(word));
		done += sizeof(word);
	}
	return done;
}

static struct pollrng prng = {
	.rng = {
		.name = "pollrng",
		.init = pollrng_init,
		.cleanup = pollrng_cleanup,
		.read = pollrng_read,
	},
};

static int __init pollrng_mod_init(void)
{
	return hwrng_register(&prng.rng);
}

static void __exit pollrng_mod_exit(void)
{
	hwrng_unregister(&prng.rng);
}

module_init(pollrng_mod_init);
module_exit(pollrng_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Hardware RNG topped up by a polling timer");
