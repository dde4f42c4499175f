// SPDX-License-Identifier: GPL-2.0-only
/*
 * sparse's blob allocator (compat/mmap-blob.c), replaced: the library maps
 * every 32 KiB blob with an mmap() of its own, and a big driver file takes
 * thousands of mmaps and tens of thousands of page faults, a third of its
 * time. Here blobs are cut from 2 MiB-aligned regions advised as huge pages
 * (the kernel falls back to small pages when it has none), and a freed blob
 * is kept for the next allocation. Defining the library's compat symbols
 * here keeps its compat object out of the link.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib.h"
#include "compat.h"

#define REGION (2UL << 20)

static char *next_blob, *region_end;
static void *freed;

/* A 2 MiB region on a 2 MiB boundary, or NULL when memory ran out. */
static char *map_region(void)
{
	size_t len = 2 * REGION;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t start;
	size_t head;

	if (p == MAP_FAILED) {
		/* under the address-space cap: one region, unaligned */
		p = mmap(NULL, REGION, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	start = ((uintptr_t)p + REGION - 1) & ~(REGION - 1);
	head = start - (uintptr_t)p;
	if (head)
		munmap(p, head);
	if (len - head > REGION)
		munmap((char *)start + REGION, len - head - REGION);
#ifdef MADV_HUGEPAGE
	madvise((void *)start, REGION, MADV_HUGEPAGE);
#endif
	return (char *)start;
}

void *blob_alloc(unsigned long size)
{
	void *p;

	if (size != CHUNK)
		die("internal error: bad allocation size (%lu bytes)", size);
	if (freed) {
		/* the allocator counts on zeroed blobs, as mmap gives */
		p = freed;
		freed = *(void **)p;
		memset(p, 0, CHUNK);
		return p;
	}
	if (next_blob == region_end) {
		next_blob = map_region();
		if (!next_blob) {
			/* the cap's last stretch: one blob at a time */
			region_end = NULL;
			p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			return p == MAP_FAILED ? NULL : p;
		}
		region_end = next_blob + REGION;
	}
	p = next_blob;
	next_blob += CHUNK;
	return p;
}

void blob_free(void *addr, unsigned long size)
{
	if (size != CHUNK || ((uintptr_t)addr & 4095))
		die("internal error: bad blob free (%lu bytes at %p)",
		    size, addr);
#if defined(__SANITIZE_ADDRESS__)
	/* a use after free faults, as with the library's own allocator */
	munmap(addr, size);
#else
	*(void **)addr = freed;
	freed = addr;
#endif
}

long double string_to_ld(const char *nptr, char **endptr)
{
	return strtold(nptr, endptr);
}
