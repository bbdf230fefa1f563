// SPDX-License-Identifier: GPL-2.0

#include <linux/perf_event.h>
#include <linux/sysfs.h>

/*
 * Only for kernel::perf, which exists with CONFIG_PERF_EVENTS: without it,
 * struct perf_event is empty and neither these functions nor local64_t are
 * declared.
 */
#ifdef CONFIG_PERF_EVENTS
__rust_helper bool rust_helper_is_sampling_event(struct perf_event *event)
{
	return is_sampling_event(event);
}

__rust_helper bool rust_helper_event_has_any_exclude_flag(struct perf_event *event)
{
	return event_has_any_exclude_flag(event);
}

__rust_helper void rust_helper_lockdep_assert_event_ctx(struct perf_event *event)
{
	lockdep_assert_event_ctx(event);
}

__rust_helper s64 rust_helper_local64_read(local64_t *l)
{
	return local64_read(l);
}

__rust_helper void rust_helper_local64_set(local64_t *l, s64 i)
{
	local64_set(l, i);
}

__rust_helper void rust_helper_local64_add(s64 i, local64_t *l)
{
	local64_add(i, l);
}

__rust_helper s64 rust_helper_local64_xchg(local64_t *l, s64 n)
{
	return local64_xchg(l, n);
}

/*
 * An add to an event's count that other CPUs' adds cannot lose, for a PMU
 * whose events other CPUs read (local64_add() is atomic on its own CPU
 * only). local64_t is a local_t, one long, on 64-bit kernels, and an
 * atomic64_t on 32-bit ones.
 */
__rust_helper void rust_helper_perf_event_count_add_atomic(struct perf_event *event, s64 delta)
{
#if BITS_PER_LONG == 64
	atomic_long_add(delta, (atomic_long_t *)&event->count);
#else
	atomic64_add(delta, &event->count.a);
#endif
}

__rust_helper bool rust_helper_cpu_online(unsigned int cpu)
{
	return cpu_online(cpu);
}

__rust_helper void rust_helper_sysfs_attr_init(struct attribute *attr)
{
	sysfs_attr_init(attr);
}
#endif
