// SPDX-License-Identifier: GPL-2.0

//! Module parameters, declared in C because 6.12's `module!` has none.

use super::ffi;
use kernel::str::CStr;

/// The `sim=` parameter, or `None` when it was not given.
pub(crate) fn sim() -> Option<&'static CStr> {
    // SAFETY: The C function takes no arguments and returns the parameter's pointer.
    let p = unsafe { ffi::ru_param_sim() };
    if p.is_null() {
        return None;
    }
    // SAFETY: A non-null `charp` module parameter points to a NUL-terminated string that lives, unchanged (the parameter is read-only, 0444), as long as the module.
    Some(unsafe { CStr::from_char_ptr(p) })
}
