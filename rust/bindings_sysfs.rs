// SPDX-License-Identifier: GPL-2.0

// The sysfs attribute types of a tree whose `struct device_attribute` and
// `struct attribute_group` have their callbacks and arrays as plain fields
// (6.12; include/linux/device.h, include/linux/sysfs.h), declared with the
// layout of those C structs and the field names bindgen gives them on a
// tree where the fields sit in anonymous unions (`__SYSFS_FUNCTION_ALTERNATIVE`):
// a field `x` of such a union is `__bindgen_anon_N.x`. Kbuild blocklists
// the generated ones there. Fields nothing sets are untyped pointers of the
// same size.

/// `struct device_attribute`'s `show`, alone where the union would be.
#[cfg(not(ru_device_attribute_alternative))]
#[repr(C)]
#[derive(Copy, Clone, Default)]
pub struct device_attribute_show {
    pub show: Option<
        unsafe extern "C" fn(*mut device, *mut device_attribute, *mut ffi::c_char) -> isize,
    >,
}

/// `struct device_attribute`'s `store`, alone where the union would be.
#[cfg(not(ru_device_attribute_alternative))]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct device_attribute_store {
    pub store: *const ffi::c_void,
}

#[cfg(not(ru_device_attribute_alternative))]
#[repr(C)]
pub struct device_attribute {
    pub attr: attribute,
    pub __bindgen_anon_1: device_attribute_show,
    pub __bindgen_anon_2: device_attribute_store,
}

#[cfg(not(ru_device_attribute_alternative))]
#[repr(C)]
pub struct dev_ext_attribute {
    pub attr: device_attribute,
    pub var: *mut ffi::c_void,
}

/// `struct attribute_group`'s `attrs`, alone where the union would be.
#[cfg(not(ru_attribute_group_alternative))]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct attribute_group_attrs {
    pub attrs: *mut *mut attribute,
}

#[cfg(not(ru_attribute_group_alternative))]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct attribute_group {
    pub name: *const ffi::c_char,
    pub is_visible: *const ffi::c_void,
    pub is_bin_visible: *const ffi::c_void,
    pub __bindgen_anon_2: attribute_group_attrs,
    pub bin_attrs: *mut *mut ffi::c_void,
}

// All-zero values, as bindgen's `Default` of these C structs.
#[cfg(any(
    not(ru_device_attribute_alternative),
    not(ru_attribute_group_alternative)
))]
macro_rules! zeroed_default {
    ($($t:ident),*) => {$(
        impl Default for $t {
            fn default() -> Self {
                // SAFETY: Every field is an integer, a pointer or an optional function pointer,
                // for which all-zero bytes are a valid value (0, NULL, `None`).
                unsafe { core::mem::zeroed() }
            }
        }
    )*};
}
#[cfg(not(ru_device_attribute_alternative))]
zeroed_default!(device_attribute_store, device_attribute, dev_ext_attribute);
#[cfg(not(ru_attribute_group_alternative))]
zeroed_default!(attribute_group_attrs, attribute_group);

// The layouts above, in the sums rust/helpers.c asserts of the tree's C
// structs: a mismatch fails one build or the other.
#[cfg(not(ru_device_attribute_alternative))]
const _: () = {
    use core::mem::{offset_of, size_of};
    let p = size_of::<*const ffi::c_void>();
    let a = size_of::<attribute>();
    assert!(offset_of!(device_attribute, __bindgen_anon_1) == a);
    assert!(offset_of!(device_attribute, __bindgen_anon_2) == a + p);
    assert!(size_of::<device_attribute>() == a + 2 * p);
    assert!(offset_of!(dev_ext_attribute, var) == size_of::<device_attribute>());
    assert!(size_of::<dev_ext_attribute>() == size_of::<device_attribute>() + p);
};
#[cfg(not(ru_attribute_group_alternative))]
const _: () = {
    use core::mem::{offset_of, size_of};
    let p = size_of::<*const ffi::c_void>();
    assert!(offset_of!(attribute_group, __bindgen_anon_2) == 3 * p);
    assert!(offset_of!(attribute_group, bin_attrs) == 4 * p);
    assert!(size_of::<attribute_group>() == 5 * p);
};
