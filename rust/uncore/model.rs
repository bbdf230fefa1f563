// SPDX-License-Identifier: GPL-2.0

//! Allocation of the register model: it is too large for the kernel stack,
//! so it is built in place, zeroed, in a virtually contiguous allocation.

use crate::hw::model::Model;
use crate::sys::Zeroable;
use kernel::prelude::*;

// SAFETY: `Model` is plain data: integers, booleans, arrays and structs of
// them, and the `#[repr(u8)]` enums `PlatformId` and `Family`, whose zero
// discriminants (`SandyBridgeEp`, `None`) `hw::model` asserts at compile
// time; all-zero bytes are a valid `Model`.
unsafe impl Zeroable for Model {}

/// A zeroed model, to be [`Model::reset`] to a platform.
pub(crate) fn alloc_zeroed() -> Result<KVBox<Model>> {
    KVBox::init(crate::sys::init_zeroed(), GFP_KERNEL)
}
