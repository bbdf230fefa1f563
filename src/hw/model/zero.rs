// SPDX-License-Identifier: GPL-2.0

//! Why all-zero bytes are a valid [`Model`]: the kernel allocates the model
//! zeroed, in place (it is too large for a stack), and then resets it.
//!
//! [`ZeroValid`] holds for the integers, `bool`, arrays of such types, the
//! `#[repr(u8)]` enum `Family` (a variant at zero), `PlatformId` (a
//! `#[repr(transparent)]` `u8`), and each struct of the
//! model whose fields all are: [`zero_valid_struct!`] implements it for a
//! struct only through a pattern that names every field (a field added to
//! the struct and not to the list fails the build) and a check that each
//! named field's type is `ZeroValid`.

use super::{Counter, Family, Model, ModelBox, Socket};
use crate::hw::desc::PlatformId;

/// A type of which all-zero bytes are a valid value. Sealed: implemented
/// only here, for the types named above (the core has no `unsafe`; the
/// kernel glue's `Zeroable` for [`Model`] rests on this).
///
/// # Examples
///
/// ```
/// use uncore_core::hw::model::{zero::ZeroValid, Model};
///
/// fn zeroable<T: ZeroValid>() {}
/// zeroable::<Model>();
/// ```
pub trait ZeroValid: sealed::Sealed {}

mod sealed {
    /// Only this file implements [`super::ZeroValid`].
    pub trait Sealed {}
}

macro_rules! zero_valid_plain {
    ($($t:ty),*) => {
        // Zero is a value of every integer type, and `false` is `bool`'s
        // zero byte.
        $(
            impl sealed::Sealed for $t {}
            impl ZeroValid for $t {}
        )*
    };
}
zero_valid_plain!(u8, u16, u32, u64, usize, bool);

// An array is its elements, with no padding between them; each is valid
// zeroed.
impl<T: ZeroValid, const N: usize> sealed::Sealed for [T; N] {}
impl<T: ZeroValid, const N: usize> ZeroValid for [T; N] {}

// `Family` is `repr(u8)`, one byte, with a variant whose discriminant is 0
// (`Family::None`), asserted here.
const _: () = assert!(Family::None as u8 == 0);
const _: () = assert!(core::mem::size_of::<Family>() == 1);
impl sealed::Sealed for Family {}
impl ZeroValid for Family {}
// `PlatformId` is a `repr(transparent)` `u8` (zero: the registry's first
// platform).
const _: () = assert!(core::mem::size_of::<PlatformId>() == 1);
impl sealed::Sealed for PlatformId {}
impl ZeroValid for PlatformId {}

/// Implements [`ZeroValid`] for struct `$t` whose fields are `$f`: the
/// pattern `$t { $f, ... }` (no `..`) names every field, and each must be
/// `ZeroValid`.
macro_rules! zero_valid_struct {
    ($t:ident { $($f:ident),* $(,)? }) => {
        // Every field of `$t` is `ZeroValid` (the function below, whose
        // pattern names every field, checks it); a struct is its fields and
        // padding, whose bytes may hold anything: all-zero bytes are a
        // valid `$t`.
        impl sealed::Sealed for $t {}
        impl ZeroValid for $t {}
        const _: fn(&$t) = |v| {
            fn is<T: ZeroValid>(_: &T) {}
            let $t { $($f),* } = v;
            $(is($f);)*
        };
    };
}

zero_valid_struct!(Counter { ctl, value });
zero_valid_struct!(ModelBox {
    family,
    ty,
    index,
    n,
    width,
    box_ctl,
    status,
    ctrs,
    fixed,
    has_fixed,
    fixed_width,
    aux,
    occ,
});
zero_valid_struct!(Socket {
    boxes,
    n_boxes,
    global_ctl,
    global_status,
    l3_frozen,
    pmi_pending,
    pmis,
    bus,
    node_id,
});
zero_valid_struct!(Model {
    platform,
    n_sockets,
    cbos,
    no_emon,
    sockets,
});
