// SPDX-License-Identifier: GPL-2.0

//! CPU identification and topology.
//!
//! C headers: [`arch/x86/include/asm/processor.h`](srctree/arch/x86/include/asm/processor.h),
//! [`arch/x86/include/asm/topology.h`](srctree/arch/x86/include/asm/topology.h)

use super::bindings;
use core::ffi::c_void;
use core::marker::PhantomData;
use core::ptr::addr_of;
use kernel::error::{code::EINVAL, to_result, Result};
use kernel::ffi::c_int;

/// Identity of the boot CPU, as the driver needs it to pick a platform.
#[derive(Clone, Copy, Debug)]
pub struct BootCpu {
    /// The vendor is Intel.
    pub intel: bool,
    /// CPUID display family.
    pub family: u32,
    /// CPUID display model.
    pub model: u32,
    /// The CPU reports that it runs under a hypervisor.
    pub hypervisor: bool,
}

/// Returns the identity of the boot CPU.
pub fn boot_cpu() -> BootCpu {
    // SAFETY: `boot_cpu_data` is filled in before any module loads and not written afterwards;
    // the union's `x86_vfm` and the bytes read here are two views of the same plain integers.
    let id = unsafe {
        (*addr_of!(bindings::boot_cpu_data))
            .__bindgen_anon_1
            .__bindgen_anon_1
    };
    BootCpu {
        intel: u32::from(id.x86_vendor) == bindings::X86_VENDOR_INTEL,
        family: id.x86.into(),
        model: id.x86_model.into(),
        // SAFETY: Reads a bit of the boot CPU's capability words.
        hypervisor: unsafe { bindings::ru_boot_cpu_has(bindings::X86_FEATURE_HYPERVISOR) },
    }
}

/// The number of possible CPU numbers (`nr_cpu_ids`).
pub fn nr_cpu_ids() -> u32 {
    // SAFETY: Reads a variable fixed at boot.
    unsafe { bindings::ru_nr_cpu_ids() }
}

/// The number of logical packages the system may have.
pub fn max_packages() -> usize {
    // SAFETY: Reads a variable fixed at boot.
    unsafe { bindings::ru_max_packages() as usize }
}

/// The number of cores per package.
pub fn cores_per_package() -> u32 {
    // SAFETY: Reads a variable fixed at boot.
    unsafe { bindings::ru_cores_per_package() }
}

/// Whether the caller runs in NMI context.
pub fn in_nmi() -> bool {
    // SAFETY: Reads this CPU's preempt count.
    unsafe { bindings::ru_in_nmi() }
}

/// Whether the caller may sleep, as far as the kernel can tell (task
/// context, interrupts on, no preemption-disabling lock held where the
/// kernel keeps the preempt count, outside an RCU read-side section). The
/// layer's sleeping functions refuse where it says no.
pub fn may_sleep() -> bool {
    // SAFETY: Reads this CPU's context state; no arguments.
    unsafe { bindings::ru_may_sleep() }
}

/// Sleeps for `ms` milliseconds; `EINVAL`, without sleeping, where the
/// caller may not sleep ([`may_sleep`]).
pub fn sleep_ms(ms: u32) -> Result {
    if !may_sleep() {
        return Err(EINVAL);
    }
    // SAFETY: Checked above: the caller may sleep.
    unsafe { bindings::msleep(ms) };
    Ok(())
}

/// Spins for `ms` milliseconds (any context; it does not sleep).
pub fn spin_ms(ms: u32) {
    // SAFETY: A busy wait; it touches no memory of the caller.
    unsafe { bindings::ru_mdelay(ms) }
}

/// Proof that the code runs with interrupts off on its CPU, which
/// therefore cannot change under it: a PMU callback, a hard interrupt, an
/// `irq_work`, an NMI, a cross-CPU call. Only the trampolines of those
/// contexts (and [`without_irqs`]) make one, and lend it as `&IrqsOff` for
/// the call; it is neither `Send` nor `Sync`.
///
/// # Invariants
///
/// While a value exists, interrupts are off on the CPU that made it, and
/// it stays on that CPU.
pub struct IrqsOff(PhantomData<*mut ()>);

impl IrqsOff {
    /// # Safety
    ///
    /// Interrupts must be off on this CPU for as long as the value lives,
    /// and it must not leave the context that made it.
    pub unsafe fn new() -> Self {
        // Checked where lockdep tracks the interrupt state (a debug kernel); elsewhere the
        // assertion is empty and the call is left out.
        #[cfg(CONFIG_PROVE_LOCKING)]
        // SAFETY: The assertion only reads this CPU's interrupt state as lockdep tracks it.
        unsafe {
            bindings::ru_lockdep_assert_irqs_disabled()
        };
        // INVARIANT: By the function's requirement, checked above under lockdep.
        IrqsOff(PhantomData)
    }

    /// The CPU this code runs on.
    pub fn cpu(&self) -> CpuId {
        // SAFETY: Reads this CPU's number, which is below `nr_cpu_ids`; interrupts are off (type
        // invariant), so it is still this CPU's when used.
        CpuId(unsafe { bindings::ru_this_cpu() })
    }

    /// The logical package (socket) of the CPU this code runs on, in one
    /// call.
    pub fn package(&self) -> usize {
        // SAFETY: Reads this CPU's number and its per-CPU topology data, which exists for
        // every CPU that runs code.
        let p = unsafe { bindings::ru_this_package() };
        usize::try_from(p).unwrap_or(0)
    }
}

/// Proof that the code runs on a CPU of package `pkg` and stays there for
/// the proof's life: what a package's MSR accesses need (an MSR access is
/// the running CPU's). Made from an [`IrqsOff`] of such a CPU.
#[derive(Clone, Copy)]
pub struct OnPackage<'a> {
    pkg: usize,
    irq: &'a IrqsOff,
}

impl<'a> OnPackage<'a> {
    /// The proof for package `pkg`, taken from a caller that knows it.
    ///
    /// # Safety
    ///
    /// The CPU `irq` was made on must be one of package `pkg`'s.
    pub unsafe fn new_unchecked(irq: &'a IrqsOff, pkg: usize) -> Self {
        // INVARIANT: By the function's requirement; the proof lives no longer than `irq`, so the
        // code stays on that CPU.
        OnPackage { pkg, irq }
    }

    /// The package.
    pub fn package(self) -> usize {
        self.pkg
    }

    /// The proof that interrupts are off, which this one was made from.
    pub fn irqs_off(self) -> &'a IrqsOff {
        self.irq
    }
}

impl IrqsOff {
    /// The proof for the package of the CPU this runs on.
    pub fn on_package(&self) -> OnPackage<'_> {
        OnPackage {
            pkg: self.package(),
            irq: self,
        }
    }

    /// The proof for package `pkg`, if this CPU is one of its.
    pub fn on(&self, pkg: usize) -> Option<OnPackage<'_>> {
        let on = self.on_package();
        (on.pkg == pkg).then_some(on)
    }
}

/// Proof that the code runs in NMI context (an NMI handler): interrupts
/// are off, and no lock that other code may hold can be taken. Made only
/// by the NMI trampoline, lent as `&InNmi` for the call.
///
/// # Invariants
///
/// While a value exists, this CPU runs an NMI handler.
pub struct InNmi(IrqsOff);

impl InNmi {
    /// # Safety
    ///
    /// Only in an NMI handler, for as long as it runs.
    pub unsafe fn new() -> Self {
        // INVARIANT: By the function's requirement; an NMI runs with interrupts off.
        // SAFETY: As above.
        InNmi(unsafe { IrqsOff::new() })
    }
}

impl core::ops::Deref for InNmi {
    type Target = IrqsOff;

    fn deref(&self) -> &IrqsOff {
        &self.0
    }
}

/// Runs `f` with interrupts off on this CPU (any context).
///
/// `f` and what it returns are [`Send`]: an [`IrqLock`] guard (which is
/// not) can be neither moved in, to be dropped there, nor returned, to be
/// dropped after. Either would restore the interrupt state the guard saved
/// at the wrong time: on while the token says off, or off after this
/// function turned them back on.
///
/// [`IrqLock`]: super::sync::IrqLock
///
/// # Examples
///
/// ```ignore
/// use crate::sys::cpu::without_irqs;
///
/// // The package of the CPU this runs on, read with interrupts off.
/// let pkg = without_irqs(|irq| irq.package());
/// ```
pub fn without_irqs<R: Send>(f: impl FnOnce(&IrqsOff) -> R + Send) -> R {
    // SAFETY: Disables interrupts on this CPU; restored below with the same flags.
    let flags = unsafe { bindings::ru_local_irq_save() };
    // SAFETY: Interrupts are off until the restore below, after the token's last use.
    let r = f(&unsafe { IrqsOff::new() });
    // SAFETY: Restores what `ru_local_irq_save` returned above.
    unsafe { bindings::ru_local_irq_restore(flags) };
    r
}

/// Runs `f` on `cpu` with interrupts disabled (through an IPI, or directly
/// when `cpu` is this CPU) and waits until it has run. Outside task
/// context (an interrupt, a softirq, an NMI: the kernel warns) or with
/// interrupts off here (two CPUs waiting for each other's call would never
/// return): `EINVAL`, nothing run.
pub fn run_on(cpu: CpuId, f: &(dyn Fn(&IrqsOff) + Sync)) -> Result {
    // SAFETY: Reads this CPU's context and interrupt state; no arguments.
    if in_nmi() || !unsafe { bindings::ru_in_task() } || unsafe { bindings::ru_irqs_disabled() } {
        return Err(EINVAL);
    }
    /// # Safety
    ///
    /// `info` points to the `&dyn Fn` of the `run_on` call that is waiting
    /// for this call to end; called with interrupts off.
    unsafe extern "C" fn call(info: *mut c_void) {
        // SAFETY: By the function's requirement; `run_on` waits, so the closure is alive.
        let f = unsafe { *info.cast::<&(dyn Fn(&IrqsOff) + Sync)>() };
        // SAFETY: A cross-CPU call runs with interrupts off, for this call.
        f(&unsafe { IrqsOff::new() });
    }
    let info = core::ptr::from_ref(&f).cast_mut().cast::<c_void>();
    // SAFETY: `call` matches `smp_call_func_t`; with `wait` set the call returns after `call`
    // has run, while `f` (and `info`, which points to it) is alive. CPU numbers below
    // `nr_cpu_ids` fit an `int`.
    let r = unsafe {
        bindings::smp_call_function_single(
            cpu.as_u32() as c_int,
            Some(call),
            info,
            super::compat::SMP_CALL_WAIT,
        )
    };
    to_result(r)
}

/// The monotonic clock, in nanoseconds (`ktime_get`; from NMI context,
/// where `ktime_get` could spin forever on a clock update it interrupted,
/// the NMI-safe [`now_ns_any_context`]).
pub fn now_ns() -> u64 {
    if in_nmi() {
        return now_ns_any_context();
    }
    // SAFETY: Reads the monotonic clock, outside NMI context; no arguments.
    let t = unsafe { bindings::ktime_get() };
    u64::try_from(t).unwrap_or(0)
}

/// The monotonic clock, in nanoseconds, readable in any context, NMI
/// included (`ktime_get_mono_fast_ns`).
pub fn now_ns_any_context() -> u64 {
    // SAFETY: Reads the NMI-safe monotonic clock; no arguments.
    unsafe { bindings::ktime_get_mono_fast_ns() }
}

/// Busy-waits `us` microseconds.
pub fn delay_us(us: u32) {
    // SAFETY: `__udelay` only spins; `udelay()` calls it for delays not known at compile time.
    unsafe { bindings::__udelay(us as usize) }
}

/// A possible CPU: a CPU number the kernel's per-CPU data covers.
///
/// # Invariants
///
/// The number is below `nr_cpu_ids`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuId(u32);

impl CpuId {
    /// `cpu`, if it is a possible CPU number.
    pub fn from_u32(cpu: u32) -> Option<Self> {
        (cpu < nr_cpu_ids()).then_some(CpuId(cpu))
    }

    /// `cpu` (as perf stores it, -1 for none), if it is a possible CPU number.
    pub fn from_i32(cpu: i32) -> Option<Self> {
        u32::try_from(cpu).ok().and_then(Self::from_u32)
    }

    /// Every possible CPU, in order.
    pub fn all() -> impl Iterator<Item = CpuId> {
        (0..nr_cpu_ids()).map(CpuId)
    }

    /// The CPU number.
    pub fn as_u32(self) -> u32 {
        self.0
    }

    /// The same CPU as the kernel crate's `CpuId`, which the perf
    /// abstraction takes.
    pub fn to_kernel(self) -> crate::cpu::CpuId {
        // SAFETY: The number is below `nr_cpu_ids` (type invariant).
        unsafe { crate::cpu::CpuId::from_u32_unchecked(self.0) }
    }

    /// The same CPU as a kernel crate's `CpuId`.
    pub fn from_kernel(cpu: crate::cpu::CpuId) -> Self {
        // INVARIANT: A kernel crate's `CpuId` is below `nr_cpu_ids` too.
        CpuId(cpu.as_u32())
    }

    /// The logical package (socket) of the CPU.
    pub fn package(self) -> usize {
        // SAFETY: By the type invariant the CPU's per-CPU topology data exists.
        let p = unsafe { bindings::ru_cpu_package(self.0) };
        usize::try_from(p).unwrap_or(0)
    }

    /// The core ID of the CPU within its package.
    pub fn core_id(self) -> u32 {
        // SAFETY: By the type invariant the CPU's per-CPU topology data exists.
        let c = unsafe { bindings::ru_cpu_core_id(self.0) };
        u32::try_from(c).unwrap_or(0)
    }

    /// Whether the CPU is online.
    pub fn is_online(self) -> bool {
        // SAFETY: By the type invariant the CPU is within the online mask.
        unsafe { bindings::ru_cpu_online(self.0) }
    }

    /// Whether the CPU is present (online or able to come online).
    pub fn is_present(self) -> bool {
        // SAFETY: By the type invariant the CPU is within the present mask.
        unsafe { bindings::ru_cpu_present(self.0) }
    }

    /// Another online CPU of this CPU's package, if there is one.
    pub fn other_in_package(self) -> Option<CpuId> {
        // SAFETY: By the type invariant the CPU's topology masks exist.
        let c = unsafe { bindings::ru_package_other_cpu(self.0) };
        Self::from_u32(c)
    }
}

/// The logical package of physical socket `phys`, if it exists.
pub fn logical_package(phys: u32) -> Option<usize> {
    // SAFETY: Looks the socket up in the topology tables; any value is accepted.
    let p = unsafe { bindings::ru_phys_to_logical_pkg(phys) };
    usize::try_from(p).ok()
}
