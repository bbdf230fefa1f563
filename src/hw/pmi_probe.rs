// SPDX-License-Identifier: GPL-2.0

//! Where a package's overflow PMIs really go: the decisions of the check
//! the driver runs when a package starts, before it aims any PMI.
//!
//! 325294 says only that `pmi_core_sel` bit N sends the PMI "to core N";
//! the driver numbers a package's cores by rank of their core IDs, which
//! no test here can hold against a real part (cores disabled on smaller
//! SKUs, sparse core IDs). So, for each bit of the field in turn, the
//! driver presets a counter a few counts below its top with `pmi_en`
//! ([`ProbeCounter`], the platform's), aims the PMI with that one bit, and
//! waits up to [`WAIT_MS`] for the NMI that sees it: the core it arrives on
//! is the core the bit selects. A bit whose PMI arrives is tried once more
//! and kept only if the second PMI reaches the same core (an NMI of
//! another source on another core could have seen the first). The check
//! ends once every core that can take an NMI is found, or the field's bits
//! are all tried ([`Check`]). Its [`Verdict`]: the numbering the driver
//! assumed, verified; another numbering, learned and used (a core the check
//! did not find gets no PMIs: polling alone keeps its counts); or no
//! PMI at all, and the package runs on polling alone.

use super::program::Msr;

/// How long the check waits for one probe's PMI, in milliseconds: far
/// past the microseconds a counter a few thousand counts below its top
/// takes to overflow and its NMI to arrive.
pub const WAIT_MS: u32 = 100;

/// Cores of a package the check finds, at most (`pmi_core_sel` has ten
/// bits).
pub const MAX_CORES: usize = 16;

/// A counter the driver can make overflow at once, with a PMI: how the
/// platform's global control arms and clears it.
#[derive(Clone, Copy, Debug)]
pub struct ProbeCounter {
    /// The box whose counter it is (the simulation injects its counts).
    pub kind: super::desc::BoxKind,
    /// The box's index.
    pub index: u8,
    /// Writes that preset the counter and enable it with `pmi_en`, before
    /// the global control is written with the one `pmi_core_sel` bit.
    pub arm: &'static [(Msr, u64)],
    /// Writes that stop it and clear its overflow and the PMI, after.
    pub disarm: &'static [(Msr, u64)],
    /// Counts from the preset to the overflow.
    pub counts: u64,
}

/// Which `pmi_core_sel` bit reaches which core (by core ID).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoreMap {
    len: usize,
    cores: [u32; MAX_CORES],
    bits: [u8; MAX_CORES],
}

impl CoreMap {
    /// The bit that reaches core `core`, if one does.
    pub fn bit_of(&self, core: u32) -> Option<u8> {
        self.iter().find(|&(c, _)| c == core).map(|(_, b)| b)
    }

    /// The pairs (core ID, bit), in the order found.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        self.cores
            .iter()
            .zip(self.bits.iter())
            .take(self.len)
            .map(|(&c, &b)| (c, b))
    }

    /// How many cores a bit reaches.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no bit reaches any core.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `core` reached by `bit`, unless either is already in.
    fn insert(&mut self, core: u32, bit: u8) {
        if self.iter().any(|(c, b)| c == core || b == bit) {
            return;
        }
        if let (Some(c), Some(b)) = (self.cores.get_mut(self.len), self.bits.get_mut(self.len)) {
            *c = core;
            *b = bit;
            self.len += 1;
        }
    }
}

/// What the check concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every core found, each by the bit of its rank: the driver's
    /// numbering holds.
    Verified,
    /// Some core reached by another bit than its rank's, or not found: the
    /// map found is what the driver aims with.
    Learned(CoreMap),
    /// No PMI reached any core (or one bit reached two): polling only.
    Polling,
}

/// The check of one package, one probe at a time.
#[derive(Clone, Copy, Debug)]
pub struct Check {
    /// The package's core IDs in rank order (the driver's numbering).
    ranked: [u32; MAX_CORES],
    nranked: usize,
    /// Which of them can take an NMI now (an online CPU), by rank.
    reachable: u16,
    /// The bits of `pmi_core_sel` (bit N of the field: core N).
    field: u64,
    /// The next bit to try.
    next: u32,
    /// A bit whose first probe reached this core, to be tried again.
    again: Option<(u8, u32)>,
    /// A bit reached different cores on its two probes.
    conflict: bool,
    map: CoreMap,
}

impl Check {
    /// The check of a package whose cores are `ranked` (core IDs, in the
    /// driver's rank order; at most [`MAX_CORES`] are looked for), those
    /// whose bit is set in `reachable` having an online CPU, with
    /// `pmi_core_sel` field bits `field`.
    pub fn new(ranked: &[u32], reachable: u16, field: u64) -> Check {
        let mut c = Check {
            ranked: [0; MAX_CORES],
            nranked: 0,
            reachable,
            field,
            next: 0,
            again: None,
            conflict: false,
            map: CoreMap::default(),
        };
        for (slot, &id) in c.ranked.iter_mut().zip(ranked) {
            *slot = id;
            c.nranked += 1;
        }
        c
    }

    /// The rank of core `core`, if it is one of the package's.
    fn rank(&self, core: u32) -> Option<usize> {
        self.ranked
            .iter()
            .take(self.nranked)
            .position(|&c| c == core)
    }

    /// Whether every reachable core is found.
    fn all_found(&self) -> bool {
        (0..self.nranked)
            .filter(|&r| self.reachable & (1 << r) != 0)
            .all(|r| {
                self.ranked
                    .get(r)
                    .is_some_and(|&c| self.map.bit_of(c).is_some())
            })
    }

    /// The `pmi_core_sel` bit the next probe aims at, or `None`: the check
    /// is done.
    pub fn next(&self) -> Option<u8> {
        if let Some((bit, _)) = self.again {
            return Some(bit);
        }
        if self.conflict || self.nranked == 0 || self.all_found() {
            return None;
        }
        (self.next..64)
            .find(|&b| self.field & (1 << b) != 0)
            .and_then(|b| u8::try_from(b).ok())
    }

    /// What the probe of `bit` saw: the core ID of the CPU whose NMI found
    /// the PMI, or `None` when none did within [`WAIT_MS`].
    pub fn record(&mut self, bit: u8, hit: Option<u32>) {
        match self.again.take() {
            Some((b, core)) if b == bit => {
                if hit == Some(core) {
                    self.map.insert(core, bit);
                } else {
                    self.conflict = true;
                }
            }
            _ => {
                // A core outside the package (or past MAX_CORES) cannot be
                // aimed at: as if none.
                if let Some(core) = hit.filter(|&c| self.rank(c).is_some()) {
                    self.again = Some((bit, core));
                    return;
                }
            }
        }
        self.next = u32::from(bit).saturating_add(1);
    }

    /// Runs the check to its verdict: `probe(bit)` aims a probe's PMI with
    /// `bit` alone and says which core's NMI saw it (two probes per bit at
    /// most, so the loop is bounded).
    pub fn run(mut self, mut probe: impl FnMut(u8) -> Option<u32>) -> Verdict {
        for _ in 0..128 {
            let Some(bit) = self.next() else { break };
            let hit = probe(bit);
            self.record(bit, hit);
        }
        self.verdict()
    }

    /// The conclusion, once [`Check::next`] says done.
    pub fn verdict(&self) -> Verdict {
        if self.conflict || self.map.is_empty() {
            return Verdict::Polling;
        }
        let as_ranked = self.all_found()
            && self
                .map
                .iter()
                .all(|(c, b)| self.rank(c) == Some(usize::from(b)));
        if as_ranked {
            Verdict::Verified
        } else {
            Verdict::Learned(self.map)
        }
    }
}

#[cfg(test)]
mod tests;
