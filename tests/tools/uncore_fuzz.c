// SPDX-License-Identifier: GPL-2.0
/*
 * uncore_fuzz: opens random perf_event_attrs against every uncore PMU
 * (/sys/bus/event_source/devices/uncore_*), deterministically from a seed,
 * and checks that perf_event_open(2) fails only with the errnos documented
 * for these PMUs, and that every event it opens can be enabled, read,
 * disabled, read and closed.
 *
 * Usage:
 *   uncore_fuzz -n N -s SEED [-t SECONDS] [-v]
 *       N perf_event_open calls (attributes), or fewer if SECONDS pass
 *       first; -v prints every attribute and its result.
 *   uncore_fuzz -e PMU:CONFIG[:CONFIG1[:CONFIG2]] [-c CPU] [-p PID]
 *               [-u UID] [-H SECONDS]
 *   uncore_fuzz -e PMU/TERMS/ ...   (TERMS as perf takes them, through the
 *               PMU's format/ files, e.g. uncore_cbox_0/event=0x14,umask=0x1/)
 *       opens one event (default CPU 0, pid -1), optionally after
 *       dropping to UID (and its GID), enables and reads it, prints "ok"
 *       or the errno name (e.g. EACCES); with -H holds it open for SECONDS
 *       (-1: until killed), printing "holding" once open, then "count N"
 *       and "running NS" (its count, and the time it ran on a counter:
 *       0 for an event perf never scheduled) when the time is up. Exit 0
 *       when it opened.
 *
 * What is fuzzed: config/config1/config2 (and config3 in the attr tail),
 * sometimes with values built from the PMU's format/ and events/ files,
 * sometimes random bits; sample_period/sample_freq, exclude_* and the
 * other flag bits, inherit, disabled, pinned, read_format (including
 * PERF_FORMAT_GROUP), the attr size; the CPU (-1, each possible CPU, so an
 * offline one if any is offline, and out-of-range numbers) or a task (pid 0
 * or the fuzzer's own pid); groups mixing PMUs (an uncore leader with
 * software or hardware siblings, and the reverse), uncore PMUs together,
 * and groups larger than any box's counter count. Some opened events stay
 * open for a while so that later events share (and overcommit) the boxes.
 *
 * For every event that opens: ioctl ENABLE (sometimes for the group),
 * read(), ioctl DISABLE, read(), close. The output is a histogram, one
 * line per outcome:
 *   open <ERRNO-NAME or 0> <count>
 *   read <ok|eof|short|error:ERRNO> <count>
 *   ioctl <ok|error:ERRNO> <count>
 *   attrs <n>  cases <n>  pmus <n>
 * UNCORE_FUZZ_PREFIX in the environment fuzzes the PMUs whose names start
 * with it instead of "uncore_" (e.g. "msr" to try the tool on a host).
 *
 * Exit status: 0, or 1 when perf_event_open failed with an errno outside
 * the documented set (0, EINVAL, ENOENT, EOPNOTSUPP, EACCES, EPERM,
 * ENODEV, EBUSY, E2BIG, ENOSPC, EMFILE), or a read or ioctl of an open
 * event failed or returned a malformed record ("unexpected" lines name
 * each); 2 on a usage error or when no uncore PMU exists.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DEVS "/sys/bus/event_source/devices"
#define MAX_PMUS 128
#define MAX_FIELDS 24
#define MAX_ALIASES 64
#define MAX_GROUP 16
#define MAX_HELD 12

/* ---- deterministic random numbers (splitmix64) ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* below N: uniform in [0, n) */
static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* pct P: true with probability P percent */
static int pct(int p)
{
	return (int)below(100) < p;
}

/* a random value with a few random bits, or all random bits */
static uint64_t random_bits(void)
{
	uint64_t v = 0;
	int i, n;

	switch (below(5)) {
	case 0:
		return rnd();
	case 1:
		return rnd() & 0xffffffffULL;
	case 2:
		return below(0x10000);
	default:
		n = 1 + (int)below(4);
		for (i = 0; i < n; i++)
			v |= 1ULL << below(64);
		return v;
	}
}

/* ---- the PMUs and their formats ---- */

struct range {
	int lo, hi;
};

struct field {
	char name[32];
	int cfg; /* 0 config, 1 config1, 2 config2, 3 config3 */
	int nr;
	struct range r[4];
	int width;
};

struct alias {
	uint64_t cfg[4];
};

struct pmu {
	char name[64];
	unsigned int type;
	int nfields;
	struct field f[MAX_FIELDS];
	int naliases;
	struct alias a[MAX_ALIASES];
};

static struct pmu pmus[MAX_PMUS];
static int npmus;
static int ncpus; /* possible CPUs: 0 .. ncpus-1 */

static int read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)n, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int parse_field(struct field *fl, const char *name, const char *spec)
{
	const char *colon = strchr(spec, ':');
	const char *p;

	memset(fl, 0, sizeof(*fl));
	snprintf(fl->name, sizeof(fl->name), "%s", name);
	if (!colon)
		return -1;
	if (!strncmp(spec, "config3", 7))
		fl->cfg = 3;
	else if (!strncmp(spec, "config2", 7))
		fl->cfg = 2;
	else if (!strncmp(spec, "config1", 7))
		fl->cfg = 1;
	else if (!strncmp(spec, "config", 6))
		fl->cfg = 0;
	else
		return -1;
	p = colon + 1;
	while (*p && fl->nr < 4) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (lo < 0 || hi > 63 || hi < lo)
			return -1;
		fl->r[fl->nr].lo = (int)lo;
		fl->r[fl->nr].hi = (int)hi;
		fl->nr++;
		fl->width += (int)(hi - lo + 1);
		p = end;
		if (*p == ',')
			p++;
		else
			break;
	}
	return fl->nr ? 0 : -1;
}

/* place V into field FL of CFG[] */
static void put_field(uint64_t cfg[4], const struct field *fl, uint64_t v)
{
	int i;

	for (i = 0; i < fl->nr; i++) {
		int w = fl->r[i].hi - fl->r[i].lo + 1;
		uint64_t m = w >= 64 ? ~0ULL : (1ULL << w) - 1;

		cfg[fl->cfg] &= ~(m << fl->r[i].lo);
		cfg[fl->cfg] |= (v & m) << fl->r[i].lo;
		v = w >= 64 ? 0 : v >> w;
	}
}

static const struct field *find_field(const struct pmu *p, const char *name)
{
	int i;

	for (i = 0; i < p->nfields; i++)
		if (!strcmp(p->f[i].name, name))
			return &p->f[i];
	return NULL;
}

/* parse an events/ alias ("event=0x14,umask=0x1") into config values */
static int parse_alias(const struct pmu *p, char *s, struct alias *a)
{
	char *tok, *save = NULL;

	memset(a, 0, sizeof(*a));
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const struct field *fl;
		uint64_t v = 1;

		if (eq) {
			*eq = 0;
			v = strtoull(eq + 1, NULL, 0);
		}
		fl = find_field(p, tok);
		if (!fl)
			return -1;
		put_field(a->cfg, fl, v);
	}
	return 0;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pmu *)a)->name, ((const struct pmu *)b)->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* names SORTED: the entries of DIR (no dot files), sorted; returns count */
static int sorted_dir(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		v = realloc(v, sizeof(*v) * (n + 1));
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

static void free_names(char **v, int n)
{
	while (n--)
		free(v[n]);
	free(v);
}

static void load_pmu(struct pmu *p)
{
	char path[512], buf[512], **names;
	int i, n;

	snprintf(path, sizeof(path), DEVS "/%s/format", p->name);
	n = sorted_dir(path, &names);
	for (i = 0; i < n && p->nfields < MAX_FIELDS; i++) {
		snprintf(path, sizeof(path), DEVS "/%s/format/%s", p->name, names[i]);
		if (read_line(path, buf, sizeof(buf)) == 0 &&
		    parse_field(&p->f[p->nfields], names[i], buf) == 0)
			p->nfields++;
	}
	free_names(names, n);
	snprintf(path, sizeof(path), DEVS "/%s/events", p->name);
	n = sorted_dir(path, &names);
	for (i = 0; i < n && p->naliases < MAX_ALIASES; i++) {
		if (strchr(names[i], '.'))
			continue; /* .scale, .unit */
		snprintf(path, sizeof(path), DEVS "/%s/events/%s", p->name, names[i]);
		if (read_line(path, buf, sizeof(buf)) == 0 &&
		    parse_alias(p, buf, &p->a[p->naliases]) == 0)
			p->naliases++;
	}
	free_names(names, n);
}

static void load_pmus(void)
{
	char path[512], buf[64], **names;
	int i, n;

	const char *prefix = getenv("UNCORE_FUZZ_PREFIX");

	if (!prefix)
		prefix = "uncore_";
	n = sorted_dir(DEVS, &names);
	for (i = 0; i < n && npmus < MAX_PMUS; i++) {
		struct pmu *p = &pmus[npmus];

		if (strncmp(names[i], prefix, strlen(prefix)))
			continue;
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", names[i]);
		snprintf(path, sizeof(path), DEVS "/%s/type", names[i]);
		if (read_line(path, buf, sizeof(buf)) || sscanf(buf, "%u", &p->type) != 1)
			continue;
		load_pmu(p);
		npmus++;
	}
	free_names(names, n);
	qsort(pmus, npmus, sizeof(pmus[0]), cmp_pmu);
}

static void load_cpus(void)
{
	char buf[256], *p;

	ncpus = 1;
	if (read_line("/sys/devices/system/cpu/possible", buf, sizeof(buf)))
		return;
	/* the last number of the list */
	p = buf + strlen(buf);
	while (p > buf && (p[-1] >= '0' && p[-1] <= '9'))
		p--;
	ncpus = atoi(p) + 1;
}

/* ---- outcomes ---- */

#define MAX_ERRNO 200

static unsigned long open_hist[MAX_ERRNO + 1]; /* [0] = success */
static unsigned long open_other; /* errno beyond MAX_ERRNO */
static unsigned long read_ok, read_eof, read_short, read_err[MAX_ERRNO + 1];
static unsigned long ioctl_ok, ioctl_err[MAX_ERRNO + 1];
static unsigned long attrs, cases;
static int unexpected;
static int verbose;

static const char *ename(int e)
{
	static char buf[16];
	const char *n = e ? strerrorname_np(e) : "0";

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int documented(int e)
{
	switch (e) {
	case 0: case EINVAL: case ENOENT: case EOPNOTSUPP: case EACCES:
	case EPERM: case ENODEV: case EBUSY: case E2BIG: case ENOSPC:
	case EMFILE:
		return 1;
	}
	return 0;
}

/* ---- attributes ---- */

/* the attr with room for a tail beyond what the kernel knows */
struct big_attr {
	struct perf_event_attr a;
	uint64_t config3;
	uint64_t tail[8];
};

struct member {
	struct big_attr b;
	const struct pmu *pmu; /* NULL: software or hardware */
	int pid, cpu;
	unsigned long flags;
	int fd;
	const char *what;
};

/* uncore config values: an alias, format fields, raw bits or zero */
static void uncore_config(const struct pmu *p, struct big_attr *b)
{
	uint64_t cfg[4] = { 0, 0, 0, 0 };
	int r = (int)below(100), i;

	if (r < 30 && p->naliases) {
		memcpy(cfg, p->a[below(p->naliases)].cfg, sizeof(cfg));
		if (pct(20) && p->nfields)
			put_field(cfg, &p->f[below(p->nfields)], below(4));
	} else if (r < 75 && p->nfields) {
		for (i = 0; i < p->nfields; i++) {
			const struct field *fl = &p->f[i];
			uint64_t v;

			if (!pct(fl->cfg == 0 ? 60 : 25))
				continue;
			if (pct(60))
				v = below(fl->width >= 8 ? 256 : 1ULL << fl->width);
			else if (pct(50))
				v = fl->width >= 64 ? rnd() : below(1ULL << fl->width);
			else
				v = fl->width >= 64 ? ~0ULL : (1ULL << fl->width) - 1;
			put_field(cfg, fl, v);
		}
	} else if (r < 92) {
		cfg[0] = random_bits();
		if (pct(30))
			cfg[1] = random_bits();
		if (pct(15))
			cfg[2] = random_bits();
	}
	if (pct(5))
		cfg[3] = random_bits();
	b->a.config = cfg[0];
	b->a.config1 = cfg[1];
	b->a.config2 = cfg[2];
	b->config3 = cfg[3];
}

/* the flags, sampling, read_format and size of an attr */
static void fuzz_common(struct big_attr *b, int clean)
{
	struct perf_event_attr *a = &b->a;

	a->size = sizeof(*a);
	a->disabled = pct(50);
	if (clean) {
		a->read_format = below(16) & (PERF_FORMAT_TOTAL_TIME_ENABLED |
					      PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID);
		return;
	}
	/* sampling */
	switch (below(6)) {
	case 0:
		a->sample_period = 1 + below(100000);
		break;
	case 1:
		a->freq = 1;
		a->sample_freq = pct(80) ? 1 + below(4000) : random_bits();
		break;
	case 2:
		a->sample_period = random_bits();
		break;
	}
	if (a->sample_period || pct(20))
		a->sample_type = pct(80) ? below(PERF_SAMPLE_MAX) &
				 ~(uint64_t)(PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
					     PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR |
					     PERF_SAMPLE_AUX) : random_bits();
	/* read_format: the valid bits, sometimes with junk */
	a->read_format = below(32);
	if (pct(5))
		a->read_format |= random_bits();
	/* the flag bits, each now and then */
	a->inherit = pct(20);
	a->pinned = pct(10);
	a->exclusive = pct(10);
	a->exclude_user = pct(15);
	a->exclude_kernel = pct(15);
	a->exclude_hv = pct(15);
	a->exclude_idle = pct(15);
	a->mmap = pct(5);
	a->comm = pct(5);
	a->inherit_stat = pct(5);
	a->enable_on_exec = pct(5);
	a->task = pct(5);
	a->watermark = pct(5);
	a->precise_ip = pct(10) ? below(4) : 0;
	a->mmap_data = pct(5);
	a->sample_id_all = pct(10);
	a->exclude_host = pct(10);
	a->exclude_guest = pct(10);
	a->exclude_callchain_kernel = pct(5);
	a->exclude_callchain_user = pct(5);
	a->mmap2 = pct(5);
	a->comm_exec = pct(5);
	if (pct(3)) {
		a->use_clockid = 1;
		a->clockid = pct(50) ? CLOCK_MONOTONIC : (int)below(32);
	}
	a->context_switch = pct(5);
	a->write_backward = pct(5);
	a->namespaces = pct(3);
	a->ksymbol = pct(3);
	a->bpf_event = pct(3);
	a->aux_output = pct(3);
	a->cgroup = pct(3);
	a->text_poke = pct(3);
	a->build_id = pct(3);
	a->inherit_thread = pct(5);
	a->remove_on_exec = pct(5);
	/* never sigtrap: an overflow would kill the fuzzer */
	if (pct(2))
		a->__reserved_1 = 1 + below(3);
	a->wakeup_events = pct(10) ? below(10) : 0;
	if (pct(3))
		a->__reserved_2 = 1;
	/* the size: current, the first ABI, a later one, junk */
	switch (below(20)) {
	case 0:
		a->size = PERF_ATTR_SIZE_VER0;
		break;
	case 1:
		a->size = PERF_ATTR_SIZE_VER5;
		break;
	case 2:
		a->size = sizeof(*b); /* a zero tail past config3 */
		break;
	case 3:
		a->size = sizeof(*b);
		b->tail[below(8)] = 1 + below(255); /* E2BIG */
		break;
	case 4:
		a->size = 1 + (uint32_t)below(PERF_ATTR_SIZE_VER0); /* E2BIG */
		break;
	}
	/* (config3 reaches the kernel only with a size past struct perf_event_attr) */
}

static void uncore_member(struct member *m, const struct pmu *p)
{
	memset(&m->b, 0, sizeof(m->b));
	m->pmu = p;
	m->b.a.type = p->type;
	uncore_config(p, &m->b);
	fuzz_common(&m->b, pct(55));
	m->what = p->name;
}

static void other_member(struct member *m)
{
	memset(&m->b, 0, sizeof(m->b));
	m->pmu = NULL;
	if (pct(70)) {
		static const uint64_t sw[] = {
			PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
			PERF_COUNT_SW_DUMMY, PERF_COUNT_SW_CONTEXT_SWITCHES,
			PERF_COUNT_SW_PAGE_FAULTS,
		};

		m->b.a.type = PERF_TYPE_SOFTWARE;
		m->b.a.config = pct(90) ? sw[below(sizeof(sw) / sizeof(sw[0]))] : below(16);
		m->what = "software";
	} else {
		m->b.a.type = PERF_TYPE_HARDWARE;
		m->b.a.config = below(PERF_COUNT_HW_MAX + 1);
		m->what = "hardware";
	}
	fuzz_common(&m->b, pct(70));
	/* no software sampling storms: a long period when sampling */
	if (m->b.a.sample_period && !m->b.a.freq && m->b.a.sample_period < 100000)
		m->b.a.sample_period = 100000 + m->b.a.sample_period;
	if (m->b.a.freq && m->b.a.sample_freq > 1000)
		m->b.a.sample_freq = 1000;
}

static const struct pmu *any_pmu(void)
{
	return &pmus[below(npmus)];
}

/* where: the pid and CPU of a case */
static void choose_target(int *pid, int *cpu)
{
	int r = (int)below(100);

	*pid = -1;
	if (r < 62) {
		*cpu = (int)below(ncpus); /* each CPU, offline ones too */
	} else if (r < 72) {
		*cpu = -1; /* pid -1 and cpu -1: refused */
	} else if (r < 80) {
		static const int far[] = { 0, 1, 7, 4096, 0x7fffffff, -2 };
		int k = (int)below(6);

		*cpu = k < 3 ? ncpus + far[k] : far[k];
	} else {
		*pid = pct(50) ? 0 : getpid();
		*cpu = pct(60) ? -1 : (int)below(ncpus);
	}
}

static unsigned long random_flags(void)
{
	switch (below(12)) {
	case 0:
		return PERF_FLAG_FD_NO_GROUP;
	case 1:
		return PERF_FLAG_FD_OUTPUT; /* deprecated: EINVAL */
	case 2:
		return 1UL << (4 + below(8)); /* unknown: EINVAL */
	default:
		return pct(50) ? PERF_FLAG_FD_CLOEXEC : 0;
	}
}

static long sys_open(struct big_attr *b, int pid, int cpu, int group, unsigned long flags)
{
	return syscall(__NR_perf_event_open, &b->a, pid, cpu, group, flags);
}

static void note_open(struct member *m, int err)
{
	attrs++;
	if (err > 0 && err <= MAX_ERRNO)
		open_hist[err]++;
	else if (err == 0)
		open_hist[0]++;
	else
		open_other++;
	if (!documented(err)) {
		unexpected = 1;
		printf("unexpected open %s: %s config %#llx:%#llx:%#llx pid %s cpu %d flags %#lx\n",
		       ename(err), m->what, (unsigned long long)m->b.a.config,
		       (unsigned long long)m->b.a.config1, (unsigned long long)m->b.a.config2,
		       m->pid == -1 ? "-1" : m->pid == 0 ? "0" : "self", m->cpu, m->flags);
	}
	if (verbose)
		printf("open %s type %u config %#llx:%#llx:%#llx:%#llx size %u rf %#llx period %llu "
		       "flags-word %#llx pid %s cpu %d flags %#lx -> %s\n",
		       m->what, m->b.a.type, (unsigned long long)m->b.a.config,
		       (unsigned long long)m->b.a.config1, (unsigned long long)m->b.a.config2,
		       (unsigned long long)m->b.config3, m->b.a.size,
		       (unsigned long long)m->b.a.read_format,
		       (unsigned long long)m->b.a.sample_period,
		       (unsigned long long)*(&m->b.a.read_format + 1),
		       m->pid == -1 ? "-1" : m->pid == 0 ? "0" : "self", m->cpu, m->flags,
		       ename(err));
}

static void note_ioctl(int fd, unsigned long req, unsigned long arg, const char *what)
{
	if (ioctl(fd, req, arg) == 0) {
		ioctl_ok++;
		return;
	}
	ioctl_err[errno <= MAX_ERRNO ? errno : 0]++;
	unexpected = 1;
	printf("unexpected ioctl %s: %s\n", what, ename(errno));
}

/* the size of a read of an event with read format RF (NR events if a group) */
static size_t record_size(uint64_t rf, uint64_t nr)
{
	size_t per = 8 + (rf & PERF_FORMAT_ID ? 8 : 0) + (rf & PERF_FORMAT_LOST ? 8 : 0);
	size_t times = (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 8 : 0) +
		       (rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 8 : 0);

	if (rf & PERF_FORMAT_GROUP)
		return 8 + times + nr * per;
	return per + times;
}

static void note_read(const struct member *m)
{
	static uint64_t buf[8192];
	uint64_t rf = m->b.a.read_format;
	ssize_t n = read(m->fd, buf, sizeof(buf));

	if (n < 0) {
		read_err[errno <= MAX_ERRNO ? errno : 0]++;
		unexpected = 1;
		printf("unexpected read %s: %s config %#llx\n", ename(errno), m->what,
		       (unsigned long long)m->b.a.config);
		return;
	}
	if (n == 0) {
		read_eof++; /* an event in error state (e.g. pinned, not scheduled) */
		return;
	}
	if ((size_t)n < 8 || (size_t)n != record_size(rf, buf[0])) {
		read_short++;
		unexpected = 1;
		printf("unexpected read size %zd (read_format %#llx, first word %llu): %s\n", n,
		       (unsigned long long)rf, (unsigned long long)buf[0], m->what);
		return;
	}
	read_ok++;
}

/* events kept open across cases */
static int held[MAX_HELD];
static int nheld;

static void release_held(int all)
{
	while (nheld && (all || pct(30))) {
		int k = (int)below(nheld);

		close(held[k]);
		held[k] = held[--nheld];
		if (!all)
			break;
	}
}

/* one case: a single event or a group, opened, exercised, closed */
static void run_case(void)
{
	struct member ms[MAX_GROUP];
	int n = 1, i, pid, cpu, kind = (int)below(100), leader_fd;

	cases++;
	choose_target(&pid, &cpu);
	if (kind < 55) {
		uncore_member(&ms[0], any_pmu());
	} else if (kind < 67) {
		/* uncore leader, software or hardware siblings */
		uncore_member(&ms[0], any_pmu());
		n = 2 + (int)below(3);
		for (i = 1; i < n; i++)
			other_member(&ms[i]);
	} else if (kind < 79) {
		/* software or hardware leader, uncore siblings */
		const struct pmu *p = any_pmu();

		other_member(&ms[0]);
		n = 2 + (int)below(3);
		for (i = 1; i < n; i++)
			uncore_member(&ms[i], pct(70) ? p : any_pmu());
	} else if (kind < 91) {
		/* one PMU, more members than any box has counters */
		const struct pmu *p = any_pmu();

		n = 2 + (int)below(MAX_GROUP - 1);
		for (i = 0; i < n; i++)
			uncore_member(&ms[i], p);
	} else {
		/* several uncore PMUs in one group */
		n = 2 + (int)below(4);
		for (i = 0; i < n; i++)
			uncore_member(&ms[i], any_pmu());
	}
	for (i = 0; i < n; i++) {
		ms[i].pid = pid;
		ms[i].cpu = cpu;
		ms[i].flags = pct(85) ? PERF_FLAG_FD_CLOEXEC : random_flags();
		ms[i].fd = -1;
		if (i && pct(8))
			choose_target(&ms[i].pid, &ms[i].cpu);
		/* members of a group start enabled, as perf opens them */
		if (i && pct(80))
			ms[i].b.a.disabled = 0;
	}
	leader_fd = -1;
	for (i = 0; i < n; i++) {
		long fd = sys_open(&ms[i].b, ms[i].pid, ms[i].cpu, i ? leader_fd : -1, ms[i].flags);

		note_open(&ms[i], fd < 0 ? errno : 0);
		ms[i].fd = fd < 0 ? -1 : (int)fd;
		if (i == 0)
			leader_fd = ms[0].fd;
	}
	/* exercise what opened */
	for (i = 0; i < n; i++) {
		if (ms[i].fd < 0)
			continue;
		if (pct(20))
			note_ioctl(ms[i].fd, PERF_EVENT_IOC_RESET, 0, "RESET");
		note_ioctl(ms[i].fd, PERF_EVENT_IOC_ENABLE,
			   i == 0 && n > 1 && pct(50) ? PERF_IOC_FLAG_GROUP : 0, "ENABLE");
	}
	for (i = 0; i < n; i++)
		if (ms[i].fd >= 0)
			note_read(&ms[i]);
	for (i = 0; i < n; i++) {
		if (ms[i].fd < 0)
			continue;
		note_ioctl(ms[i].fd, PERF_EVENT_IOC_DISABLE,
			   i == 0 && n > 1 && pct(50) ? PERF_IOC_FLAG_GROUP : 0, "DISABLE");
		note_read(&ms[i]);
	}
	/* keep a single uncore event open now and then (re-enabled) */
	if (n == 1 && ms[0].fd >= 0 && ms[0].pmu && pct(15)) {
		if (nheld == MAX_HELD)
			release_held(0);
		if (nheld == MAX_HELD) {
			/* release_held(0) may keep every one: drop one */
			close(held[0]);
			held[0] = held[--nheld];
		}
		note_ioctl(ms[0].fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
		held[nheld++] = ms[0].fd;
		ms[0].fd = -1;
	} else if (nheld && pct(10)) {
		release_held(0);
	}
	/* close: members first, or the leader first (the group breaks up) */
	if (pct(70)) {
		for (i = n - 1; i >= 0; i--)
			if (ms[i].fd >= 0)
				close(ms[i].fd);
	} else {
		for (i = 0; i < n; i++)
			if (ms[i].fd >= 0) {
				close(ms[i].fd);
				/* a member outliving its leader, read once more */
				ms[i].fd = -1;
				if (i == 0 && n > 1 && ms[1].fd >= 0) {
					note_read(&ms[1]);
					note_ioctl(ms[1].fd, PERF_EVENT_IOC_ENABLE, 0, "ENABLE");
					note_read(&ms[1]);
				}
			}
	}
}

static void print_hist(void)
{
	int e;

	for (e = 0; e <= MAX_ERRNO; e++)
		if (open_hist[e])
			printf("open %s %lu\n", ename(e), open_hist[e]);
	if (open_other)
		printf("open other %lu\n", open_other);
	printf("read ok %lu\n", read_ok);
	printf("read eof %lu\n", read_eof);
	printf("read short %lu\n", read_short);
	for (e = 0; e <= MAX_ERRNO; e++)
		if (read_err[e])
			printf("read error:%s %lu\n", ename(e), read_err[e]);
	printf("ioctl ok %lu\n", ioctl_ok);
	for (e = 0; e <= MAX_ERRNO; e++)
		if (ioctl_err[e])
			printf("ioctl error:%s %lu\n", ename(e), ioctl_err[e]);
	printf("attrs %lu\n", attrs);
	printf("cases %lu\n", cases);
	printf("pmus %d\n", npmus);
}

/* ---- one event (-e) ---- */

static int drop_to(long uid)
{
	if (uid < 0)
		return 0;
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid)) {
		perror("uncore_fuzz: dropping privileges");
		return -1;
	}
	return 0;
}

static int open_one(const char *spec, int cpu, int pid, long uid, int hold)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	char name[64], *end;
	const char *colon = strchr(spec, ':');
	unsigned int type;
	uint64_t v[3];	/* value, time enabled, time running */
	char path[256], buf[64];
	int fd;

	const char *slash = strchr(spec, '/');
	const char *sep = slash && (!colon || slash < colon) ? slash : colon;

	if (!sep || sep - spec >= (long)sizeof(name)) {
		fprintf(stderr, "uncore_fuzz: -e PMU:CONFIG[:CONFIG1[:CONFIG2]] or PMU/TERMS/\n");
		return 2;
	}
	memcpy(name, spec, sep - spec);
	name[sep - spec] = 0;
	snprintf(path, sizeof(path), DEVS "/%s/type", name);
	if (read_line(path, buf, sizeof(buf)) || sscanf(buf, "%u", &type) != 1) {
		printf("NOPMU\n");
		return 1;
	}
	a.type = type;
	if (sep == slash) {
		/* perf's syntax: the terms through the PMU's format/ files */
		static struct pmu p;
		struct alias al;
		char terms[512];

		snprintf(p.name, sizeof(p.name), "%s", name);
		load_pmu(&p);
		snprintf(terms, sizeof(terms), "%s", slash + 1);
		terms[strcspn(terms, "/")] = 0;
		if (parse_alias(&p, terms, &al)) {
			printf("BADTERMS\n");
			return 2;
		}
		a.config = al.cfg[0];
		a.config1 = al.cfg[1];
		a.config2 = al.cfg[2];
	} else {
		a.config = strtoull(colon + 1, &end, 0);
		if (*end == ':')
			a.config1 = strtoull(end + 1, &end, 0);
		if (*end == ':')
			a.config2 = strtoull(end + 1, &end, 0);
	}
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (drop_to(uid))
		return 2;
	fd = (int)syscall(__NR_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		printf("%s\n", ename(errno));
		return 1;
	}
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) || read(fd, v, sizeof(v)) != sizeof(v)) {
		printf("read/ioctl failed: %s\n", ename(errno));
		return 1;
	}
	if (hold) {
		printf("holding\n");
		fflush(stdout);
		if (hold < 0)
			for (;;)
				pause();
		sleep((unsigned int)hold);
		if (read(fd, v, sizeof(v)) != sizeof(v)) {
			printf("read failed: %s\n", ename(errno));
			return 1;
		}
		printf("count %llu\nrunning %llu\n", (unsigned long long)v[0],
		       (unsigned long long)v[2]);
	}
	printf("ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, seed = 0;
	double limit = 0;
	const char *one = NULL;
	int opt, cpu = 0, pid = -1, hold = 0, have_n = 0, have_s = 0;
	long uid = -1;
	struct timespec t0, t;

	while ((opt = getopt(argc, argv, "n:s:t:ve:c:p:u:H:")) != -1) {
		switch (opt) {
		case 'n': n = strtoul(optarg, NULL, 0); have_n = 1; break;
		case 's': seed = strtoul(optarg, NULL, 0); have_s = 1; break;
		case 't': limit = atof(optarg); break;
		case 'v': verbose = 1; break;
		case 'e': one = optarg; break;
		case 'c': cpu = atoi(optarg); break;
		case 'p': pid = atoi(optarg); break;
		case 'u': uid = atol(optarg); break;
		case 'H': hold = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: uncore_fuzz -n N -s SEED [-t SECONDS] [-v]\n"
					"       uncore_fuzz -e PMU:CONFIG[:C1[:C2]]|PMU/TERMS/ [-c CPU] [-p PID] [-u UID] [-H SECONDS]\n");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (one)
		return open_one(one, cpu, pid, uid, hold);
	if (!have_n || !have_s) {
		fprintf(stderr, "uncore_fuzz: -n N and -s SEED are required\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	rng_state = seed;
	load_pmus();
	load_cpus();
	if (!npmus) {
		fprintf(stderr, "uncore_fuzz: no uncore PMU under " DEVS "\n");
		return 2;
	}
	printf("seed %lu cpus %d\n", seed, ncpus);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (attrs < n) {
		run_case();
		if (limit > 0 && (cases & 15) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 > limit)
				break;
		}
	}
	release_held(1);
	print_hist();
	return unexpected ? 1 : 0;
}
