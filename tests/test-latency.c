/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test-latency.c: what libsweep concludes from the times of directory reads
 * (lib/latency.c), fed with the times a warm cache, a rotating disk, an
 * SSD and network block storage give. The walk's side of it (block order dropped warm, helper threads
 * started cold on a fast device) is in test-walk-order.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "internal.h"

#define US 1000u
#define SMALL_DIR 200 /* bytes getdents returns for a few names */
#define DEV 0x801     /* the device of the root */
#define NEAR_DIST (64u << 10)  /* a directory just after the one read before */
#define FAR_DIST  (1ull << 30) /* one a seek away on a disk */

/* What latency.c is given: its own state, whether helper threads run, and
 * how far after the one before a directory read in trace() lies. */
struct probe {
	struct sw_latency lat;
	bool helpers_run;
	uint64_t close_dist;
	uint64_t dir_size;   /* the st_size of the directories read */
	bool asked;          /* the walk's thread was asked what it used (big) */
	struct sw_thread_use used; /* ... and that is what it said */
};

static int setup(void **state)
{
	struct probe *p = calloc(1, sizeof(*p));
	assert_non_null(p);
	sw_latency_reset(&p->lat, DEV);
	p->close_dist = NEAR_DIST;
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static void reads(struct probe *p, unsigned n, uint64_t ns, ssize_t len, bool near)
{
	while (n--)
		sw_note_dir_read(&p->lat, ns, len, near ? NEAR_DIST : FAR_DIST, p->dir_size,
		                 p->helpers_run, p->asked ? &p->used : NULL);
}

static void warm_cache_shows_in_four_reads(void **state)
{
	struct probe *p = *state;
	for (int i = 0; i < 4; i++) {
		assert_true(sw_dirs_probing(&p->lat));
		assert_false(sw_dirs_cached(&p->lat));
		reads(p, 1, 3 * US, SMALL_DIR, false);
	}
	assert_true(sw_dirs_cached(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
	reads(p, 4, 3 * US, SMALL_DIR, false);
	assert_false(sw_dirs_probing(&p->lat)); /* eight probes at most */
}

/* ext4 sorts a large directory's hashes on the first read, cache or not. */
static void large_directory_from_the_cache_is_no_miss(void **state)
{
	struct probe *p = *state;
	reads(p, 4, 400 * US, 27 << 10, false);
	assert_true(sw_dirs_cached(&p->lat));
	reads(p, 1, 400 * US, SMALL_DIR, false); /* but a small one is */
	assert_false(sw_dirs_probing(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
}

static void disk_miss_ends_probing(void **state)
{
	struct probe *p = *state;
	reads(p, 1, 8000 * US, SMALL_DIR, false);
	assert_false(sw_dirs_probing(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
}

static void ssd_misses_are_cheap(void **state)
{
	struct probe *p = *state;
	reads(p, 5, 80 * US, SMALL_DIR, false);
	assert_true(sw_dirs_probing(&p->lat)); /* cheap so far: probing goes on */
	assert_false(sw_misses_cheap(&p->lat)); /* but five misses do not judge */
	reads(p, 1, 110 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
	/* one slow outlier does not undo it, nor a spell of reads delayed by
	 * a busy machine; misses at a disk arm's cost do */
	reads(p, 1, 900 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));
	reads(p, 30, 600 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));
	reads(p, 30, 5000 * US, SMALL_DIR, false);
	assert_false(sw_misses_cheap(&p->lat));
}

/* Once the helper threads run, the walk's reads wait behind them: their
 * times no longer judge the device (without the threads, they would). */
static void helpers_load_does_not_undo_cheap(void **state)
{
	struct probe *p = *state;
	reads(p, 6, 90 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));
	p->helpers_run = true;
	reads(p, 40, 4000 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));
	p->helpers_run = false;
	reads(p, 40, 4000 * US, SMALL_DIR, false);
	assert_false(sw_misses_cheap(&p->lat));
}

/* The first reads on a disk may come from its read-ahead and look like an
 * SSD's; the first real seek ends the probing and the judgement. */
static void disk_read_ahead_does_not_pass_for_an_ssd(void **state)
{
	struct probe *p = *state;
	reads(p, 3, 150 * US, SMALL_DIR, false);
	assert_true(sw_dirs_probing(&p->lat));
	reads(p, 1, 8000 * US, SMALL_DIR, false);
	assert_false(sw_dirs_probing(&p->lat));
	reads(p, 3, 150 * US, SMALL_DIR, false);
	assert_false(sw_misses_cheap(&p->lat));
}

/* Fast reads right after their neighbour in block order may be read-ahead:
 * they do not make a cold cache look warm; far ones do. */
static void reads_near_the_last_do_not_warm(void **state)
{
	struct probe *p = *state;
	reads(p, 20, 8000 * US, SMALL_DIR, false);
	assert_false(sw_dirs_cached(&p->lat));
	reads(p, 1000, 3 * US, SMALL_DIR, true);
	assert_false(sw_dirs_cached(&p->lat));
	reads(p, 40, 3 * US, SMALL_DIR, false);
	assert_true(sw_dirs_cached(&p->lat));
}

/* A short seek or a hit in the drive's buffer is fast; it must not make a
 * rotating disk look like an SSD. */
static void near_misses_do_not_judge_the_device(void **state)
{
	struct probe *p = *state;
	reads(p, 2, 8000 * US, SMALL_DIR, false);
	reads(p, 1000, 90 * US, SMALL_DIR, true);
	assert_false(sw_misses_cheap(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
}

/* A new root probes again; what was learnt of the device stays only for a
 * root on the same device. */
static void new_root_probes_again(void **state)
{
	struct probe *p = *state;
	reads(p, 8, 80 * US, SMALL_DIR, false);
	assert_false(sw_dirs_probing(&p->lat));
	assert_true(sw_misses_cheap(&p->lat));
	sw_latency_reset(&p->lat, DEV);
	assert_true(sw_dirs_probing(&p->lat));
	assert_true(sw_misses_cheap(&p->lat));
	sw_latency_reset(&p->lat, DEV + 1);
	assert_true(sw_dirs_probing(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
}

/* Synthetic traces of devices: a seeded generator, and reads of a time
 * drawn uniformly from [lo, hi] microseconds. */
static uint64_t rng_state = 88172645463325252ull;

static uint64_t uniform_us(uint64_t lo, uint64_t hi)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (lo + rng_state % (hi - lo + 1)) * US;
}

/* n rounds of one far miss and two near ones, each in its own range (the
 * first probe aside, a walk in block order reads so). Returns how many
 * rounds passed before the misses were judged cheap, or n. */
static unsigned trace(struct probe *p, unsigned n, uint64_t far_lo, uint64_t far_hi,
                      uint64_t near_lo, uint64_t near_hi)
{
	for (unsigned i = 0; i < n; i++) {
		sw_note_dir_read(&p->lat, uniform_us(far_lo, far_hi), SMALL_DIR, FAR_DIST, 0,
		                 false, false);
		for (int k = 0; k < 2; k++)
			sw_note_dir_read(&p->lat, uniform_us(near_lo, near_hi), SMALL_DIR,
			                 p->close_dist, 0, false, false);
		if (sw_misses_cheap(&p->lat))
			return i;
	}
	return n;
}

/* Network block storage: 0.8 ms wherever a read lands, near or far: depth
 * is what wins there, as on an SSD, though each miss is slow. Judged on
 * sixteen misses of each kind, not before, once it held for sixteen more. */
static void network_storage_is_flat(void **state)
{
	struct probe *p = *state;
	assert_int_equal(trace(p, 16, 700, 900, 700, 900), 16);
	assert_false(sw_misses_flat(&p->lat));
	assert_in_range(trace(p, 10, 700, 900, 700, 900), 3, 6);
	assert_true(sw_misses_flat(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
	/* slower (Ceph, 2 ms), or with a miss taking up to four times another
	 * (a busy network), it is still flat */
	sw_latency_reset(&p->lat, DEV + 1);
	assert_in_range(trace(p, 40, 1500, 2500, 1500, 2500), 16, 30);
	reads(p, 40, 5000 * US, SMALL_DIR, false); /* a busy spell: it stays flat */
	assert_true(sw_misses_cheap(&p->lat));
	sw_latency_reset(&p->lat, DEV + 2);
	assert_in_range(trace(p, 100, 500, 2000, 500, 2000), 16, 99);
}

/* Directories read out of block order are placed for the judgement until
 * it is made, or for 256 misses on a device that is no flat one. */
static void places_wanted_until_judged(void **state)
{
	struct probe *p = *state;
	assert_true(sw_latency_wants_places(&p->lat));
	trace(p, 85, 4000, 13000, 100, 8300); /* 255 misses of a disk */
	assert_true(sw_latency_wants_places(&p->lat));
	reads(p, 1, 9000 * US, SMALL_DIR, false);
	assert_false(sw_latency_wants_places(&p->lat));
	sw_latency_reset(&p->lat, DEV + 1);
	assert_int_equal(trace(p, 40, 700, 900, 700, 900) < 40, true);
	assert_false(sw_latency_wants_places(&p->lat));
}

/* A long walk on a disk whose far misses take [far_lo, far_hi] us and near
 * ones are half hits in its buffer, half partial turns: never judged flat
 * on the way. */
static void disk_walk(struct probe *p, uint64_t far_lo, uint64_t far_hi)
{
	for (int i = 0; i < 100; i++) {
		trace(p, 1, far_lo, far_hi, 100, 250);
		trace(p, 1, far_lo, far_hi, 100, 8300);
		assert_false(sw_misses_flat(&p->lat));
	}
}

/* A 7200 RPM disk: a far miss is a seek and part of a turn (4-13 ms). */
static void disk_arm_is_not_flat(void **state)
{
	struct probe *p = *state;
	disk_walk(p, 4000, 13000);
	assert_false(sw_misses_cheap(&p->lat));
}

/* A big disk holding a small tree seeks little between far reads (1.5 ms
 * and a random turn), and reads near ones in part from its buffer: its
 * misses still depend on distance. So do those of a drive whose buffer
 * serves no near read (each waits its part of a turn) and which seeks 1 ms
 * between far ones, and of a disk on a busy machine, whose reads all wait
 * 3 ms more for a core. */
static void short_seeks_and_a_busy_machine_stay_an_arm(void **state)
{
	struct probe *p = *state;
	disk_walk(p, 1500, 9800);
	sw_latency_reset(&p->lat, DEV + 2);
	for (int i = 0; i < 200; i++) {
		trace(p, 1, 1000, 9300, 30, 8300);
		assert_false(sw_misses_flat(&p->lat));
	}
	sw_latency_reset(&p->lat, DEV + 1);
	assert_int_equal(trace(p, 200, 7000, 16000, 3100, 3250), 200);
	assert_false(sw_misses_flat(&p->lat));
}

/* In inode order few directories lie just after the one before, many a
 * few megabytes on (in the same group): those count as close too, on a
 * flat device and on a disk. */
static void inode_order_distances_judge_too(void **state)
{
	struct probe *p = *state;
	p->close_dist = 8u << 20;
	assert_in_range(trace(p, 40, 700, 900, 700, 900), 16, 30);
	sw_latency_reset(&p->lat, DEV + 1);
	assert_int_equal(trace(p, 200, 4000, 13000, 1000, 9300), 200);
	assert_false(sw_misses_flat(&p->lat));
}

/* A walk in disk order over a tree laid out in that order reads each
 * directory close after the one before: on a device that says it does not
 * rotate, close misses alike and slower than a buffer hit judge it flat;
 * on one that says it rotates they do not (nor in any case a disk's close
 * reads: buffer hits and parts of a turn). */
static void solid_device_judged_on_close_misses(void **state)
{
	struct probe *p = *state;
	sw_latency_says_solid(&p->lat, true);
	/* sooner than with distant misses to wait for (16 rounds at least) */
	assert_in_range(trace(p, 40, 700, 900, 700, 900), 8, 15);
	sw_latency_reset(&p->lat, DEV + 1);
	for (int i = 0; i < 60; i++)
		reads(p, 1, uniform_us(700, 900), SMALL_DIR, true);
	assert_true(sw_misses_flat(&p->lat));
	sw_latency_reset(&p->lat, DEV + 2);
	for (int i = 0; i < 200; i++) {
		reads(p, 1, uniform_us(100, 250), SMALL_DIR, true);
		reads(p, 1, uniform_us(30, 8300), SMALL_DIR, true);
		assert_false(sw_misses_flat(&p->lat));
	}
	sw_latency_reset(&p->lat, DEV + 3);
	for (int i = 0; i < 200; i++) /* all buffer hits */
		reads(p, 1, uniform_us(100, 250), SMALL_DIR, true);
	assert_false(sw_misses_flat(&p->lat));
	/* buffer hits over a slow link (USB: 0.4-0.7 ms), and now and then a
	 * seek: the distant misses give the disk away */
	sw_latency_reset(&p->lat, DEV + 5);
	for (int i = 0; i < 200; i++) {
		trace(p, 1, 4000, 13000, 400, 700);
		assert_false(sw_misses_flat(&p->lat));
	}
	sw_latency_says_solid(&p->lat, false);
	sw_latency_reset(&p->lat, DEV + 4);
	for (int i = 0; i < 200; i++)
		reads(p, 1, uniform_us(700, 900), SMALL_DIR, true);
	assert_false(sw_misses_flat(&p->lat));
}

/* Stragglers (one far read in four waiting 20 ms behind another), reads
 * from the cache between the misses, and after the judgement one read of
 * 50 ms do not make a flat device an arm. */
static void flat_device_with_stragglers_and_hits(void **state)
{
	struct probe *p = *state;
	unsigned rounds = 0;
	for (int i = 0; i < 40 && !sw_misses_cheap(&p->lat); i++, rounds++) {
		reads(p, 1, i % 4 == 3 ? 20000 * US : uniform_us(700, 900), SMALL_DIR, false);
		reads(p, 2, 3 * US, SMALL_DIR, false);
		reads(p, 1, uniform_us(700, 900), SMALL_DIR, true);
		reads(p, 1, 3 * US, SMALL_DIR, true);
		reads(p, 1, uniform_us(700, 900), SMALL_DIR, true);
	}
	assert_true(sw_misses_flat(&p->lat));
	assert_in_range(rounds, 16, 30);
	reads(p, 1, 50000 * US, SMALL_DIR, false);
	assert_true(sw_misses_flat(&p->lat));
	assert_true(sw_misses_cheap(&p->lat));
}

/* A read that failed took no time worth counting. */
static void failed_reads_do_not_count(void **state)
{
	struct probe *p = *state;
	reads(p, 20, 1 * US, -1, false);
	assert_false(sw_dirs_cached(&p->lat));
	assert_true(sw_dirs_probing(&p->lat));
}

/* n stats as the walk takes them: fast, and slow where i % every is
 * every / 5 (ext4 reads 32 blocks of an inode table at once: in inode
 * order few stats wait for the device). */
static void stats(struct probe *p, unsigned n, uint64_t fast, uint64_t slow, unsigned every)
{
	for (unsigned i = 0; i < n; i++)
		if (sw_latency_times_stat(&p->lat, p->helpers_run))
			sw_note_stat(&p->lat, i % every == every / 5 ? slow : fast);
}

/* The same, where the walk stats a name again when asked, in again ns. */
static void stats_and_again(struct probe *p, unsigned n, uint64_t fast, uint64_t slow,
                            unsigned every, uint64_t again)
{
	for (unsigned i = 0; i < n; i++) {
		if (!sw_latency_times_stat(&p->lat, p->helpers_run))
			continue;
		sw_note_stat(&p->lat, i % every == every / 5 ? slow : fast);
		if (sw_latency_wants_restat(&p->lat))
			sw_note_restat(&p->lat, again);
	}
}

/* A quarter of the stats are timed, in windows of consecutive ones; none
 * while helper threads stat ahead on a device judged cheap. */
static void stats_timed_in_windows(void **state)
{
	struct probe *p = *state;
	unsigned timed = 0, run = 0, longest = 0;
	for (int i = 0; i < 4096; i++) {
		bool t = sw_latency_times_stat(&p->lat, false);
		timed += t;
		run = t ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	assert_int_equal(timed, 1024);
	assert_true(longest >= 200);
	reads(p, 6, 90 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));
	for (int i = 0; i < 4096; i++)
		assert_false(sw_latency_times_stat(&p->lat, true));
}

/* A big directory from a fast device reads in less than its names allow
 * (0.6 ms for 1,000 names, 0.26 from the cache): the tree looks cached,
 * but the stats of its names are slow, a few wait for the device, and
 * cheaply: once judged so, misses cheap and the tree not cached. Once the
 * stats are fast, cached again. */
static void big_directories_cold_on_a_fast_device(void **state)
{
	struct probe *p = *state;
	p->dir_size = 32 << 10;
	reads(p, 4, 600 * US, 32 << 10, false);
	assert_true(sw_dirs_cached(&p->lat));
	stats(p, 2048, 6 * US, 450 * US, 128);
	assert_false(sw_misses_cheap(&p->lat)); /* two windows do not judge */
	assert_true(sw_dirs_cached(&p->lat)); /* nor take reads out of order */
	/* over its names' allowance: a miss, but 8 blocks read one at a time,
	 * 0.25 ms each */
	reads(p, 1, 3000 * US, 32 << 10, false);
	assert_true(sw_dirs_probing(&p->lat));
	stats(p, 6144, 6 * US, 450 * US, 128);
	assert_true(sw_misses_cheap(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
	reads(p, 8, 300 * US, 32 << 10, false); /* from the cache now */
	assert_false(sw_dirs_cached(&p->lat)); /* the stats waited lately */
	stats(p, 5000, 1 * US, 1 * US, 128);
	assert_true(sw_dirs_cached(&p->lat));
}

/* A big directory read from a fast device within its names' allowance,
 * but with blocks read from the device (a find walk, that takes no stats
 * to time): a miss, and a cheap one. The same times from the cache, with
 * no block read, stay hits. */
static void big_directories_that_read_blocks_miss(void **state)
{
	struct probe *p = *state;
	p->dir_size = 32 << 10;
	reads(p, 8, 600 * US, 32 << 10, false);
	assert_true(sw_dirs_cached(&p->lat));
	p->asked = true;
	p->used.blocks = 8;
	reads(p, 8, 600 * US, 32 << 10, false);
	assert_false(sw_dirs_cached(&p->lat));
	assert_true(sw_misses_cheap(&p->lat)); /* 75 us a block: no arm */
	p->used.blocks = 0;
	reads(p, 40, 250 * US, 32 << 10, false);
	assert_true(sw_dirs_cached(&p->lat));
}

/* A warm tree's stats take a microsecond, a few of them tens (interrupts,
 * the scheduler): they say nothing. Nor do a slow machine's, that all take
 * a few microseconds but none waits. */
static void cached_stats_say_nothing(void **state)
{
	struct probe *p = *state;
	reads(p, 4, 3 * US, SMALL_DIR, false);
	stats(p, 100000, 1 * US, 40 * US, 300);
	assert_true(sw_dirs_cached(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
	stats(p, 100000, 4 * US, 4 * US, 300);
	assert_true(sw_dirs_cached(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
}

/* What a stat from the cache costs is learnt from stats of a name again:
 * on a machine where they take 2 us, first stats of 3.5 us are from the
 * cache too, and the names skip the elevator; of 7 us, a few waiting for
 * the device, the inodes are cold. Without such stats, 3 us is the line. */
static void slow_machines_stats_from_the_cache(void **state)
{
	struct probe *p = *state;
	reads(p, 4, 3 * US, SMALL_DIR, false);
	stats(p, 4096, 3500, 3500, 300);
	assert_false(sw_stats_warm(&p->lat));
	stats_and_again(p, 4096, 3500, 3500, 300, 2 * US);
	assert_true(sw_stats_warm(&p->lat));
	stats_and_again(p, 4096, 7 * US, 400 * US, 64, 2 * US);
	assert_false(sw_stats_warm(&p->lat));
	assert_false(sw_misses_cheap(&p->lat));
	stats_and_again(p, 8192, 7 * US, 400 * US, 64, 2 * US);
	assert_true(sw_misses_cheap(&p->lat)); /* misses of 0.4 ms */
	stats_and_again(p, 4096, 1 * US, 1 * US, 64, 1 * US);
	assert_true(sw_stats_warm(&p->lat)); /* 3 us the line, as before */
}

/* On a disk the inode table's reads are seeks, or hits in the drive's
 * buffer between them: the arm stays an arm, and directory misses at its
 * cost are not undone by a few cheap windows. */
static void disk_stats_stay_an_arm(void **state)
{
	struct probe *p = *state;
	p->dir_size = 32 << 10;
	reads(p, 4, 600 * US, 32 << 10, false);
	reads(p, 1, 12000 * US, 32 << 10, false); /* a seek, a turn, 8 blocks */
	assert_false(sw_dirs_probing(&p->lat));
	for (int i = 0; i < 50; i++) {
		stats(p, 1024, 6 * US, 150 * US, 128); /* buffer hits */
		stats(p, 1024, 6 * US, 8000 * US, 512); /* a seek */
	}
	assert_false(sw_misses_cheap(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
	reads(p, 3, 9000 * US, 32 << 10, false);
	stats(p, 10240, 6 * US, 100 * US, 512);
	assert_false(sw_misses_cheap(&p->lat));
}

/* On a disk in block order, big directories right after the one before
 * come from the drive's buffer within their names' allowance: blocks read,
 * so misses, but near ones, which do not make the arm cheap. */
static void disk_buffer_hits_stay_an_arm(void **state)
{
	struct probe *p = *state;
	p->dir_size = 32 << 10;
	p->asked = true;
	p->used.blocks = 8;
	for (int i = 0; i < 50; i++) {
		reads(p, 1, 12000 * US, 32 << 10, false); /* a seek, a turn */
		reads(p, 3, 900 * US, 32 << 10, true);    /* 8 buffer hits */
	}
	assert_false(sw_misses_cheap(&p->lat));
	assert_false(sw_misses_flat(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
}

/* Big directories (5 blocks) read on a machine whose system calls cost
 * four times as much: ext4 sorting their hashes takes 1.9 ms of the
 * thread's CPU, more than their names' allowance, and what the CPU leaves
 * is the device's. A fast device's read of 2.5 ms is then cheap (0.12 ms a
 * block); an arm's, a seek and a turn more, is not; and with the CPU time
 * unknown the fast device's reads pass for an arm's (0.5 ms a block). */
static void big_directories_on_a_slow_cpu(void **state)
{
	struct probe *p = *state;
	p->dir_size = 23 << 10;
	p->asked = true;
	p->used = (struct sw_thread_use){ .blocks = 5, .cpu_ns = 1900 * US };
	reads(p, 8, 2500 * US, 32 << 10, false);
	assert_true(sw_misses_cheap(&p->lat));

	sw_latency_reset(&p->lat, DEV + 1);
	reads(p, 8, 12000 * US, 32 << 10, false);
	assert_false(sw_misses_cheap(&p->lat));

	sw_latency_reset(&p->lat, DEV + 2);
	p->used.cpu_ns = 0;
	reads(p, 8, 2500 * US, 32 << 10, false);
	assert_false(sw_misses_cheap(&p->lat));
}

/* A walk's first read carries the cost of everything touched first: it
 * does not outweigh the five misses after it (the average of the first
 * eight is a plain mean). A disk's seek after cheap first misses still
 * makes them costly. */
static void first_miss_is_one_of_many(void **state)
{
	struct probe *p = *state;
	reads(p, 1, 760 * US, SMALL_DIR, false);
	reads(p, 4, 150 * US, SMALL_DIR, false);
	assert_false(sw_misses_cheap(&p->lat)); /* five do not judge */
	reads(p, 1, 150 * US, SMALL_DIR, false);
	assert_true(sw_misses_cheap(&p->lat));

	sw_latency_reset(&p->lat, DEV + 1);
	reads(p, 5, 100 * US, SMALL_DIR, false);
	reads(p, 1, 8000 * US, SMALL_DIR, false);
	assert_false(sw_misses_cheap(&p->lat));
}

/* On a busy machine a read from the cache is preempted now and then:
 * during it the thread neither had blocks read nor slept, and however long
 * it took it is no miss; the probing goes on, the tree is found cached,
 * and a walk settled so asks the thread no more. The same time with the
 * thread asleep (waiting for another's read) is a miss at an arm's cost. */
static void preempted_reads_are_no_misses(void **state)
{
	struct probe *p = *state;
	p->asked = true; /* no blocks, no sleep */
	assert_true(sw_latency_wants_use(&p->lat));
	reads(p, 1, 3 * US, SMALL_DIR, false);
	reads(p, 1, 6000 * US, SMALL_DIR, false);
	assert_true(sw_dirs_probing(&p->lat));
	reads(p, 3, 3 * US, SMALL_DIR, false);
	assert_true(sw_dirs_cached(&p->lat));
	reads(p, 20, 3 * US, SMALL_DIR, false);
	assert_false(sw_latency_wants_use(&p->lat));

	sw_latency_reset(&p->lat, DEV + 1);
	p->used.sleeps = 1;
	reads(p, 1, 3 * US, SMALL_DIR, false);
	reads(p, 1, 6000 * US, SMALL_DIR, false);
	assert_false(sw_dirs_probing(&p->lat));
	assert_false(sw_dirs_cached(&p->lat));
	assert_true(sw_latency_wants_use(&p->lat));
}

/* What sweep_stats.strategy says as the judgement goes: probing at first,
 * then the cache, a device that takes depth, or one that seeks. */
static void strategy_follows_the_judgement(void **state)
{
	struct probe *p = *state;
	assert_int_equal(sw_latency_strategy(&p->lat), SWEEP_STRATEGY_PROBING);
	reads(p, 4, 3 * US, SMALL_DIR, false);
	assert_int_equal(sw_latency_strategy(&p->lat), SWEEP_STRATEGY_CACHED);

	sw_latency_reset(&p->lat, DEV + 1);
	reads(p, 6, 90 * US, SMALL_DIR, false);
	assert_int_equal(sw_latency_strategy(&p->lat), SWEEP_STRATEGY_DEPTH);

	sw_latency_reset(&p->lat, DEV + 2);
	reads(p, 1, 8000 * US, SMALL_DIR, false);
	assert_int_equal(sw_latency_strategy(&p->lat), SWEEP_STRATEGY_SWEEP);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(warm_cache_shows_in_four_reads),
		T(large_directory_from_the_cache_is_no_miss),
		T(disk_miss_ends_probing),
		T(ssd_misses_are_cheap),
		T(helpers_load_does_not_undo_cheap),
		T(disk_read_ahead_does_not_pass_for_an_ssd),
		T(reads_near_the_last_do_not_warm),
		T(near_misses_do_not_judge_the_device),
		T(new_root_probes_again),
		T(failed_reads_do_not_count),
		T(network_storage_is_flat),
		T(disk_arm_is_not_flat),
		T(places_wanted_until_judged),
		T(short_seeks_and_a_busy_machine_stay_an_arm),
		T(flat_device_with_stragglers_and_hits),
		T(inode_order_distances_judge_too),
		T(solid_device_judged_on_close_misses),
		T(stats_timed_in_windows),
		T(big_directories_cold_on_a_fast_device),
		T(big_directories_that_read_blocks_miss),
		T(big_directories_on_a_slow_cpu),
		T(first_miss_is_one_of_many),
		T(strategy_follows_the_judgement),
		T(preempted_reads_are_no_misses),
		T(cached_stats_say_nothing),
		T(slow_machines_stats_from_the_cache),
		T(disk_stats_stay_an_arm),
		T(disk_buffer_hits_stay_an_arm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
