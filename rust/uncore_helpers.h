/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C side of the rust_uncore kernel abstraction layer.
 *
 * These functions wrap kernel macros, inline functions and structures that
 * Rust on 6.12 cannot reach through `kernel::bindings`. They are declared
 * on the Rust side in exactly one place, rust/ffi.rs; keep the two in step.
 * Only scalars, pointers and the small structures below cross the boundary.
 */
#ifndef RUST_UNCORE_HELPERS_H
#define RUST_UNCORE_HELPERS_H

#include <linux/types.h>

struct perf_event;
struct dentry;

/* Module parameters. */
const char *ru_param_sim(void);

/* CPU identification of the boot CPU. */
struct ru_cpu_id {
	u32 vendor_intel;
	u32 family;
	u32 model;
	u32 hypervisor;
};
void ru_boot_cpu_id(struct ru_cpu_id *id);

/* Topology. */
int ru_this_cpu(void);
int ru_cpu_package(unsigned int cpu);
unsigned int ru_max_packages(void);
unsigned int ru_cores_per_package(void);
int ru_cpu_core_id(unsigned int cpu);
int ru_package_other_cpu(unsigned int cpu);
int ru_cpu_core_id(unsigned int cpu);
unsigned int ru_nr_cpu_ids(void);
void ru_udelay(unsigned int us);
bool ru_cpu_present(unsigned int cpu);
bool ru_cpu_online(unsigned int cpu);
unsigned int ru_nr_cpu_ids(void);
void ru_udelay(unsigned int us);
bool ru_cpu_online(unsigned int cpu);

/* MSRs: on the current CPU, or on a given CPU (process context). */
int ru_rdmsr(u32 msr, u64 *val);
int ru_wrmsr(u32 msr, u64 val);
int ru_rdmsr_on_cpu(unsigned int cpu, u32 msr, u64 *val);
int ru_wrmsr_on_cpu(unsigned int cpu, u32 msr, u64 val);

/* An IRQ-safe raw spinlock, of one of RU_LOCK_CLASSES lockdep classes. */
#define RU_LOCK_CLASSES 5
struct ru_lock;
struct ru_lock *ru_lock_alloc(unsigned int lock_class);
void ru_lock_free(struct ru_lock *lock);
unsigned long ru_lock_irqsave(struct ru_lock *lock);
bool ru_trylock_irqsave(struct ru_lock *lock, unsigned long *flags);
void ru_unlock_irqrestore(struct ru_lock *lock, unsigned long flags);

/* A periodic high-resolution timer, pinned to the CPU that starts it. */
struct ru_timer;
struct ru_timer *ru_timer_alloc(bool (*fn)(void *data), void *data);
void ru_timer_free(struct ru_timer *t);
void ru_timer_start(struct ru_timer *t, u64 interval_ns);
void ru_timer_cancel(struct ru_timer *t);

/* CPU hotplug: online/offline callbacks of one instance. */
struct ru_cpuhp_ops {
	int (*online)(void *data, unsigned int cpu);
	int (*offline)(void *data, unsigned int cpu);
};
struct ru_cpuhp;
struct ru_cpuhp *ru_cpuhp_add(const char *name, const struct ru_cpuhp_ops *ops, void *data, int *err);
void ru_cpuhp_remove(struct ru_cpuhp *h);

/* The CPUs that collect uncore events (the `cpumask` file of every PMU). */
void ru_collectors_set(unsigned int cpu, bool on);

/* perf PMUs. */
struct ru_pmu_ops {
	int (*event_init)(void *data, struct perf_event *ev);
	int (*add)(void *data, struct perf_event *ev, int flags);
	void (*del)(void *data, struct perf_event *ev, int flags);
	void (*start)(void *data, struct perf_event *ev, int flags);
	void (*stop)(void *data, struct perf_event *ev, int flags);
	void (*read)(void *data, struct perf_event *ev);
	void (*pmu_enable)(void *data);
	void (*pmu_disable)(void *data);
};
struct ru_pmu;
struct ru_pmu *ru_pmu_alloc(const struct ru_pmu_ops *ops, void *data, unsigned int n_format, unsigned int n_events);
int ru_pmu_set_attr(struct ru_pmu *p, bool events, unsigned int i, const char *name, size_t name_len,
		    const char *value, size_t value_len);
int ru_pmu_register(struct ru_pmu *p, const char *name, size_t name_len);
void ru_pmu_unregister(struct ru_pmu *p);
void ru_pmu_free(struct ru_pmu *p);
int ru_pmu_type(struct ru_pmu *p);
void ru_pmu_migrate(struct ru_pmu *p, int from, int to);
bool ru_pmu_name_taken(const char *name, size_t name_len);

/* perf events. */
#define RU_EV_SAMPLING 0x1
#define RU_EV_EXCLUDE 0x2
#define RU_EV_TASK 0x4
#define RU_EV_LEADER 0x8
struct ru_event_info {
	u32 type;
	u32 pmu_type;
	u64 config;
	u64 config1;
	u64 config2;
	s32 cpu;
	u32 flags;
};
void ru_event_info(struct perf_event *ev, struct ru_event_info *out);
void ru_event_set_cpu(struct perf_event *ev, int cpu);
void ru_event_add_count(struct perf_event *ev, u64 delta);
int ru_event_group_for_each(struct perf_event *ev, int (*fn)(void *ctx, struct perf_event *sib), void *ctx);

/* debugfs files with text read and write handlers. */
struct ru_debugfs_ops {
	ssize_t (*read)(void *data, char *buf, size_t size);
	ssize_t (*write)(void *data, const char *buf, size_t len);
};
struct ru_debugfs;
struct ru_debugfs *ru_debugfs_create(const char *dir);
int ru_debugfs_add(struct ru_debugfs *d, const char *name, const struct ru_debugfs_ops *ops, void *data);
void ru_debugfs_remove(struct ru_debugfs *d);

/* PCI: a driver for the uncore devices of the static ID table. */
struct pci_dev;
struct ru_pci_ops {
	int (*probe)(void *data, struct pci_dev *pdev, u16 vendor, u16 device, u32 domain, u32 bus, u32 devfn);
	void (*remove)(void *data, struct pci_dev *pdev);
};
struct ru_pci_driver;
struct ru_pci_driver *ru_pci_register(const struct ru_pci_ops *ops, void *data, int *err);
void ru_pci_unregister(struct ru_pci_driver *d);
int ru_pci_read32(struct pci_dev *pdev, u32 off, u32 *val);
int ru_pci_write32(struct pci_dev *pdev, u32 off, u32 val);
struct ru_ubox {
	u32 domain;
	u32 bus;
	u32 nodeid;
	u32 gidnidmap;
};
int ru_pci_uboxes(u16 device, struct ru_ubox *out, unsigned int max);
int ru_phys_to_logical_pkg(unsigned int phys);

/* MMIO windows. */
void *ru_ioremap(u64 phys, u64 size);
void ru_iounmap(void *addr);
u32 ru_readl(void *addr, u32 off);

/* NMIs: one NMI_LOCAL handler at a time; returns whether it handled the NMI. */
int ru_nmi_register(bool (*fn)(void *data), void *data);
void ru_nmi_unregister(void);
void ru_send_nmi(unsigned int cpu);

/* irq_work: NMI-safe deferral to hard interrupt context on the same CPU. */
struct ru_irq_work;
struct ru_irq_work *ru_irq_work_alloc(void (*fn)(void *data), void *data);
bool ru_irq_work_queue(struct ru_irq_work *w);
void ru_irq_work_free(struct ru_irq_work *w);

#endif /* RUST_UNCORE_HELPERS_H */
