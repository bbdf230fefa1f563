// SPDX-License-Identifier: GPL-2.0

//! The one declaration of the C helper functions (`uncore_helpers.h`).
//!
//! Every function here is implemented in `uncore_helpers.c`. The structure
//! layouts mirror the header and must be kept in step with it. C-owned
//! structures are opaque types.

use kernel::ffi::{c_char, c_int, c_uint, c_ulong, c_void};

/// Opaque `struct perf_event`.
#[repr(C)]
pub(crate) struct PerfEvent {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_lock`.
#[repr(C)]
pub(crate) struct RuLock {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_timer`.
#[repr(C)]
pub(crate) struct RuTimer {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_cpuhp`.
#[repr(C)]
pub(crate) struct RuCpuhp {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_pmu`.
#[repr(C)]
pub(crate) struct RuPmu {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_irq_work`.
#[repr(C)]
pub(crate) struct RuIrqWork {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_debugfs`.
#[repr(C)]
pub(crate) struct RuDebugfs {
    _opaque: [u8; 0],
}

/// Opaque `struct pci_dev`.
#[repr(C)]
pub(crate) struct PciDevRaw {
    _opaque: [u8; 0],
}

/// Opaque `struct ru_pci_driver`.
#[repr(C)]
pub(crate) struct RuPciDriver {
    _opaque: [u8; 0],
}

/// Mirror of `struct ru_pci_ops`.
#[repr(C)]
pub(crate) struct RuPciOps {
    pub(crate) probe: Option<
        unsafe extern "C" fn(data: *mut c_void, pdev: *mut PciDevRaw, vendor: u16, device: u16, domain: u32, bus: u32, devfn: u32) -> c_int,
    >,
    pub(crate) remove: Option<unsafe extern "C" fn(data: *mut c_void, pdev: *mut PciDevRaw)>,
}

/// Mirror of `struct ru_ubox`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(crate) struct RuUbox {
    pub(crate) domain: u32,
    pub(crate) bus: u32,
    pub(crate) nodeid: u32,
    pub(crate) gidnidmap: u32,
}

/// Mirror of `struct ru_cpu_id`.
#[repr(C)]
#[derive(Default)]
pub(crate) struct RuCpuId {
    pub(crate) vendor_intel: u32,
    pub(crate) family: u32,
    pub(crate) model: u32,
    pub(crate) hypervisor: u32,
}

/// Mirror of `struct ru_cpuhp_ops`.
#[repr(C)]
pub(crate) struct RuCpuhpOps {
    pub(crate) online: Option<unsafe extern "C" fn(data: *mut c_void, cpu: c_uint) -> c_int>,
    pub(crate) offline: Option<unsafe extern "C" fn(data: *mut c_void, cpu: c_uint) -> c_int>,
}

/// Mirror of `struct ru_pmu_ops`.
#[repr(C)]
pub(crate) struct RuPmuOps {
    pub(crate) event_init: Option<unsafe extern "C" fn(data: *mut c_void, ev: *mut PerfEvent) -> c_int>,
    pub(crate) add: Option<unsafe extern "C" fn(data: *mut c_void, ev: *mut PerfEvent, flags: c_int) -> c_int>,
    pub(crate) del: Option<unsafe extern "C" fn(data: *mut c_void, ev: *mut PerfEvent, flags: c_int)>,
    pub(crate) start: Option<unsafe extern "C" fn(data: *mut c_void, ev: *mut PerfEvent, flags: c_int)>,
    pub(crate) stop: Option<unsafe extern "C" fn(data: *mut c_void, ev: *mut PerfEvent, flags: c_int)>,
    pub(crate) read: Option<unsafe extern "C" fn(data: *mut c_void, ev: *mut PerfEvent)>,
    pub(crate) pmu_enable: Option<unsafe extern "C" fn(data: *mut c_void)>,
    pub(crate) pmu_disable: Option<unsafe extern "C" fn(data: *mut c_void)>,
}

/// `RU_EV_*` flags of [`RuEventInfo::flags`].
pub(crate) const RU_EV_SAMPLING: u32 = 0x1;
pub(crate) const RU_EV_EXCLUDE: u32 = 0x2;
pub(crate) const RU_EV_TASK: u32 = 0x4;

/// Mirror of `struct ru_event_info`.
#[repr(C)]
#[derive(Default)]
pub(crate) struct RuEventInfo {
    pub(crate) type_: u32,
    pub(crate) pmu_type: u32,
    pub(crate) config: u64,
    pub(crate) config1: u64,
    pub(crate) config2: u64,
    pub(crate) cpu: i32,
    pub(crate) flags: u32,
}

/// Mirror of `struct ru_debugfs_ops`.
#[repr(C)]
pub(crate) struct RuDebugfsOps {
    pub(crate) read: Option<unsafe extern "C" fn(data: *mut c_void, buf: *mut c_char, size: usize) -> isize>,
    pub(crate) write: Option<unsafe extern "C" fn(data: *mut c_void, buf: *const c_char, len: usize) -> isize>,
}

extern "C" {
    pub(crate) fn ru_param_sim() -> *const c_char;
    pub(crate) fn ru_boot_cpu_id(id: *mut RuCpuId);

    pub(crate) fn ru_this_cpu() -> c_int;
    pub(crate) fn ru_cpu_package(cpu: c_uint) -> c_int;
    pub(crate) fn ru_max_packages() -> c_uint;
    pub(crate) fn ru_cores_per_package() -> c_uint;
    pub(crate) fn ru_package_other_cpu(cpu: c_uint) -> c_int;
    pub(crate) fn ru_cpu_core_id(cpu: c_uint) -> c_int;
    pub(crate) fn ru_nr_cpu_ids() -> c_uint;
    pub(crate) fn ru_udelay(us: c_uint);
    pub(crate) fn ru_cpu_present(cpu: c_uint) -> bool;
    pub(crate) fn ru_cpu_online(cpu: c_uint) -> bool;

    pub(crate) fn ru_rdmsr(msr: u32, val: *mut u64) -> c_int;
    pub(crate) fn ru_wrmsr(msr: u32, val: u64) -> c_int;

    pub(crate) fn ru_lock_alloc(lock_class: c_uint) -> *mut RuLock;
    pub(crate) fn ru_lock_free(lock: *mut RuLock);
    pub(crate) fn ru_lock_irqsave(lock: *mut RuLock) -> c_ulong;
    pub(crate) fn ru_unlock_irqrestore(lock: *mut RuLock, flags: c_ulong);

    pub(crate) fn ru_timer_alloc(f: Option<unsafe extern "C" fn(data: *mut c_void) -> bool>, data: *mut c_void) -> *mut RuTimer;
    pub(crate) fn ru_timer_free(t: *mut RuTimer);
    pub(crate) fn ru_timer_start(t: *mut RuTimer, interval_ns: u64);
    pub(crate) fn ru_timer_cancel(t: *mut RuTimer);

    pub(crate) fn ru_cpuhp_add(name: *const c_char, ops: *const RuCpuhpOps, data: *mut c_void, err: *mut c_int) -> *mut RuCpuhp;
    pub(crate) fn ru_cpuhp_remove(h: *mut RuCpuhp);
    pub(crate) fn ru_collectors_set(cpu: c_uint, on: bool);

    pub(crate) fn ru_pmu_alloc(ops: *const RuPmuOps, data: *mut c_void, n_format: c_uint, n_events: c_uint) -> *mut RuPmu;
    pub(crate) fn ru_pmu_set_attr(
        p: *mut RuPmu,
        events: bool,
        i: c_uint,
        name: *const c_char,
        name_len: usize,
        value: *const c_char,
        value_len: usize,
    ) -> c_int;
    pub(crate) fn ru_pmu_register(p: *mut RuPmu, name: *const c_char, name_len: usize) -> c_int;
    pub(crate) fn ru_pmu_unregister(p: *mut RuPmu);
    pub(crate) fn ru_pmu_free(p: *mut RuPmu);
    pub(crate) fn ru_pmu_migrate(p: *mut RuPmu, from: c_int, to: c_int);
    pub(crate) fn ru_pmu_name_taken(name: *const c_char, name_len: usize) -> bool;

    pub(crate) fn ru_event_info(ev: *mut PerfEvent, out: *mut RuEventInfo);
    pub(crate) fn ru_event_set_cpu(ev: *mut PerfEvent, cpu: c_int);
    pub(crate) fn ru_event_add_count(ev: *mut PerfEvent, delta: u64);
    pub(crate) fn ru_event_group_for_each(
        ev: *mut PerfEvent,
        f: Option<unsafe extern "C" fn(ctx: *mut c_void, sib: *mut PerfEvent) -> c_int>,
        ctx: *mut c_void,
    ) -> c_int;

    pub(crate) fn ru_pci_register(ops: *const RuPciOps, data: *mut c_void, err: *mut c_int) -> *mut RuPciDriver;
    pub(crate) fn ru_pci_unregister(d: *mut RuPciDriver);
    pub(crate) fn ru_pci_read32(pdev: *mut PciDevRaw, off: u32, val: *mut u32) -> c_int;
    pub(crate) fn ru_pci_write32(pdev: *mut PciDevRaw, off: u32, val: u32) -> c_int;
    pub(crate) fn ru_pci_uboxes(device: u16, out: *mut RuUbox, max: c_uint) -> c_int;
    pub(crate) fn ru_phys_to_logical_pkg(phys: c_uint) -> c_int;

    pub(crate) fn ru_ioremap(phys: u64, size: u64) -> *mut c_void;
    pub(crate) fn ru_iounmap(addr: *mut c_void);
    pub(crate) fn ru_readl(addr: *mut c_void, off: u32) -> u32;

    pub(crate) fn ru_nmi_register(f: Option<unsafe extern "C" fn(data: *mut c_void) -> bool>, data: *mut c_void) -> c_int;
    pub(crate) fn ru_nmi_unregister();
    pub(crate) fn ru_send_nmi(cpu: c_uint);

    pub(crate) fn ru_irq_work_alloc(f: Option<unsafe extern "C" fn(data: *mut c_void)>, data: *mut c_void) -> *mut RuIrqWork;
    pub(crate) fn ru_irq_work_queue(w: *mut RuIrqWork) -> bool;
    pub(crate) fn ru_irq_work_free(w: *mut RuIrqWork);

    pub(crate) fn ru_debugfs_create(dir: *const c_char) -> *mut RuDebugfs;
    pub(crate) fn ru_debugfs_add(d: *mut RuDebugfs, name: *const c_char, ops: *const RuDebugfsOps, data: *mut c_void) -> c_int;
    pub(crate) fn ru_debugfs_remove(d: *mut RuDebugfs);
}
