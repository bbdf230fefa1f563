// SPDX-License-Identifier: GPL-2.0

//! CPU hotplug callbacks: an instance of a dynamic `CPUHP_AP_ONLINE_DYN`
//! multi-instance state. Callbacks run on the CPU going online or offline,
//! in process context, with the hotplug lock held.
//!
//! C header: [`include/linux/cpuhotplug.h`](srctree/include/linux/cpuhotplug.h)

use super::ffi;
use core::ptr::NonNull;
use kernel::error::{from_result, to_result, Result};
use kernel::ffi::{c_int, c_uint, c_void};
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;

/// Hotplug callbacks.
pub(crate) trait HotplugOps: Send + Sync + 'static {
    /// `cpu` came online (also called for every online CPU at registration).
    fn online(&self, cpu: u32) -> Result;
    /// `cpu` is going offline (also called for every online CPU at removal).
    fn offline(&self, cpu: u32) -> Result;
}

struct Adapter<T: HotplugOps>(core::marker::PhantomData<T>);

impl<T: HotplugOps> Adapter<T> {
    const OPS: ffi::RuCpuhpOps = ffi::RuCpuhpOps { online: Some(Self::online_cb), offline: Some(Self::offline_cb) };

    /// # Safety
    ///
    /// `data` must be the pointer registered with `ru_cpuhp_add`.
    unsafe extern "C" fn online_cb(data: *mut c_void, cpu: c_uint) -> c_int {
        // SAFETY: By the function's requirement `data` is the registration's `T`, alive until the instance is removed.
        let t = unsafe { &*(data as *const T) };
        from_result(|| t.online(cpu).map(|()| 0))
    }

    /// # Safety
    ///
    /// `data` must be the pointer registered with `ru_cpuhp_add`.
    unsafe extern "C" fn offline_cb(data: *mut c_void, cpu: c_uint) -> c_int {
        // SAFETY: As in `online_cb`.
        let t = unsafe { &*(data as *const T) };
        from_result(|| t.offline(cpu).map(|()| 0))
    }
}

/// A registered hotplug instance; removing it (on drop) calls `offline` for
/// every online CPU.
///
/// # Invariants
///
/// `raw` is an instance from `ru_cpuhp_add` whose data is `Arc::into_raw`
/// of `data`.
pub(crate) struct Hotplug<T: HotplugOps> {
    raw: NonNull<ffi::RuCpuhp>,
    data: *const T,
    _ops: KBox<ffi::RuCpuhpOps>,
}

// SAFETY: The instance is only removed through `Drop`; `T` is `Send + Sync`.
unsafe impl<T: HotplugOps> Send for Hotplug<T> {}
// SAFETY: No `&self` method touches the instance.
unsafe impl<T: HotplugOps> Sync for Hotplug<T> {}

impl<T: HotplugOps> Hotplug<T> {
    /// Registers `ops` under `name`; calls `online` for every online CPU.
    pub(crate) fn new(name: &'static CStr, ops: Arc<T>) -> Result<Self> {
        let table = KBox::new(Adapter::<T>::OPS, GFP_KERNEL)?;
        let data = Arc::into_raw(ops);
        let mut err: c_int = 0;
        // SAFETY: `name` is NUL-terminated and static, `table` lives in this object until `Drop`, as does `data`, and `err` is writable.
        let raw = unsafe { ffi::ru_cpuhp_add(name.as_char_ptr(), &*table, data as *mut c_void, &mut err) };
        match NonNull::new(raw) {
            Some(raw) => Ok(Hotplug { raw, data, _ops: table }),
            None => {
                // SAFETY: `data` came from `Arc::into_raw` and was not kept.
                drop(unsafe { Arc::from_raw(data) });
                to_result(err)?;
                Err(ENOMEM)
            }
        }
    }
}

impl<T: HotplugOps> Drop for Hotplug<T> {
    fn drop(&mut self) {
        // SAFETY: `raw` is a live instance; removal runs the offline callbacks.
        unsafe { ffi::ru_cpuhp_remove(self.raw.as_ptr()) };
        // SAFETY: `data` came from `Arc::into_raw`; the callbacks are gone.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}
