// SPDX-License-Identifier: GPL-2.0

//! Module parameters, declared in `helpers.c` because 6.12's `module!` has
//! none.

use super::bindings;
use kernel::str::CStr;

/// The `sim=` parameter, or `None` when it was not given.
pub(crate) fn sim() -> Option<&'static CStr> {
    // SAFETY: Returns the parameter's pointer; no arguments.
    let p = unsafe { bindings::ru_param_sim() };
    if p.is_null() {
        return None;
    }
    // SAFETY: A non-NULL `charp` parameter points to a NUL-terminated string that lives, unchanged
    // (the parameter is read-only, 0444), as long as the module.
    Some(unsafe { super::compat::cstr_from_ptr(p) })
}
