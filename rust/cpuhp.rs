// SPDX-License-Identifier: GPL-2.0

//! CPU hotplug callbacks: one instance of a dynamic multi-instance state
//! (`CPUHP_AP_ONLINE_DYN`). The callbacks run on the CPU coming online or
//! going offline, in process context, with the hotplug lock held.
//!
//! C header: [`include/linux/cpuhotplug.h`](srctree/include/linux/cpuhotplug.h)

use super::bindings;
use super::cpu::CpuId;
use core::marker::PhantomData;
use kernel::error::{from_result, Result};
use kernel::ffi::{c_int, c_uint};
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;
use kernel::types::Opaque;

/// Hotplug callbacks.
pub trait HotplugOps: Send + Sync + 'static {
    /// `cpu` came online (at registration: called for every online CPU).
    fn online(&self, cpu: CpuId) -> Result;
    /// `cpu` is going offline (at removal: called for every online CPU).
    fn offline(&self, cpu: CpuId) -> Result;
}

/// The C callbacks of a [`Registration<T>`].
struct Adapter<T: HotplugOps>(PhantomData<T>);

impl<T: HotplugOps> Adapter<T> {
    /// # Safety
    ///
    /// `node` must be the `node` of a live [`Registration<T>`].
    unsafe fn ops<'a>(node: *mut bindings::hlist_node) -> &'a T {
        // SAFETY: By the function's requirement; the registration outlives its instance.
        unsafe { &(*super::compat::container_of!(node, Registration<T>, node)).ops }
    }

    /// # Safety
    ///
    /// Called by the hotplug core for an instance of a [`Registration<T>`].
    unsafe extern "C" fn online_callback(cpu: c_uint, node: *mut bindings::hlist_node) -> c_int {
        from_result(|| {
            let cpu = CpuId::from_u32(cpu).ok_or(EINVAL)?;
            // SAFETY: The hotplug core passes the node this registration added.
            unsafe { Self::ops(node) }.online(cpu)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by the hotplug core for an instance of a [`Registration<T>`].
    unsafe extern "C" fn offline_callback(cpu: c_uint, node: *mut bindings::hlist_node) -> c_int {
        from_result(|| {
            let cpu = CpuId::from_u32(cpu).ok_or(EINVAL)?;
            // SAFETY: The hotplug core passes the node this registration added.
            unsafe { Self::ops(node) }.offline(cpu)?;
            Ok(0)
        })
    }
}

/// A dynamic hotplug state with one instance, whose callbacks are `T`'s.
/// Dropping it removes the instance (calling `offline` for every online
/// CPU) and the state.
///
/// # Invariants
///
/// `state` is a multi-instance state set up with [`Adapter<T>`]'s callbacks,
/// and `node` is its instance, from the end of initialisation until drop.
#[pin_data(PinnedDrop)]
pub struct Registration<T: HotplugOps> {
    ops: Arc<T>,
    state: c_int,
    #[pin]
    node: Opaque<bindings::hlist_node>,
}

// SAFETY: The hotplug core serialises the callbacks; `T` is `Send + Sync`.
unsafe impl<T: HotplugOps> Send for Registration<T> {}
// SAFETY: There is no `&self` method.
unsafe impl<T: HotplugOps> Sync for Registration<T> {}

impl<T: HotplugOps> Registration<T> {
    /// Sets up a state named `name` and adds `ops` as its instance, which
    /// calls `online` for every online CPU before this returns.
    pub fn new(name: &'static CStr, ops: Arc<T>) -> impl PinInit<Self, Error> {
        // SAFETY: On success every field is initialised and the instance added at its final,
        // pinned address; on failure the state is removed again and nothing stays initialised.
        unsafe {
            super::compat::pin_init_from_closure(move |slot: *mut Self| {
                let state = bindings::ru_cpuhp_setup_state_multi(
                    name.as_char_ptr(),
                    Some(Adapter::<T>::online_callback),
                    Some(Adapter::<T>::offline_callback),
                );
                if state < 0 {
                    return Err(Error::from_errno(state));
                }
                core::ptr::addr_of_mut!((*slot).ops).write(ops);
                core::ptr::addr_of_mut!((*slot).state).write(state);
                let node = super::compat::opaque_raw(core::ptr::addr_of!((*slot).node));
                let r = bindings::__cpuhp_state_add_instance(
                    state as bindings::cpuhp_state,
                    node,
                    true,
                );
                if r != 0 {
                    bindings::__cpuhp_remove_state(state as bindings::cpuhp_state, false);
                    core::ptr::drop_in_place(core::ptr::addr_of_mut!((*slot).ops));
                    return Err(Error::from_errno(r));
                }
                Ok(())
            })
        }
    }
}

#[pinned_drop]
impl<T: HotplugOps> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        let state = self.state as bindings::cpuhp_state;
        // SAFETY: The instance and its state exist (type invariant). Removing the instance runs
        // the offline callbacks and returns when they are done; then no callback refers to
        // `ops` any more.
        unsafe {
            bindings::__cpuhp_state_remove_instance(state, self.node.get(), true);
            bindings::__cpuhp_remove_state(state, false);
        }
    }
}
