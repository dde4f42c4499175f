/* SPDX-License-Identifier: GPL-2.0-only */
/* track_async.c's tracker, as the pending-callback rules use it. */
#ifndef MODLIFE_TRACK_ASYNC_H
#define MODLIFE_TRACK_ASYNC_H

int own_function(struct expression *e);
struct expression *nth_arg(struct expression *call, int n);
int delayed_of(const char *key, char *buf, size_t len);
const char *inner_key(struct expression *addr, const char *key, char *buf,
		      size_t len);
const char *wq_inner_key(struct expression *e, const char *key, char *buf,
			 size_t len);
void unless_type(struct finding *f, const char *prefix,
		 struct expression *addr, const char *key);
void unless_sock_pinned(struct finding *f, struct expression *addr);
void fact_queued(const char *item, const char *on);
int first_time(const char *rule, const char *key);
const char *arm_id(struct walk_ctx *ctx, struct position pos, char *buf,
		   size_t len);
void track_arm(struct walk_ctx *ctx, struct position pos, const char *key,
	       struct expression *wq, int work);
struct expression *find_kthread_create(struct expression *e);
const char *system_wq_flush(void);

#endif
