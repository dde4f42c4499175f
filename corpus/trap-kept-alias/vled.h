/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef VLED_H
#define VLED_H

#include <linux/notifier.h>

extern struct notifier_block vled_panic_nb;

#endif
