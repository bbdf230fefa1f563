// SPDX-License-Identifier: GPL-2.0

//! A periodic high-resolution timer, pinned to the CPU that starts it, whose
//! callback runs in hard interrupt context.
//!
//! C header: [`include/linux/hrtimer.h`](srctree/include/linux/hrtimer.h)

use super::ffi;
use core::ptr::NonNull;
use kernel::error::{code::ENOMEM, Result};
use kernel::ffi::c_void;
use kernel::sync::Arc;

/// What a timer does when it fires.
pub(crate) trait TimerHandler: Send + Sync + 'static {
    /// Runs in hard interrupt context; returns whether to fire again.
    fn fire(&self) -> bool;
}

/// A timer owning a reference to its handler.
///
/// # Invariants
///
/// `raw` is a timer from `ru_timer_alloc` whose data is `Arc::into_raw` of
/// a `T` this object owns.
pub(crate) struct Timer<T: TimerHandler> {
    raw: NonNull<ffi::RuTimer>,
    data: *const T,
}

// SAFETY: The timer is only started, cancelled and freed through `&self` or
// `&mut self` methods that the C side serialises; `T` is `Send + Sync`.
unsafe impl<T: TimerHandler> Send for Timer<T> {}
// SAFETY: As above.
unsafe impl<T: TimerHandler> Sync for Timer<T> {}

impl<T: TimerHandler> Timer<T> {
    /// A stopped timer that calls `handler.fire()`.
    pub(crate) fn new(handler: Arc<T>) -> Result<Self> {
        let data = Arc::into_raw(handler);
        // SAFETY: `fire_cb::<T>` matches the callback type, and `data` stays valid until `Drop` frees the timer.
        let raw = unsafe { ffi::ru_timer_alloc(Some(Self::fire_cb), data as *mut c_void) };
        match NonNull::new(raw) {
            Some(raw) => Ok(Timer { raw, data }),
            None => {
                // SAFETY: `data` came from `Arc::into_raw` just above.
                drop(unsafe { Arc::from_raw(data) });
                Err(ENOMEM)
            }
        }
    }

    /// # Safety
    ///
    /// `data` must be the pointer given to `ru_timer_alloc`.
    unsafe extern "C" fn fire_cb(data: *mut c_void) -> bool {
        // SAFETY: By the function's safety requirement `data` is the `T` this timer owns, alive until the timer is freed.
        let h = unsafe { &*(data as *const T) };
        h.fire()
    }

    /// Starts (or restarts) the timer on the current CPU, every `ns` nanoseconds.
    pub(crate) fn start(&self, ns: u64) {
        // SAFETY: `raw` is valid by the type invariant.
        unsafe { ffi::ru_timer_start(self.raw.as_ptr(), ns) }
    }

    /// Stops the timer and waits for a running callback to finish. Must not
    /// be called from the timer's own callback.
    pub(crate) fn cancel(&self) {
        // SAFETY: `raw` is valid by the type invariant.
        unsafe { ffi::ru_timer_cancel(self.raw.as_ptr()) }
    }
}

impl<T: TimerHandler> Drop for Timer<T> {
    fn drop(&mut self) {
        // SAFETY: `raw` is valid; freeing cancels and waits for the callback.
        unsafe { ffi::ru_timer_free(self.raw.as_ptr()) };
        // SAFETY: `data` came from `Arc::into_raw` in `new`, and the timer that used it is gone.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}
