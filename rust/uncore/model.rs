// SPDX-License-Identifier: GPL-2.0

//! Allocation of the register model: it is too large for the kernel stack,
//! so it is built in place, zeroed, in a virtually contiguous allocation.

use crate::hw::model::{zero::ZeroValid, Model};
use crate::sys::Zeroable;
use kernel::prelude::*;

// SAFETY: All-zero bytes are a valid `Model`: it is `ZeroValid`, which
// `hw::model::zero` implements for it only with every field's type proven
// `ZeroValid` (checked at compile time just below).
unsafe impl Zeroable for Model {}

const _: fn() = || {
    fn zero_valid<T: ZeroValid>() {}
    zero_valid::<Model>();
};

/// A zeroed model, to be [`Model::reset`] to a platform.
pub(crate) fn alloc_zeroed() -> Result<KVBox<Model>> {
    KVBox::init(crate::sys::init_zeroed(), GFP_KERNEL)
}
