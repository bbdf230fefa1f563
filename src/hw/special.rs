// SPDX-License-Identifier: GPL-2.0

//! A box type's own event handling, beyond masking the control value and
//! choosing a counter: the [`Special`] trait, its plain implementation, and
//! the helpers several implementations share.
//!
//! Each behaviour is one implementation, in the file of the platform whose
//! manual describes it (the SNB-EP C-box filter in `platforms/snbep/`, the
//! NHM-EX M-box in `platforms/nhmex/`, ...), and a box type names its own
//! in its table ([`BoxType::special`]). Shared code calls the trait and
//! never asks which behaviour it has: a platform with a new one adds an
//! implementation, not a case in the encoder or the programmer.

use core::fmt;

use super::desc::{BoxType, Word};
use super::encode::{Attr, Encoded, Invalid};
use super::program::{Ctr, Ops};
use super::shared::{Choice, Request, Shared};

/// What a box type does beyond its counters' control registers: registers
/// its events share (filters, match/mask), bits an enabling write adds, a
/// read correction. The provided methods are those of a plain box.
pub trait Special: Sync + fmt::Debug {
    /// Finishes encoding a general-counter event: `plain` holds the masked
    /// control value and the counters it may use; the result adds the
    /// shared registers it needs (or alternatives, each with its own
    /// control value), after checking `config1`/`config2` bits the event
    /// does not use. Bits outside every `format/` field were refused
    /// before.
    fn encode(&self, t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let _ = (t, attr);
        Ok(plain)
    }

    /// Whether the box's events read free-running counters (`config` 1 to
    /// the number of counters): there is then no fixed-counter selector,
    /// and [`Special::encode`] takes every event.
    fn free_running(&self) -> bool {
        false
    }

    /// Writes to `ops` the shared registers of box `i` that `choice` uses,
    /// with the values all their current users agreed on (`shared`).
    fn write_shared(&self, i: u32, shared: &Shared, choice: &Choice, ops: &mut Ops) {
        let _ = (i, shared, choice, ops);
    }

    /// Writes to `ops` what box `i` needs before any event's enabling
    /// write, whether or not the event uses shared registers (`choice`),
    /// with the box's shared-register state `shared` (this event's slots
    /// already taken).
    fn before_enable(&self, i: u32, shared: &Shared, choice: Option<&Choice>, ops: &mut Ops) {
        let _ = (i, shared, choice, ops);
    }
    /// The bits an enabling write of control value `ctl` adds (besides the
    /// enable and overflow-interrupt bits).
    fn enable_bits(&self, ctl: u64) -> u64 {
        let _ = ctl;
        0
    }

    /// The overflow-interrupt enable bit of a general counter's control,
    /// where it is not the usual bit 20.
    fn pmi_bit(&self) -> Option<u64> {
        None
    }

    /// Whether [`Special::read_value`] can change a read (resolved once per
    /// box, so that other boxes' reads do not call it).
    fn corrects_reads(&self) -> bool {
        false
    }

    /// The value counter `c` holds, from a read `raw` masked to its width.
    fn read_value(&self, c: Ctr, raw: u64) -> u64 {
        let _ = c;
        raw
    }

    /// Whether the shared registers sit in a helper device of the box
    /// (one per instance, which a package may lack): events that use
    /// them need it.
    fn helper_device(&self) -> bool {
        false
    }
}

/// A box with nothing beyond its counters' control registers.
#[derive(Debug)]
pub struct Plain;

impl Special for Plain {}

/// Refuses `bits` of `word` as unused by the event.
pub(crate) fn no_bits(word: Word, bits: u64) -> Result<(), Invalid> {
    if bits != 0 {
        Err(Invalid::UnusedBits { word, bits })
    } else {
        Ok(())
    }
}

/// Refuses `bits` of `word`, set in `field`, that the manual reserves.
pub(crate) fn no_reserved(word: Word, field: &'static str, bits: u64) -> Result<(), Invalid> {
    if bits != 0 {
        Err(Invalid::Reserved { word, bits, field })
    } else {
        Ok(())
    }
}

/// Match/mask pairs (SNB-EP/IVB-EP QPI, NHM-EX B- and S-box): slot 0
/// holds `config1` (match), slot 1 `config2` (mask), for the events that
/// use them (`uses`); the others may not set either.
pub(crate) fn match_mask(plain: Encoded, attr: Attr, uses: bool) -> Result<Encoded, Invalid> {
    if !uses {
        no_bits(Word::Config1, attr.config1)?;
        no_bits(Word::Config2, attr.config2)?;
        return Ok(plain);
    }
    let c = Choice::new(plain.ctl)
        .with(0, attr.config1)
        .with(1, attr.config2);
    Ok(Encoded {
        shared: Request::one(c),
        ..plain
    })
}
