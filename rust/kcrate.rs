// SPDX-License-Identifier: GPL-2.0

//! The kernel crate as the perf abstraction's files see it.
//!
//! The abstraction is written as the kernel crate's own `kernel::perf`
//! (`rfc/rust/kernel/perf.rs` and `perf/`, the files of the patch series
//! `make rfc` writes), so it names the kernel crate's items as `crate::…`.
//! A module mounts those files unchanged (`rust/mod.rs`) and this file at
//! its crate root, re-exported there (`pub use kcrate::{bindings, cpu, …}`),
//! so that each `crate::` path finds:
//!
//! - on a tree whose kernel crate has the item (`rust/probe.sh`), the
//!   kernel crate's own;
//! - on one that lacks it (6.12 lacks all of them, 7.2 the interrupt
//!   token), a stand-in here with the same name and the subset of the
//!   interface the abstraction uses.
//!
//! [`bindings`] is the module's own bindgen output with the kernel's helper
//! names (`local64_read` for the module's `ru_local64_read`).

/// The C declarations, under the names the kernel crate's `bindings` gives
/// them (a helper `rust_helper_x` of the kernel tree is `x` there).
pub mod bindings {
    pub use crate::sys::bindings::*;
    pub use crate::sys::bindings::{
        ru_cpu_online as cpu_online, ru_event_has_any_exclude_flag as event_has_any_exclude_flag,
        ru_is_sampling_event as is_sampling_event, ru_local64_add as local64_add,
        ru_local64_read as local64_read, ru_local64_set as local64_set,
        ru_local64_xchg as local64_xchg, ru_lockdep_assert_event_ctx as lockdep_assert_event_ctx,
        ru_perf_event_count_add_atomic as perf_event_count_add_atomic,
        ru_sysfs_attr_init as sysfs_attr_init,
    };

    /// `perf_pmu_unregister()`, which returns nothing on a tree where it
    /// does not revoke the PMU's events: 0 there.
    ///
    /// # Safety
    ///
    /// As `perf_pmu_unregister()`: `pmu` is registered, and the caller
    /// sleeps.
    #[cfg(not(ru_pmu_unregister_revokes))]
    pub unsafe fn perf_pmu_unregister(pmu: *mut pmu) -> kernel::ffi::c_int {
        // SAFETY: As the function's own requirements.
        unsafe { crate::sys::bindings::perf_pmu_unregister(pmu) };
        0
    }
}

pub use kernel::{error, str};

/// The kernel crate's `types`, with the 7.x form of `ForeignOwnable`
/// (`*mut` pointers, borrowing with a lifetime bound) where the tree has
/// an older one (6.12).
pub mod types {
    pub use kernel::types::*;

    #[cfg(not(ru_kernel_foreign_mut))]
    pub use super::shim::ForeignOwnable;
}

/// Devices: a stand-in on every tree, with no value. The module registers
/// no PMU under a device of the kernel crate, whose `Device::as_raw` the
/// perf files use but a module cannot (`pub(crate)` there).
pub mod device {
    use core::{convert::Infallible, marker::PhantomData};

    /// A device bound to its driver (the device context).
    pub struct Bound;

    /// A device, of which there is none here.
    pub struct Device<Ctx>(pub(super) Infallible, PhantomData<Ctx>);

    impl<Ctx> Device<Ctx> {
        /// The `struct device`.
        pub fn as_raw(&self) -> *mut crate::sys::bindings::device {
            match self.0 {}
        }
    }
}

/// Device-managed resources, for the [`device`] stand-in.
pub mod devres {
    use super::device::{Bound, Device};
    use kernel::prelude::*;

    /// Leaves `data` to `dev` until it is unbound: never called here
    /// (there is no device).
    pub fn register<T, E>(
        dev: &Device<Bound>,
        _data: impl PinInit<T, E>,
        _flags: kernel::alloc::Flags,
    ) -> Result
    where
        T: Send + 'static,
        Error: From<E>,
    {
        match dev.0 {}
    }
}

/// The kernel crate's prelude, with what a tree's prelude lacks.
pub mod prelude {
    pub use kernel::prelude::*;

    pub use kernel::build_error;
    pub use kernel::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void};

    #[cfg(not(ru_cstr_ext))]
    pub use super::shim::CStrAsCharPtr;
    #[cfg(not(ru_opaque_try_ffi_init))]
    pub use super::shim::OpaqueTryFfiInit;
}

#[cfg(ru_kernel_cpu_id)]
pub use kernel::cpu;
#[cfg(not(ru_kernel_cpu_id))]
pub use shim::cpu;

#[cfg(ru_kernel_cpumask)]
pub use kernel::cpumask;
#[cfg(not(ru_kernel_cpumask))]
pub use shim::cpumask;

#[cfg(ru_kernel_local_irq)]
pub use kernel::interrupt;
#[cfg(not(ru_kernel_local_irq))]
pub use shim::interrupt;

#[cfg(ru_kernel_impl_flags)]
pub(crate) use kernel::impl_flags;
#[cfg(not(ru_kernel_impl_flags))]
pub(crate) use shim::impl_flags;

#[cfg(ru_kernel_warn_on)]
pub(crate) use kernel::warn_on;
#[cfg(not(ru_kernel_warn_on))]
pub(crate) use shim::warn_on;

/// The containing struct of a field (`kernel::container_of!`): as in the
/// kernel crate, only inside `unsafe` (an offset of a raw pointer).
macro_rules! ru_kcrate_container_of {
    ($field_ptr:expr, $Container:ty, $($fields:tt)*) => {{
        let offset: usize = ::core::mem::offset_of!($Container, $($fields)*);
        let field_ptr = $field_ptr;
        field_ptr.byte_sub(offset).cast::<$Container>()
    }};
}
pub(crate) use ru_kcrate_container_of as container_of;

#[path = "kcrate/shim.rs"]
mod shim;
