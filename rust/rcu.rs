// SPDX-License-Identifier: GPL-2.0

//! RCU: read-side critical sections, and a slot holding an optional boxed
//! value that readers in any context (NMI included) may use while a
//! process-context writer replaces it. 6.12's Rust has no RCU abstraction.
//!
//! C header: [`include/linux/rcupdate.h`](srctree/include/linux/rcupdate.h)

use super::bindings;
use super::cpu::{in_nmi, IrqsOff};
use core::marker::PhantomData;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, Ordering};
use kernel::prelude::*;

/// An RCU read-side critical section (`rcu_read_lock`), ended on drop.
/// Entered with interrupts off only ([`read_lock`]), in any context, NMI
/// included: it lives no longer than the proof, so nothing inside it can
/// wait for a grace period ([`synchronize`] refuses with interrupts off).
pub struct Guard<'a>(PhantomData<(*mut (), &'a IrqsOff)>);

/// Enters an RCU read-side critical section, with interrupts off (`_irq`).
///
/// # Examples
///
/// ```ignore
/// use crate::sys::{cpu::without_irqs, rcu};
///
/// let present = without_irqs(|irq| {
///     let g = rcu::read_lock(irq);
///     slot.get(&g).is_some()
/// });
/// ```
pub fn read_lock(_irq: &IrqsOff) -> Guard<'_> {
    // SAFETY: `rcu_read_lock` may be called in any context; `Guard::drop` ends the section on
    // the same CPU and task (the guard is neither `Send` nor `Sync`).
    unsafe { bindings::ru_rcu_read_lock() };
    Guard(PhantomData)
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        // SAFETY: Ends the section `read_lock` entered.
        unsafe { bindings::ru_rcu_read_unlock() };
    }
}

/// Waits until every RCU read-side critical section that may have seen an
/// old value has ended. It sleeps: where the caller may not sleep
/// ([`super::cpu::may_sleep`]: interrupts off, a [`Guard`] of this module
/// among them, NMI, interrupt or softirq context, a spinning lock held)
/// `EINVAL`, nothing waited for.
pub fn synchronize() -> Result {
    if in_nmi() || !super::cpu::may_sleep() {
        return Err(EINVAL);
    }
    // SAFETY: No arguments; interrupts are on and this is not an NMI, so this is not inside a
    // read-side section of this module (those need interrupts off).
    unsafe { bindings::synchronize_rcu() };
    Ok(())
}

/// An optional `T`, read under [`Guard`] from any context and replaced by
/// process-context writers, which wait for readers before dropping the old
/// value. Writers of one slot must be serialised by the caller.
///
/// # Invariants
///
/// `ptr` is NULL or comes from `KBox::into_raw` and is owned by the slot.
pub struct RcuBox<T> {
    ptr: AtomicPtr<T>,
}

// SAFETY: The slot owns its `T` and hands out only shared references to it, from any thread.
unsafe impl<T: Send + Sync> Send for RcuBox<T> {}
// SAFETY: As above.
unsafe impl<T: Send + Sync> Sync for RcuBox<T> {}

impl<T> Default for RcuBox<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> RcuBox<T> {
    /// An empty slot.
    pub const fn new() -> Self {
        RcuBox {
            ptr: AtomicPtr::new(null_mut()),
        }
    }

    /// The value, for as long as the read-side section lasts.
    pub fn get<'a>(&'a self, _guard: &'a Guard<'_>) -> Option<&'a T> {
        let p = self.ptr.load(Ordering::Acquire);
        // SAFETY: A non-NULL pointer is a live `KBox` of the slot (type invariant). `replace`
        // frees a value only after a grace period that starts after the value is unpublished,
        // so it outlives the read-side section the guard proves.
        unsafe { p.as_ref() }
    }

    /// Publishes `value` in place of the old one, waits for the readers of
    /// the old one, and returns it. It sleeps: where the caller may not
    /// sleep ([`super::cpu::may_sleep`]) `EINVAL`, the slot unchanged
    /// (`value` dropped).
    pub fn replace(&self, value: Option<KBox<T>>) -> Result<Option<KBox<T>>> {
        if in_nmi() || !super::cpu::may_sleep() {
            return Err(EINVAL);
        }
        let new = value.map_or(null_mut(), KBox::into_raw);
        let old = self.ptr.swap(new, Ordering::AcqRel);
        if old.is_null() {
            return Ok(None);
        }
        // SAFETY: No arguments; interrupts are on (checked above), so no read-side section of
        // this module is open on this CPU.
        unsafe { bindings::synchronize_rcu() };
        // SAFETY: `old` came from `KBox::into_raw` (type invariant), is no longer published,
        // and the grace period has ended every section that could have read it.
        Ok(Some(unsafe { KBox::from_raw(old) }))
    }
}

impl<T> Drop for RcuBox<T> {
    fn drop(&mut self) {
        let p = *self.ptr.get_mut();
        if !p.is_null() {
            // SAFETY: The slot owns the value (type invariant); `&mut self` proves that no
            // reader borrows it.
            drop(unsafe { KBox::from_raw(p) });
        }
    }
}
