// SPDX-License-Identifier: GPL-2.0-only
/*
 * meshlink: one link that runs in one of five modes; the
 * per-mode state shares a union, as mac80211's per-interface state does.
 * Each mode's code arms its timer through a pointer to its own state
 * ("&mesh->housekeeping"); the exit path stops them through the link
 * ("&link.u.mesh.housekeeping"). Both name the same timer: the union
 * member is the one the access names, not the first at that offset.
 * The ad-hoc, monitor, OCB and P2P states all begin with a timer, so
 * "&link.u.p2p.noa" and "&link.u.adhoc.beacon" compile to the same
 * offsets: a stop of any may be a stop of the others, the last member
 * as much as the second.
 */
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/timer.h>

struct meshlink_adhoc {
	struct timer_list beacon;
	unsigned int peers;
};

struct meshlink_mesh {
	unsigned long flags;
	struct timer_list housekeeping;
};

struct meshlink_monitor {
	struct timer_list scan;
	unsigned long frames;
};

struct meshlink_ocb {
	struct timer_list housekeeping;
	unsigned int stations;
};

struct meshlink_p2p {
	struct timer_list noa;
	unsigned int absences;
};

enum meshlink_mode {
	MESHLINK_ADHOC, MESHLINK_MESH, MESHLINK_MONITOR, MESHLINK_OCB,
	MESHLINK_P2P
};

struct meshlink {
	enum meshlink_mode mode;
	union {
		struct meshlink_adhoc adhoc;
		struct meshlink_mesh mesh;
		struct meshlink_monitor monitor;
		struct meshlink_ocb ocb;
		struct meshlink_p2p p2p;
	} u;
};

static int mode = MESHLINK_MESH;
module_param(mode, int, 0444);
MODULE_PARM_DESC(mode, "0 ad-hoc, 1 mesh (default), 2 monitor, 3 OCB, 4 P2P");

static struct meshlink link;

static void meshlink_housekeeping(struct timer_list *t)
{
	struct meshlink_mesh *m = from_timer(m, t, housekeeping);

	m->flags++;
	mod_timer(&m->housekeeping, jiffies + HZ);
}

static void meshlink_beacon(struct timer_list *t)
{
	struct meshlink_adhoc *a = from_timer(a, t, beacon);

	a->peers = 0;
	mod_timer(&a->beacon, jiffies + HZ / 10);
}

static void meshlink_scan(struct timer_list *t)
{
	struct meshlink_monitor *mon = from_timer(mon, t, scan);

	mon->frames = 0;
	mod_timer(&mon->scan, jiffies + HZ / 4);
}

static void meshlink_ocb_housekeeping(struct timer_list *t)
{
	struct meshlink_ocb *o = from_timer(o, t, housekeeping);

	o->stations = 0;
	mod_timer(&o->housekeeping, jiffies + HZ);
}

static void meshlink_noa(struct timer_list *t)
{
	struct meshlink_p2p *p = from_timer(p, t, noa);

	p->absences++;
	mod_timer(&p->noa, jiffies + HZ / 2);
}

static void meshlink_ocb_start(struct meshlink_ocb *o)
{
	timer_setup(&o->housekeeping, meshlink_ocb_housekeeping, 0);
	mod_timer(&o->housekeeping, jiffies + HZ);
}

static void meshlink_p2p_start(struct meshlink_p2p *p)
{
	timer_setup(&p->noa, meshlink_noa, 0);
	mod_timer(&p->noa, jiffies + HZ / 2);
}

static void meshlink_monitor_start(struct meshlink_monitor *mon)
{
	timer_setup(&mon->scan, meshlink_scan, 0);
	mod_timer(&mon->scan, jiffies + HZ / 4);
}

static void meshlink_mesh_start(struct meshlink_mesh *m)
{
	timer_setup(&m->housekeeping, meshlink_housekeeping, 0);
	mod_timer(&m->housekeeping, jiffies + HZ);
}

static void meshlink_adhoc_start(struct meshlink_adhoc *a)
{
	timer_setup(&a->beacon, meshlink_beacon, 0);
	mod_timer(&a->beacon, jiffies + HZ / 10);
}

static int __init meshlink_init(void)
{
	link.mode = mode;
	switch (link.mode) {
	case MESHLINK_ADHOC:
		meshlink_adhoc_start(&link.u.adhoc);
		break;
	case MESHLINK_MESH:
		meshlink_mesh_start(&link.u.mesh);
		break;
	case MESHLINK_MONITOR:
		meshlink_monitor_start(&link.u.monitor);
		break;
	case MESHLINK_OCB:
		meshlink_ocb_start(&link.u.ocb);
		break;
	case MESHLINK_P2P:
		meshlink_p2p_start(&link.u.p2p);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static void __exit meshlink_exit(void)
{
	switch (link.mode) {
	case MESHLINK_ADHOC:
		del_timer_sync(&link.u.adhoc.beacon);
		break;
	case MESHLINK_MESH:
		del_timer_sync(&link.u.mesh.housekeeping);
		break;
	case MESHLINK_MONITOR:
		del_timer_sync(&link.u.monitor.scan);
		break;
	case MESHLINK_OCB:
		del_timer_sync(&link.u.ocb.housekeeping);
		break;
	case MESHLINK_P2P:
		del_timer_sync(&link.u.p2p.noa);
		break;
	}
}

module_init(meshlink_init);
module_exit(meshlink_exit);
MODULE_DESCRIPTION("Ad-hoc, mesh, monitor, OCB or P2P link whose mode state shares a union");
MODULE_LICENSE("GPL");
