// SPDX-License-Identifier: GPL-2.0

//! Arbitration of a box's shared registers (filters, match/mask, bands).
//!
//! A box's shared registers are cut into *slots*: a field of one register
//! (a C-box filter field, a PCU band, an R-box port register...). An event
//! asks for a set of slots with values, possibly with alternatives (a PCU
//! band event may run on another band, an R-box event on the paired
//! register, rewriting its event select). Two events may share a slot only
//! when they ask for the same value; a slot's value is released when the
//! last event using it goes. No allocation; the state is a fixed array.

/// Most slots a box has (R-box half: four ports of ten slots).
pub const MAX_SLOTS: usize = 40;
/// Most slots one choice takes.
pub const MAX_CHOICE_SLOTS: usize = 4;
/// Most alternative choices of a request.
pub const MAX_CHOICES: usize = 4;

/// One slot taken with a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SlotReq {
    /// Slot index.
    pub slot: u8,
    /// The value the event needs in it.
    pub value: u64,
}

/// One way of satisfying an event: slots to take and the control value the
/// event then runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Choice {
    slots: [SlotReq; MAX_CHOICE_SLOTS],
    n: u8,
    /// Control register value (without enable) when this choice is taken.
    pub ctl: u64,
}

impl Choice {
    /// A choice with no slots, running with `ctl`.
    pub const fn new(ctl: u64) -> Self {
        Choice {
            slots: [SlotReq { slot: 0, value: 0 }; MAX_CHOICE_SLOTS],
            n: 0,
            ctl,
        }
    }

    /// Adds a slot. Panics (a table bug, caught by tests) when full.
    pub const fn with(mut self, slot: u8, value: u64) -> Self {
        self.slots[self.n as usize] = SlotReq { slot, value };
        self.n += 1;
        self
    }

    /// The slots of the choice.
    pub fn slots(&self) -> &[SlotReq] {
        &self.slots[..self.n as usize]
    }
}

/// An event's request: no shared registers, or one of up to
/// [`MAX_CHOICES`] alternatives, tried in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Request {
    choices: [Choice; MAX_CHOICES],
    n: u8,
}

impl Request {
    /// A request for nothing.
    pub const NONE: Request = Request {
        choices: [Choice::new(0); MAX_CHOICES],
        n: 0,
    };

    /// A request with the single choice `c`.
    pub const fn one(c: Choice) -> Self {
        Request::NONE.or(c)
    }

    /// Adds an alternative.
    pub const fn or(mut self, c: Choice) -> Self {
        self.choices[self.n as usize] = c;
        self.n += 1;
        self
    }

    /// The alternatives.
    pub fn choices(&self) -> &[Choice] {
        &self.choices[..self.n as usize]
    }

    /// Whether the event needs shared registers at all.
    pub fn is_none(&self) -> bool {
        self.n == 0
    }
}

/// One slot's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    /// Number of events holding the slot.
    pub refs: u16,
    /// The value they agreed on.
    pub value: u64,
}

/// The shared-register state of one box.
#[derive(Clone, Copy, Debug)]
pub struct Shared {
    slots: [Slot; MAX_SLOTS],
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            slots: [Slot::default(); MAX_SLOTS],
        }
    }
}

impl Shared {
    /// Whether `c` can be taken now.
    pub fn fits(&self, c: &Choice) -> bool {
        c.slots().iter().all(|r| {
            let s = &self.slots[r.slot as usize];
            s.refs == 0 || s.value == r.value
        })
    }

    /// Takes the first choice of `req` that fits and returns its index;
    /// `Some(0)` for a request of nothing; `None` when no choice fits.
    pub fn take(&mut self, req: &Request) -> Option<u8> {
        if req.is_none() {
            return Some(0);
        }
        let i = req.choices().iter().position(|c| self.fits(c))?;
        for r in req.choices[i].slots() {
            let s = &mut self.slots[r.slot as usize];
            s.refs += 1;
            s.value = r.value;
        }
        Some(i as u8)
    }

    /// Releases choice `i` of `req`, taken earlier with [`Shared::take`].
    pub fn release(&mut self, req: &Request, i: u8) {
        if req.is_none() {
            return;
        }
        self.release_choice(&req.choices[i as usize]);
    }

    /// Releases the slots of choice `c`, taken earlier with [`Shared::take`].
    pub fn release_choice(&mut self, c: &Choice) {
        for r in c.slots() {
            let s = &mut self.slots[r.slot as usize];
            s.refs = s.refs.saturating_sub(1);
            if s.refs == 0 {
                s.value = 0;
            }
        }
    }

    /// The state of slot `i`.
    pub fn slot(&self, i: usize) -> Slot {
        self.slots[i]
    }

    /// OR of the values of the held slots in `range`; the value of a
    /// register whose fields are these slots, each stored in place.
    pub fn combined(&self, range: core::ops::Range<usize>) -> u64 {
        self.slots[range]
            .iter()
            .filter(|s| s.refs > 0)
            .fold(0, |v, s| v | s.value)
    }

    /// Whether no slot is held.
    pub fn is_idle(&self) -> bool {
        self.slots.iter().all(|s| s.refs == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_share_different_conflict() {
        let mut s = Shared::default();
        let a = Request::one(Choice::new(1).with(0, 5).with(1, 7));
        let b = Request::one(Choice::new(2).with(1, 7));
        let c = Request::one(Choice::new(3).with(1, 8));
        assert_eq!(s.take(&a), Some(0));
        assert_eq!(s.take(&b), Some(0));
        assert_eq!(s.take(&c), None);
        assert_eq!(s.slot(1).refs, 2);
        s.release(&a, 0);
        assert_eq!(s.take(&c), None, "b still holds slot 1 with 7");
        s.release(&b, 0);
        assert_eq!(s.take(&c), Some(0));
        s.release(&c, 0);
        assert!(s.is_idle());
    }

    #[test]
    fn alternatives_are_tried_in_order() {
        let mut s = Shared::default();
        let band0 =
            Request::one(Choice::new(0xb).with(0, 10)).or(Choice::new(0xc).with(1, 10 << 8));
        let other =
            Request::one(Choice::new(0xb).with(0, 20)).or(Choice::new(0xc).with(1, 20 << 8));
        assert_eq!(s.take(&band0), Some(0));
        assert_eq!(s.take(&other), Some(1));
        assert_eq!(s.combined(0..4), 10 | (20 << 8));
        s.release(&other, 1);
        assert_eq!(s.combined(0..4), 10);
    }

    #[test]
    fn failed_take_changes_nothing() {
        let mut s = Shared::default();
        let a = Request::one(Choice::new(0).with(0, 1));
        let b = Request::one(Choice::new(0).with(1, 1).with(0, 2));
        assert_eq!(s.take(&a), Some(0));
        let before = s.slot(1);
        assert_eq!(s.take(&b), None);
        assert_eq!(s.slot(1), before);
    }
}
