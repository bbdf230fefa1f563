// SPDX-License-Identifier: GPL-2.0

//! The sysfs attributes of a PMU: `format/` and `events/` files with fixed text, shown by the
//! driver core's `device_show_string()`, and `cpumask` for a PMU that has one ([`Pmu::cpumask`]).
//!
//! C header: [`include/linux/sysfs.h`](srctree/include/linux/sysfs.h)

use super::pmu::{Adapter, Pmu};
use crate::{
    bindings,
    cpumask::CpumaskVar,
    prelude::*,
    str::CString, //
};
use core::ptr::{null, null_mut};

/// One `format/` or `events/` file of a PMU: its name and its text.
///
/// # Examples
///
/// ```
/// use kernel::perf::Attr;
///
/// let formats = [
///     Attr { name: c"event", value: c"config:0-7" },
///     Attr { name: c"umask", value: c"config:8-15" },
/// ];
/// let events = [Attr { name: c"cycles", value: c"event=0xff,umask=0x00" }];
/// assert_eq!(formats.len() + events.len(), 3);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Attr<'a> {
    /// The file's name.
    pub name: &'a CStr,
    /// The file's text.
    pub value: &'a CStr,
}

/// The attributes of a PMU and the groups that list them.
///
/// # Invariants
///
/// Lives in a `KBox` and is never moved out of it: `groups` points to `group`, the groups to
/// the attribute lists, the lists to the attributes and the attributes to the strings, all
/// owned here, and no vector grows after a pointer into it was taken. `groups` is the
/// NULL-terminated array perf takes as `pmu->attr_groups`.
pub(super) struct AttrGroups {
    _strings: KVec<CString>,
    files: KVec<bindings::dev_ext_attribute>,
    format_list: KVec<*mut bindings::attribute>,
    events_list: KVec<*mut bindings::attribute>,
    cpumask: bindings::device_attribute,
    common_list: [*mut bindings::attribute; 2],
    group: [bindings::attribute_group; 3],
    groups: [*const bindings::attribute_group; 4],
}

impl AttrGroups {
    /// Returns the groups of a `T` PMU with these `format/` and `events/` files.
    pub(super) fn new<T: Pmu>(formats: &[Attr<'_>], events: &[Attr<'_>]) -> Result<KBox<Self>> {
        let n = formats.len() + events.len();
        let mut strings = KVec::with_capacity(2 * n, GFP_KERNEL)?;
        for a in Iterator::chain(formats.iter(), events) {
            strings.push(CString::try_from(a.name)?, GFP_KERNEL)?;
            strings.push(CString::try_from(a.value)?, GFP_KERNEL)?;
        }
        let mut files = KVec::with_capacity(n, GFP_KERNEL)?;
        for pair in strings.chunks(2) {
            let mut f = bindings::dev_ext_attribute::default();
            f.attr.attr.name = pair[0].as_char_ptr();
            f.attr.attr.mode = 0o444;
            // The driver core's helper prints `var`, a string, and a newline.
            f.attr.__bindgen_anon_1.show = Some(bindings::device_show_string);
            f.var = pair[1].as_char_ptr().cast_mut().cast();
            files.push(f, GFP_KERNEL)?;
        }
        let mut cpumask = bindings::device_attribute::default();
        cpumask.attr.name = c"cpumask".as_char_ptr();
        cpumask.attr.mode = 0o444;
        if T::HAS_CPUMASK {
            cpumask.__bindgen_anon_1.show = Some(show_cpumask::<T>);
        }
        let mut this = KBox::new(
            AttrGroups {
                _strings: strings,
                files,
                format_list: KVec::with_capacity(formats.len() + 1, GFP_KERNEL)?,
                events_list: KVec::with_capacity(events.len() + 1, GFP_KERNEL)?,
                cpumask,
                common_list: [null_mut(); 2],
                group: Default::default(),
                groups: [null(); 4],
            },
            GFP_KERNEL,
        )?;
        let s = &mut *this;
        for (k, f) in s.files.iter_mut().enumerate() {
            let a = &raw mut f.attr.attr;
            // SAFETY: `a` is a valid attribute; the helper only sets its lockdep key.
            unsafe { bindings::sysfs_attr_init(a) };
            let list = if k < formats.len() {
                &mut s.format_list
            } else {
                &mut s.events_list
            };
            // The lists have room for every attribute and the terminator: no reallocation.
            list.push(a, GFP_KERNEL)?;
        }
        s.format_list.push(null_mut(), GFP_KERNEL)?;
        s.events_list.push(null_mut(), GFP_KERNEL)?;
        // SAFETY: As above.
        unsafe { bindings::sysfs_attr_init(&raw mut s.cpumask.attr) };
        if T::HAS_CPUMASK {
            s.common_list[0] = &raw mut s.cpumask.attr;
        }
        s.group[0].__bindgen_anon_2.attrs = s.common_list.as_mut_ptr();
        s.group[1].name = c"format".as_char_ptr();
        s.group[1].__bindgen_anon_2.attrs = s.format_list.as_mut_ptr();
        s.group[2].name = c"events".as_char_ptr();
        s.group[2].__bindgen_anon_2.attrs = s.events_list.as_mut_ptr();
        for (g, p) in s.group.iter().zip(s.groups.iter_mut()) {
            *p = g;
        }
        Ok(this)
    }

    /// Returns the NULL-terminated group array for `pmu->attr_groups`.
    pub(super) fn groups_ptr(&self) -> *mut *const bindings::attribute_group {
        self.groups.as_ptr().cast_mut()
    }
}

/// Shows the `cpumask` attribute of a `T` PMU.
///
/// # Safety
///
/// Called by sysfs for the `cpumask` attribute of a registered `T` PMU, with that PMU's device
/// and a page buffer.
unsafe extern "C" fn show_cpumask<T: Pmu>(
    dev: *mut bindings::device,
    _attr: *mut bindings::device_attribute,
    buf: *mut c_char,
) -> isize {
    // SAFETY: sysfs passes the PMU's live device.
    let pmu = unsafe { (*dev).driver_data };
    // SAFETY: perf sets the driver data of a PMU's device to its `struct pmu`
    // (`pmu_dev_alloc()`), which belongs to a `Registration<T>` while its files exist.
    let ops = unsafe { Adapter::<T>::ops(pmu.cast()) };
    let mut mask = match CpumaskVar::new_zero(GFP_KERNEL) {
        Ok(mask) => mask,
        Err(_) => return ENOMEM.to_errno() as isize,
    };
    ops.cpumask(&mut mask);
    let bits = mask.as_raw();
    // SAFETY: `buf` is the page sysfs passed; `%*pbl` takes a bitmap's width and bits
    // (`cpumask_pr_args()`), and the mask lives until the end of the call.
    unsafe {
        bindings::sysfs_emit(
            buf,
            c"%*pbl\n".as_char_ptr(),
            crate::cpu::nr_cpu_ids(),
            (*bits).bits.as_ptr(),
        ) as isize
    }
}
