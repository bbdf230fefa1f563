// SPDX-License-Identifier: GPL-2.0

//! A debugfs directory of text files (mode 0600) whose reads and writes go
//! to one handler object.
//!
//! C header: [`include/linux/debugfs.h`](srctree/include/linux/debugfs.h)

use super::bindings;
use core::ffi::c_void;
use core::fmt;
use core::ptr::{addr_of, addr_of_mut};
use kernel::error::{from_err_ptr, from_result};
use kernel::ffi::c_char;
use kernel::page::PAGE_SIZE;
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;
use kernel::types::Opaque;
use kernel::ThisModule;

/// Most files a directory holds.
const MAX_FILES: usize = 16;

/// Largest text a read returns.
const READ_MAX: usize = 16 * PAGE_SIZE;

/// A text sink over the buffer a read fills.
pub struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl fmt::Write for Writer<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The handler of a directory's files; `file` is the number the file was
/// created with.
pub trait DebugfsOps: Send + Sync + 'static {
    /// Fills a read of `file`.
    fn read(&self, file: u32, out: &mut Writer<'_>) -> Result;
    /// Handles a write of `input` (one page at most) to `file`.
    fn write(&self, file: u32, input: &str) -> Result;
}

/// What a file's `private_data` points to.
struct FileEntry<T: DebugfsOps> {
    dir: *const Dir<T>,
    number: u32,
}

/// A debugfs directory and its files. Dropping it removes them, waiting
/// for running reads and writes.
///
/// # Invariants
///
/// `dentry` is the directory, created with files whose data are entries of
/// `files` and whose operations are `fops`, from the end of initialisation
/// until drop.
#[pin_data(PinnedDrop)]
pub struct Dir<T: DebugfsOps> {
    ops: Arc<T>,
    dentry: *mut bindings::dentry,
    files: [FileEntry<T>; MAX_FILES],
    #[pin]
    fops: Opaque<bindings::file_operations>,
}

// SAFETY: The directory is only removed in drop; `T` is `Send + Sync`.
unsafe impl<T: DebugfsOps> Send for Dir<T> {}
// SAFETY: There is no `&self` method.
unsafe impl<T: DebugfsOps> Sync for Dir<T> {}

impl<T: DebugfsOps> Dir<T> {
    /// Creates directory `name` at the debugfs root with the files `files`
    /// (name and number), handled by `ops`.
    pub fn new(
        module: &'static ThisModule,
        name: &'static CStr,
        files: &'static [(&'static CStr, u32)],
        ops: Arc<T>,
    ) -> impl PinInit<Self, Error> {
        // SAFETY: On success every field is initialised and the files point to the entries and
        // operations at their final, pinned addresses; the handler is written before the first
        // file is created, so no call into a file finds it uninitialised. On failure the
        // directory is removed (which waits for calls into its files) and the handler dropped:
        // nothing stays initialised.
        unsafe {
            super::compat::pin_init_from_closure(move |slot: *mut Self| {
                if files.len() > MAX_FILES {
                    return Err(EINVAL);
                }
                let fops = super::compat::opaque_raw(addr_of!((*slot).fops));
                fops.write(bindings::file_operations {
                    owner: module.as_ptr(),
                    open: Some(bindings::simple_open),
                    read: Some(Self::read_callback),
                    write: Some(Self::write_callback),
                    llseek: Some(bindings::default_llseek),
                    ..Default::default()
                });
                // The handler first: a file is readable as soon as it is created.
                addr_of_mut!((*slot).ops).write(ops);
                let entries = addr_of_mut!((*slot).files).cast::<FileEntry<T>>();
                for k in 0..MAX_FILES {
                    entries.add(k).write(FileEntry {
                        dir: slot,
                        number: 0,
                    });
                }
                let dentry = match from_err_ptr(bindings::debugfs_create_dir(
                    name.as_char_ptr(),
                    core::ptr::null_mut(),
                )) {
                    Ok(d) => d,
                    Err(e) => {
                        core::ptr::drop_in_place(addr_of_mut!((*slot).ops));
                        return Err(e);
                    }
                };
                for (k, (file, number)) in files.iter().enumerate() {
                    (*entries.add(k)).number = *number;
                    let created = bindings::ru_debugfs_create_file(
                        file.as_char_ptr(),
                        0o600,
                        dentry,
                        entries.add(k).cast::<c_void>(),
                        fops,
                    );
                    if let Err(e) = from_err_ptr(created) {
                        // Removing the directory waits for the calls into its files.
                        bindings::debugfs_remove(dentry);
                        core::ptr::drop_in_place(addr_of_mut!((*slot).ops));
                        return Err(e);
                    }
                }
                // INVARIANT: the directory and its files exist, each file's data is its entry,
                // and the entries, operations and handler are initialised at their pinned place.
                addr_of_mut!((*slot).dentry).write(dentry);
                Ok(())
            })
        }
    }

    /// # Safety
    ///
    /// `file` must be an open file of a `Dir<T>`, whose `private_data` is
    /// its [`FileEntry`] (set by `simple_open`).
    unsafe fn entry<'a>(file: *mut bindings::file) -> (&'a T, u32) {
        // SAFETY: By the function's requirement; the directory outlives its open files' calls.
        unsafe {
            let e = &*(*file).private_data.cast::<FileEntry<T>>();
            (&(*e.dir).ops, e.number)
        }
    }

    /// # Safety
    ///
    /// Called by the VFS for an open file of a `Dir<T>`, with a user buffer
    /// of `count` bytes and the file position.
    unsafe extern "C" fn read_callback(
        file: *mut bindings::file,
        ubuf: *mut c_char,
        count: usize,
        ppos: *mut bindings::loff_t,
    ) -> isize {
        from_result(|| {
            // SAFETY: The VFS passes a file of this directory.
            let (ops, number) = unsafe { Self::entry(file) };
            let mut buf = KVVec::from_elem(0u8, READ_MAX, GFP_KERNEL)?;
            let mut w = Writer {
                buf: &mut buf,
                len: 0,
            };
            ops.read(number, &mut w)?;
            let len = w.len;
            // SAFETY: `ubuf` is the user buffer of `count` bytes the VFS passed, `ppos` its
            // position; `buf` holds `len` initialised bytes.
            Ok(unsafe {
                bindings::simple_read_from_buffer(
                    ubuf.cast(),
                    count,
                    ppos,
                    buf.as_ptr().cast(),
                    len,
                )
            })
        })
    }

    /// # Safety
    ///
    /// Called by the VFS for an open file of a `Dir<T>`, with a user buffer
    /// of `count` bytes.
    unsafe extern "C" fn write_callback(
        file: *mut bindings::file,
        ubuf: *const c_char,
        count: usize,
        _ppos: *mut bindings::loff_t,
    ) -> isize {
        from_result(|| {
            // SAFETY: The VFS passes a file of this directory.
            let (ops, number) = unsafe { Self::entry(file) };
            if count >= PAGE_SIZE {
                return Err(E2BIG);
            }
            let mut text = KVec::new();
            super::compat::user_slice(ubuf, count).read_all(&mut text, GFP_KERNEL)?;
            let input = core::str::from_utf8(&text).map_err(|_| EINVAL)?;
            ops.write(number, input)?;
            Ok(count as isize)
        })
    }
}

#[pinned_drop]
impl<T: DebugfsOps> PinnedDrop for Dir<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The directory exists (type invariant); removing it waits for the files'
        // running operations, after which nothing refers to the entries or the operations.
        unsafe { bindings::debugfs_remove(self.dentry) };
    }
}
