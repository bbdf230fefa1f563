// SPDX-License-Identifier: GPL-2.0

//! PCI: a driver trait over `struct pci_driver` with a static ID table and
//! per-device data, borrowed and counted device references with
//! configuration-space access, and lookup of devices by ID.
//!
//! A device is either just a device ([`Device`], any device: its
//! identity and configuration reads) or one bound to the driver using it
//! ([`Device<Bound>`]: configuration writes and BAR maps too). The PCI core
//! lends a `&Device<Bound>` to `probe` and `remove`; a driver that writes
//! after `probe` keeps the [`Binding`] `probe` got, which gives the device
//! as bound only until the device is removed from the driver.
//!
//! C header: [`include/linux/pci.h`](srctree/include/linux/pci.h)

use super::bindings;
use super::mmio::Mmio;
use super::rcu::Guard;
use core::marker::PhantomData;
use core::ptr::{addr_of, addr_of_mut, NonNull};
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::error::from_result;
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;
use kernel::types::Opaque;
use kernel::ThisModule;

/// A configuration-space register a driver may write with any value.
///
/// # Safety
///
/// Writing any value to the dword at [`offset`](Self::offset) of a device
/// that the implementing driver is bound to changes only state that the
/// driver owns (a performance-monitoring register, say): never a base
/// address register, the command register, a capability or anything else
/// the kernel or another driver relies on.
pub unsafe trait ConfigRegister: Copy {
    /// The register's offset in the configuration space.
    fn offset(self) -> u32;
}

/// An MMIO window that a device's 64-bit base address register places.
///
/// # Safety
///
/// [`offset`](Self::offset) is the offset of the base address register
/// (its low dword; the high one follows), and whenever [`base`](Self::base)
/// returns an address for the register's two dwords, [`size`](Self::size)
/// bytes from it are registers of that device, which 32-bit reads do not
/// change.
pub unsafe trait BarWindow {
    /// Offset of the base address register.
    fn offset(&self) -> u32;
    /// Size of the window in bytes.
    fn size(&self) -> u32;
    /// The window's physical base from the register's two dwords, or `None`
    /// when the register leaves it disabled.
    fn base(&self, lo: u32, hi: u32) -> Option<u64>;
}

/// The state of a device a [`Device`] reference knows: [`Normal`] or
/// [`Bound`]. Sealed.
pub trait DeviceContext: private::Sealed {}

/// Any device, bound to this driver or not.
pub struct Normal;

/// A device bound to the driver that uses the reference, for as long as
/// the reference lives.
pub struct Bound;

mod private {
    pub trait Sealed {}
    impl Sealed for super::Normal {}
    impl Sealed for super::Bound {}
}
impl DeviceContext for Normal {}
impl DeviceContext for Bound {}

/// A PCI device, borrowed.
///
/// # Invariants
///
/// A `&Device<Ctx>` points to a `struct pci_dev` that stays allocated for
/// the reference's lifetime: the device the PCI core passes to a callback,
/// for the call, or one a [`DeviceRef`] holds a reference to. A
/// `&Device<Bound>` is bound to the driver that uses it for the
/// reference's lifetime: the device of `probe` or `remove`, for the call,
/// or one a [`Binding`] gives while the device is bound.
///
/// # Examples
///
/// ```ignore
/// use crate::sys::pci::{Binding, Bound, Device};
///
/// // In `probe`: the device is the driver's, its registers writable.
/// fn probe(dev: &Device<Bound>, binding: Binding) -> Result<Binding> {
///     dev.write_config_u32(MY_CONTROL, 0)?;
///     Ok(binding)
/// }
/// // Any device found by ID is only readable: `devices(v, d)` yields
/// // `Device<Normal>`s, which have no `write_config_u32`.
/// ```
#[repr(transparent)]
pub struct Device<Ctx: DeviceContext = Normal>(Opaque<bindings::pci_dev>, PhantomData<Ctx>);

// SAFETY: The accessors read fields fixed at enumeration or go through configuration-space
// functions that lock internally; they work from any CPU.
unsafe impl<Ctx: DeviceContext> Send for Device<Ctx> {}
// SAFETY: As above.
unsafe impl<Ctx: DeviceContext> Sync for Device<Ctx> {}

impl core::ops::Deref for Device<Bound> {
    type Target = Device;

    fn deref(&self) -> &Device {
        // SAFETY: Both are transparent wrappers of the same `struct pci_dev`; a bound device is
        // a device.
        unsafe { &*core::ptr::from_ref(self).cast::<Device>() }
    }
}

impl Device<Bound> {
    /// # Safety
    ///
    /// `ptr` must point to a `struct pci_dev` that stays allocated and
    /// bound to the calling driver for `'a`.
    unsafe fn bound_from_raw<'a>(ptr: *mut bindings::pci_dev) -> &'a Device<Bound> {
        // SAFETY: `Device` is a transparent wrapper; the caller guarantees the lifetime and the
        // binding.
        unsafe { &*ptr.cast::<Device<Bound>>() }
    }

    /// Writes the configuration dword of register `reg`. Only a
    /// [`ConfigRegister`] can be written, so no caller can have a BAR, the
    /// command register or a capability written, and only of a device
    /// bound to it.
    pub fn write_config_u32<R: ConfigRegister>(&self, reg: R, v: u32) -> Result {
        let off = c_int::try_from(reg.offset()).map_err(|_| EINVAL)?;
        // SAFETY: As in `read_config_u32`; by `ConfigRegister`'s contract a write of any value
        // to `reg` of a device bound to the driver changes only what the driver owns.
        let r = unsafe { bindings::pci_write_config_dword(self.raw(), off, v) };
        // SAFETY: Maps a PCIBIOS code to an errno; any value is accepted.
        to_errno(unsafe { bindings::ru_pcibios_err_to_errno(r) })
    }

    /// Maps the MMIO window that the device's base address register `w`
    /// places; `None` when the register leaves it disabled. It sleeps
    /// (`ioremap`): where the caller may not (a [`Binding::device`] under
    /// its read-side section among them) `EINVAL`, nothing mapped.
    pub fn map_window<W: BarWindow>(&self, w: &W) -> Result<Option<Mmio>> {
        if !super::cpu::may_sleep() {
            return Err(EINVAL);
        }
        let lo = self.read_config_u32(w.offset())?;
        let hi = self.read_config_u32(w.offset().checked_add(4).ok_or(EINVAL)?)?;
        w.base(lo, hi)
            .map(|base| Mmio::map(base, u64::from(w.size())))
            .transpose()
    }
}

impl<Ctx: DeviceContext> Device<Ctx> {
    fn raw(&self) -> *mut bindings::pci_dev {
        self.0.get()
    }
}

impl Device {
    /// # Safety
    ///
    /// `ptr` must point to a `struct pci_dev` that stays allocated for `'a`.
    unsafe fn from_raw<'a>(ptr: *mut bindings::pci_dev) -> &'a Device {
        // SAFETY: `Device` is a transparent wrapper; the caller guarantees the lifetime.
        unsafe { &*ptr.cast::<Device>() }
    }

    /// Vendor ID.
    pub fn vendor(&self) -> u16 {
        // SAFETY: The device is allocated (type invariant); the field is fixed at enumeration.
        unsafe { (*self.raw()).vendor }
    }

    /// Device ID.
    pub fn device_id(&self) -> u16 {
        // SAFETY: As in `vendor`.
        unsafe { (*self.raw()).device }
    }

    /// PCI segment (domain).
    pub fn domain(&self) -> u32 {
        // SAFETY: The device is allocated and holds a reference to its bus.
        let d = unsafe { bindings::ru_pci_domain_nr((*self.raw()).bus) };
        d as u32
    }

    /// Bus number.
    pub fn bus(&self) -> u8 {
        // SAFETY: The device is allocated and holds a reference to its bus.
        unsafe { (*(*self.raw()).bus).number }
    }

    /// Device (slot) number on the bus.
    pub fn slot(&self) -> u8 {
        // SAFETY: As in `vendor`.
        (unsafe { (*self.raw()).devfn } >> 3) as u8
    }

    /// Function number.
    pub fn func(&self) -> u8 {
        // SAFETY: As in `vendor`.
        (unsafe { (*self.raw()).devfn } & 7) as u8
    }

    /// Reads the configuration dword at `off`.
    pub fn read_config_u32(&self, off: u32) -> Result<u32> {
        let off = c_int::try_from(off).map_err(|_| EINVAL)?;
        let mut v = 0u32;
        // SAFETY: The device is allocated; configuration accessors fail cleanly for a device
        // that was removed. `v` is writable.
        let r = unsafe { bindings::pci_read_config_dword(self.raw(), off, &mut v) };
        // SAFETY: Maps a PCIBIOS code to an errno; any value is accepted.
        to_errno(unsafe { bindings::ru_pcibios_err_to_errno(r) })?;
        Ok(v)
    }

    /// A counted reference to the device.
    pub fn get(&self) -> DeviceRef {
        // SAFETY: The device is allocated, so taking a reference is allowed; `DeviceRef::drop`
        // releases it.
        unsafe { bindings::pci_dev_get(self.raw()) };
        DeviceRef(NonNull::from(&self.0).cast())
    }
}

fn to_errno(r: c_int) -> Result {
    if r == 0 {
        Ok(())
    } else {
        Err(Error::from_errno(r))
    }
}

/// A counted reference to a PCI device (`pci_dev_get`/`pci_dev_put`). The
/// device stays allocated while the reference exists, bound or not.
///
/// # Invariants
///
/// Holds one reference to the device.
pub struct DeviceRef(NonNull<bindings::pci_dev>);

// SAFETY: References may be taken and dropped on any CPU; see `Device`.
unsafe impl Send for DeviceRef {}
// SAFETY: As above.
unsafe impl Sync for DeviceRef {}

impl core::ops::Deref for DeviceRef {
    type Target = Device;

    fn deref(&self) -> &Device {
        // SAFETY: The reference keeps the device allocated while `self` lives (type invariant).
        unsafe { Device::from_raw(self.0.as_ptr()) }
    }
}

impl PartialEq for DeviceRef {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Drop for DeviceRef {
    fn drop(&mut self) {
        // SAFETY: Releases the reference this object holds (type invariant).
        unsafe { bindings::pci_dev_put(self.0.as_ptr()) };
    }
}

/// A device's binding to the driver, kept by the driver after `probe`:
/// it gives the device as [`Device<Bound>`] inside an RCU read-side
/// section, until the PCI core removes the device from the driver. The
/// abstraction ends it after the driver's `remove` returns, and waits for
/// the sections that may still use it; from then on [`Binding::device`]
/// gives `None` (the device stays allocated while the handle exists).
///
/// # Examples
///
/// ```ignore
/// use crate::sys::{pci::Binding, rcu};
///
/// fn write(b: &Binding) -> Result {
///     without_irqs(|irq| {
///         let g = rcu::read_lock(irq);
///         b.device(&g).ok_or(ENODEV)?.write_config_u32(MY_CONTROL, 1)
///     })
/// }
/// ```
#[derive(Clone)]
pub struct Binding(Arc<BindingState>);

/// The shared state of a [`Binding`].
///
/// # Invariants
///
/// While `bound` is true the device is bound to the driver that got the
/// binding in `probe`; it turns false, never back, before that ends, and
/// a grace period passes before the binding ends.
struct BindingState {
    dev: DeviceRef,
    bound: AtomicBool,
}

impl Binding {
    /// The device, bound, for the read-side section `g`; `None` once it was
    /// removed from the driver.
    pub fn device<'a>(&'a self, _g: &'a Guard<'_>) -> Option<&'a Device<Bound>> {
        if !self.0.bound.load(Ordering::Acquire) {
            return None;
        }
        // SAFETY: `dev` keeps the device allocated while `self` lives; `bound` was true, so the
        // device is bound, and its removal waits for this section to end (type invariant of
        // `BindingState`) before the driver's binding ends.
        Some(unsafe { Device::bound_from_raw(self.0.dev.raw()) })
    }

    /// The device, bound or not.
    pub fn as_device(&self) -> &Device {
        &self.0.dev
    }
}

/// Every device with vendor `vendor` and device ID `device`, whoever
/// drives it, as counted references (`pci_get_device`).
pub fn devices(vendor: u16, device: u16) -> Devices {
    Devices {
        vendor,
        device,
        from: core::ptr::null_mut(),
    }
}

/// The iterator of [`devices`].
///
/// # Invariants
///
/// `from` is NULL or the device last returned by `pci_get_device`, whose
/// reference the iterator holds.
pub struct Devices {
    vendor: u16,
    device: u16,
    from: *mut bindings::pci_dev,
}

impl Iterator for Devices {
    type Item = DeviceRef;

    fn next(&mut self) -> Option<DeviceRef> {
        let (vendor, device) = (self.vendor.into(), self.device.into());
        // SAFETY: `from` is NULL or holds a reference (type invariant), which `pci_get_device`
        // releases; it returns the next device with a new reference, which the iterator holds.
        self.from = unsafe { bindings::pci_get_device(vendor, device, self.from) };
        let dev = NonNull::new(self.from)?;
        // SAFETY: `from` is a device the iterator holds a reference to, so it is allocated.
        Some(unsafe { Device::from_raw(dev.as_ptr()) }.get())
    }
}

impl Drop for Devices {
    fn drop(&mut self) {
        if !self.from.is_null() {
            // SAFETY: Releases the reference the iterator holds (type invariant).
            unsafe { bindings::pci_dev_put(self.from) };
        }
    }
}

/// A terminated PCI ID table (`struct pci_device_id[N]`, the last entry
/// zero), for a driver.
#[repr(transparent)]
pub struct IdTable<const N: usize>([bindings::pci_device_id; N]);

impl<const N: usize> IdTable<N> {
    /// A table matching each of `ids` with any subsystem; `ids` must have
    /// `N - 1` entries (checked at compile time where the table is a const).
    pub const fn new(vendor: u16, ids: &[u16]) -> Self {
        assert!(
            ids.len() + 1 == N,
            "an ID table holds its IDs and a terminator"
        );
        // SAFETY: `pci_device_id` is plain integers; all zeros is the terminator entry.
        let mut t: [bindings::pci_device_id; N] = unsafe { core::mem::zeroed() };
        let mut i = 0;
        while i < ids.len() {
            t[i].vendor = vendor as u32;
            t[i].device = ids[i] as u32;
            t[i].subvendor = bindings::PCI_ANY_ID as u32;
            t[i].subdevice = bindings::PCI_ANY_ID as u32;
            i += 1;
        }
        IdTable(t)
    }

    fn as_ptr(&'static self) -> *const bindings::pci_device_id {
        self.0.as_ptr()
    }
}

/// The callbacks of a PCI driver (process context).
pub trait Driver: Send + Sync + 'static {
    /// What the driver keeps for each device it binds.
    type Data: Send + Sync;

    /// A device of the ID table appeared: bind it, or refuse it with an
    /// error. `binding` gives the device as bound after the call, until it
    /// is removed.
    fn probe(&self, dev: &Device<Bound>, binding: Binding) -> Result<Self::Data>;

    /// A bound device goes away (unbind, hot removal, driver unregistration).
    fn remove(&self, dev: &Device<Bound>, data: Self::Data);
}

/// What the abstraction keeps for a bound device: the driver's data and
/// the binding it ends after `remove`.
struct Bond<D> {
    data: D,
    binding: Binding,
}

/// The C callbacks of a [`Registration<T>`].
struct Adapter<T: Driver>(PhantomData<T>);

impl<T: Driver> Adapter<T> {
    /// # Safety
    ///
    /// `pdev` must be a device bound, or being bound, to a [`Registration<T>`].
    unsafe fn ops<'a>(pdev: *mut bindings::pci_dev) -> &'a T {
        // SAFETY: The driver core sets `dev.driver` before `probe` and clears it after
        // `remove`; it is the `driver` of the `pci_driver` of the registration, which outlives
        // its devices' bindings.
        unsafe {
            let drv =
                super::compat::container_of!((*pdev).dev.driver, bindings::pci_driver, driver);
            &(*super::compat::container_of!(drv, Registration<T>, drv)).ops
        }
    }

    /// # Safety
    ///
    /// Called by the PCI core for a device matching the registration's table.
    unsafe extern "C" fn probe_callback(
        pdev: *mut bindings::pci_dev,
        _id: *const bindings::pci_device_id,
    ) -> c_int {
        from_result(|| {
            // SAFETY: The device is being bound to this registration and is allocated for the
            // call; it stays bound until `remove_callback` (or, if `probe` fails, for the call).
            let (t, dev) = unsafe { (Self::ops(pdev), Device::bound_from_raw(pdev)) };
            // INVARIANT: The device is bound from here until `remove_callback` ends the binding
            // (or the failure below does, before the PCI core unbinds it).
            let binding = Binding(Arc::new(
                BindingState {
                    dev: dev.get(),
                    bound: AtomicBool::new(true),
                },
                GFP_KERNEL,
            )?);
            let bond = KBox::<Bond<T::Data>>::new_uninit(GFP_KERNEL)?;
            let data = match t.probe(dev, binding.clone()) {
                Ok(data) => data,
                Err(e) => {
                    end(&binding);
                    return Err(e);
                }
            };
            let bond = bond.write(Bond { data, binding });
            // SAFETY: `dev_set_drvdata`: the driver owns the field while the device is bound;
            // `remove_callback` takes the bond back.
            unsafe { (*pdev).dev.driver_data = KBox::into_raw(bond).cast::<c_void>() };
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by the PCI core for a device bound to the registration.
    unsafe extern "C" fn remove_callback(pdev: *mut bindings::pci_dev) {
        // SAFETY: The device is bound to this registration; its driver data is the bond `probe`
        // stored with `KBox::into_raw`, taken back exactly once here.
        let bond = unsafe {
            let bond = KBox::from_raw((*pdev).dev.driver_data.cast::<Bond<T::Data>>());
            (*pdev).dev.driver_data = core::ptr::null_mut::<c_void>();
            bond
        };
        let Bond { data, binding } = KBox::into_inner(bond);
        // SAFETY: The device is bound until this callback returns.
        unsafe { Self::ops(pdev).remove(Device::bound_from_raw(pdev), data) };
        end(&binding);
    }
}

/// Ends `binding`: no [`Binding::device`] gives the device from here on,
/// and none given before is used after this returns. Process context.
fn end(binding: &Binding) {
    binding.0.bound.store(false, Ordering::Release);
    // SAFETY: No arguments. The PCI core calls `probe` and `remove` in process context, with
    // interrupts on: no read-side section of this module (they need interrupts off) is open.
    unsafe { bindings::synchronize_rcu() };
}

/// A registered PCI driver. Dropping it unregisters the driver, which
/// removes every device it bound first.
///
/// # Invariants
///
/// `drv` is registered, with [`Adapter<T>`]'s callbacks and a `'static` ID
/// table, from the end of initialisation until drop.
#[pin_data(PinnedDrop)]
pub struct Registration<T: Driver> {
    ops: Arc<T>,
    #[pin]
    drv: Opaque<bindings::pci_driver>,
}

// SAFETY: The driver core serialises probe and remove; `T` is `Send + Sync`.
unsafe impl<T: Driver> Send for Registration<T> {}
// SAFETY: The only `&self` method returns `&T`, which is `Sync`.
unsafe impl<T: Driver> Sync for Registration<T> {}

impl<T: Driver> Registration<T> {
    /// Registers a driver named `name` for the devices of `ids`; `probe`
    /// runs for every present device before this returns.
    pub fn new<const N: usize>(
        module: &'static ThisModule,
        name: &'static CStr,
        ids: &'static IdTable<N>,
        ops: Arc<T>,
    ) -> impl PinInit<Self, Error> {
        // SAFETY: On success both fields are initialised and the driver registered at its final,
        // pinned address; on failure nothing stays initialised.
        unsafe {
            super::compat::pin_init_from_closure(move |slot: *mut Self| {
                addr_of_mut!((*slot).ops).write(ops);
                let drv = super::compat::opaque_raw(addr_of!((*slot).drv));
                let mut d = bindings::pci_driver {
                    name: name.as_char_ptr(),
                    id_table: ids.as_ptr(),
                    probe: Some(Adapter::<T>::probe_callback),
                    remove: Some(Adapter::<T>::remove_callback),
                    ..Default::default()
                };
                // The devices present are probed before the registration
                // returns, whatever `<module>.async_probe=` or
                // `driver_async_probe=` say: the caller finds them bound.
                d.driver.probe_type = bindings::probe_type_PROBE_FORCE_SYNCHRONOUS;
                drv.write(d);
                let r = bindings::__pci_register_driver(drv, module.as_ptr(), name.as_char_ptr());
                if r != 0 {
                    core::ptr::drop_in_place(addr_of_mut!((*slot).ops));
                    return Err(Error::from_errno(r));
                }
                Ok(())
            })
        }
    }
}

impl<T: Driver> Registration<T> {
    /// The driver object.
    pub fn ops(&self) -> &T {
        &self.ops
    }
}

#[pinned_drop]
impl<T: Driver> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The driver is registered (type invariant); unregistering removes every bound
        // device (running `remove`) and returns when no callback runs.
        unsafe { bindings::pci_unregister_driver(self.drv.get()) };
    }
}
