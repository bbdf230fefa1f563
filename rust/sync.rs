// SPDX-License-Identifier: GPL-2.0

//! A raw-spinlock, interrupt-saving backend for the kernel crate's
//! [`Lock`]: 6.12's Rust has neither `SpinLockIrq` nor raw spinlocks.
//!
//! A raw spinlock stays a spinning lock on `PREEMPT_RT` too, so these locks
//! may be taken in hard interrupt context (timers, `irq_work`) and with
//! interrupts off (perf's PMU callbacks). Never take one from NMI context:
//! an NMI landing on a CPU that holds the lock would deadlock.
//!
//! C header: [`include/linux/spinlock.h`](srctree/include/linux/spinlock.h)

use super::bindings;
use super::cpu::IrqsOff;
use kernel::ffi::{c_char, c_ulong};
use kernel::sync::lock::{Backend, Lock};

/// A raw spinlock, taken with interrupts disabled (`raw_spin_lock_irqsave`).
///
/// Build one with [`new_irq_lock!`], which gives each use site its own
/// static lockdep class.
pub type IrqLock<T> = Lock<T, IrqLockBackend>;

/// The backend of [`IrqLock`].
pub struct IrqLockBackend;

// SAFETY: `raw_spin_lock_irqsave` gives the caller exclusive ownership until the matching
// `raw_spin_unlock_irqrestore`; `relock` (the trait's default) takes the lock the same way.
unsafe impl Backend for IrqLockBackend {
    type State = bindings::raw_spinlock_t;
    type GuardState = c_ulong;

    unsafe fn init(ptr: *mut Self::State, name: *const c_char, key: *mut bindings::lock_class_key) {
        // SAFETY: The caller passes a writable lock and a name and key that live forever. The
        // helper initialises the lock with or without lock debugging.
        unsafe { bindings::ru_raw_spin_lock_init(ptr, name, key) }
    }

    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: The caller guarantees that `init` was called on `ptr`.
        unsafe { bindings::ru_raw_spin_lock_irqsave(ptr) }
    }

    unsafe fn unlock(ptr: *mut Self::State, guard_state: &Self::GuardState) {
        // SAFETY: The caller owns the lock, taken by `lock`, which returned these flags.
        unsafe { bindings::ru_raw_spin_unlock_irqrestore(ptr, *guard_state) }
    }

    super::compat::irq_lock_backend_extras!();
}

/// An initialiser of an [`IrqLock`] around `$inner`, with a static lockdep
/// class of its own (named `$name`, or after the source line).
#[doc(hidden)]
#[macro_export]
macro_rules! ru_sys_new_irq_lock {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sys::sync::IrqLock::new(
            $inner,
            kernel::optional_name!($($name)?),
            kernel::static_lock_class!(),
        )
    };
}
pub use crate::ru_sys_new_irq_lock as new_irq_lock;

/// The guard of a locked [`IrqLock`].
pub type IrqGuard<'a, T> = kernel::sync::lock::Guard<'a, T, IrqLockBackend>;

/// Runs `f` with `lock` held, lending it the data and the proof that
/// interrupts are off (an [`IrqLock`] keeps them off while it is held).
///
/// # Examples
///
/// ```ignore
/// use crate::sys::sync::with_locked;
///
/// // What needs the proof (an `EventSlots` entry, say) can be used here.
/// let n = with_locked(&lock, |count, _irq| {
///     *count += 1;
///     *count
/// });
/// ```
pub fn with_locked<T: Unpin, R>(lock: &IrqLock<T>, f: impl FnOnce(&mut T, &IrqsOff) -> R) -> R {
    let mut g = lock.lock();
    // SAFETY: The lock is held, so interrupts are off on this CPU, until `g` drops after `f`
    // returns; the proof is lent to `f` for the call only.
    let irq = unsafe { IrqsOff::new() };
    f(&mut g, &irq)
}
