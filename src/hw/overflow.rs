// SPDX-License-Identifier: GPL-2.0

//! The overflow-status walk: from the platform's global status down to the
//! counters that overflowed, and the writes that clear exactly what was
//! found.
//!
//! The walk itself is each platform's ([`GlobalControl::walk`]): the
//! NHM-EX/WSM-EX U-box hierarchy in `platforms/nhmex/control.rs`, Skylake's
//! global status (inexact: it names a box, not a counter) in
//! `platforms/skl.rs`, the Xeon 7100/7400 `GL_event_status` in
//! `platforms/l3.rs`. This file holds what they fill in.
//! IVB-EP: the guide fragment gives the procedure but not the status
//! registers' addresses or bits, so IVB-EP has no walk (it relies on
//! polling; see `poll`).

use super::desc::Platform;
#[cfg(doc)]
use super::global::GlobalControl;
use super::program::Msr;

/// Most boxes one walk can report.
pub const MAX_HITS: usize = 24;
/// Most clearing writes of one walk.
pub const MAX_CLEARS: usize = 28;

/// The overflowed counters of one box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hit {
    /// Index of the box type in the platform.
    pub ty: u8,
    /// Box instance.
    pub index: u8,
    /// Overflowed general counters (bit `j` for counter `j`).
    pub counters: u32,
    /// The fixed counter overflowed.
    pub fixed: bool,
    /// The status names the counters; when false, some counter of the box
    /// (or of every box of the type) overflowed and all must be updated.
    pub exact: bool,
}

/// The result of a walk.
#[derive(Clone, Copy, Debug)]
pub struct Walk {
    hits: [Hit; MAX_HITS],
    n_hits: usize,
    clears: [(Msr, u64); MAX_CLEARS],
    n_clears: usize,
    /// The global status showed a PMI (NHM-EX/WSM-EX `pmi`).
    pub pmi: bool,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            hits: [Hit::default(); MAX_HITS],
            n_hits: 0,
            clears: [(Msr::new(0), 0); MAX_CLEARS],
            n_clears: 0,
            pmi: false,
        }
    }
}

impl Walk {
    /// The boxes with overflowed counters.
    pub fn hits(&self) -> &[Hit] {
        &self.hits[..self.n_hits]
    }

    /// The MSR writes (address, value) that clear what was found, in order.
    pub fn clears(&self) -> &[(Msr, u64)] {
        &self.clears[..self.n_clears]
    }

    /// Whether anything overflowed.
    pub fn is_empty(&self) -> bool {
        self.n_hits == 0
    }

    /// Adds box hit `h` (dropped beyond [`MAX_HITS`]).
    pub(in crate::hw) fn hit(&mut self, h: Hit) {
        if self.n_hits < MAX_HITS {
            self.hits[self.n_hits] = h;
            self.n_hits += 1;
        }
    }

    /// Adds the write of `v` to MSR `msr` to the clears (dropped beyond
    /// [`MAX_CLEARS`]).
    pub(in crate::hw) fn clear(&mut self, msr: u32, v: u64) {
        if self.n_clears < MAX_CLEARS {
            self.clears[self.n_clears] = (Msr::new(msr), v);
            self.n_clears += 1;
        }
    }
}

/// Walks the overflow status of platform `p` with `read` (an MSR read);
/// returns what overflowed and how to clear it
/// ([`GlobalControl::walk`](super::global::GlobalControl::walk)).
pub fn walk(p: &Platform, mut read_msr: impl FnMut(Msr) -> u64) -> Walk {
    let mut read = |a: u32| read_msr(Msr::new(a));
    let mut w = Walk::default();
    p.global.walk(p, &mut read, &mut w);
    w
}

#[cfg(test)]
mod tests;
