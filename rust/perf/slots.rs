// SPDX-License-Identifier: GPL-2.0

//! Entries that hold an event between its `add` and its `del`, for code
//! that runs outside the event's callbacks (a timer, an interrupt work).
//!
//! perf keeps an event alive from `add` until `del` returns. An entry is
//! filled in `add` and records itself in the event's `pmu_private`; the
//! `del` trampoline (and a failed `add`) empties it through that field, so
//! no entry outlives the window, whatever the driver does. Emptying waits
//! for users of the entry on other CPUs; using one takes no lock, so an
//! entry can be used in any context.

use super::Event;
use crate::sys::bindings;
use core::ffi::c_void;
use core::marker::PhantomPinned;
use core::pin::Pin;
use core::ptr::null_mut;
use core::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use kernel::prelude::*;

/// One entry.
///
/// # Invariants
///
/// `ev` is NULL or an event between its `add` and its `del`, whose
/// `pmu_private` points to this entry; the entry never moves (it is only
/// created in place, by [`EventSlots::new`]).
struct Slot {
    ev: AtomicPtr<bindings::perf_event>,
    users: AtomicU32,
}

impl Slot {
    const fn new() -> Self {
        Slot {
            ev: AtomicPtr::new(null_mut()),
            users: AtomicU32::new(0),
        }
    }

    /// Empties the entry if it holds `ev`, waiting for its users.
    fn clear(&self, ev: *mut bindings::perf_event) {
        if self
            .ev
            .compare_exchange(ev, null_mut(), Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return;
        }
        // A user that loaded the event before the exchange is counted in
        // `users` (both are sequentially consistent): wait until it is done.
        while self.users.load(Ordering::SeqCst) != 0 {
            core::hint::spin_loop();
        }
    }
}

/// `N` entries, pinned in place.
#[pin_data(PinnedDrop)]
pub(crate) struct EventSlots<const N: usize> {
    slots: [Slot; N],
    #[pin]
    _pin: PhantomPinned,
}

// SAFETY: The entries are atomics; the events they hold are used only as `&Event`, whose
// accessors work from any CPU.
unsafe impl<const N: usize> Send for EventSlots<N> {}
// SAFETY: As above.
unsafe impl<const N: usize> Sync for EventSlots<N> {}

impl<const N: usize> EventSlots<N> {
    /// Empty entries, initialised in place: they never move afterwards,
    /// which the pointers events keep to them rely on.
    pub(crate) fn new() -> impl PinInit<Self> {
        pin_init!(EventSlots {
            slots: core::array::from_fn(|_| Slot::new()),
            _pin: PhantomPinned,
        })
    }

    /// Puts `ev` (in its `add` callback) in entry `k`.
    pub(crate) fn set(&self, k: usize, ev: &Event) {
        let Some(slot) = self.slots.get(k) else {
            return;
        };
        let raw = ev.raw();
        // SAFETY: The event is in a callback (so alive), and `pmu_private` is its PMU's field;
        // perf serialises an event's callbacks. The entry never moves, so the pointer stays
        // valid until `release` or the entry's drop clears it.
        unsafe { (*raw).pmu_private = core::ptr::from_ref(slot).cast_mut().cast::<c_void>() };
        slot.ev.store(raw, Ordering::SeqCst);
    }

    /// Calls `f` with the event of entry `k`, if it holds one.
    pub(crate) fn with<R>(&self, k: usize, f: impl FnOnce(&Event) -> R) -> Option<R> {
        let slot = self.slots.get(k)?;
        slot.users.fetch_add(1, Ordering::SeqCst);
        let p = slot.ev.load(Ordering::SeqCst);
        let r = if p.is_null() {
            None
        } else {
            // SAFETY: A set entry holds an event between its `add` and `del` (type invariant);
            // `clear` waits for this use before `del` returns.
            Some(f(unsafe { Event::from_raw(p) }))
        };
        slot.users.fetch_sub(1, Ordering::SeqCst);
        r
    }
}

#[pinned_drop]
impl<const N: usize> PinnedDrop for EventSlots<N> {
    fn drop(self: Pin<&mut Self>) {
        for slot in &self.slots {
            let p = slot.ev.swap(null_mut(), Ordering::SeqCst);
            if !p.is_null() {
                // SAFETY: The event is still between `add` and `del` (type invariant): its
                // `del` trampoline must not find this entry any more.
                unsafe { (*p).pmu_private = null_mut() };
            }
        }
    }
}

/// Empties the entry that holds `ev`, if any (the `del` trampoline, a
/// failed `add`).
pub(super) fn release(ev: &Event) {
    let raw = ev.raw();
    // SAFETY: The event is in a callback; `pmu_private` is NULL or an entry that holds it
    // (`Slot` invariant), which is pinned and alive while it holds the event.
    unsafe {
        let slot = (*raw).pmu_private.cast::<Slot>();
        if !slot.is_null() {
            (*slot).clear(raw);
            (*raw).pmu_private = null_mut();
        }
    }
}
