// SPDX-License-Identifier: GPL-2.0

//! The one place where the kernel trees the module builds against differ.
//!
//! The rest of the module is written as if there were one kernel: it uses
//! the names below, and where both trees accept the same spelling it uses
//! that spelling directly. Each item here is chosen by a `--cfg ru_*` flag
//! that `rust/probe.sh` sets when the target tree has the interface (the
//! kernel's own sources are probed, never its version number:
//! distributions backport). `Documentation/design.rst` ("Kernel trees")
//! lists the probes and the trees they tell apart.

use super::bindings;
use kernel::ffi::c_char;
use kernel::str::CStr;
use kernel::types::Opaque;
#[cfg(feature = "debugfs")]
use kernel::uaccess::UserSlice;

// In-place initialisation from a closure, and zeroing; `pin-init` became a
// crate of its own (`ru_pin_init_crate`).
#[cfg(not(ru_pin_init_crate))]
pub(crate) use kernel::init::pin_init_from_closure;
#[cfg(not(ru_pin_init_crate))]
pub use kernel::init::{zeroed as init_zeroed, Zeroable};
#[cfg(ru_pin_init_crate)]
pub(crate) use pin_init::pin_init_from_closure;
#[cfg(ru_pin_init_crate)]
pub use pin_init::{init_zeroed, Zeroable};

/// The raw pointer to the value an [`Opaque`] wraps (`ru_opaque_cast_into`:
/// `Opaque::cast_into`, formerly `Opaque::raw_get`).
pub(crate) fn opaque_raw<T>(this: *const Opaque<T>) -> *mut T {
    #[cfg(ru_opaque_cast_into)]
    return Opaque::cast_into(this);
    #[cfg(not(ru_opaque_cast_into))]
    return Opaque::raw_get(this);
}

/// A fallible in-place initialiser of an [`Opaque`], on a tree without
/// `Opaque::try_ffi_init` (`ru_opaque_try_ffi_init`; the perf abstraction
/// calls it through `kcrate.rs`).
#[cfg(not(ru_opaque_try_ffi_init))]
pub(crate) fn opaque_try_ffi_init<T, E>(
    init_func: impl FnOnce(*mut T) -> Result<(), E>,
) -> impl kernel::prelude::PinInit<Opaque<T>, E> {
    // SAFETY: An `Opaque` may stay uninitialised, so whatever `init_func` did to its value
    // before returning, the slot is valid; on error nothing is left to drop.
    unsafe { pin_init_from_closure(move |slot: *mut Opaque<T>| init_func(opaque_raw(slot))) }
}

/// The function of a high-resolution timer.
pub(crate) type HrtimerFn =
    unsafe extern "C" fn(*mut bindings::hrtimer) -> bindings::hrtimer_restart;

/// Initialises `timer` with `function`, on `clock`, for starts in `mode`
/// (`ru_hrtimer_setup`: `hrtimer_setup`, formerly `hrtimer_init` and then
/// the `function` field).
///
/// # Safety
///
/// `timer` must be valid for writes, and not be queued.
pub(crate) unsafe fn hrtimer_setup(
    timer: *mut bindings::hrtimer,
    function: HrtimerFn,
    clock: bindings::clockid_t,
    mode: bindings::hrtimer_mode,
) {
    #[cfg(ru_hrtimer_setup)]
    // SAFETY: The caller passes a writable timer that is not queued.
    unsafe {
        bindings::hrtimer_setup(timer, Some(function), clock, mode)
    };
    #[cfg(not(ru_hrtimer_setup))]
    // SAFETY: As above; the function is set before the timer can be started.
    unsafe {
        bindings::hrtimer_init(timer, clock, mode);
        (*timer).function = Some(function);
    }
}

/// Whether `perf_pmu_unregister` revokes the PMU's events
/// (`ru_pmu_unregister_revokes`: it returns an `int` since it does); where
/// it does not, a PMU's registration waits for its events before it.
pub(crate) const PMU_UNREGISTER_REVOKES: bool = cfg!(ru_pmu_unregister_revokes);

/// `smp_call_function_single`'s `wait` argument, set: wait until the
/// function has run (`ru_smp_call_wait_bool`: a `bool`, formerly an `int`).
#[cfg(ru_smp_call_wait_bool)]
pub(crate) const SMP_CALL_WAIT: bool = true;
/// `smp_call_function_single`'s `wait` argument, set: wait until the
/// function has run.
#[cfg(not(ru_smp_call_wait_bool))]
pub(crate) const SMP_CALL_WAIT: kernel::ffi::c_int = 1;

/// The C string at `ptr` (`ru_cstr_ext`: the kernel's `CStr` became
/// `core::ffi::CStr`, its constructor from a kernel `char *` a trait
/// method).
///
/// # Safety
///
/// `ptr` must point to a NUL-terminated string that lives, unchanged, for
/// `'a`.
pub unsafe fn cstr_from_ptr<'a>(ptr: *const c_char) -> &'a CStr {
    #[cfg(ru_cstr_ext)]
    use kernel::str::CStrExt;
    // SAFETY: As the caller guarantees.
    unsafe { CStr::from_char_ptr(ptr) }
}

/// A user-space buffer of `len` bytes at `ptr` (`ru_user_ptr_newtype`:
/// `UserPtr` became a newtype of the address). For `debugfs` only.
#[cfg(feature = "debugfs")]
pub(crate) fn user_slice(ptr: *const c_char, len: usize) -> UserSlice {
    #[cfg(ru_user_ptr_newtype)]
    return UserSlice::new(kernel::uaccess::UserPtr::from_addr(ptr as usize), len);
    #[cfg(not(ru_user_ptr_newtype))]
    return UserSlice::new(ptr as usize, len);
}

/// The methods the lock backend trait requires beyond `init`, `lock` and
/// `unlock` (`ru_lock_backend_try_lock`: `try_lock` and `assert_is_held`);
/// expands inside an `unsafe impl Backend` whose state is a
/// `raw_spinlock_t` and whose guard state is the saved interrupt flags.
macro_rules! irq_lock_backend_extras {
    () => {
        #[cfg(ru_lock_backend_try_lock)]
        unsafe fn try_lock(ptr: *mut Self::State) -> Option<Self::GuardState> {
            let mut flags = 0;
            // SAFETY: The caller guarantees that `init` was called on `ptr`.
            (unsafe { bindings::ru_raw_spin_trylock_irqsave(ptr, &mut flags) }).then_some(flags)
        }

        #[cfg(ru_lock_backend_try_lock)]
        unsafe fn assert_is_held(ptr: *mut Self::State) {
            // SAFETY: The caller guarantees that `init` was called on `ptr`.
            unsafe { bindings::ru_raw_spin_assert_held(ptr) }
        }
    };
}
pub(crate) use irq_lock_backend_extras;

/// The address of the `$type` whose field `$field` is at `$ptr`, as a
/// pointer of `$ptr`'s mutability. The kernel's `container_of!` changed
/// both its check of the field's type and its result's mutability; this one
/// is the same on every tree. Computing the pointer is safe; using it needs
/// `$ptr` to point into a live `$type`.
macro_rules! container_of {
    ($ptr:expr, $type:ty, $field:ident) => {
        $ptr.cast::<u8>()
            .wrapping_sub(::core::mem::offset_of!($type, $field))
            .cast::<$type>()
    };
}
pub(crate) use container_of;
