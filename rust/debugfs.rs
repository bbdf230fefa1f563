// SPDX-License-Identifier: GPL-2.0

//! debugfs files with text read and write handlers (mode 0600).
//!
//! C header: [`include/linux/debugfs.h`](srctree/include/linux/debugfs.h)

use super::ffi;
use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;
use kernel::error::{from_result, to_result, Result};
use kernel::ffi::{c_char, c_void};
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;

/// A text sink over the buffer a read fills.
pub(crate) struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl fmt::Write for Writer<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The handlers of the files of one directory; `file` is the index given
/// to [`Debugfs::add`].
pub(crate) trait DebugfsOps: Send + Sync + 'static {
    /// Fills a read of `file`.
    fn read(&self, file: u32, out: &mut Writer<'_>) -> Result;
    /// Handles a write of `input` to `file`.
    fn write(&self, file: u32, input: &str) -> Result;
}

struct Adapter<T: DebugfsOps, const FILE: u32>(PhantomData<T>);

impl<T: DebugfsOps, const FILE: u32> Adapter<T, FILE> {
    const OPS: ffi::RuDebugfsOps = ffi::RuDebugfsOps { read: Some(Self::read_cb), write: Some(Self::write_cb) };

    /// # Safety
    ///
    /// `data` must be the directory's `T`; `buf` must be writable for `size` bytes.
    unsafe extern "C" fn read_cb(data: *mut c_void, buf: *mut c_char, size: usize) -> isize {
        // SAFETY: By the function's requirements.
        let (t, buf) = unsafe { (&*(data as *const T), core::slice::from_raw_parts_mut(buf, size)) };
        let mut w = Writer { buf, len: 0 };
        from_result(|| {
            t.read(FILE, &mut w)?;
            Ok(w.len as isize)
        })
    }

    /// # Safety
    ///
    /// `data` must be the directory's `T`; `buf` must be readable for `len` bytes.
    unsafe extern "C" fn write_cb(data: *mut c_void, buf: *const c_char, len: usize) -> isize {
        // SAFETY: By the function's requirements.
        let (t, bytes) = unsafe { (&*(data as *const T), core::slice::from_raw_parts(buf, len)) };
        from_result(|| {
            let s = core::str::from_utf8(bytes).map_err(|_| EINVAL)?;
            t.write(FILE, s)?;
            Ok(len as isize)
        })
    }
}

/// A debugfs directory whose files share one handler object.
///
/// # Invariants
///
/// `raw` is a directory from `ru_debugfs_create`; every file's data is
/// `data`, from `Arc::into_raw`, owned by this object.
pub(crate) struct Debugfs<T: DebugfsOps> {
    raw: NonNull<ffi::RuDebugfs>,
    data: *const T,
    tables: KVec<KBox<ffi::RuDebugfsOps>>,
}

// SAFETY: Files are only added through `&mut self` and removed in `Drop`;
// `T` is `Send + Sync`.
unsafe impl<T: DebugfsOps> Send for Debugfs<T> {}
// SAFETY: No `&self` method touches the directory.
unsafe impl<T: DebugfsOps> Sync for Debugfs<T> {}

impl<T: DebugfsOps> Debugfs<T> {
    /// Creates the directory `name` at the debugfs root.
    pub(crate) fn new(name: &'static CStr, ops: Arc<T>) -> Result<Self> {
        // SAFETY: `name` is NUL-terminated.
        let raw = NonNull::new(unsafe { ffi::ru_debugfs_create(name.as_char_ptr()) }).ok_or(ENOMEM)?;
        Ok(Debugfs { raw, data: Arc::into_raw(ops), tables: KVec::new() })
    }

    /// Adds file `name`, handled as file number `FILE`.
    pub(crate) fn add<const FILE: u32>(&mut self, name: &'static CStr) -> Result {
        let table = KBox::new(Adapter::<T, FILE>::OPS, GFP_KERNEL)?;
        // SAFETY: `raw` is valid; `table` and `data` live until `Drop`, which removes the files first.
        to_result(unsafe { ffi::ru_debugfs_add(self.raw.as_ptr(), name.as_char_ptr(), &*table, self.data as *mut c_void) })?;
        self.tables.push(table, GFP_KERNEL)?;
        Ok(())
    }
}

impl<T: DebugfsOps> Drop for Debugfs<T> {
    fn drop(&mut self) {
        // SAFETY: Removing the directory waits for running handlers; after it nothing uses `data` or the tables.
        unsafe { ffi::ru_debugfs_remove(self.raw.as_ptr()) };
        // SAFETY: `data` came from `Arc::into_raw` in `new`.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}
