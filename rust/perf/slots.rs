// SPDX-License-Identifier: GPL-2.0

//! Entries that hold an event between its `add` and its `del`, for code
//! that runs outside the event's callbacks (a timer, an interrupt work).
//!
//! perf keeps an event alive from `add` until `del` returns. `add` gives
//! its [`Adding`] right to [`EventSlots::set`], which fills an empty entry,
//! records the entry's number and a reference to the entries in the
//! event's data (the layer's, beside the PMU's); the adapter's `del` (and a
//! failed `add`) empties the entry through those, so no entry outlives the
//! window, whatever the driver does. Emptying waits for users of the entry on
//! other CPUs; using one takes no lock, so an entry can be used in any
//! context. Each filled entry holds a reference to the entries, so they
//! are freed only once no event is in them.

use super::{add_count, Adding, Event, PmuOps, NO_ENTRY};
use crate::sys::bindings;
use crate::sys::cpu::IrqsOff;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use kernel::prelude::*;
use kernel::sync::Arc;
use kernel::types::Opaque;

/// One entry.
///
/// # Invariants
///
/// `ev` is NULL or an event between its `add` and its `del` whose data
/// records this entry's number and a reference (from [`Arc::into_raw`]) to
/// the entries.
struct Slot {
    ev: AtomicPtr<bindings::perf_event>,
    users: AtomicU32,
}

impl Slot {
    /// Empties the entry if it holds `ev`, waiting for its users; whether
    /// it held it.
    fn clear(&self, ev: *mut bindings::perf_event) -> bool {
        if self
            .ev
            .compare_exchange(ev, null_mut(), Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return false;
        }
        // A user that loaded the event before the exchange is counted in
        // `users` (both are sequentially consistent): wait until it is done.
        while self.users.load(Ordering::SeqCst) != 0 {
            core::hint::spin_loop();
        }
        true
    }
}

/// An event held in an entry, as code outside its callbacks sees it: its
/// count can be added to, nothing else.
///
/// # Invariants
///
/// Made only from a filled entry while its use is counted in `users`: the
/// event is between `add` and `del` for as long as the reference lives.
#[repr(transparent)]
pub struct Active(Opaque<bindings::perf_event>);

impl Active {
    /// Adds `delta` to the event's count (any CPU, any context).
    pub fn add_count(&self, delta: u64) {
        // SAFETY: The event is live (type invariant).
        unsafe { add_count(self.0.get(), delta) }
    }
}

/// A PMU's entries, shared: each filled entry holds a reference.
pub struct EventSlots {
    slots: KVec<Slot>,
}

// SAFETY: The entries are atomics; the events they hold are used only as `&Active`, whose one
// accessor is an atomic add that works from any CPU.
unsafe impl Send for EventSlots {}
// SAFETY: As above.
unsafe impl Sync for EventSlots {}

impl EventSlots {
    /// `n` empty entries.
    pub fn new(n: usize) -> Result<Arc<Self>> {
        let mut slots = KVec::with_capacity(n, GFP_KERNEL)?;
        for _ in 0..n {
            slots.push(
                Slot {
                    ev: AtomicPtr::new(null_mut()),
                    users: AtomicU32::new(0),
                },
                GFP_KERNEL,
            )?;
        }
        Ok(Arc::new(EventSlots { slots }, GFP_KERNEL)?)
    }

    /// Puts the event of `entry` (in its `add`) in entry `k`: `EBUSY` if
    /// that entry holds another event, `EINVAL` if there is no entry `k`.
    pub fn set<T: PmuOps>(this: &Arc<Self>, k: usize, entry: Adding<'_, T>) -> Result {
        let slot = this.slots.get(k).ok_or(EINVAL)?;
        let raw = entry.ev.raw();
        slot.ev
            .compare_exchange(null_mut(), raw, Ordering::SeqCst, Ordering::SeqCst)
            .map_err(|_| EBUSY)?;
        // INVARIANT: The event is in this entry only (`Adding` comes once per `add`, for an
        // event in no entry); its data records the entry before anyone can empty it (only its
        // `del`, after this `add`, does).
        let state = entry.ev.layer();
        state
            .slots
            .store(Arc::into_raw(this.clone()).cast_mut(), Ordering::Release);
        state.idx.store(k, Ordering::Release);
        Ok(())
    }

    /// Calls `f` with the event of entry `k`, if it holds one. With
    /// interrupts off (`_irq`): `del`, on this or another CPU, waits for the
    /// call to end, which a preempted caller would make it do for long.
    pub fn with<R>(&self, _irq: &IrqsOff, k: usize, f: impl FnOnce(&Active) -> R) -> Option<R> {
        let slot = self.slots.get(k)?;
        slot.users.fetch_add(1, Ordering::SeqCst);
        let p = slot.ev.load(Ordering::SeqCst);
        let r = if p.is_null() {
            None
        } else {
            // SAFETY: A filled entry holds an event between its `add` and `del` (type
            // invariant); `clear` waits for this use before `del` returns. `Active` is a
            // transparent wrapper of the event.
            Some(f(unsafe { &*p.cast::<Active>() }))
        };
        slot.users.fetch_sub(1, Ordering::SeqCst);
        r
    }
}

/// Empties the entry that holds `ev`, if any (the adapter's `del`, a
/// failed `add`), and gives up its reference to the entries.
pub(super) fn release<T: PmuOps>(ev: &Event<T>) {
    let state = ev.layer();
    let p = state.slots.swap(null_mut(), Ordering::AcqRel);
    if p.is_null() {
        return;
    }
    // SAFETY: A non-NULL `slots` is a reference to the entries from `Arc::into_raw` (`Slot`
    // invariant), taken back here once: the swap cleared it, and only `set` fills it again.
    let slots = unsafe { Arc::from_raw(p.cast_const()) };
    let k = state.idx.swap(NO_ENTRY, Ordering::AcqRel);
    if let Some(slot) = slots.slots.get(k) {
        slot.clear(ev.raw());
    }
}
