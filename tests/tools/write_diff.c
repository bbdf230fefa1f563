// SPDX-License-Identifier: GPL-2.0
/*
 * Compares the MSR writes of the C uncore driver with this driver's, event
 * by event, under the list of deliberate differences.
 *
 *        write_diff RULES PLATFORM OURS C
 *
 * OURS and C: one write a line, "K MSR VALUE" (K the event's number, 0
 * for writes before the first event, e.g. at load; MSR and VALUE in hex).
 * RULES: a text whose lines of the form
 *
 *        PLATFORMS  MSRS  KIND  MASK  reason...
 *
 * are the rules (other lines are ignored): PLATFORMS a comma list of
 * platform names; MSRS a comma list of A, A-B, or either followed by
 * +S*N (N copies, S apart); MASK hex. Kinds, for a C write of V and one of
 * this driver of U to the same MSR for the same event:
 *   ignore  the bits of MASK are not compared;
 *   off     a value without any bit of MASK (an enable) is "off", whatever
 *           its other bits;
 *   subset  within MASK, U's bits need only be a subset of V's;
 *   load    the C write matches a write of this driver before the first
 *           event (K 0) as well.
 * Every C write of an event (K >= 1) must match one of this driver's.
 * Prints each one that does not ("K MSR V ours: U..."), how often each
 * rule was needed, and a summary; exits 1 if any write was unexplained.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RULES 128
#define MAX_RANGES 16
#define MAX_WRITES 200000

enum kind { IGNORE, OFF, SUBSET, LOAD };

struct range {
	uint32_t lo, hi, stride, copies;
};

struct rule {
	enum kind kind;
	uint64_t mask;
	int nr;
	struct range r[MAX_RANGES];
	int line, used;
};

struct write {
	unsigned int k;
	uint32_t msr;
	uint64_t v;
};

static struct rule rules[MAX_RULES];
static int nrules;

static int platform_listed(const char *list, const char *p)
{
	char buf[256], *save, *t;

	snprintf(buf, sizeof(buf), "%s", list);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (!strcmp(t, p))
			return 1;
	return 0;
}

/* "A[-B][+S*N]"; 0 on success. */
static int parse_range(const char *s, struct range *r)
{
	char *end;

	r->lo = strtoul(s, &end, 16);
	r->hi = r->lo;
	r->stride = 0;
	r->copies = 1;
	if (end == s)
		return -1;
	if (*end == '-') {
		s = end + 1;
		r->hi = strtoul(s, &end, 16);
		if (end == s || r->hi < r->lo)
			return -1;
	}
	if (*end == '+') {
		s = end + 1;
		r->stride = strtoul(s, &end, 16);
		if (end == s || *end != '*')
			return -1;
		s = end + 1;
		r->copies = strtoul(s, &end, 10);
		if (end == s || !r->copies)
			return -1;
	}
	return *end ? -1 : 0;
}

static int in_range(const struct range *r, uint32_t msr)
{
	uint32_t i;

	for (i = 0; i < r->copies; i++) {
		uint32_t off = i * r->stride;

		if (msr >= r->lo + off && msr <= r->hi + off)
			return 1;
	}
	return 0;
}

static int applies(const struct rule *ru, uint32_t msr)
{
	int i;

	for (i = 0; i < ru->nr; i++)
		if (in_range(&ru->r[i], msr))
			return 1;
	return 0;
}

/* The rules of platform p in file f; -1 on a malformed rule line. */
static int load_rules(const char *f, const char *p)
{
	char line[1024], plat[256], msrs[512], kind[32], mask[64];
	FILE *in = fopen(f, "r");
	int n = 0;

	if (!in)
		return -1;
	while (fgets(line, sizeof(line), in)) {
		struct rule *ru = &rules[nrules];
		char *save, *t;

		n++;
		if (sscanf(line, " %255s %511s %31s %63s", plat, msrs, kind, mask) != 4 ||
		    strncmp(msrs, "0x", 2) || strncmp(mask, "0x", 2))
			continue;
		if (!strcmp(kind, "ignore"))
			ru->kind = IGNORE;
		else if (!strcmp(kind, "off"))
			ru->kind = OFF;
		else if (!strcmp(kind, "subset"))
			ru->kind = SUBSET;
		else if (!strcmp(kind, "load"))
			ru->kind = LOAD;
		else
			continue;
		if (!platform_listed(plat, p))
			continue;
		if (nrules == MAX_RULES) {
			fprintf(stderr, "write_diff: more than %d rules\n", MAX_RULES);
			return -1;
		}
		ru->mask = strtoull(mask, NULL, 16);
		ru->line = n;
		ru->nr = 0;
		for (t = strtok_r(msrs, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (ru->nr == MAX_RANGES || parse_range(t, &ru->r[ru->nr])) {
				fprintf(stderr, "write_diff: %s:%d: bad MSR list\n", f, n);
				return -1;
			}
			ru->nr++;
		}
		nrules++;
	}
	fclose(in);
	return 0;
}

static struct write *load_writes(const char *f, int *n)
{
	struct write *w = calloc(MAX_WRITES, sizeof(*w));
	FILE *in = fopen(f, "r");
	char line[256];

	*n = 0;
	if (!w || !in)
		return NULL;
	while (fgets(line, sizeof(line), in) && *n < MAX_WRITES) {
		struct write *x = &w[*n];

		if (sscanf(line, "%u %" SCNx32 " %" SCNx64, &x->k, &x->msr, &x->v) == 3)
			(*n)++;
	}
	fclose(in);
	return w;
}

/* Whether C's v and this driver's u to msr match; *by: the rule needed. */
static int match(uint32_t msr, uint64_t v, uint64_t u, int *by)
{
	uint64_t ign = 0, sub = 0, en = 0;
	int i, need = -1;

	*by = -1;
	if (v == u)
		return 1;
	for (i = 0; i < nrules; i++) {
		if (!applies(&rules[i], msr))
			continue;
		if (rules[i].kind == IGNORE)
			ign |= rules[i].mask;
		else if (rules[i].kind == SUBSET)
			sub |= rules[i].mask;
		else if (rules[i].kind == OFF)
			en |= rules[i].mask;
		else
			continue;
		/* The first rule that makes the difference is the one named. */
		if (need < 0) {
			uint64_t a = v & ~ign, b = u & ~ign;

			if (en && !(a & en) && !(b & en))
				need = i;
			else if (((a ^ b) & ~sub) == 0 && !(b & sub & ~a))
				need = i;
		}
	}
	*by = need;
	return need >= 0;
}

int main(int argc, char **argv)
{
	struct write *ours, *c;
	int no, nc, i, j, events = 0, same = 0, ruled = 0, bad = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: write_diff RULES PLATFORM OURS C\n");
		return 2;
	}
	if (load_rules(argv[1], argv[2]))
		return 2;
	ours = load_writes(argv[3], &no);
	c = load_writes(argv[4], &nc);
	if (!ours || !c) {
		fprintf(stderr, "write_diff: cannot read %s or %s\n", argv[3], argv[4]);
		return 2;
	}
	for (i = 0; i < nc; i++) {
		const struct write *x = &c[i];
		int found = 0, by = -1, by_load = -1;

		if (x->k > (unsigned int)events)
			events = x->k;
		if (!x->k)
			continue;
		for (j = 0; j < no && !found; j++) {
			int b;

			if (ours[j].msr != x->msr || match(x->msr, x->v, ours[j].v, &b) == 0)
				continue;
			if (ours[j].k == x->k) {
				found = 1;
				by = b;
			} else if (!ours[j].k) {
				int k;

				for (k = 0; k < nrules; k++)
					if (rules[k].kind == LOAD && applies(&rules[k], x->msr))
						by_load = k;
			}
		}
		if (!found && by_load >= 0) {
			found = 1;
			by = by_load;
		}
		if (!found) {
			printf("%u %" PRIx32 " %" PRIx64 " ours:", x->k, x->msr, x->v);
			for (j = 0; j < no; j++)
				if (ours[j].k == x->k && ours[j].msr == x->msr)
					printf(" %" PRIx64, ours[j].v);
			printf("\n");
			bad++;
		} else if (by >= 0) {
			rules[by].used++;
			ruled++;
		} else {
			same++;
		}
	}
	for (i = 0; i < nrules; i++)
		printf("# rule at line %d: %d writes\n", rules[i].line, rules[i].used);
	printf("# %s: %d events, %d C writes: %d identical, %d set aside by %d rules, %d unexplained\n",
	       argv[2], events, same + ruled + bad, same, ruled, nrules, bad);
	return bad ? 1 : 0;
}
