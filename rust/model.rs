// SPDX-License-Identifier: GPL-2.0

//! Allocation of the register model: it is too large for the kernel stack,
//! so it is built in place, zeroed, in a virtually contiguous allocation.

use super::compat::Zeroable;
use crate::hw::model::Model;
use kernel::prelude::*;

// SAFETY: `Model` is plain data: integers, booleans, arrays of them, and
// enums (`PlatformId`, `Family`) whose zero discriminant is a valid
// variant (`SandyBridgeEp`, `None`); all-zero bytes are a valid `Model`.
unsafe impl Zeroable for Model {}

/// A zeroed model, to be [`Model::reset`] to a platform.
pub(crate) fn alloc_zeroed() -> Result<KVBox<Model>> {
    KVBox::init(super::compat::init_zeroed(), GFP_KERNEL)
}
