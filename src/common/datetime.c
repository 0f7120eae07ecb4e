/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * datetime.c: the date strings GNU's tools take (gnulib's parse_datetime,
 * as the GNU manual's "Date input formats" describes them): items in any
 * order, separated by spaces --
 *   calendar dates    2020-01-05, 1/5/2020, 1/5, 5 Jan 2020, Jan 5, 2020,
 *                     5-Jan-2020, 20200105
 *   times of day      10:00, 10:00:30.5, 3pm, 10:00 +0200, 10:00Z, 10:00 CET
 *   days of the week  monday, last monday, next friday, this thursday
 *   relative items    2 days ago, -1 month, fortnight, 1 year 2 months ago
 *                     ("ago" turns the item before it), yesterday, today,
 *                     now, tomorrow, next week, third day
 *   pure numbers      a date of more than 4 digits, a time of 4 or fewer,
 *                     a year after both
 * and "@SECONDS[.FRACTION]" alone, and a TZ="ZONE" prefix. An empty string
 * is the start of today. A date or a day of the week without a time is at
 * midnight; relative items alone count from now, to the nanosecond. Days
 * that do not exist (2020-02-30), hours past 23 and unknown words are
 * refused, as GNU refuses them.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "datetime.h"

enum { REL_YEAR, REL_MONTH, REL_DAY, REL_HOUR, REL_MIN, REL_SEC, REL_N };
enum { MER_24, MER_AM, MER_PM };

struct dt {
	const char *p;
	int dates, times, zones, days, rels;
	long year, month, day;
	int year_digits;             /* 0: no year given */
	long hour, min, sec, nsec;
	int meridian;
	bool after_time;             /* the item before was a time of day */
	long zone;                   /* minutes east of UTC */
	long wday, wday_ord;
	long rel[REL_N];
	int last_rel;                /* the relative item "ago" turns, or -1 */
	long last_count;
};

struct word {
	const char *name;
	long value;
};

static const struct word months[] = {
	{ "january", 1 }, { "february", 2 }, { "march", 3 }, { "april", 4 }, { "may", 5 },
	{ "june", 6 }, { "july", 7 }, { "august", 8 }, { "september", 9 }, { "sept", 9 },
	{ "october", 10 }, { "november", 11 }, { "december", 12 }, { NULL, 0 },
};
static const struct word weekdays[] = {
	{ "sunday", 0 }, { "monday", 1 }, { "tuesday", 2 }, { "tues", 2 }, { "wednesday", 3 },
	{ "wednes", 3 }, { "thursday", 4 }, { "thur", 4 }, { "thurs", 4 }, { "friday", 5 },
	{ "saturday", 6 }, { NULL, 0 },
};
static const struct word ordinals[] = {
	{ "last", -1 }, { "this", 0 }, { "next", 1 }, { "first", 1 }, { "third", 3 },
	{ "fourth", 4 }, { "fifth", 5 }, { "sixth", 6 }, { "seventh", 7 }, { "eighth", 8 },
	{ "ninth", 9 }, { "tenth", 10 }, { "eleventh", 11 }, { "twelfth", 12 }, { NULL, 0 },
};
/* units: REL_* * 100 + how many of it */
static const struct word units[] = {
	{ "year", REL_YEAR * 100 + 1 }, { "month", REL_MONTH * 100 + 1 },
	{ "fortnight", REL_DAY * 100 + 14 }, { "week", REL_DAY * 100 + 7 },
	{ "day", REL_DAY * 100 + 1 }, { "hour", REL_HOUR * 100 + 1 },
	{ "minute", REL_MIN * 100 + 1 }, { "min", REL_MIN * 100 + 1 },
	{ "second", REL_SEC * 100 + 1 }, { "sec", REL_SEC * 100 + 1 }, { NULL, 0 },
};
/* zones: minutes east of UTC */
static const struct word zones[] = {
	{ "gmt", 0 }, { "ut", 0 }, { "utc", 0 }, { "z", 0 }, { "wet", 0 }, { "west", 60 },
	{ "bst", 60 }, { "art", -180 }, { "brt", -180 }, { "brst", -120 }, { "nst", -210 },
	{ "ndt", -150 }, { "ast", -240 }, { "adt", -180 }, { "clt", -240 }, { "clst", -180 },
	{ "est", -300 }, { "edt", -240 }, { "cst", -360 }, { "cdt", -300 }, { "mst", -420 },
	{ "mdt", -360 }, { "pst", -480 }, { "pdt", -420 }, { "akst", -540 }, { "akdt", -480 },
	{ "hst", -600 }, { "hast", -600 }, { "hadt", -540 }, { "sst", -660 }, { "wat", 60 },
	{ "cet", 60 }, { "cest", 120 }, { "met", 60 }, { "mez", 60 }, { "mest", 120 },
	{ "mesz", 120 }, { "eet", 120 }, { "eest", 180 }, { "cat", 120 }, { "sast", 120 },
	{ "eat", 180 }, { "msk", 180 }, { "msd", 240 }, { "ist", 330 }, { "sgt", 480 },
	{ "kst", 540 }, { "jst", 540 }, { "gst", 600 }, { "nzst", 720 }, { "nzdt", 780 },
	{ NULL, 0 },
};

static void skip_spaces(struct dt *d)
{
	while (isspace((unsigned char)*d->p))
		d->p++;
}

/* The word w (lower case, dots dropped) in table t: its full name, for
 * months and days its first three letters, for units its plural (gnulib
 * shortens no other word: "nex friday", "ces" are no dates). */
static const struct word *lookup(const struct word *t, const char *w, bool plural)
{
	size_t n = strlen(w);
	bool shortened = t == months || t == weekdays;
	for (; t->name; t++) {
		size_t m = strlen(t->name);
		if (strcmp(w, t->name) == 0 || (shortened && n == 3 && m > 3 &&
		                                strncmp(w, t->name, 3) == 0) ||
		    (plural && n == m + 1 && w[m] == 's' && strncmp(w, t->name, m) == 0))
			return t;
	}
	return NULL;
}

/* The next word (letters and dots) into w, lower case without its dots;
 * false when none is there or it is too long to be one of ours. */
static bool take_word(struct dt *d, char *w, size_t size)
{
	size_t n = 0;
	const char *p = d->p;
	for (; isalpha((unsigned char)*p) || *p == '.'; p++) {
		if (*p == '.')
			continue;
		if (n + 1 >= size)
			return false;
		w[n++] = (char)tolower((unsigned char)*p);
	}
	w[n] = 0;
	if (!n)
		return false;
	d->p = p;
	return true;
}

/* Unsigned digits (at most 18) at d->p into *v; their count, or 0. */
static int take_digits(struct dt *d, long *v)
{
	int n = 0;
	*v = 0;
	for (; isdigit((unsigned char)*d->p); d->p++, n++) {
		if (n == 18)
			return 0;
		*v = *v * 10 + (*d->p - '0');
	}
	return n;
}

/* ".DIGITS" or ",DIGITS" as nanoseconds (more digits cut off), or 0. */
static long take_fraction(struct dt *d)
{
	long ns = 0, scale = 100000000;
	if ((*d->p != '.' && *d->p != ',') || !isdigit((unsigned char)d->p[1]))
		return 0;
	for (d->p++; isdigit((unsigned char)*d->p); d->p++, scale /= 10)
		ns += (*d->p - '0') * scale;
	return ns;
}

/* A relative item; false when its count is out of range (the years,
 * months and days must fit an int: struct tm's). */
static bool add_rel(struct dt *d, int unit, long count)
{
	long sum;
	if (__builtin_add_overflow(d->rel[unit], count, &sum) ||
	    (unit <= REL_DAY && (sum > INT_MAX || sum < -INT_MAX)))
		return false;
	d->rel[unit] = sum;
	d->last_rel = unit;
	d->last_count = count;
	d->rels++;
	return true;
}

/* "+HH", "+HHMM" or "+HH:MM" (the sign at d->p) as minutes east of UTC. */
static bool take_zone_offset(struct dt *d, long *zone)
{
	int sign = *d->p++ == '-' ? -1 : 1;
	long h, m = 0;
	int n = take_digits(d, &h);
	if (*d->p == ':') {
		d->p++;
		if (n < 1 || n > 2 || take_digits(d, &m) != 2)
			return false;
	} else if (n == 4 || n == 3) {
		m = h % 100, h /= 100;
	} else if (n < 1 || n > 2) {
		return false;
	}
	if (h > 24 || m > 59)
		return false;
	*zone = sign * (h * 60 + m);
	return true;
}

static bool set_zone(struct dt *d, long zone)
{
	d->zone = zone;
	return ++d->zones == 1;
}

/* "HH:MM[:SS[.FRACTION]]", hour already read, then maybe a zone offset. */
static bool take_clock(struct dt *d, long hour)
{
	long sec = 0;
	d->p++; /* ':' */
	int n = take_digits(d, &d->min);
	if (n < 1 || n > 2)
		return false;
	if (*d->p == ':') {
		d->p++;
		n = take_digits(d, &sec);
		if (n < 1 || n > 2)
			return false;
		d->nsec = take_fraction(d);
	}
	d->hour = hour, d->sec = sec;
	d->meridian = MER_24;
	d->times++;
	d->after_time = true;
	const char *back = d->p;
	skip_spaces(d);
	if ((*d->p == '+' || *d->p == '-') && isdigit((unsigned char)d->p[1])) {
		long zone;
		return take_zone_offset(d, &zone) && set_zone(d, zone);
	}
	d->p = back;
	return true;
}

/* Two-digit years, as POSIX reads them: 69-99 the 1900s, 00-68 the 2000s;
 * any other as it is. */
static long full_year(long year, int digits)
{
	return digits != 2 ? year : year + (year < 69 ? 2000 : 1900);
}

static bool set_date(struct dt *d, long year, int year_digits, long month, long day)
{
	d->year = year_digits ? full_year(year, year_digits) : 0;
	d->year_digits = year_digits;
	d->month = month, d->day = day;
	return ++d->dates == 1;
}

/* A number alone: a date of more than 4 digits, a year after a date and a
 * time, else a time of day (HH or HHMM), as gnulib reads it. */
static bool pure_number(struct dt *d, long v, int digits)
{
	if (d->dates && !d->year_digits && !d->rels && (d->times || digits > 2)) {
		d->year = full_year(v, digits);
		d->year_digits = digits;
		return true;
	}
	if (digits > 4)
		return set_date(d, v / 10000, digits - 4, v / 100 % 100, v % 100);
	d->hour = digits <= 2 ? v : v / 100;
	d->min = digits <= 2 ? 0 : v % 100;
	d->sec = d->nsec = 0;
	d->meridian = MER_24;
	return ++d->times == 1;
}

/* The year of "-2020" at d->p, if any, into *year (digits in *n). */
static void dashed_year(struct dt *d, long *year, int *n)
{
	if (*d->p == '-' && isdigit((unsigned char)d->p[1])) {
		d->p++;
		*n = take_digits(d, year);
	}
}

/* After a month's name: its day ("Jan 5", "Jan-5"; day < 0: not read yet)
 * and maybe a year ("Jan 5, 2020", "Jan-5-2020"); after "5 Jan": maybe
 * "-2020". ("Jan 5 2020": the year comes as a number alone.) */
static bool month_rest(struct dt *d, long month, long day)
{
	long year = 0;
	int year_digits = 0;
	if (day < 0) {
		if (*d->p == '-' && isdigit((unsigned char)d->p[1]))
			d->p++;
		else
			skip_spaces(d);
		if (!take_digits(d, &day) || *d->p == ':')
			return false; /* "Jan" alone, or "Jan 10:00": no day */
		if (*d->p == ',') {
			d->p++;
			skip_spaces(d);
			if (!(year_digits = take_digits(d, &year)) || *d->p == ':')
				return false;
			return set_date(d, year, year_digits, month, day);
		}
	}
	dashed_year(d, &year, &year_digits);
	return set_date(d, year, year_digits, month, day);
}

/* "am", "pm" (also with dots) after hour: a time of day. */
static bool set_meridian(struct dt *d, const char *w)
{
	int m = strcmp(w, "am") == 0 ? MER_AM : strcmp(w, "pm") == 0 ? MER_PM : -1;
	if (m < 0 || d->meridian != MER_24 || d->hour < 1 || d->hour > 12)
		return false;
	d->meridian = m;
	return true;
}

/* count of the unit u (a units[] entry), a relative item; false when out
 * of range. */
static bool unit_item(struct dt *d, const struct word *u, long count)
{
	long n;
	return !__builtin_mul_overflow(count, u->value % 100, &n) &&
	       add_rel(d, (int)(u->value / 100), n);
}

/* The number v (of n digits), then what the word after it makes of it:
 * a count of a unit, the day before a month, an hour before "pm"; else
 * a number alone. */
static bool word_after_number(struct dt *d, long v, int n)
{
	const char *back = d->p;
	char w[16];
	const struct word *x;
	skip_spaces(d);
	if (take_word(d, w, sizeof(w))) {
		if ((x = lookup(units, w, true)))
			return unit_item(d, x, v);
		if ((x = lookup(months, w, false)))
			return month_rest(d, x->value, v);
		if (strcmp(w, "am") == 0 || strcmp(w, "pm") == 0) {
			if (!pure_number(d, v, n > 2 ? n : 2) || d->min || n > 2)
				return false;
			return set_meridian(d, w);
		}
	}
	d->p = back;
	return pure_number(d, v, n);
}

/* An item that starts with a digit. */
static bool number_item(struct dt *d)
{
	long v, b, c;
	d->after_time = false;
	int n = take_digits(d, &v);
	if (!n)
		return false;
	if (*d->p == ':')
		return take_clock(d, v) && d->times == 1;
	if (*d->p == '-' && isdigit((unsigned char)d->p[1])) { /* ISO 8601 */
		d->p++;
		int bn = take_digits(d, &b);
		if (bn < 1 || bn > 2 || *d->p++ != '-')
			return false;
		int cn = take_digits(d, &c);
		if (cn < 1 || cn > 2)
			return false;
		if (*d->p == 'T' && isdigit((unsigned char)d->p[1]))
			d->p++;
		return set_date(d, v, n, b, c);
	}
	if (*d->p == '-' && isalpha((unsigned char)d->p[1])) { /* 5-Jan-2020 */
		char w[16];
		const struct word *m;
		d->p++;
		if (!take_word(d, w, sizeof(w)) || !(m = lookup(months, w, false)))
			return false;
		return month_rest(d, m->value, v);
	}
	if (*d->p == '/') { /* MM/DD[/YYYY] */
		d->p++;
		if (!take_digits(d, &b))
			return false;
		if (*d->p != '/')
			return set_date(d, 0, 0, v, b);
		d->p++;
		int yn = take_digits(d, &c);
		return yn && set_date(d, c, yn, v, b);
	}
	return word_after_number(d, v, n);
}

/* A day of the week, ord its ordinal ("last": -1; none: 0). */
static bool set_weekday(struct dt *d, long wday, long ord)
{
	d->wday = wday, d->wday_ord = ord;
	return ++d->days == 1;
}

/* An ordinal ("last", "next", "third"): the unit or weekday after it. */
static bool ordinal_item(struct dt *d, long ord)
{
	char w[16];
	const struct word *x;
	skip_spaces(d);
	if (!take_word(d, w, sizeof(w)))
		return false;
	if ((x = lookup(units, w, false)))
		return unit_item(d, x, ord);
	return (x = lookup(weekdays, w, false)) && set_weekday(d, x->value, ord);
}

/* An item that starts with a letter. */
static bool word_item(struct dt *d)
{
	char w[16];
	const struct word *x;
	if (!take_word(d, w, sizeof(w)))
		return false;
	bool after_time = d->after_time;
	d->after_time = false;
	if ((x = lookup(months, w, false)))
		return month_rest(d, x->value, -1);
	if ((x = lookup(weekdays, w, false))) {
		d->p += *d->p == ','; /* "Thu, 05 Dec 2026" */
		return set_weekday(d, x->value, 0);
	}
	if ((x = lookup(units, w, true)))
		return unit_item(d, x, 1);
	if ((x = lookup(ordinals, w, false)))
		return ordinal_item(d, x->value);
	if (strcmp(w, "ago") == 0) { /* (its count was added once: taken twice) */
		int unit = d->last_rel;
		long twice;
		if (unit < 0 || __builtin_mul_overflow(d->last_count, -2, &twice) ||
		    !add_rel(d, unit, twice))
			return false;
		d->rels--;
		d->last_rel = -1;
		return true;
	}
	if (strcmp(w, "yesterday") == 0 || strcmp(w, "today") == 0 || strcmp(w, "now") == 0 ||
	    strcmp(w, "tomorrow") == 0)
		return add_rel(d, REL_DAY, w[0] == 'y' ? -1 : w[1] == 'o' && w[2] == 'm' ? 1 : 0);
	if (after_time && (strcmp(w, "am") == 0 || strcmp(w, "pm") == 0))
		return set_meridian(d, w);
	return (x = lookup(zones, w, false)) && set_zone(d, x->value);
}

/* "+N" or "-N": a count of the unit after it. */
static bool signed_item(struct dt *d)
{
	int sign = *d->p++ == '-' ? -1 : 1;
	long v;
	char w[16];
	const struct word *u;
	if (!take_digits(d, &v))
		return false;
	skip_spaces(d);
	if (!take_word(d, w, sizeof(w)) || !(u = lookup(units, w, true)))
		return false;
	return unit_item(d, u, sign * v);
}

/* The items of s into d. */
static bool parse_items(struct dt *d)
{
	for (;;) {
		skip_spaces(d);
		char c = *d->p;
		if (!c)
			return true;
		bool ok = isdigit((unsigned char)c) ? number_item(d)
		          : isalpha((unsigned char)c) ? word_item(d)
		          : (c == '+' || c == '-') ? signed_item(d) : false;
		if (!ok || d->dates > 1 || d->times > 1 || d->zones > 1 || d->days > 1)
			return false;
		if (!isdigit((unsigned char)c))
			d->after_time = false;
	}
}

/* tm (normalized in place) as seconds since the epoch: in local time, or
 * zone minutes east of UTC when zoned. */
static bool to_time(struct tm *tm, bool zoned, long zone, bool keep_isdst, time_t *t)
{
	if (zoned) {
		tm->tm_isdst = 0;
		*t = timegm(tm);
		if (*t == (time_t)-1 && !(tm->tm_year == 69 && tm->tm_mon == 11 && tm->tm_mday == 31))
			return false;
		return !__builtin_sub_overflow(*t, (time_t)zone * 60, t);
	}
	if (!keep_isdst)
		tm->tm_isdst = -1;
	*t = mktime(tm);
	return *t != (time_t)-1 || (tm->tm_year == 69 && tm->tm_mon == 11 && tm->tm_mday == 31);
}

/* The absolute items over now: the date, the time of day (midnight when
 * only a date or a day is given), into tm. */
static bool absolute(const struct dt *d, struct tm *tm, long *nsec)
{
	if (d->dates) {
		if (d->month < 1 || d->month > 12 || d->day < 1 || d->day > 31)
			return false;
		if (d->year_digits && (d->year - 1900 > INT_MAX || d->year - 1900 < INT_MIN))
			return false;
		if (d->year_digits)
			tm->tm_year = (int)(d->year - 1900);
		tm->tm_mon = (int)d->month - 1;
		tm->tm_mday = (int)d->day;
	}
	/* ("" and a zone alone are the start of today, as in gnulib) */
	bool nothing = !d->dates && !d->times && !d->days && !d->rels;
	if (d->times) {
		long h = d->hour;
		if (d->meridian != MER_24)
			h = h % 12 + (d->meridian == MER_PM ? 12 : 0);
		if (h > 23 || d->min > 59 || d->sec > 59)
			return false;
		tm->tm_hour = (int)h, tm->tm_min = (int)d->min, tm->tm_sec = (int)d->sec;
		*nsec = d->nsec;
	} else if (d->dates || d->days || nothing) {
		tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
		*nsec = 0;
	}
	return true;
}

/* tm moved by the relative days, months and years (whose counts are
 * known to fit an int), keeping its daylight-saving flag as gnulib does:
 * "6 months ago" keeps the clock's reading. */
static bool move_days(const struct dt *d, struct tm *tm, bool zoned, time_t *t)
{
	if (!d->rel[REL_YEAR] && !d->rel[REL_MONTH] && !d->rel[REL_DAY])
		return true;
	if (__builtin_add_overflow(tm->tm_year, (int)d->rel[REL_YEAR], &tm->tm_year) ||
	    __builtin_add_overflow(tm->tm_mon, (int)d->rel[REL_MONTH], &tm->tm_mon) ||
	    __builtin_add_overflow(tm->tm_mday, (int)d->rel[REL_DAY], &tm->tm_mday))
		return false;
	return to_time(tm, zoned, d->zone, true, t);
}

static bool resolve(const struct dt *d, const struct timespec *now, struct timespec *out)
{
	struct tm tm;
	bool zoned = d->zones > 0;
	long nsec = now->tv_nsec;
	time_t t = now->tv_sec, sec;
	/* (the clock's reading here, in the zone given if there is one, as
	 * gnulib reads it: "10:00 -1000" is on today's date here) */
	localtime_r(&t, &tm);
	if (!absolute(d, &tm, &nsec))
		return false;
	struct tm want = tm;
	if (!to_time(&tm, zoned, d->zone, false, &t) ||
	    (d->dates && (tm.tm_mday != want.tm_mday || tm.tm_mon != want.tm_mon)) ||
	    (d->times && !zoned && (tm.tm_hour != want.tm_hour || tm.tm_min != want.tm_min)))
		return false; /* no such day (2020-02-30), no such hour here (in the DST gap) */
	if (d->days && !d->dates) { /* gnulib's rule for "[ORDINAL] DAY" */
		long ord = d->wday_ord;
		tm.tm_mday += (int)((d->wday - tm.tm_wday + 7) % 7 +
		                    7 * (ord - (0 < ord && tm.tm_wday != d->wday)));
		if (!to_time(&tm, zoned, d->zone, false, &t))
			return false;
	}
	if (!move_days(d, &tm, zoned, &t))
		return false;
	if (__builtin_mul_overflow((time_t)d->rel[REL_HOUR], 3600, &sec) ||
	    __builtin_add_overflow(t, sec, &t) ||
	    __builtin_mul_overflow((time_t)d->rel[REL_MIN], 60, &sec) ||
	    __builtin_add_overflow(t, sec, &t) ||
	    __builtin_add_overflow(t, (time_t)d->rel[REL_SEC], &t))
		return false;
	out->tv_sec = t;
	out->tv_nsec = nsec;
	return true;
}

/* "@SECONDS[.FRACTION]" (a sign allowed). */
static bool epoch(struct dt *d, struct timespec *out)
{
	d->p++;
	skip_spaces(d);
	bool neg = *d->p == '-';
	if (*d->p == '-' || *d->p == '+')
		d->p++;
	long sec;
	if (!take_digits(d, &sec))
		return false;
	long ns = take_fraction(d);
	skip_spaces(d);
	if (*d->p)
		return false;
	out->tv_sec = neg ? -(time_t)sec : (time_t)sec;
	out->tv_nsec = ns;
	if (neg && ns) { /* -1.5 is 1.5 seconds before the epoch */
		out->tv_sec--;
		out->tv_nsec = 1000000000 - ns;
	}
	return true;
}

static bool parse_in_zone(const char *s, const struct timespec *now, struct timespec *out)
{
	struct dt d = { .p = s, .last_rel = -1 };
	skip_spaces(&d);
	if (*d.p == '@')
		return epoch(&d, out);
	return parse_items(&d) && resolve(&d, now, out);
}

/* TZ="ZONE" at s: ZONE (backslash escapes \" and \\) into zone, and the
 * rest of s; false when s has none. */
static bool tz_prefix(const char *s, char *zone, size_t size, const char **rest)
{
	size_t n = 0;
	if (strncmp(s, "TZ=\"", 4) != 0)
		return false;
	for (s += 4; *s && *s != '"'; s++) {
		if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
			s++;
		if (n + 1 >= size)
			return false;
		zone[n++] = *s;
	}
	zone[n] = 0;
	*rest = s + (*s == '"');
	return *s == '"';
}

bool datetime_parse(const char *s, const struct timespec *now, struct timespec *out)
{
	char zone[256];
	const char *rest;
	while (isspace((unsigned char)*s))
		s++;
	if (!tz_prefix(s, zone, sizeof(zone), &rest))
		return strncmp(s, "TZ=", 3) != 0 && parse_in_zone(s, now, out);
	char *old = getenv("TZ") ? strdup(getenv("TZ")) : NULL;
	if (getenv("TZ") && !old)
		return false; /* (no memory to put the user's back) */
	setenv("TZ", zone, 1);
	tzset();
	bool ok = parse_in_zone(rest, now, out);
	if (old)
		setenv("TZ", old, 1);
	else
		unsetenv("TZ");
	tzset();
	free(old);
	return ok;
}
