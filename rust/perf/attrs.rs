// SPDX-License-Identifier: GPL-2.0

//! The sysfs attribute groups of a PMU, which perf creates under its
//! device: `format/` and `events/` files with fixed text, and `cpumask` for
//! a PMU that has one ([`PmuOps::cpumask`]).
//!
//! C header: [`include/linux/sysfs.h`](srctree/include/linux/sysfs.h)

use super::{Adapter, PmuOps};
use crate::sys::{bindings, compat};
use core::ptr::{addr_of_mut, null, null_mut};
use kernel::ffi::{c_char, c_void};
use kernel::prelude::*;
use kernel::str::CString;

/// One `format/` or `events/` file of a PMU.
pub struct Attr<'a> {
    /// File name.
    pub name: &'a str,
    /// Content.
    pub value: &'a str,
}

/// The attributes of a PMU and the groups that list them.
///
/// # Invariants
///
/// Lives in a `KBox` and is never moved out of it: the groups point to the
/// attribute lists, the lists to the attributes and the attributes to the
/// strings, all owned here, with no vector growing after the pointers were
/// taken. `groups` is the NULL-terminated array perf takes as
/// `pmu->attr_groups`.
pub(super) struct AttrGroups {
    /// The attributes' names and texts, which they point to.
    _names: KVec<CString>,
    _values: KVec<CString>,
    texts: KVec<bindings::dev_ext_attribute>,
    format_list: KVec<*mut bindings::attribute>,
    events_list: KVec<*mut bindings::attribute>,
    cpumask: bindings::device_attribute,
    common_list: [*mut bindings::attribute; 2],
    group: [bindings::attribute_group; 3],
    groups: [*const bindings::attribute_group; 4],
}

impl AttrGroups {
    /// The groups of a PMU of type `T` with these `format/` and `events/` files.
    pub(super) fn new<T: PmuOps>(formats: &[Attr<'_>], events: &[Attr<'_>]) -> Result<KBox<Self>> {
        let n = formats.len() + events.len();
        let mut names = KVec::with_capacity(n, GFP_KERNEL)?;
        let mut values = KVec::with_capacity(n, GFP_KERNEL)?;
        for a in Iterator::chain(formats.iter(), events) {
            names.push(
                CString::try_from_fmt(format_args!("{}", a.name))?,
                GFP_KERNEL,
            )?;
            values.push(
                CString::try_from_fmt(format_args!("{}", a.value))?,
                GFP_KERNEL,
            )?;
        }
        let mut texts = KVec::with_capacity(n, GFP_KERNEL)?;
        for (name, value) in names.iter().zip(values.iter()) {
            let mut t = bindings::dev_ext_attribute::default();
            t.attr.attr.name = name.as_char_ptr();
            t.attr.attr.mode = 0o444;
            compat::set_show(&mut t.attr, show_text);
            t.var = value.as_char_ptr().cast_mut().cast::<c_void>();
            texts.push(t, GFP_KERNEL)?;
        }
        let format_list = KVec::with_capacity(formats.len() + 1, GFP_KERNEL)?;
        let events_list = KVec::with_capacity(events.len() + 1, GFP_KERNEL)?;
        let mut cpumask = bindings::device_attribute::default();
        cpumask.attr.name = kernel::c_str!("cpumask").as_char_ptr();
        cpumask.attr.mode = 0o444;
        if T::HAS_CPUMASK {
            compat::set_show(&mut cpumask, show_cpumask::<T>);
        }
        let mut this = KBox::new(
            AttrGroups {
                _names: names,
                _values: values,
                texts,
                format_list,
                events_list,
                cpumask,
                common_list: [null_mut(); 2],
                group: Default::default(),
                groups: [null(); 4],
            },
            GFP_KERNEL,
        )?;
        let s = &mut *this;
        for (k, t) in s.texts.iter_mut().enumerate() {
            let a = addr_of_mut!(t.attr.attr);
            // SAFETY: `a` is a valid attribute; the helper only sets its lockdep key.
            unsafe { bindings::ru_sysfs_attr_init(a) };
            let list = if k < formats.len() {
                &mut s.format_list
            } else {
                &mut s.events_list
            };
            // The lists were allocated with room for every attribute and the terminator.
            list.push(a, GFP_KERNEL)?;
        }
        s.format_list.push(null_mut(), GFP_KERNEL)?;
        s.events_list.push(null_mut(), GFP_KERNEL)?;
        // SAFETY: As above.
        unsafe { bindings::ru_sysfs_attr_init(addr_of_mut!(s.cpumask.attr)) };
        if T::HAS_CPUMASK {
            s.common_list[0] = addr_of_mut!(s.cpumask.attr);
        }
        compat::set_attrs(&mut s.group[0], s.common_list.as_mut_ptr());
        s.group[1].name = kernel::c_str!("format").as_char_ptr();
        compat::set_attrs(&mut s.group[1], s.format_list.as_mut_ptr());
        s.group[2].name = kernel::c_str!("events").as_char_ptr();
        compat::set_attrs(&mut s.group[2], s.events_list.as_mut_ptr());
        for (g, p) in s.group.iter().zip(s.groups.iter_mut()) {
            *p = g;
        }
        Ok(this)
    }

    /// The NULL-terminated group array for `pmu->attr_groups`.
    pub(super) fn groups_ptr(&self) -> *mut *const bindings::attribute_group {
        self.groups.as_ptr().cast_mut()
    }
}

/// Shows a fixed text attribute: its `var` is the NUL-terminated text.
///
/// # Safety
///
/// Called by sysfs for an attribute of an [`AttrGroups`], with a page buffer.
unsafe extern "C" fn show_text(
    _dev: *mut bindings::device,
    attr: *mut bindings::device_attribute,
    buf: *mut c_char,
) -> isize {
    // SAFETY: Every attribute with this `show` is the `attr` of a `dev_ext_attribute` whose `var`
    // is a NUL-terminated string, owned by the registration, which outlives its sysfs files.
    let text = unsafe { (*compat::container_of!(attr, bindings::dev_ext_attribute, attr)).var };
    // SAFETY: `buf` is the page sysfs passed; the format takes one string argument.
    unsafe { bindings::sysfs_emit(buf, kernel::c_str!("%s").as_char_ptr(), text) as isize }
}

/// Shows the `cpumask` attribute of a PMU of type `T`.
///
/// # Safety
///
/// Called by sysfs for the `cpumask` attribute of a registered PMU of type
/// `T`, with that PMU's device and a page buffer.
unsafe extern "C" fn show_cpumask<T: PmuOps>(
    dev: *mut bindings::device,
    _attr: *mut bindings::device_attribute,
    buf: *mut c_char,
) -> isize {
    // SAFETY: perf sets the driver data of a PMU's device to its `struct pmu` (`pmu_dev_alloc`),
    // which belongs to a `Registration<T>` while its sysfs files exist.
    let ops = unsafe { Adapter::<T>::ops((*dev).driver_data.cast()) };
    // SAFETY: `buf` is a page, as `CpuMask::print` requires.
    unsafe { ops.cpumask().print(buf) }
}
