// SPDX-License-Identifier: GPL-2.0
/*
 * C side of the rust_uncore kernel abstraction layer: kernel macros,
 * inline functions and structures wrapped as plain functions for Rust.
 * See uncore_helpers.h; the Rust declarations are in rust/ffi.rs.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/debugfs.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/namei.h>
#include <linux/topology.h>
#include <linux/pci.h>
#include <linux/io.h>
#include <asm/cpu_device_id.h>
#include <asm/nmi.h>
#include <asm/apic.h>
#include <linux/irq_work.h>
#include <linux/delay.h>
#include <asm/processor.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>

#include "uncore_helpers.h"

/* ---- Module parameters ---- */

static char *sim;
module_param(sim, charp, 0444);
MODULE_PARM_DESC(sim, "Drive a simulated platform instead of the hardware: <platform>[:<sockets>], platform one of snbep, ivbep, nhmex, wsmex, skl, xeon7100, xeon7400");

const char *ru_param_sim(void)
{
	return sim;
}

/* ---- CPU identification and topology ---- */

void ru_boot_cpu_id(struct ru_cpu_id *id)
{
	id->vendor_intel = boot_cpu_data.x86_vendor == X86_VENDOR_INTEL;
	id->family = boot_cpu_data.x86;
	id->model = boot_cpu_data.x86_model;
	id->hypervisor = boot_cpu_has(X86_FEATURE_HYPERVISOR);
}

int ru_this_cpu(void)
{
	return raw_smp_processor_id();
}

int ru_cpu_package(unsigned int cpu)
{
	return topology_logical_package_id(cpu);
}

unsigned int ru_max_packages(void)
{
	return topology_max_packages();
}

unsigned int ru_cores_per_package(void)
{
	return topology_num_cores_per_package();
}

int ru_cpu_core_id(unsigned int cpu)
{
	return topology_core_id(cpu);
}

int ru_package_other_cpu(unsigned int cpu)
{
	unsigned int other = cpumask_any_but(topology_core_cpumask(cpu), cpu);

	return other < nr_cpu_ids ? other : -1;
}

bool ru_cpu_present(unsigned int cpu)
{
	return cpu < nr_cpu_ids && cpu_present(cpu);
}

void ru_udelay(unsigned int us)
{
	udelay(us);
}

unsigned int ru_nr_cpu_ids(void)
{
	return nr_cpu_ids;
}

bool ru_cpu_online(unsigned int cpu)
{
	return cpu < nr_cpu_ids && cpu_online(cpu);
}

/* ---- MSRs ---- */

int ru_rdmsr(u32 msr, u64 *val)
{
	return rdmsrl_safe(msr, val);
}

int ru_wrmsr(u32 msr, u64 val)
{
	return wrmsrl_safe(msr, val);
}

int ru_rdmsr_on_cpu(unsigned int cpu, u32 msr, u64 *val)
{
	return rdmsrl_safe_on_cpu(cpu, msr, val);
}

int ru_wrmsr_on_cpu(unsigned int cpu, u32 msr, u64 val)
{
	return wrmsrl_safe_on_cpu(cpu, msr, val);
}

/* ---- Locks ---- */

struct ru_lock {
	raw_spinlock_t lock;
};

static struct lock_class_key ru_lock_keys[RU_LOCK_CLASSES];
static const char *const ru_lock_names[RU_LOCK_CLASSES] = {
	"rust_uncore:box", "rust_uncore:global", "rust_uncore:model", "rust_uncore:pci",
	"rust_uncore:slot",
};

struct ru_lock *ru_lock_alloc(unsigned int lock_class)
{
	struct ru_lock *l = kzalloc(sizeof(*l), GFP_KERNEL);

	if (!l)
		return NULL;
	if (lock_class >= RU_LOCK_CLASSES)
		lock_class = RU_LOCK_CLASSES - 1;
	__raw_spin_lock_init(&l->lock, ru_lock_names[lock_class], &ru_lock_keys[lock_class], LD_WAIT_SPIN);
	return l;
}

void ru_lock_free(struct ru_lock *lock)
{
	kfree(lock);
}

unsigned long ru_lock_irqsave(struct ru_lock *lock)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&lock->lock, flags);
	return flags;
}

bool ru_trylock_irqsave(struct ru_lock *lock, unsigned long *flags)
{
	return raw_spin_trylock_irqsave(&lock->lock, *flags);
}

void ru_unlock_irqrestore(struct ru_lock *lock, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&lock->lock, flags);
}

/* ---- Timers ---- */

struct ru_timer {
	struct hrtimer timer;
	u64 interval_ns;
	bool (*fn)(void *data);
	void *data;
};

static enum hrtimer_restart ru_timer_fire(struct hrtimer *hrt)
{
	struct ru_timer *t = container_of(hrt, struct ru_timer, timer);

	if (!t->fn(t->data))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(hrt, ns_to_ktime(t->interval_ns));
	return HRTIMER_RESTART;
}

struct ru_timer *ru_timer_alloc(bool (*fn)(void *data), void *data)
{
	struct ru_timer *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	t->timer.function = ru_timer_fire;
	t->fn = fn;
	t->data = data;
	return t;
}

void ru_timer_free(struct ru_timer *t)
{
	if (t)
		hrtimer_cancel(&t->timer);
	kfree(t);
}

void ru_timer_start(struct ru_timer *t, u64 interval_ns)
{
	t->interval_ns = interval_ns;
	hrtimer_start(&t->timer, ns_to_ktime(interval_ns), HRTIMER_MODE_REL_PINNED_HARD);
}

void ru_timer_cancel(struct ru_timer *t)
{
	hrtimer_cancel(&t->timer);
}

/* ---- CPU hotplug ---- */

struct ru_cpuhp {
	struct hlist_node node;
	const struct ru_cpuhp_ops *ops;
	void *data;
	int state;
};

static int ru_cpuhp_online(unsigned int cpu, struct hlist_node *node)
{
	struct ru_cpuhp *h = hlist_entry(node, struct ru_cpuhp, node);

	return h->ops->online(h->data, cpu);
}

static int ru_cpuhp_offline(unsigned int cpu, struct hlist_node *node)
{
	struct ru_cpuhp *h = hlist_entry(node, struct ru_cpuhp, node);

	return h->ops->offline(h->data, cpu);
}

struct ru_cpuhp *ru_cpuhp_add(const char *name, const struct ru_cpuhp_ops *ops, void *data, int *err)
{
	struct ru_cpuhp *h = kzalloc(sizeof(*h), GFP_KERNEL);
	int state;

	if (!h) {
		*err = -ENOMEM;
		return NULL;
	}
	h->ops = ops;
	h->data = data;
	state = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, name, ru_cpuhp_online, ru_cpuhp_offline);
	if (state < 0) {
		kfree(h);
		*err = state;
		return NULL;
	}
	h->state = state;
	*err = cpuhp_state_add_instance(state, &h->node);
	if (*err) {
		cpuhp_remove_multi_state(state);
		kfree(h);
		return NULL;
	}
	return h;
}

void ru_cpuhp_remove(struct ru_cpuhp *h)
{
	if (!h)
		return;
	cpuhp_state_remove_instance(h->state, &h->node);
	cpuhp_remove_multi_state(h->state);
	kfree(h);
}

/* ---- The collecting CPUs ---- */

static cpumask_t ru_collectors;

void ru_collectors_set(unsigned int cpu, bool on)
{
	if (on)
		cpumask_set_cpu(cpu, &ru_collectors);
	else
		cpumask_clear_cpu(cpu, &ru_collectors);
}

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return cpumap_print_to_pagebuf(true, buf, &ru_collectors);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *ru_common_attrs[] = {
	&dev_attr_cpumask.attr,
	NULL,
};

static const struct attribute_group ru_common_group = {
	.attrs = ru_common_attrs,
};

/* ---- perf PMUs ---- */

struct ru_attr_list {
	unsigned int n;
	struct dev_ext_attribute *ext;
	struct attribute **attrs;
	struct attribute_group group;
};

struct ru_pmu {
	struct pmu pmu;
	const struct ru_pmu_ops *ops;
	void *data;
	char *name;
	bool registered;
	struct ru_attr_list format;
	struct ru_attr_list events;
	const struct attribute_group *groups[4];
};

static struct ru_pmu *to_ru_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct ru_pmu, pmu);
}

static int ru_pmu_event_init(struct perf_event *ev)
{
	struct ru_pmu *p = to_ru_pmu(ev->pmu);

	return p->ops->event_init(p->data, ev);
}

static int ru_pmu_add(struct perf_event *ev, int flags)
{
	struct ru_pmu *p = to_ru_pmu(ev->pmu);

	return p->ops->add(p->data, ev, flags);
}

static void ru_pmu_del(struct perf_event *ev, int flags)
{
	struct ru_pmu *p = to_ru_pmu(ev->pmu);

	p->ops->del(p->data, ev, flags);
}

static void ru_pmu_start(struct perf_event *ev, int flags)
{
	struct ru_pmu *p = to_ru_pmu(ev->pmu);

	p->ops->start(p->data, ev, flags);
}

static void ru_pmu_stop(struct perf_event *ev, int flags)
{
	struct ru_pmu *p = to_ru_pmu(ev->pmu);

	p->ops->stop(p->data, ev, flags);
}

static void ru_pmu_read(struct perf_event *ev)
{
	struct ru_pmu *p = to_ru_pmu(ev->pmu);

	p->ops->read(p->data, ev);
}

static void ru_pmu_enable(struct pmu *pmu)
{
	struct ru_pmu *p = to_ru_pmu(pmu);

	p->ops->pmu_enable(p->data);
}

static void ru_pmu_disable(struct pmu *pmu)
{
	struct ru_pmu *p = to_ru_pmu(pmu);

	p->ops->pmu_disable(p->data);
}

static ssize_t ru_attr_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute, attr);

	return sysfs_emit(buf, "%s", (const char *)ea->var);
}

static int ru_attr_list_alloc(struct ru_attr_list *l, const char *name, unsigned int n)
{
	l->n = n;
	l->ext = kcalloc(n ? n : 1, sizeof(*l->ext), GFP_KERNEL);
	l->attrs = kcalloc(n + 1, sizeof(*l->attrs), GFP_KERNEL);
	if (!l->ext || !l->attrs)
		return -ENOMEM;
	l->group.name = name;
	l->group.attrs = l->attrs;
	return 0;
}

static void ru_attr_list_free(struct ru_attr_list *l)
{
	unsigned int i;

	if (l->ext) {
		for (i = 0; i < l->n; i++) {
			kfree(l->ext[i].attr.attr.name);
			kfree(l->ext[i].var);
		}
	}
	kfree(l->ext);
	kfree(l->attrs);
}

void ru_pmu_free(struct ru_pmu *p)
{
	if (!p)
		return;
	WARN_ON(p->registered);
	ru_attr_list_free(&p->format);
	ru_attr_list_free(&p->events);
	kfree(p->name);
	kfree(p);
}

struct ru_pmu *ru_pmu_alloc(const struct ru_pmu_ops *ops, void *data, unsigned int n_format, unsigned int n_events)
{
	struct ru_pmu *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->ops = ops;
	p->data = data;
	if (ru_attr_list_alloc(&p->format, "format", n_format) ||
	    ru_attr_list_alloc(&p->events, "events", n_events)) {
		ru_pmu_free(p);
		return NULL;
	}
	p->groups[0] = &ru_common_group;
	p->groups[1] = &p->format.group;
	p->groups[2] = &p->events.group;
	p->groups[3] = NULL;
	return p;
}

int ru_pmu_set_attr(struct ru_pmu *p, bool events, unsigned int i, const char *name, size_t name_len,
		    const char *value, size_t value_len)
{
	struct ru_attr_list *l = events ? &p->events : &p->format;
	struct dev_ext_attribute *ea;

	if (i >= l->n)
		return -EINVAL;
	ea = &l->ext[i];
	if (ea->attr.attr.name)
		return -EEXIST;
	ea->attr.attr.name = kstrndup(name, name_len, GFP_KERNEL);
	ea->var = kstrndup(value, value_len, GFP_KERNEL);
	if (!ea->attr.attr.name || !ea->var)
		return -ENOMEM;
	sysfs_attr_init(&ea->attr.attr);
	ea->attr.attr.mode = 0444;
	ea->attr.show = ru_attr_show;
	l->attrs[i] = &ea->attr.attr;
	return 0;
}

int ru_pmu_register(struct ru_pmu *p, const char *name, size_t name_len)
{
	int err;

	p->name = kstrndup(name, name_len, GFP_KERNEL);
	if (!p->name)
		return -ENOMEM;
	p->pmu = (struct pmu) {
		.task_ctx_nr	= perf_invalid_context,
		.pmu_enable	= ru_pmu_enable,
		.pmu_disable	= ru_pmu_disable,
		.event_init	= ru_pmu_event_init,
		.add		= ru_pmu_add,
		.del		= ru_pmu_del,
		.start		= ru_pmu_start,
		.stop		= ru_pmu_stop,
		.read		= ru_pmu_read,
		.module		= THIS_MODULE,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups	= p->groups,
	};
	err = perf_pmu_register(&p->pmu, p->name, -1);
	if (!err)
		p->registered = true;
	return err;
}

void ru_pmu_unregister(struct ru_pmu *p)
{
	if (p && p->registered) {
		perf_pmu_unregister(&p->pmu);
		p->registered = false;
	}
}

int ru_pmu_type(struct ru_pmu *p)
{
	return p->pmu.type;
}

void ru_pmu_migrate(struct ru_pmu *p, int from, int to)
{
	perf_pmu_migrate_context(&p->pmu, from, to);
}

bool ru_pmu_name_taken(const char *name, size_t name_len)
{
	struct path path;
	char *full;
	bool taken;

	full = kasprintf(GFP_KERNEL, "/sys/bus/event_source/devices/%.*s", (int)name_len, name);
	if (!full)
		return false;
	taken = !kern_path(full, LOOKUP_FOLLOW, &path);
	if (taken)
		path_put(&path);
	kfree(full);
	return taken;
}

/* ---- perf events ---- */

void ru_event_info(struct perf_event *ev, struct ru_event_info *out)
{
	out->type = ev->attr.type;
	out->pmu_type = ev->pmu->type;
	out->config = ev->attr.config;
	out->config1 = ev->attr.config1;
	out->config2 = ev->attr.config2;
	out->cpu = ev->cpu;
	out->flags = 0;
	if (is_sampling_event(ev))
		out->flags |= RU_EV_SAMPLING;
	if (event_has_any_exclude_flag(ev))
		out->flags |= RU_EV_EXCLUDE;
	if (ev->attach_state & PERF_ATTACH_TASK)
		out->flags |= RU_EV_TASK;
	if (ev->group_leader == ev)
		out->flags |= RU_EV_LEADER;
}

void ru_event_set_cpu(struct perf_event *ev, int cpu)
{
	ev->cpu = cpu;
	/* Any CPU of the package may read the counters. */
	ev->event_caps |= PERF_EV_CAP_READ_ACTIVE_PKG;
}

void ru_event_add_count(struct perf_event *ev, u64 delta)
{
	local64_add(delta, &ev->count);
}

int ru_event_group_for_each(struct perf_event *ev, int (*fn)(void *ctx, struct perf_event *sib), void *ctx)
{
	struct perf_event *leader = ev->group_leader, *sib;
	int err;

	if (leader != ev && leader->pmu == ev->pmu) {
		err = fn(ctx, leader);
		if (err)
			return err;
	}
	/*
	 * The group's sibling list, read the way the kernel's own PMU drivers
	 * validate groups from event_init (where no context lock is held yet).
	 */
	list_for_each_entry(sib, &leader->sibling_list, sibling_list) {
		if (sib == ev || sib->pmu != ev->pmu || sib->state <= PERF_EVENT_STATE_OFF)
			continue;
		err = fn(ctx, sib);
		if (err)
			return err;
	}
	return 0;
}

/* ---- debugfs ---- */

#define RU_DEBUGFS_FILES 8
#define RU_DEBUGFS_BUF (16 * PAGE_SIZE)

struct ru_debugfs_file {
	const struct ru_debugfs_ops *ops;
	void *data;
};

struct ru_debugfs {
	struct dentry *dir;
	unsigned int n;
	struct ru_debugfs_file files[RU_DEBUGFS_FILES];
};

static ssize_t ru_debugfs_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct ru_debugfs_file *f = file->private_data;
	char *buf;
	ssize_t len;

	if (!f->ops->read)
		return -EINVAL;
	buf = kvzalloc(RU_DEBUGFS_BUF, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	len = f->ops->read(f->data, buf, RU_DEBUGFS_BUF);
	if (len >= 0)
		len = simple_read_from_buffer(ubuf, count, ppos, buf, len);
	kvfree(buf);
	return len;
}

static ssize_t ru_debugfs_write(struct file *file, const char __user *ubuf, size_t count, loff_t *ppos)
{
	struct ru_debugfs_file *f = file->private_data;
	char *buf;
	ssize_t ret;

	if (!f->ops->write)
		return -EINVAL;
	if (count >= PAGE_SIZE)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = f->ops->write(f->data, buf, count);
	kfree(buf);
	return ret < 0 ? ret : (ssize_t)count;
}

static const struct file_operations ru_debugfs_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = ru_debugfs_read,
	.write = ru_debugfs_write,
	.llseek = default_llseek,
};

struct ru_debugfs *ru_debugfs_create(const char *dir)
{
	struct ru_debugfs *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return NULL;
	d->dir = debugfs_create_dir(dir, NULL);
	if (IS_ERR(d->dir)) {
		kfree(d);
		return NULL;
	}
	return d;
}

int ru_debugfs_add(struct ru_debugfs *d, const char *name, const struct ru_debugfs_ops *ops, void *data)
{
	struct ru_debugfs_file *f;
	struct dentry *e;

	if (d->n >= RU_DEBUGFS_FILES)
		return -ENOSPC;
	f = &d->files[d->n];
	f->ops = ops;
	f->data = data;
	e = debugfs_create_file(name, 0600, d->dir, f, &ru_debugfs_fops);
	if (IS_ERR(e))
		return PTR_ERR(e);
	d->n++;
	return 0;
}

void ru_debugfs_remove(struct ru_debugfs *d)
{
	if (!d)
		return;
	debugfs_remove_recursive(d->dir);
	kfree(d);
}

/* ---- Device tables (module aliases) ---- */

/*
 * The CPUs the module drives. Must match the platform tables of
 * src/hw/platforms/ (a host test compares them).
 */
static const struct x86_cpu_id ru_cpu_ids[] = {
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 45, NULL),	/* Sandy Bridge-EP */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 62, NULL),	/* Ivy Bridge-EP */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 46, NULL),	/* Nehalem-EX */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 47, NULL),	/* Westmere-EX */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 78, NULL),	/* Skylake mobile */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 94, NULL),	/* Skylake desktop */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 15, 6, NULL),	/* Xeon 7100 */
	X86_MATCH_VENDOR_FAM_MODEL(INTEL, 6, 29, NULL),	/* Xeon 7400 */
	{}
};
MODULE_DEVICE_TABLE(x86cpu, ru_cpu_ids);

/*
 * The uncore PCI functions the module binds. Must match src/hw/pci.rs (a
 * host test compares them); which box a function is, is decided there.
 */
static const struct pci_device_id ru_pci_ids[] = {
	/* Sandy Bridge-EP */
	{ PCI_VDEVICE(INTEL, 0x3c46) }, { PCI_VDEVICE(INTEL, 0x3cb0) }, { PCI_VDEVICE(INTEL, 0x3cb1) },
	{ PCI_VDEVICE(INTEL, 0x3cb4) }, { PCI_VDEVICE(INTEL, 0x3cb5) }, { PCI_VDEVICE(INTEL, 0x3c41) },
	{ PCI_VDEVICE(INTEL, 0x3c42) }, { PCI_VDEVICE(INTEL, 0x3c43) }, { PCI_VDEVICE(INTEL, 0x3c44) },
	{ PCI_VDEVICE(INTEL, 0x3c45) }, { PCI_VDEVICE(INTEL, 0x3c86) }, { PCI_VDEVICE(INTEL, 0x3c96) },
	/* Ivy Bridge-EP */
	{ PCI_VDEVICE(INTEL, 0x0e30) }, { PCI_VDEVICE(INTEL, 0x0e38) }, { PCI_VDEVICE(INTEL, 0x0eb4) },
	{ PCI_VDEVICE(INTEL, 0x0eb5) }, { PCI_VDEVICE(INTEL, 0x0eb0) }, { PCI_VDEVICE(INTEL, 0x0eb1) },
	{ PCI_VDEVICE(INTEL, 0x0ef4) }, { PCI_VDEVICE(INTEL, 0x0ef5) }, { PCI_VDEVICE(INTEL, 0x0ef0) },
	{ PCI_VDEVICE(INTEL, 0x0ef1) }, { PCI_VDEVICE(INTEL, 0x0e39) }, { PCI_VDEVICE(INTEL, 0x0e32) },
	{ PCI_VDEVICE(INTEL, 0x0e33) }, { PCI_VDEVICE(INTEL, 0x0e3a) }, { PCI_VDEVICE(INTEL, 0x0e34) },
	{ PCI_VDEVICE(INTEL, 0x0e36) }, { PCI_VDEVICE(INTEL, 0x0e37) }, { PCI_VDEVICE(INTEL, 0x0e3e) },
	{ PCI_VDEVICE(INTEL, 0x0e86) }, { PCI_VDEVICE(INTEL, 0x0e96) },
	/* Skylake client host bridges (IMC counters in MCHBAR) */
	{ PCI_VDEVICE(INTEL, 0x190c) }, { PCI_VDEVICE(INTEL, 0x1904) }, { PCI_VDEVICE(INTEL, 0x1900) },
	{ PCI_VDEVICE(INTEL, 0x1910) }, { PCI_VDEVICE(INTEL, 0x190f) }, { PCI_VDEVICE(INTEL, 0x191f) },
	{ PCI_VDEVICE(INTEL, 0x1918) },
	{}
};
MODULE_DEVICE_TABLE(pci, ru_pci_ids);

/* ---- PCI driver ---- */

struct ru_pci_driver {
	struct pci_driver drv;
	const struct ru_pci_ops *ops;
	void *data;
};

/* One driver at a time: probe and remove find it here. */
static struct ru_pci_driver *ru_pci_current;

static int ru_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ru_pci_driver *d = ru_pci_current;

	if (!d)
		return -ENODEV;
	return d->ops->probe(d->data, pdev, pdev->vendor, pdev->device, pci_domain_nr(pdev->bus),
			     pdev->bus->number, pdev->devfn);
}

static void ru_pci_remove(struct pci_dev *pdev)
{
	struct ru_pci_driver *d = ru_pci_current;

	if (d)
		d->ops->remove(d->data, pdev);
}

struct ru_pci_driver *ru_pci_register(const struct ru_pci_ops *ops, void *data, int *err)
{
	struct ru_pci_driver *d;

	if (ru_pci_current) {
		*err = -EBUSY;
		return NULL;
	}
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		*err = -ENOMEM;
		return NULL;
	}
	d->ops = ops;
	d->data = data;
	d->drv.name = "rust_uncore";
	d->drv.id_table = ru_pci_ids;
	d->drv.probe = ru_pci_probe;
	d->drv.remove = ru_pci_remove;
	ru_pci_current = d;
	*err = pci_register_driver(&d->drv);
	if (*err) {
		ru_pci_current = NULL;
		kfree(d);
		return NULL;
	}
	return d;
}

void ru_pci_unregister(struct ru_pci_driver *d)
{
	if (!d)
		return;
	pci_unregister_driver(&d->drv);
	ru_pci_current = NULL;
	kfree(d);
}

int ru_pci_read32(struct pci_dev *pdev, u32 off, u32 *val)
{
	return pcibios_err_to_errno(pci_read_config_dword(pdev, off, val));
}

int ru_pci_write32(struct pci_dev *pdev, u32 off, u32 val)
{
	return pcibios_err_to_errno(pci_write_config_dword(pdev, off, val));
}

int ru_pci_uboxes(u16 device, struct ru_ubox *out, unsigned int max)
{
	struct pci_dev *pdev = NULL;
	unsigned int n = 0;
	int err;

	while ((pdev = pci_get_device(PCI_VENDOR_ID_INTEL, device, pdev)) != NULL) {
		if (n >= max)
			continue;
		out[n].domain = pci_domain_nr(pdev->bus);
		out[n].bus = pdev->bus->number;
		err = pci_read_config_dword(pdev, 0x40, &out[n].nodeid);
		if (!err)
			err = pci_read_config_dword(pdev, 0x54, &out[n].gidnidmap);
		if (err) {
			pci_dev_put(pdev);
			return pcibios_err_to_errno(err);
		}
		n++;
	}
	return n;
}

int ru_phys_to_logical_pkg(unsigned int phys)
{
	return topology_phys_to_logical_pkg(phys);
}

/* ---- MMIO ---- */

void *ru_ioremap(u64 phys, u64 size)
{
	return (__force void *)ioremap(phys, size);
}

void ru_iounmap(void *addr)
{
	if (addr)
		iounmap((__force void __iomem *)addr);
}

u32 ru_readl(void *addr, u32 off)
{
	return readl((__force void __iomem *)addr + off);
}

/* ---- NMIs ---- */

static bool (*ru_nmi_fn)(void *data);
static void *ru_nmi_data;

static int ru_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	bool (*fn)(void *data) = READ_ONCE(ru_nmi_fn);

	return fn && fn(READ_ONCE(ru_nmi_data)) ? NMI_HANDLED : NMI_DONE;
}

int ru_nmi_register(bool (*fn)(void *data), void *data)
{
	if (ru_nmi_fn)
		return -EBUSY;
	WRITE_ONCE(ru_nmi_data, data);
	WRITE_ONCE(ru_nmi_fn, fn);
	return register_nmi_handler(NMI_LOCAL, ru_nmi_handler, 0, "rust_uncore");
}

void ru_nmi_unregister(void)
{
	/* Waits for running handlers. */
	unregister_nmi_handler(NMI_LOCAL, "rust_uncore");
	WRITE_ONCE(ru_nmi_fn, NULL);
	WRITE_ONCE(ru_nmi_data, NULL);
}

void ru_send_nmi(unsigned int cpu)
{
	__apic_send_IPI_mask(cpumask_of(cpu), NMI_VECTOR);
}

/* ---- irq_work ---- */

struct ru_irq_work {
	struct irq_work work;
	void (*fn)(void *data);
	void *data;
};

static void ru_irq_work_fn(struct irq_work *work)
{
	struct ru_irq_work *w = container_of(work, struct ru_irq_work, work);

	w->fn(w->data);
}

struct ru_irq_work *ru_irq_work_alloc(void (*fn)(void *data), void *data)
{
	struct ru_irq_work *w = kzalloc(sizeof(*w), GFP_KERNEL);

	if (!w)
		return NULL;
	w->work = IRQ_WORK_INIT_HARD(ru_irq_work_fn);
	w->fn = fn;
	w->data = data;
	return w;
}

bool ru_irq_work_queue(struct ru_irq_work *w)
{
	return irq_work_queue(&w->work);
}

void ru_irq_work_free(struct ru_irq_work *w)
{
	if (!w)
		return;
	irq_work_sync(&w->work);
	kfree(w);
}
