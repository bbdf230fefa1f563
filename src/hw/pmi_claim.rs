// SPDX-License-Identifier: GPL-2.0

//! Which core's NMIs take a package's overflow PMIs: the decisions of the
//! PMI claim, on one word.
//!
//! A package's uncore PMIs go to the cores its global control's
//! `pmi_core_sel` names (325294 §2.1.1). The driver names one, its
//! collector's, and the NMI handler claims an NMI that sees the package's
//! PMI pending only on that core: the status is package-wide, and an NMI of
//! another source on another core must not take the PMI on its way to the
//! collector (which would then find none: "NMI received for unknown
//! reason"). When the collector changes, the core named before keeps
//! claiming until `pmi_core_sel` names the new one ([`PmiWord::aimed`],
//! then the register, then [`PmiWord::moved`]), and then [`WINDOW`] more
//! times: the NMI of a PMI raised just before the register changed may
//! still be on its way to it.
//!
//! A claim on one core can still take a PMI whose NMI is on its way to the
//! other (both are entitled while the register changes): that NMI then
//! finds nothing. So a hand-over also opens a grace, which the control
//! plane closes a bounded time after the register changed, once every NMI
//! sent before has arrived ([`PmiWord::closed`]): in it, an NMI on either
//! core that cannot take a PMI is taken all the same ([`Took::Nmi`]), and
//! no PMI's NMI is left to the kernel as of unknown reason.
//!
//! Target, previous core and window are one word ([`PmiWord`]), changed
//! only by compare-and-swap from the value a decision was made on: an
//! NMI's claim and a hand-over never see each other half done. The
//! functions here are pure but for [`claim`], which runs the claim's steps
//! ([`Claim`]) over the atomic the engine keeps the word in; the host
//! tests run the same steps and explore every interleaving of hand-overs,
//! overflows and NMIs over them (`pmi_claim/tests.rs`).

/// Claims the core named before a hand-over may still make once
/// `pmi_core_sel` names the new one: the NMIs on their way to it carry
/// PMIs of the one status bit, which the first claim takes.
pub const WINDOW: u64 = 1;

/// How long a hand-over's grace lasts after `pmi_core_sel` names the new
/// core, in milliseconds: far past the microseconds an NMI takes to arrive.
pub const GRACE_MS: u32 = 10;

/// NMIs on cores a package's PMIs are not aimed at that find a PMI pending,
/// with no claim by the aimed core in between, after which the driver takes
/// the PMIs to reach another core than `pmi_core_sel` was meant to name and
/// turns them off: one such NMI can be another source's NMI racing the PMI
/// on its way, sixteen in a row cannot.
pub const MISROUTED: u32 = 16;

/// Whether `n` NMIs of [`MISROUTED`]'s kind in a row mean the PMIs reach
/// another core: exactly at the limit, so that the fallback is decided
/// once.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::pmi_claim::{misrouted, MISROUTED};
///
/// assert!(!misrouted(MISROUTED - 1));
/// assert!(misrouted(MISROUTED));
/// assert!(!misrouted(MISROUTED + 1));
/// ```
pub fn misrouted(n: u32) -> bool {
    n == MISROUTED
}

/// The previous core's claims while `pmi_core_sel` still names it: any
/// number.
const OPEN: u64 = 0xf;

/// Bits of a core field: a core ID plus one, 0 for none.
const CORE_BITS: u32 = 20;
const CORE_MASK: u64 = (1 << CORE_BITS) - 1;
/// Where the previous core's field starts.
const PREV_SHIFT: u32 = CORE_BITS;
/// Where the window's claims left start (4 bits).
const LEFT_SHIFT: u32 = 2 * CORE_BITS;
const LEFT_MASK: u64 = 0xf;
/// The hand-over's grace bit: until the control plane closes it
/// ([`PmiWord::closed`]), the cores on either side of the hand-over take
/// every NMI they cannot take a PMI with ([`PmiWord::swallows`]).
const GRACE: u64 = 1 << (LEFT_SHIFT + 4);
/// Where the hand-over count starts (the rest of the word): two words
/// made by different hand-overs always differ.
const GEN_SHIFT: u32 = LEFT_SHIFT + 5;

/// A package's PMI claim state: the core PMIs go to, the core they went to
/// before the last hand-over and the claims left to it, and a count of
/// hand-overs.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::pmi_claim::PmiWord;
///
/// let w = PmiWord::NONE.aimed(Some(3));
/// assert_eq!(w.target(), Some(3));
/// // Core 3 takes a PMI; core 5 does not.
/// assert!(w.claim(3).is_some());
/// assert!(w.claim(5).is_none());
/// // A hand-over to core 5: core 3 may take the PMI still on its way.
/// let h = w.aimed(Some(5)).moved();
/// let after = h.claim(3).unwrap();
/// assert!(after.claim(3).is_none());
/// assert!(after.claim(5).is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PmiWord(u64);

impl PmiWord {
    /// No core takes PMIs.
    pub const NONE: PmiWord = PmiWord(0);

    /// The word stored in an atomic.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The word an atomic holds.
    pub const fn from_bits(v: u64) -> Self {
        PmiWord(v)
    }

    /// The field of `core`: its ID plus one, or 0 (none, also for an ID the
    /// field cannot hold).
    fn field(core: Option<u32>) -> u64 {
        match core {
            Some(c) if u64::from(c) < CORE_MASK => u64::from(c) + 1,
            _ => 0,
        }
    }

    fn core_at(self, shift: u32) -> Option<u32> {
        match (self.0 >> shift) & CORE_MASK {
            0 => None,
            // At most CORE_MASK - 1 after the subtraction: fits in u32.
            f => u32::try_from(f - 1).ok(),
        }
    }

    /// The core PMIs go to.
    pub fn target(self) -> Option<u32> {
        self.core_at(0)
    }

    /// The core they went to before the last hand-over, while it has
    /// claims left.
    pub fn previous(self) -> Option<u32> {
        match self.left() {
            0 => None,
            _ => self.core_at(PREV_SHIFT),
        }
    }

    /// The claims left to the previous core.
    pub fn left(self) -> u64 {
        (self.0 >> LEFT_SHIFT) & LEFT_MASK
    }

    /// The hand-over count (wrapping).
    fn generation(self) -> u64 {
        self.0 >> GEN_SHIFT
    }

    /// Whether the hand-over's grace is open.
    pub fn grace(self) -> bool {
        self.0 & GRACE != 0
    }

    /// The previous core's field, while the grace is open or it has
    /// claims left.
    fn previous_field(self) -> u64 {
        (self.0 >> PREV_SHIFT) & CORE_MASK
    }

    fn make(target: u64, previous: u64, left: u64, grace: bool, generation: u64) -> Self {
        let generation = generation & (u64::MAX >> GEN_SHIFT);
        PmiWord(
            target
                | (previous << PREV_SHIFT)
                | ((left & LEFT_MASK) << LEFT_SHIFT)
                | if grace { GRACE } else { 0 }
                | (generation << GEN_SHIFT),
        )
    }

    /// The word after PMIs are aimed at `core` (`None`: at no core), before
    /// `pmi_core_sel` is written: the core they went to becomes the previous
    /// one and claims as before until [`PmiWord::moved`], and the grace
    /// opens until [`PmiWord::closed`]. Aiming at the same core again
    /// changes nothing.
    pub fn aimed(self, core: Option<u32>) -> Self {
        let new = Self::field(core);
        let old = self.0 & CORE_MASK;
        if new == old {
            return self;
        }
        let (previous, left) = match old {
            0 => (0, 0),
            _ => (old, OPEN),
        };
        Self::make(
            new,
            previous,
            left,
            old != 0,
            self.generation().wrapping_add(1),
        )
    }

    /// The word once the hand-over's grace is over (the control plane,
    /// some time after `pmi_core_sel` named the target: every NMI a PMI
    /// sent before has arrived): only the target claims. A word of a later
    /// hand-over than `of` is left as it is.
    pub fn closed(self, of: PmiWord) -> Self {
        match self.generation() == of.generation() && self.left() != OPEN {
            true => Self::make(self.0 & CORE_MASK, 0, 0, false, self.generation()),
            false => self,
        }
    }

    /// Whether an NMI on `core` that cannot take a PMI (none pending, or
    /// not entitled to the one pending) is taken all the same: in the
    /// grace of a hand-over, on the target or the previous core, where it
    /// may be the NMI of a PMI the other core's NMI took (which the kernel
    /// would otherwise report as of "unknown reason").
    pub fn swallows(self, core: u32) -> bool {
        let f = Self::field(Some(core));
        self.grace() && f != 0 && (f == self.0 & CORE_MASK || f == self.previous_field())
    }

    /// The word once `pmi_core_sel` names the target: the previous core has
    /// [`WINDOW`] claims left.
    pub fn moved(self) -> Self {
        match self.left() {
            OPEN => Self::make(
                self.0 & CORE_MASK,
                self.previous_field(),
                WINDOW,
                self.grace(),
                self.generation(),
            ),
            _ => self,
        }
    }

    /// Whether an NMI on `core` that sees the package's PMI pending takes
    /// it, and the word after: once `pmi_core_sel` names the target, the
    /// target's claim closes the window (the PMIs reach it now) and the
    /// previous core's uses one claim of it. `None`: not this core's.
    pub fn claim(self, core: u32) -> Option<Self> {
        let f = Self::field(Some(core));
        if f == 0 {
            return None;
        }
        let target = self.0 & CORE_MASK;
        let previous = self.previous_field();
        let left = self.left();
        let grace = self.grace();
        // In the grace the previous core stays known (it swallows NMIs).
        let keep = |left: u64| if grace || left > 0 { previous } else { 0 };
        if f == target && left == OPEN {
            // `pmi_core_sel` still names the previous core: it keeps its
            // claims.
            return Some(self);
        }
        if f == target {
            return Some(Self::make(target, keep(0), 0, grace, self.generation()));
        }
        if f == previous && left == OPEN {
            return Some(self);
        }
        if f == previous && left > 0 {
            let left = left - 1;
            return Some(Self::make(
                target,
                keep(left),
                left,
                grace,
                self.generation(),
            ));
        }
        None
    }
}

/// The package's claim word as an NMI's claim uses it: a load, and a
/// compare-and-swap that gives the word it found when it fails.
pub trait Word {
    /// The word now.
    fn load(&self) -> PmiWord;
    /// Replaces `old` by `new`, if the word is still `old`.
    fn swap(&self, old: PmiWord, new: PmiWord) -> Result<(), PmiWord>;
}

impl Word for core::sync::atomic::AtomicU64 {
    fn load(&self) -> PmiWord {
        PmiWord(self.load(core::sync::atomic::Ordering::Acquire))
    }

    fn swap(&self, old: PmiWord, new: PmiWord) -> Result<(), PmiWord> {
        use core::sync::atomic::Ordering::{AcqRel, Acquire};
        self.compare_exchange(old.0, new.0, AcqRel, Acquire)
            .map(|_| ())
            .map_err(PmiWord)
    }
}

/// Where an NMI's claim of its package's PMI stands. The engine runs the
/// steps one after the other ([`claim`]); the host tests interleave them
/// with other cores' steps and a hand-over's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// Load the word and decide whether the core is entitled.
    Load,
    /// Entitled by the word it loaded: ask whether a PMI is pending (asked
    /// once: the simulation's status is taken by reading it).
    Pending(PmiWord),
    /// A PMI is pending: replace the word (as last seen) by the claimed
    /// one; if it changed meanwhile (a hand-over, another core's claim),
    /// decide again from the word found.
    Swap(PmiWord),
    /// No PMI pending: load the word again, to decide whether the NMI is
    /// taken all the same ([`PmiWord::swallows`]).
    Empty,
    /// Claimed.
    Claimed,
    /// No PMI taken, but the NMI is, in a hand-over's grace
    /// ([`PmiWord::swallows`]).
    Swallowed,
    /// Not this core's (now).
    NotEntitled,
    /// No PMI pending.
    NothingPending,
}

impl Claim {
    /// The next step of the claim by an NMI on `core`; `pending` is asked
    /// at [`Claim::Pending`] only.
    pub fn step(self, word: &impl Word, core: u32, pending: impl FnOnce() -> bool) -> Claim {
        match self {
            Claim::Load => {
                let w = word.load();
                match w.claim(core) {
                    Some(_) => Claim::Pending(w),
                    None if w.swallows(core) => Claim::Swallowed,
                    None => Claim::NotEntitled,
                }
            }
            Claim::Pending(w) => match pending() {
                true => Claim::Swap(w),
                false => Claim::Empty,
            },
            // The word now, not as loaded: a hand-over may have begun
            // since, and another core taken this NMI's PMI.
            Claim::Empty => match word.load().swallows(core) {
                true => Claim::Swallowed,
                false => Claim::NothingPending,
            },
            Claim::Swap(w) => match w.claim(core) {
                Some(n) => match word.swap(w, n) {
                    Ok(()) => Claim::Claimed,
                    Err(now) => Claim::Swap(now),
                },
                None if w.swallows(core) => Claim::Swallowed,
                None => Claim::NotEntitled,
            },
            done => done,
        }
    }

    /// Whether the claim ended, and if so what it took.
    pub const fn done(self) -> Option<Option<Took>> {
        match self {
            Claim::Claimed => Some(Some(Took::Pmi)),
            Claim::Swallowed => Some(Some(Took::Nmi)),
            Claim::NotEntitled | Claim::NothingPending => Some(None),
            Claim::Load | Claim::Pending(_) | Claim::Swap(_) | Claim::Empty => None,
        }
    }
}

/// What an NMI's claim took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Took {
    /// The package's PMI: its work walks the overflows.
    Pmi,
    /// The NMI alone, in a hand-over's grace: nothing to walk.
    Nmi,
}

/// What an NMI on `core` takes: its package's PMI where `core` is
/// entitled to it by the word, `pending()` (asked once, only then) says a
/// PMI is pending, and the claim's swap succeeds; else, in a hand-over's
/// grace, the NMI alone ([`PmiWord::swallows`]); else nothing. Lock-free
/// (NMI context): the word changes only by hand-overs and other claims, so
/// the swap settles in a few attempts.
///
/// # Examples
///
/// ```
/// use core::sync::atomic::{AtomicU64, Ordering};
/// use uncore_core::hw::pmi_claim::{claim, PmiWord, Took};
///
/// let word = AtomicU64::new(PmiWord::NONE.aimed(Some(3)).bits());
/// assert_eq!(claim(&word, 3, || true), Some(Took::Pmi));
/// assert_eq!(claim(&word, 3, || false), None);
/// assert_eq!(claim(&word, 5, || true), None);
/// // A hand-over to core 5: until its grace is closed, an NMI on 3 or 5
/// // that finds nothing is taken (it may be a PMI's the other took).
/// let h = PmiWord::from_bits(word.load(Ordering::Relaxed)).aimed(Some(5)).moved();
/// word.store(h.bits(), Ordering::Relaxed);
/// assert_eq!(claim(&word, 5, || false), Some(Took::Nmi));
/// word.store(h.closed(h).bits(), Ordering::Relaxed);
/// assert_eq!(claim(&word, 5, || false), None);
/// assert_eq!(claim(&word, 3, || true), None);
/// ```
pub fn claim(word: &impl Word, core: u32, pending: impl FnOnce() -> bool) -> Option<Took> {
    let mut pending = Some(pending);
    let mut c = Claim::Load;
    loop {
        c = c.step(word, core, || pending.take().is_some_and(|p| p()));
        if let Some(took) = c.done() {
            return took;
        }
    }
}

#[cfg(test)]
mod tests;
