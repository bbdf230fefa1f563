// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel macros and static inlines Rust cannot reach through bindgen, one
 * line each. Their Rust declarations are generated from this file
 * (rust/helpers_generated.rs, Kbuild); like rust/helpers, no header.
 */
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/topology.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>

/* rust/bindings_sysfs.rs's hand-declared 6.12 layouts, against the tree's. */
static_assert(offsetof(struct device_attribute, show) == sizeof(struct attribute));
static_assert(sizeof(struct device_attribute) == sizeof(struct attribute) + 2 * sizeof(void *));
static_assert(sizeof(struct dev_ext_attribute) == sizeof(struct device_attribute) + sizeof(void *));
#ifndef __SYSFS_FUNCTION_ALTERNATIVE
static_assert(offsetof(struct attribute_group, attrs) == 3 * sizeof(void *));
static_assert(sizeof(struct attribute_group) == 5 * sizeof(void *));
#endif

/* CPUs and topology; `cpu` is below nr_cpu_ids (checked by the caller). */
bool ru_boot_cpu_has(unsigned int feature) { return boot_cpu_has(feature); }
unsigned int ru_this_cpu(void) { return raw_smp_processor_id(); }
unsigned int ru_nr_cpu_ids(void) { return nr_cpu_ids; }
int ru_cpu_package(unsigned int cpu) { return topology_logical_package_id(cpu); }
int ru_this_package(void) { return topology_logical_package_id(raw_smp_processor_id()); }
int ru_cpu_core_id(unsigned int cpu) { return topology_core_id(cpu); }
int ru_phys_to_logical_pkg(unsigned int phys) { return topology_phys_to_logical_pkg(phys); }
unsigned int ru_max_packages(void) { return topology_max_packages(); }
unsigned int ru_cores_per_package(void) { return topology_num_cores_per_package(); }
bool ru_cpu_present(unsigned int cpu) { return cpu_present(cpu); }
bool ru_cpu_online(unsigned int cpu) { return cpu_online(cpu); }

unsigned int ru_package_other_cpu(unsigned int cpu)
{
	return cpumask_any_but(topology_core_cpumask(cpu), cpu);
}

/*
 * MSRs of the current CPU, with fault handling. The two-halves forms have
 * one name on every kernel (the 64-bit ones were renamed from rdmsrl_safe
 * to rdmsrq_safe).
 */
int ru_rdmsr_safe(u32 msr, u64 *val)
{
	u32 lo, hi;
	int err = rdmsr_safe(msr, &lo, &hi);

	*val = (u64)hi << 32 | lo;
	return err;
}

int ru_wrmsr_safe(u32 msr, u64 val) { return wrmsr_safe(msr, (u32)val, (u32)(val >> 32)); }

/*
 * Without fault handling of its own: an MSR the CPU lacks reads 0, with the
 * kernel's one-time "unchecked MSR access error" warning (as C uncore reads).
 */
u64 ru_rdmsr(u32 msr)
{
	u32 lo, hi;

	rdmsr(msr, lo, hi);
	return (u64)hi << 32 | lo;
}

/* Raw spinlocks: __raw_spin_lock_init() exists only with DEBUG_SPINLOCK. */
void ru_raw_spin_lock_init(raw_spinlock_t *lock, const char *name, struct lock_class_key *key)
{
#ifdef CONFIG_DEBUG_SPINLOCK
	__raw_spin_lock_init(lock, name, key, LD_WAIT_SPIN);
#else
	raw_spin_lock_init(lock);
#endif
}

unsigned long ru_raw_spin_lock_irqsave(raw_spinlock_t *lock)
{
	unsigned long flags;

	raw_spin_lock_irqsave(lock, flags);
	return flags;
}

void ru_raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags)
{
	raw_spin_unlock_irqrestore(lock, flags);
}

bool ru_raw_spin_trylock_irqsave(raw_spinlock_t *lock, unsigned long *flags)
{
	return raw_spin_trylock_irqsave(lock, *flags);
}

void ru_raw_spin_assert_held(raw_spinlock_t *lock) { lockdep_assert_held(lock); }
void ru_lockdep_assert_irqs_disabled(void) { lockdep_assert_irqs_disabled(); }

/* A dynamic multi-instance hotplug state (the setup casts the callbacks). */
int ru_cpuhp_setup_state_multi(const char *name, int (*online)(unsigned int, struct hlist_node *),
			       int (*offline)(unsigned int, struct hlist_node *))
{
	return cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, name, online, offline);
}

void ru_init_irq_work_hard(struct irq_work *work, void (*fn)(struct irq_work *))
{
	*work = IRQ_WORK_INIT_HARD(fn);
}

void ru_send_nmi(unsigned int cpu) { __apic_send_IPI_mask(cpumask_of(cpu), NMI_VECTOR); }
void ru_apic_lvtpc_nmi(void) { if (boot_cpu_has(X86_FEATURE_APIC) && apic) apic->write(APIC_LVTPC, APIC_DM_NMI); }

/* perf events. */
bool ru_is_sampling_event(struct perf_event *ev) { return is_sampling_event(ev); }
bool ru_event_has_any_exclude_flag(struct perf_event *ev) { return event_has_any_exclude_flag(ev); }
void ru_lockdep_assert_event_ctx(struct perf_event *ev) { lockdep_assert_event_ctx(ev); }
s64 ru_local64_read(local64_t *l) { return local64_read(l); }
void ru_local64_set(local64_t *l, s64 i) { local64_set(l, i); }
void ru_local64_add(s64 i, local64_t *l) { local64_add(i, l); }
s64 ru_local64_xchg(local64_t *l, s64 n) { return local64_xchg(l, n); }
/* As kernel::perf's helper of the same name: an add other CPUs' adds cannot lose. */
void ru_perf_event_count_add_atomic(struct perf_event *ev, s64 d) { atomic_long_add(d, (atomic_long_t *)&ev->count); }
void ru_warn(void) { WARN_ON(1); }
bool ru_pr_debug(const void *args) { pr_debug(KBUILD_MODNAME ": %pA\n", args); return IS_ENABLED(CONFIG_DYNAMIC_DEBUG); }

/* RCU read-side sections, NMI context, local interrupts. */
void ru_rcu_read_lock(void) { rcu_read_lock(); }
void ru_rcu_read_unlock(void) { rcu_read_unlock(); }
bool ru_in_nmi(void) { return in_nmi(); }
bool ru_irqs_disabled(void) { return irqs_disabled(); }
bool ru_in_task(void) { return in_task(); }
/* Task context (no irq/softirq/NMI bits), no preemption-disabling lock where counted. */
bool ru_may_sleep(void) { return !preempt_count() && !irqs_disabled() && !rcu_preempt_depth(); }
void ru_mdelay(unsigned int ms) { mdelay(ms); }
unsigned long ru_local_irq_save(void) { unsigned long f; local_irq_save(f); return f; }
void ru_local_irq_restore(unsigned long flags) { local_irq_restore(flags); }

void ru_sysfs_attr_init(struct attribute *attr) { sysfs_attr_init(attr); }

#ifdef RU_HELPERS_DEBUGFS
/*
 * A macro on some kernels, choosing among typed variants. Only in the copy
 * of a module that has debugfs files (rust/uncore/sim_helpers.c): the
 * module users load has none.
 */
struct dentry *ru_debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				      void *data, const struct file_operations *fops)
{
	return debugfs_create_file(name, mode, parent, data, fops);
}
#endif

int ru_pci_domain_nr(struct pci_bus *bus) { return pci_domain_nr(bus); }
int ru_pcibios_err_to_errno(int err) { return pcibios_err_to_errno(err); }

u32 ru_readl(const void __iomem *addr) { return readl(addr); }

/*
 * The function of every timer of rust/hrtimer.rs. The hrtimer core calls a
 * timer's function through a pointer of type enum hrtimer_restart (*)(struct
 * hrtimer *), which kCFI checks; where the kernel's bindings make the enum a
 * plain integer, a Rust function has another type and would fail the check.
 * This one has the C type, and calls the Rust side directly.
 */
unsigned int rusys_hrtimer_run(struct hrtimer *timer);
enum hrtimer_restart ru_hrtimer_function(struct hrtimer *timer)
{
	return rusys_hrtimer_run(timer) ? HRTIMER_RESTART : HRTIMER_NORESTART;
}
