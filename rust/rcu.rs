// SPDX-License-Identifier: GPL-2.0

//! RCU: read-side critical sections, and a slot holding an optional boxed
//! value that readers in any context (NMI included) may use while a
//! process-context writer replaces it. 6.12's Rust has no RCU abstraction.
//!
//! C header: [`include/linux/rcupdate.h`](srctree/include/linux/rcupdate.h)

use super::bindings;
use core::marker::PhantomData;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, Ordering};
use kernel::prelude::*;

/// An RCU read-side critical section (`rcu_read_lock`), ended on drop.
/// Allowed in any context, NMI included; it must not sleep.
pub struct Guard(PhantomData<*mut ()>);

/// Enters an RCU read-side critical section.
pub fn read_lock() -> Guard {
    // SAFETY: `rcu_read_lock` may be called in any context; `Guard::drop` ends the section on
    // the same CPU and task (the guard is neither `Send` nor `Sync`).
    unsafe { bindings::ru_rcu_read_lock() };
    Guard(PhantomData)
}

impl Drop for Guard {
    fn drop(&mut self) {
        // SAFETY: Ends the section `read_lock` entered.
        unsafe { bindings::ru_rcu_read_unlock() };
    }
}

/// Waits until every RCU read-side critical section that may have seen an
/// old value has ended. Process context only: it sleeps.
pub fn synchronize() {
    // SAFETY: No arguments; the callers are in process context.
    unsafe { bindings::synchronize_rcu() };
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
    pub fn get<'a>(&'a self, _guard: &'a Guard) -> Option<&'a T> {
        let p = self.ptr.load(Ordering::Acquire);
        // SAFETY: A non-NULL pointer is a live `KBox` of the slot (type invariant). `replace`
        // frees a value only after a grace period that starts after the value is unpublished,
        // so it outlives the read-side section the guard proves.
        unsafe { p.as_ref() }
    }

    /// Publishes `value` in place of the old one, waits for the readers of
    /// the old one, and returns it. Process context only (it sleeps when
    /// there was an old value).
    pub fn replace(&self, value: Option<KBox<T>>) -> Option<KBox<T>> {
        let new = value.map_or(null_mut(), KBox::into_raw);
        let old = self.ptr.swap(new, Ordering::AcqRel);
        if old.is_null() {
            return None;
        }
        synchronize();
        // SAFETY: `old` came from `KBox::into_raw` (type invariant), is no longer published,
        // and the grace period has ended every section that could have read it.
        Some(unsafe { KBox::from_raw(old) })
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
