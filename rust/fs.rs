// SPDX-License-Identifier: GPL-2.0

//! Path lookups.
//!
//! C header: [`include/linux/namei.h`](srctree/include/linux/namei.h)

use super::bindings;
use kernel::str::CStr;
#[cfg(ru_cstr_ext)]
use kernel::str::CStrExt;

/// Whether `path` (absolute, symbolic links followed) exists.
pub fn exists(path: &CStr) -> bool {
    let mut found = bindings::path::default();
    // SAFETY: `path` is NUL-terminated and `found` is writable; on success `found` holds
    // references that `path_put` releases.
    let r = unsafe { bindings::kern_path(path.as_char_ptr(), bindings::LOOKUP_FOLLOW, &mut found) };
    if r == 0 {
        // SAFETY: `kern_path` succeeded and filled `found`.
        unsafe { bindings::path_put(&found) };
    }
    r == 0
}
