// SPDX-License-Identifier: GPL-2.0

//! Lock-free counting state of one event slot of a box, readable from any
//! CPU of the package and from NMI context.
//!
//! A slot's configuration (which counter, which event) changes only on the
//! package's collecting CPU, with interrupts off. Its *progress* — the
//! counter value last accounted — is observed by several paths that race:
//! `read` on any CPU of the package (perf may call it from NMI context), the
//! poll timer and the PMI work on the collector. Each observation reads the
//! counter and moves the last-accounted value forward with one
//! compare-and-exchange; the difference is the observer's to account. So
//! every increment of the counter is accounted exactly once, by exactly one
//! observer, whatever the interleaving: a loser of the exchange reads the
//! counter again.
//!
//! The exchanged word holds the last value (48 bits: no counter of the
//! supported platforms is wider), an *armed* bit and a 15-bit generation that
//! each re-arm increments. An observer checks the slot's owner and reads
//! which counter to read only after loading the word; if the slot was
//! reconfigured meanwhile, the generation differs and its exchange fails.
//! Nothing here takes a lock, allocates or panics.

use super::bits::low_mask;
use super::counter::delta;
use core::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};

/// Widest counter a slot can account (bits).
pub const MAX_WIDTH: u32 = 48;
/// The slot is counting.
const ARMED: u64 = 1 << 63;
/// Generation field of the word.
const GEN_SHIFT: u32 = MAX_WIDTH;
const GEN_MASK: u64 = 0x7fff << GEN_SHIFT;
const VALUE_MASK: u64 = (1 << MAX_WIDTH) - 1;
/// Attempts of one observation before it gives up (the next observation
/// then accounts what this one did not: nothing is lost).
pub const TRIES: usize = 8;

/// No event owns the slot.
pub const NO_OWNER: usize = 0;

/// The last-accounted value of a counter, with the armed bit and the
/// generation.
#[derive(Debug)]
pub struct Prev(AtomicU64);

impl Default for Prev {
    fn default() -> Self {
        Self::new()
    }
}

impl Prev {
    /// A disarmed state.
    pub const fn new() -> Self {
        Prev(AtomicU64::new(0))
    }

    /// Whether the slot is counting.
    pub fn is_armed(&self) -> bool {
        self.0.load(Ordering::Acquire) & ARMED != 0
    }

    /// Starts accounting from counter value `value`, in a new generation.
    /// Writer side: callers serialise `arm` and `disarm` of one slot.
    pub fn arm(&self, value: u64) {
        let old = self.0.load(Ordering::Relaxed);
        let gen = (old & GEN_MASK).wrapping_add(1 << GEN_SHIFT) & GEN_MASK;
        self.0
            .store(ARMED | gen | (value & VALUE_MASK), Ordering::Release);
    }

    /// Accounts the counter's progress since the last observation: `read`
    /// reads the counter (it runs after the state was loaded). Returns the
    /// increase, or `None` when the slot is not armed, the read failed, or
    /// other observers kept winning (they accounted the progress).
    pub fn update(&self, width: u32, mut read: impl FnMut() -> Option<u64>) -> Option<u64> {
        let width = width.min(MAX_WIDTH);
        for _ in 0..TRIES {
            let w = self.0.load(Ordering::Acquire);
            if w & ARMED == 0 {
                return None;
            }
            let now = read()? & low_mask(width);
            let new = (w & !VALUE_MASK) | now;
            if self
                .0
                .compare_exchange(w, new, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return Some(delta(w & VALUE_MASK, now, width));
            }
        }
        None
    }

    /// Takes the last progress and stops accounting. Writer side. Returns
    /// the increase since the last observation (0 if the read fails: the
    /// counter is gone).
    pub fn disarm(&self, width: u32, mut read: impl FnMut() -> Option<u64>) -> u64 {
        let width = width.min(MAX_WIDTH);
        loop {
            let w = self.0.load(Ordering::Acquire);
            if w & ARMED == 0 {
                return 0;
            }
            let d = read().map_or(0, |now| delta(w & VALUE_MASK, now, width));
            // Disarmed, keeping the generation for the next `arm`.
            if self
                .0
                .compare_exchange(w, w & GEN_MASK, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return d;
            }
        }
    }
}

/// One slot of a box: its owner, its counter and its progress.
#[derive(Debug, Default)]
pub struct Slot {
    /// The owning event's identity ([`NO_OWNER`]: free).
    owner: AtomicUsize,
    /// The counter, encoded by the engine (meaningful while armed).
    ctr: AtomicU8,
    /// The progress.
    pub prev: Prev,
}

impl Slot {
    /// A free slot.
    pub const fn new() -> Self {
        Slot {
            owner: AtomicUsize::new(NO_OWNER),
            ctr: AtomicU8::new(0),
            prev: Prev::new(),
        }
    }

    /// The owner.
    #[inline]
    pub fn owner(&self) -> usize {
        self.owner.load(Ordering::Acquire)
    }

    /// Gives the slot to `owner` (writer side, before the first `start`).
    pub fn claim(&self, owner: usize) {
        self.owner.store(owner, Ordering::Release);
    }

    /// Frees the slot (writer side, after `stop`).
    pub fn release(&self) {
        self.owner.store(NO_OWNER, Ordering::Release);
    }

    /// The counter code.
    #[inline]
    pub fn ctr(&self) -> u8 {
        self.ctr.load(Ordering::Acquire)
    }

    /// Starts counting on counter `ctr`, from its value `value` (writer side).
    pub fn start(&self, ctr: u8, value: u64) {
        self.ctr.store(ctr, Ordering::Release);
        self.prev.arm(value);
    }

    /// Stops counting; `read` reads the counter. Returns the last increase.
    pub fn stop(&self, width: u32, read: impl FnMut() -> Option<u64>) -> u64 {
        self.prev.disarm(width, read)
    }

    /// Observes the slot for `owner` from any context: `width` gives the
    /// width of a counter, `read` reads it. Returns the increase since the
    /// last observation, or `None` (not `owner`'s, not counting, or the
    /// read failed). [`Self::begin`] and [`Self::advance`] are its steps,
    /// for a caller that reads without a closure.
    #[inline(always)]
    pub fn observe(
        &self,
        owner: usize,
        width: impl Fn(u8) -> u32,
        mut read: impl FnMut(u8) -> Option<u64>,
    ) -> Option<u64> {
        for _ in 0..TRIES {
            let seen = self.begin(owner)?;
            let now = read(seen.ctr)?;
            if let Some(d) = self.advance(seen, now, width(seen.ctr)) {
                return Some(d);
            }
        }
        None
    }

    /// The first step of an observation for `owner`: the word as it is and
    /// the counter to read, or `None` (not `owner`'s or not counting).
    #[inline(always)]
    pub fn begin(&self, owner: usize) -> Option<Seen> {
        let w = self.prev.0.load(Ordering::Acquire);
        if w & ARMED == 0 || self.owner() != owner {
            return None;
        }
        // The counter of this generation: a reconfiguration after the load
        // changes the generation and fails the exchange in `advance`.
        Some(Seen {
            word: w,
            ctr: self.ctr(),
        })
    }

    /// The second step: moves the last value from what `seen` saw to `now`
    /// (a read of `seen.ctr`, `width` bits wide) and returns the increase,
    /// or `None` when another observer or a reconfiguration came between
    /// (the caller begins again, at most [`TRIES`] times: the next
    /// observation accounts what this one did not).
    #[inline(always)]
    pub fn advance(&self, seen: Seen, now: u64, width: u32) -> Option<u64> {
        self.advance_masked(seen, now, mask(width))
    }

    /// [`Self::advance`] for a counter whose [`mask`] the caller holds.
    #[inline(always)]
    pub fn advance_masked(&self, seen: Seen, now: u64, mask: u64) -> Option<u64> {
        let w = seen.word;
        let now = now & mask;
        let new = (w & !VALUE_MASK) | now;
        self.prev
            .0
            .compare_exchange(w, new, Ordering::AcqRel, Ordering::Acquire)
            .ok()
            .map(|_| now.wrapping_sub(w & VALUE_MASK) & mask)
    }
}

/// The bits a slot keeps of a counter `width` bits wide (at most
/// [`MAX_WIDTH`]): what [`Slot::advance_masked`] takes.
pub const fn mask(width: u32) -> u64 {
    low_mask(if width < MAX_WIDTH { width } else { MAX_WIDTH })
}

/// What [`Slot::begin`] saw: the word to exchange and the counter to read.
#[derive(Clone, Copy, Debug)]
pub struct Seen {
    word: u64,
    /// The counter (a `program::Ctr` code).
    pub ctr: u8,
}

#[cfg(test)]
mod tests;
