// SPDX-License-Identifier: GPL-2.0

//! Stand-ins for the kernel crate items a tree lacks, each with the name
//! and the part of the interface the perf abstraction uses, and only on a
//! tree that lacks the item (`rust/probe.sh`).

/// CPU numbers (`kernel::cpu` where the tree has `CpuId`).
#[cfg(not(ru_kernel_cpu_id))]
pub mod cpu {
    use crate::sys::bindings;

    /// The number of possible CPU numbers (`nr_cpu_ids`).
    pub fn nr_cpu_ids() -> u32 {
        // SAFETY: Reads a variable set at boot.
        unsafe { bindings::ru_nr_cpu_ids() }
    }

    /// A CPU number.
    ///
    /// # Invariants
    ///
    /// Below [`nr_cpu_ids()`], so it fits an `i32` too.
    #[derive(Copy, Clone, PartialEq, Eq, Debug)]
    pub struct CpuId(u32);

    impl CpuId {
        /// `id`, if it is a CPU number.
        pub fn from_i32(id: i32) -> Option<Self> {
            u32::try_from(id).ok().and_then(Self::from_u32)
        }

        /// `id`, if it is a CPU number.
        pub fn from_u32(id: u32) -> Option<Self> {
            // INVARIANT: Checked here; `nr_cpu_ids` is at most `NR_CPUS`, an `int`.
            (id < nr_cpu_ids()).then_some(Self(id))
        }

        /// `id`, unchecked.
        ///
        /// # Safety
        ///
        /// `id` is below [`nr_cpu_ids()`].
        pub unsafe fn from_u32_unchecked(id: u32) -> Self {
            // INVARIANT: By the function's requirement.
            Self(id)
        }

        /// The number.
        pub fn as_u32(&self) -> u32 {
            self.0
        }
    }

    impl From<CpuId> for u32 {
        fn from(id: CpuId) -> Self {
            id.0
        }
    }

    impl From<CpuId> for i32 {
        fn from(id: CpuId) -> Self {
            // The type invariant keeps it below `nr_cpu_ids`, an `int`.
            id.0 as i32
        }
    }
}

/// CPU masks (`kernel::cpumask` where the tree has `Cpumask`).
#[cfg(not(ru_kernel_cpumask))]
pub mod cpumask {
    use crate::sys::bindings;
    use kernel::prelude::*;
    use kernel::types::Opaque;

    /// A `struct cpumask`, borrowed.
    #[repr(transparent)]
    pub struct Cpumask(Opaque<bindings::cpumask>);

    /// A `struct cpumask` of its own, on the heap (`cpumask_var_t`).
    pub struct CpumaskVar(KBox<Cpumask>);

    impl CpumaskVar {
        /// An empty mask.
        pub fn new_zero(flags: kernel::alloc::Flags) -> Result<Self, kernel::alloc::AllocError> {
            let mask = KBox::new(Cpumask(Opaque::uninit()), flags)?;
            // SAFETY: The mask is valid for writes of one `struct cpumask`, plain integers.
            unsafe { core::ptr::write_bytes(mask.as_raw(), 0, 1) };
            Ok(Self(mask))
        }
    }

    impl core::ops::Deref for CpumaskVar {
        type Target = Cpumask;

        fn deref(&self) -> &Cpumask {
            &self.0
        }
    }

    impl core::ops::DerefMut for CpumaskVar {
        fn deref_mut(&mut self) -> &mut Cpumask {
            &mut self.0
        }
    }

    impl Cpumask {
        /// The mask at `ptr`.
        ///
        /// # Safety
        ///
        /// `ptr` points to a `struct cpumask` valid for reads for `'a`.
        pub unsafe fn from_raw<'a>(ptr: *const bindings::cpumask) -> &'a Self {
            // SAFETY: `Cpumask` is a transparent wrapper of the mask, which the caller guarantees
            // valid for `'a`.
            unsafe { &*ptr.cast() }
        }

        /// The mask's address.
        pub fn as_raw(&self) -> *mut bindings::cpumask {
            self.0.get()
        }
    }
}

/// Interrupt state (`kernel::interrupt` where the tree has
/// `LocalInterruptDisabled`).
#[cfg(not(ru_kernel_local_irq))]
pub mod interrupt {
    use core::marker::PhantomData;

    /// Proof that interrupts are off on this CPU, lent to code for as long
    /// as they stay off. Neither `Send` nor `Sync`.
    pub struct LocalInterruptDisabled(PhantomData<*mut ()>);

    impl LocalInterruptDisabled {
        /// The proof, for a context that runs with interrupts off.
        ///
        /// # Safety
        ///
        /// Interrupts are off on this CPU for `'a`.
        pub unsafe fn assume_disabled<'a>() -> &'a LocalInterruptDisabled {
            const OFF: &LocalInterruptDisabled = &LocalInterruptDisabled(PhantomData);
            #[cfg(CONFIG_PROVE_LOCKING)]
            // SAFETY: The assertion only reads the interrupt state lockdep tracks for this CPU.
            unsafe {
                crate::sys::bindings::ru_lockdep_assert_irqs_disabled()
            };
            OFF
        }
    }
}

/// Flag sets over an enum of single flags (`kernel::impl_flags!` where the
/// tree has it): the same input, and the operations the perf abstraction
/// uses (`|`, `|=`, `&`, `!`, `empty`, `contains`, `contains_any`, conversions).
#[cfg(not(ru_kernel_impl_flags))]
macro_rules! ru_impl_flags {
    (
        $(#[$outer_flags:meta])*
        $vis_flags:vis struct $flags:ident($ty:ty);

        $(#[$outer_flag:meta])*
        $vis_flag:vis enum $flag:ident {
            $(
                $(#[$inner_flag:meta])*
                $name:ident = $value:expr
            ),+ $( , )?
        }
    ) => {
        $(#[$outer_flags])*
        #[repr(transparent)]
        $vis_flags struct $flags($ty);

        $(#[$outer_flag])*
        #[repr($ty)]
        $vis_flag enum $flag {
            $(
                $(#[$inner_flag])*
                $name = $value
            ),+
        }

        impl ::core::convert::From<$flag> for $flags {
            fn from(value: $flag) -> Self {
                Self(value as $ty)
            }
        }

        impl ::core::convert::From<$flags> for $ty {
            fn from(value: $flags) -> Self {
                value.0
            }
        }

        impl ::core::ops::BitOr for $flags {
            type Output = Self;
            fn bitor(self, rhs: Self) -> Self {
                Self(self.0 | rhs.0)
            }
        }

        impl ::core::ops::BitOr<$flag> for $flags {
            type Output = Self;
            fn bitor(self, rhs: $flag) -> Self {
                Self(self.0 | rhs as $ty)
            }
        }

        impl ::core::ops::BitOrAssign for $flags {
            fn bitor_assign(&mut self, rhs: Self) {
                self.0 |= rhs.0;
            }
        }

        impl ::core::ops::BitOrAssign<$flag> for $flags {
            fn bitor_assign(&mut self, rhs: $flag) {
                self.0 |= rhs as $ty;
            }
        }

        impl ::core::ops::BitOr for $flag {
            type Output = $flags;
            fn bitor(self, rhs: Self) -> $flags {
                $flags(self as $ty | rhs as $ty)
            }
        }

        impl ::core::ops::BitAnd for $flags {
            type Output = Self;
            fn bitand(self, rhs: Self) -> Self {
                Self(self.0 & rhs.0)
            }
        }

        impl ::core::ops::Not for $flags {
            type Output = Self;
            fn not(self) -> Self {
                Self(!self.0 & Self::all_bits())
            }
        }

        impl $flags {
            /// No flag.
            pub const fn empty() -> Self {
                Self(0)
            }

            /// Every flag's bits.
            pub const fn all_bits() -> $ty {
                0 $( | $value )+
            }

            /// Whether `flag` is set.
            pub fn contains(self, flag: $flag) -> bool {
                self.0 & flag as $ty == flag as $ty
            }

            /// Whether any of `flags` is set.
            pub fn contains_any(self, flags: $flags) -> bool {
                self.0 & flags.0 != 0
            }

            /// Whether all of `flags` are set.
            pub fn contains_all(self, flags: $flags) -> bool {
                self.0 & flags.0 == flags.0
            }
        }
    };
}
#[cfg(not(ru_kernel_impl_flags))]
pub(crate) use ru_impl_flags as impl_flags;

/// `WARN_ON(cond)` (`kernel::warn_on!` where the tree has it): warns, with
/// a backtrace, when `cond` is true, and evaluates to `cond`.
#[cfg(not(ru_kernel_warn_on))]
macro_rules! ru_warn_on {
    ($cond:expr) => {{
        let cond = $cond;
        if cond {
            // SAFETY: Warning is allowed in any context.
            unsafe { $crate::sys::bindings::ru_warn() };
        }
        cond
    }};
}
#[cfg(not(ru_kernel_warn_on))]
pub(crate) use ru_warn_on as warn_on;

/// `as_char_ptr()` on `core::ffi::CStr` (a C string literal), as the kernel
/// crate's `CStrExt` gives it where the kernel's `CStr` is `core`'s.
#[cfg(not(ru_cstr_ext))]
pub trait CStrAsCharPtr {
    /// The string's address, as a C `char *`.
    fn as_char_ptr(&self) -> *const kernel::ffi::c_char;
}

#[cfg(not(ru_cstr_ext))]
impl CStrAsCharPtr for core::ffi::CStr {
    fn as_char_ptr(&self) -> *const kernel::ffi::c_char {
        self.as_ptr().cast()
    }
}

/// `Opaque::try_ffi_init`, where the tree lacks it.
#[cfg(not(ru_opaque_try_ffi_init))]
pub trait OpaqueTryFfiInit<T> {
    /// An initialiser of the value in place by `init_func`, which may fail.
    fn try_ffi_init<E>(
        init_func: impl FnOnce(*mut T) -> Result<(), E>,
    ) -> impl kernel::prelude::PinInit<Self, E>;
}

#[cfg(not(ru_opaque_try_ffi_init))]
impl<T> OpaqueTryFfiInit<T> for kernel::types::Opaque<T> {
    fn try_ffi_init<E>(
        init_func: impl FnOnce(*mut T) -> Result<(), E>,
    ) -> impl kernel::prelude::PinInit<Self, E> {
        crate::sys::opaque_try_ffi_init(init_func)
    }
}

/// `ForeignOwnable` as 7.x has it, for the kernel crate's own older one
/// (`*const` pointers): the same conversions, through it.
///
/// # Safety
///
/// As 7.x's: `into_foreign` returns a non-NULL pointer that only the other
/// methods take.
#[cfg(not(ru_kernel_foreign_mut))]
pub unsafe trait ForeignOwnable: Sized {
    /// A borrow of the value while it is foreign-owned.
    type Borrowed<'a>
    where
        Self: 'a;

    /// The value as a pointer, foreign-owned.
    fn into_foreign(self) -> *mut kernel::ffi::c_void;

    /// The value back from its pointer.
    ///
    /// # Safety
    ///
    /// `ptr` comes from `into_foreign`, and is taken back once.
    unsafe fn from_foreign(ptr: *mut kernel::ffi::c_void) -> Self;

    /// A borrow of the value for `'a`.
    ///
    /// # Safety
    ///
    /// `ptr` comes from `into_foreign`, not taken back before `'a` ends.
    unsafe fn borrow<'a>(ptr: *mut kernel::ffi::c_void) -> Self::Borrowed<'a>;
}

// SAFETY: The kernel crate's own conversions, which give the same guarantees.
#[cfg(not(ru_kernel_foreign_mut))]
unsafe impl<T: kernel::types::ForeignOwnable + 'static> ForeignOwnable for T {
    type Borrowed<'a>
        = <T as kernel::types::ForeignOwnable>::Borrowed<'a>
    where
        Self: 'a;

    fn into_foreign(self) -> *mut kernel::ffi::c_void {
        <T as kernel::types::ForeignOwnable>::into_foreign(self).cast_mut()
    }

    unsafe fn from_foreign(ptr: *mut kernel::ffi::c_void) -> Self {
        // SAFETY: As the caller guarantees.
        unsafe { <T as kernel::types::ForeignOwnable>::from_foreign(ptr) }
    }

    unsafe fn borrow<'a>(ptr: *mut kernel::ffi::c_void) -> Self::Borrowed<'a> {
        // SAFETY: As the caller guarantees.
        unsafe { <T as kernel::types::ForeignOwnable>::borrow(ptr) }
    }
}
