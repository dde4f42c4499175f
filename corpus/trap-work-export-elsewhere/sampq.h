/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SAMPQ_H
#define SAMPQ_H

struct sampq_chan;

struct sampq_chan *sampq_open_chan(const char *name, unsigned int period_ms);
void sampq_close_chan(struct sampq_chan *chan);
unsigned long sampq_read(struct sampq_chan *chan);

#endif
