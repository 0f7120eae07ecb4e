/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * latency.c: what the walk learns from how long directory reads take.
 *
 * Two things that sysfs cannot tell reliably (a virtual disk may say it is
 * rotational, whatever is behind it): whether directories come from the cache lately, and
 * whether the device's misses are cheap.
 *
 * A directory read from the cache takes a few microseconds, one from a
 * device tens of microseconds (an SSD) to milliseconds (a rotating disk). A
 * large directory takes longer from the cache too: ext4 sorts all its
 * hashes on the first call, so a read counts as a miss
 * past DIR_READ_CACHED_NS plus DIR_READ_CACHED_NS_PER_NAME for each name it
 * returned (about 32 bytes each). The miss level is a moving average over
 * about 16 reads of the share of misses.
 *
 * Sorting directory reads by block only pays while they miss: from the
 * cache it saves nothing and costs reopening each directory. A walk starts undecided: its first PROBES
 * directories are read at once, as probes, for as long as each is fast or
 * its miss cheap; four fast ones make the level "cached", a costly miss ends
 * the probing (a cold walk on a disk pays one read out of block order for
 * it, or a few if the drive's read-ahead makes the first ones look cheap:
 * the device is judged on MISSES_TO_JUDGE misses at least, and one costly
 * miss weighs an eighth of the average).
 *
 * A read in block order close after the one before says little when it is
 * fast: the read-ahead of the kernel or the drive may have brought it in
 * with its neighbour, cold cache or not. Such reads count only when they
 * miss. Their misses say little of the device either (a short seek, a hit
 * in the drive's buffer): the time of a miss is averaged over the other
 * reads, and where it is under FAST_MISS_NS (an SSD, not a disk arm) the
 * order of requests hardly matters but their number in flight does: block
 * order is dropped, and helper threads warm the caches ahead of the walk
 * (warm.c). The judgement holds until the average passes SLOW_MISS_NS:
 * the threads' own load on a small machine delays the walk's reads past
 * FAST_MISS_NS now and then, and flapping back to block order would stop
 * them for nothing. Once the threads run, the walk's misses are not timed
 * at all: it reads what they have not reached yet, behind eight threads on
 * a few cores, and its reads then take milliseconds even on an SSD, which
 * would turn cold walks back to block order midway.
 *
 * What makes a device an arm is not the size of a miss but that its cost
 * grows with the distance from the request before: network block storage
 * misses take 0.5-2 ms wherever they land and wins with depth alone, like
 * an SSD. So the last MISS_RING misses are also kept apart by distance:
 * those of reads within SHORT_BYTES forward of the one before (close: in
 * block order most reads, in inode order many of a group's) and all others
 * (distant). On an arm a close miss is a hit in the drive's buffer, or a
 * short seek and a part of a turn, anything from nothing to a whole one,
 * and a distant one a longer seek and a turn. A device is judged flat, and
 * its misses cheap however long they take, when over DISTANCE_SAMPLES
 * misses of each kind at least, for FLAT_HOLDS misses in a row (and then
 * for the rest of the walk on that device: a slow flat device's misses
 * pass SLOW_MISS_NS, which must not take it back to an arm):
 *  - distant misses cost about what close ones do: the lower quartile of
 *    the distant ones at most FLAT_RATIO_PCT % of that of the close ones
 *    (lower quartiles: a turn adds the same spread to both kinds, a seek
 *    shows best in the quick ones, and stragglers do not decide);
 *  - misses of each kind take about the same time: the fastest at least
 *    half the lower quartile, the close ones' upper quartile at most twice
 *    it. A drive that seeks little and serves no close read from its
 *    buffer has close and distant misses alike, but each waits anything
 *    from nothing to a whole turn; a flat device has a floor, its latency.
 * Simulated (bench/results/device-flat/judge-sim.py: this rule on traces
 * like those of tests/test-latency.c, 2 or 20 close reads to a distant
 * one): on a device that says it rotates, no disk of six kinds was judged
 * flat in 1,000 walks of 2,000 rounds, and flat devices, those with up to
 * 4x jitter too, within 30 rounds.
 *
 * A walk in disk order on a tree laid out in that order meets almost no
 * distant directory: every read is close after the one before. Where the
 * device says it does not rotate (sysfs: an SSD, a cloud volume; a disk
 * behind a virtual one may say so too), close misses that are all alike,
 * with the floor above, and slow enough that no buffer served them (over
 * FAST_MISS_NS; a disk's close reads are mostly hits in its buffer, the
 * rest parts of a turn), are enough, if the distant misses met so far took
 * at most twice their upper quartile (a seek and a turn take more than a
 * buffer hit over a slow link); with enough distant ones, the rule above.
 * Simulated so, 2 disks in 1,000 walks were judged flat (a disk behind a
 * virtual device that says it does not rotate is rare, and then misjudged
 * rarely), flat devices within 15 rounds.
 *
 * A tree of big directories hides its misses from the directory reads: a
 * directory of 1,000 names takes 0.26 ms from the cache on the VM this was
 * measured on and 0.6 ms from its SSD-like disk, under the 1 ms its names
 * allow, and the walk took the tree for cached while its million inodes
 * still came from the device, one stat at a time. So a big directory's
 * first read during which the walk's thread had blocks read from the
 * device (its rusage: readdir.c asks for directories over BIG_DIR_BYTES)
 * is a miss however quick, its cost its whole time over its blocks; that
 * is all a find walk, which takes no stats, has to go on. And the walk's own stats
 * are timed too, a window of SW_STAT_WINDOW in a row out of every STAT_PERIOD
 * (a clock reading costs about 20 ns, a cached stat about 1 us). Measured
 * there, a stat in inode order took 1.0-1.1 us at the median warm (99 in
 * 100 under 1.6 us; 1 in 10,000 over 30 us: interrupts, the scheduler),
 * and cold 4.2 us in the Linux tree and 6.3 us among the big directories
 * (3 in 4 over 3.9 us; 3 in 1,000 and 5 in 100 over 30 us: those that
 * waited for a read of the inode table, which ext4 reads 32 blocks at a
 * time). A stat from the cache costs more on a slower machine, or one
 * busy with other work: 2.0-2.3 us at the median on the same VM on a slow
 * day (cold 6.9 us), against its 3 us line, and one walk in eight then
 * took a warm tree for cold. So each window also stats SW_STAT_REFS names
 * again at once, timed: from the cache whatever the tree, 1.5-2.0 us that
 * day where the first stats of a warm tree took 2.6-2.8 us at the median
 * and 3.0-3.2 us for seven in eight, and cold ones 4.9 us at the least.
 * The cold line is STAT_COLD_NS, or STAT_COLD_REFS times the median of
 * those where that is more. A window where most stats took the cold line
 * and one STAT_MISS_NS
 * found the inodes cold: a miss as long as its slowest stat, which waited
 * for a read of 32 blocks of the inode table, 0.25-0.5 ms there. Such
 * misses have an average of their own: under STAT_FAST_NS (no seek and
 * turn in them) over MISSES_TO_JUDGE of them, the device is cheap, unless
 * directory misses said it is not (on an arm a seek and a turn, over a
 * directory's blocks, cost more than FAST_MISS_NS; on the emulated disk
 * windows of stats alternate between 18-25 ms and 0.15-0.18 ms, hits in
 * its buffer). While such windows come (STAT_MISS_MEMORY stats) on a
 * device so judged, directories are not taken for cached.
 */
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "internal.h"

#define DIR_READ_CACHED_NS          20000
#define DIR_READ_CACHED_NS_PER_NAME 1000
#define DIRENT_SIZE_GUESS           32
#define DIR_BLOCK_GUESS             4096
#define DIR_BLOCKS_MAX              64
#define LEVEL_ONE                   65536u
#define LEVEL_CACHED                (LEVEL_ONE / 4)
#define LEVEL_START                 (LEVEL_ONE * 5 / 16) /* 4 fast reads below */
#define PROBES                      8
#define FAST_MISS_NS                300000
#define SLOW_MISS_NS                1500000
#define MISSES_TO_JUDGE             6
#define READ_AHEAD_REACH            (1u << 20) /* closer, a read may have
                                                  come with the one before */
#define SHORT_BYTES                 (64ull << 20)
#define DISTANCE_SAMPLES            16
#define FLAT_RATIO_PCT              125
#define FLAT_HOLDS                  16
#define PLACES_TO_JUDGE             (8 * MISS_RING)
#define STAT_PERIOD                 1024
#define STAT_COLD_NS                3000
#define STAT_COLD_REFS              2
#define STAT_MISS_NS                30000
#define STAT_FAST_NS                1000000
#define STAT_MISS_MEMORY            (4 * STAT_PERIOD)

/* What this thread has used so far: blocks it had read from devices
 * (rusage counts a read when its request is sent, on the thread that sends
 * it), its CPU time and how often it slept; zeros where the kernel does
 * not say. */
struct sw_thread_use sw_thread_use(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return (struct sw_thread_use){0};
	uint64_t us = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec +
	              (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
	return (struct sw_thread_use){ .blocks = (uint64_t)ru.ru_inblock, .cpu_ns = us * 1000,
	                               .sleeps = (uint64_t)ru.ru_nvcsw };
}

/* What this thread used since it took before. */
struct sw_thread_use sw_thread_use_since(struct sw_thread_use before)
{
	struct sw_thread_use now = sw_thread_use();
	return (struct sw_thread_use){
		.blocks = now.blocks > before.blocks ? now.blocks - before.blocks : 0,
		.cpu_ns = now.cpu_ns > before.cpu_ns ? now.cpu_ns - before.cpu_ns : 0,
		.sleeps = now.sleeps > before.sleeps ? now.sleeps - before.sleeps : 0,
	};
}

uint64_t sw_now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Takes v into a moving average over about 8 values, and counts it in n.
 * The first 8 make a plain mean: a walk's first misses carry the costs of
 * everything it touches first (seen: 0.55-0.76 ms for a first directory
 * read on a device whose reads take 0.2), and seeding the average with the
 * first let that one read outweigh the next five. */
static void average_in(uint64_t *avg, uint64_t *n, uint64_t v)
{
	uint64_t k = *n < 8 ? *n + 1 : 8;
	*avg = v >= *avg ? *avg + (v - *avg) / k : *avg - (*avg - v) / k;
	(*n)++;
}

static void note_distance(struct sw_miss_ring *r, uint64_t ns)
{
	r->ns[r->n++ % MISS_RING] = ns;
}

/* The fastest and slowest of the misses in r, and the quartiles between. */
struct spread {
	uint64_t min, q1, q3, max;
};

static struct spread ring_spread(const struct sw_miss_ring *r)
{
	uint64_t v[MISS_RING];
	size_t n = r->n < MISS_RING ? (size_t)r->n : MISS_RING;
	if (!n)
		return (struct spread){0};
	for (size_t i = 0; i < n; i++) { /* insertion sort: a few dozen */
		size_t j = i;
		for (; j > 0 && v[j - 1] > r->ns[i]; j--)
			v[j] = v[j - 1];
		v[j] = r->ns[i];
	}
	return (struct spread){ v[0], v[n / 4], v[n * 3 / 4], v[n - 1] };
}

/* Distant misses cost about what close ones do, and misses of each kind
 * about the same, over enough of each. */
static bool misses_flat_now(const struct sw_latency *l)
{
	bool distant_known = l->distant.n >= DISTANCE_SAMPLES;
	if (l->close.n < DISTANCE_SAMPLES || !(distant_known || l->says_solid))
		return false;
	struct spread close = ring_spread(&l->close), distant = ring_spread(&l->distant);
	if (close.q3 > 2 * close.q1 || 2 * close.min < close.q1)
		return false;
	if (!distant_known) /* and the few distant ones no slower */
		return close.min >= FAST_MISS_NS && (!l->distant.n || distant.max <= 2 * close.q3);
	return distant.q1 * 100 <= close.q1 * FLAT_RATIO_PCT && 2 * distant.min >= distant.q1;
}

/* The verdict on the device, from what its misses say so far: cheap when
 * flat, or directory misses cheap, or windows of cold stats cheap and no
 * directory miss at an arm's cost; no longer when directory misses are
 * slow (SLOW_MISS_NS). */
static void judge_device(struct sw_latency *l)
{
	bool dirs_cheap = l->misses >= MISSES_TO_JUDGE && l->miss_ns < FAST_MISS_NS;
	bool dirs_costly = l->misses && l->miss_ns >= FAST_MISS_NS;
	bool stats_cheap = l->stat_misses >= MISSES_TO_JUDGE && l->stat_ns < STAT_FAST_NS;
	if (l->flat || dirs_cheap || (stats_cheap && !dirs_costly))
		l->cheap = true;
	else if (l->miss_ns > SLOW_MISS_NS)
		l->cheap = false;
}

/* A directory miss taken into the judgement: its time among those of its
 * distance (ring), what the device added to it (cost) in the average
 * unless near_last, and the verdict. */
static void judge_dir_miss(struct sw_latency *l, uint64_t ns, uint64_t cost,
                           struct sw_miss_ring *ring, bool near_last)
{
	if (!near_last)
		average_in(&l->miss_ns, &l->misses, cost);
	note_distance(ring, ns);
	if (!l->flat) { /* flat is for the device: no need to ask again */
		l->flat_holds = misses_flat_now(l) ? l->flat_holds + 1 : 0;
		l->flat = l->flat_holds >= FLAT_HOLDS;
	}
	judge_device(l);
}

/* dist: how far forward of the directory read before this one lies, in
 * bytes, or SW_DIST_UNKNOWN; size: the directory's st_size; helpers_run:
 * the helper threads are at work (their load then times the walk's reads,
 * not the device's); used: what the walk's thread used during the read,
 * or NULL where it was not asked (a small directory).
 *
 * A directory closer than READ_AHEAD_REACH after the one read before may
 * have come in with its read-ahead (the kernel's or the drive's): a fast
 * read of it says nothing of the cache, nor its miss of the device's
 * speed. What the device took for a miss is its time less what its names
 * may take from the cache (a big directory's take long there too), over
 * its blocks: ext4 reads those of a big (hashed) directory one at a time,
 * and a fast device's miss that read 8 of them, 0.25 ms each, is no disk
 * arm's. read_blocks: the walk's thread read blocks from the device during
 * the read (its rusage; asked only of big directories, BIG_DIR_BYTES in
 * readdir.c), a miss whatever its time: a directory of 1,000 names comes in
 * 0.6 ms from this VM's SSD-like disk, well within what its names may take
 * from the cache, and a tree of them passed for cached. Where the thread's
 * CPU time in the read is known, the device's part of a miss is the rest
 * of it: the names' allowance is a guess at one machine's speed, and on a
 * VM whose system calls cost four times as much, a fast device's misses of
 * big directories (ext4 sorting 1,000 hashes on a slow CPU: 1.4-2.4 ms, 5
 * blocks at 0.13 ms each) came out at 0.3 ms a block, an arm's. A read
 * during which the thread neither had blocks read nor slept came from the
 * cache, however long it took: the thread was preempted (a busy machine),
 * or its CPU is slow. Slow and asleep without blocks of its own, it waited
 * for another's read (a helper's) or a lock: its time decides. */
void sw_note_dir_read(struct sw_latency *l, uint64_t ns, ssize_t len, uint64_t dist,
                      uint64_t size, bool helpers_run, const struct sw_thread_use *used)
{
	bool near_last = dist < READ_AHEAD_REACH;
	if (len < 0)
		return; /* a failure says nothing of the cache */
	uint64_t names = len > 0 ? (uint64_t)len / DIRENT_SIZE_GUESS : 0;
	uint64_t names_ns = names * DIR_READ_CACHED_NS_PER_NAME;
	bool slow = ns > DIR_READ_CACHED_NS + names_ns;
	bool miss = used ? used->blocks || (slow && used->sleeps) : slow;
	if (near_last && !miss)
		return;
	l->level -= l->level / 16;
	if (miss)
		l->level += LEVEL_ONE / 16;
	uint64_t blocks = size / DIR_BLOCK_GUESS;
	blocks = blocks < 1 ? 1 : blocks > DIR_BLOCKS_MAX ? DIR_BLOCKS_MAX : blocks;
	/* a miss in the names' allowance: all of its time was the device's
	 * (an overestimate, on the side of an arm), unless the CPU's is known */
	uint64_t own = used ? (used->cpu_ns < ns ? used->cpu_ns : ns) : slow ? names_ns : 0;
	uint64_t cost = !miss ? 0 : (ns - own) / blocks;
	if (miss && !near_last && cost >= FAST_MISS_NS)
		l->costly_miss = true;
	if (miss && !(l->cheap && helpers_run))
		judge_dir_miss(l, ns, cost, dist < SHORT_BYTES ? &l->close : &l->distant, near_last);
	l->reads++;
}

/* A new root: probe again; what was learnt of the device stays only if the
 * root is on the same one. */
void sw_latency_reset(struct sw_latency *l, dev_t dev)
{
	l->level = LEVEL_START;
	l->reads = 0;
	l->costly_miss = false;
	if (l->dev != dev) {
		l->misses = 0;
		l->miss_ns = 0;
		l->close = l->distant = (struct sw_miss_ring){0};
		l->flat_holds = 0;
		l->flat = false;
		l->cheap = false;
		l->stats = 0;
		l->stat_miss_at = 0;
		l->stat_misses = 0;
		l->stat_ns = 0;
		l->window.n = l->window.nref = 0;
		l->stats_warm = false;
		l->stat_ref_ns = 0;
		l->dev = dev;
	}
}

static int by_ns(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Past what a stat took the inode from the device, not the cache:
 * STAT_COLD_NS, or STAT_COLD_REFS times the lower median of the stats
 * again where the machine is slower (see above). */
static uint64_t stat_cold_line(struct sw_latency *l)
{
	struct sw_stat_window *w = &l->window;
	if (w->nref >= SW_STAT_REFS / 2) {
		qsort(w->ref_ns, w->nref, sizeof(w->ref_ns[0]), by_ns);
		l->stat_ref_ns = w->ref_ns[(w->nref - 1) / 2];
	}
	uint64_t line = STAT_COLD_REFS * l->stat_ref_ns;
	return line > STAT_COLD_NS ? line : STAT_COLD_NS;
}

/* A full window: it found the inodes cold when most of its stats took the
 * cold line and one at least STAT_MISS_NS: then it is a miss as long as
 * its slowest stat (a read of the inode table; on a disk arm, a seek and
 * a turn), of no known distance, judged on its own average. */
static void judge_stat_window(struct sw_latency *l)
{
	struct sw_stat_window *w = &l->window;
	uint64_t line = stat_cold_line(l), max = 0;
	unsigned slow = 0, waited = 0;
	for (unsigned i = 0; i < w->n; i++) {
		slow += w->ns[i] >= line;
		waited += w->ns[i] >= STAT_MISS_NS;
		max = w->ns[i] > max ? w->ns[i] : max;
	}
	l->stats_warm = 8 * slow < w->n;
	if (2 * slow >= w->n && waited) {
		l->stat_miss_at = l->stats;
		average_in(&l->stat_ns, &l->stat_misses, max);
		judge_device(l);
	}
	w->n = w->nref = 0;
}

/* Whether to time the stat the walk takes now: SW_STAT_WINDOW in a row of
 * every STAT_PERIOD, so that a warm walk pays a clock reading for a
 * quarter of its stats only, and a window sees stats of every kind where
 * it falls (in inode order, one in hundreds reads the inode table). Not
 * while helper threads run on a device judged cheap: they stat ahead, and
 * their load, not the device, would time the walk's own. */
bool sw_latency_times_stat(struct sw_latency *l, bool helpers_run)
{
	if (helpers_run && l->cheap)
		return false;
	return l->stats++ % STAT_PERIOD < SW_STAT_WINDOW;
}

/* A stat the walk took, in ns, timed. */
void sw_note_stat(struct sw_latency *l, uint64_t ns)
{
	struct sw_stat_window *w = &l->window;
	w->ns[w->n++] = ns < UINT32_MAX ? (uint32_t)ns : UINT32_MAX;
	if (w->n == SW_STAT_WINDOW)
		judge_stat_window(l);
}

/* Whether to stat the name just stat-ed again, timed: SW_STAT_REFS times
 * a window, a fraction of a per cent more stats. */
bool sw_latency_wants_restat(const struct sw_latency *l)
{
	return l->window.n % (SW_STAT_WINDOW / SW_STAT_REFS) == 1;
}

/* That second stat's time: one from the cache whatever the tree, on this
 * machine, now. */
void sw_note_restat(struct sw_latency *l, uint64_t ns)
{
	struct sw_stat_window *w = &l->window;
	if (w->nref < SW_STAT_REFS)
		w->ref_ns[w->nref++] = ns < UINT32_MAX ? (uint32_t)ns : UINT32_MAX;
}

/* Whether the last full window of timed stats found the inodes in the
 * cache (fewer than one in eight took the cold line): then the order of
 * the stats saves no reads, and only costs (readdir.c). */
bool sw_stats_warm(const struct sw_latency *l)
{
	return l->stats_warm;
}

/* Whether a directory read out of block order is still worth placing
 * (FIEMAP) for the distance the judgement weighs: not once the device is
 * judged, nor past PLACES_TO_JUDGE misses. A flat device is judged within
 * a few dozen; one that is not by then is an arm, or near enough, and on a
 * walk in inode order every further directory would cost a FIEMAP call
 * (on btrfs, reads of its extent tree) for nothing. */
bool sw_latency_wants_places(const struct sw_latency *l)
{
	return !l->cheap && l->close.n + l->distant.n < PLACES_TO_JUDGE;
}

/* What sysfs says of the device: that it does not rotate (solid). Only a
 * hint: see flat devices above. */
void sw_latency_says_solid(struct sw_latency *l, bool solid)
{
	l->says_solid = solid;
}

/* Probe until PROBES reads, or a costly miss. */
bool sw_dirs_probing(const struct sw_latency *l)
{
	return l->reads < PROBES && !l->costly_miss;
}

/* Directory reads come from the cache lately, and, on a device judged
 * cheap, no window of stats found the inodes cold lately: a big
 * directory's read from a fast device takes less than its names allow
 * (DIR_READ_CACHED_NS_PER_NAME), but its inodes still have to be read.
 * Before the device is judged, such a walk reads directories as they
 * come, as from the cache: on a fast device that is right, and a disk
 * arm's directory misses would show. */
bool sw_dirs_cached(const struct sw_latency *l)
{
	bool stats_cold = l->cheap && l->stat_miss_at &&
	                  l->stats - l->stat_miss_at < STAT_MISS_MEMORY;
	return l->level < LEVEL_CACHED && !stats_cold;
}

/* Whether the walk's thread is to say what it used during a directory
 * read (sw_thread_use, two getrusage calls: 2-3 us on a VM whose system
 * calls cost 1.3 us), so that a read from the cache is told apart from a
 * miss by more than its time: while probing, and while the level of misses
 * is not clearly low. A machine busy with other work preempts the walk in
 * a read from the cache now and then, and one read so stretched to
 * milliseconds passed for a disk arm's miss: the probing ended, and the
 * warm Linux tree was walked in block order, a FIEMAP call for each of its
 * 5,087 directories (seen while a CI rehearsal ran). A warm walk settled
 * below LEVEL_CACHED / 2 asks nothing: its reads take 5-20 us there, and
 * the calls would cost a few per cent of the walk. */
bool sw_latency_wants_use(const struct sw_latency *l)
{
	return l->reads < PROBES || l->level >= LEVEL_CACHED / 2;
}

/* What the judgement makes of the device now (sweep_stats.strategy). */
unsigned sw_latency_strategy(const struct sw_latency *l)
{
	if (l->cheap)
		return SWEEP_STRATEGY_DEPTH;
	if (sw_dirs_cached(l))
		return SWEEP_STRATEGY_CACHED;
	return sw_dirs_probing(l) ? SWEEP_STRATEGY_PROBING : SWEEP_STRATEGY_SWEEP;
}

bool sw_misses_cheap(const struct sw_latency *l)
{
	return l->cheap;
}

bool sw_misses_flat(const struct sw_latency *l)
{
	return l->flat;
}
