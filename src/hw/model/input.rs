// SPDX-License-Identifier: GPL-2.0

//! The simulation's input, from text to what the model is given: the lines
//! written to the `inject` and `selftest` debugfs files (`src/engine/sim/mod.rs`
//! documents the keys), parsed and checked here so that any text either
//! becomes a step the model and the driver can take or is refused with a
//! reason, never a panic. The host property tests drive any text through
//! this and into the model.

use super::count::{Occurrence, Props};
use crate::hw::bits::low_mask;
use crate::hw::terms::parse_number;

/// Why a line is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Not `key=value` words, an unknown key, a value that is not a number,
    /// or a key the file needs missing (`EINVAL`).
    Invalid,
    /// A number too large for its key, or a step that could move a counter
    /// by a whole wrap, or totals past 64 bits (`ERANGE`).
    Range,
}

/// A parsed `inject` or `selftest` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// `pmu=`: one or more PMU names, comma-separated.
    pub pmus: Option<&'a str>,
    /// `socket=`.
    pub socket: usize,
    /// The occurrence: `event=`, `umask=`, `count=` (cycles), `inc=` and the
    /// filtered properties.
    pub occ: Occurrence,
    /// Whether `event=` (or `programmed=1`) was given.
    pub have_event: bool,
    /// `config=` (the self-test's event).
    pub config: Option<u64>,
    /// `rounds=` (the self-test's).
    pub rounds: u32,
    /// `programmed=1`: every enabled counter counts, whatever its event.
    pub programmed: bool,
    /// `noise=1`: before a PMI the occurrence raises reaches its core, every
    /// other CPU of the package takes an NMI of another source.
    pub noise: bool,
}

fn num(v: &str) -> Result<u64, InputError> {
    parse_number(v).ok_or(InputError::Invalid)
}

/// A number that must fit `T`.
fn small<T: TryFrom<u64>>(v: &str) -> Result<T, InputError> {
    T::try_from(num(v)?).map_err(|_| InputError::Range)
}

/// Parses the keys of an `inject` or `selftest` line. Returns the unknown
/// key, if that is why it is refused, with the error.
pub fn parse_line(line: &str) -> Result<Line<'_>, (InputError, Option<&str>)> {
    let mut l = Line {
        pmus: None,
        socket: 0,
        occ: Occurrence {
            cycles: 1,
            inc: 1,
            ..Occurrence::default()
        },
        have_event: false,
        config: None,
        rounds: 1,
        programmed: false,
        noise: false,
    };
    for kv in line.split_whitespace() {
        let (k, v) = kv.split_once('=').ok_or((InputError::Invalid, None))?;
        let occ = &mut l.occ;
        let p: &mut Props = &mut occ.props;
        let r = match k {
            "pmu" => {
                l.pmus = Some(v);
                Ok(())
            }
            "socket" => small(v).map(|x| l.socket = x),
            "event" => small(v).map(|x| {
                occ.event = x;
                l.have_event = true;
            }),
            "umask" => small(v).map(|x| occ.umask = x),
            "count" => num(v).map(|x| occ.cycles = x),
            "inc" => small(v).map(|x| occ.inc = x),
            "tid" => small(v).map(|x| p.tid = Some(x)),
            "nid" => small(v).map(|x| p.nid = Some(x)),
            "state" => small(v).map(|x| p.state = Some(x)),
            "opc" => small(v).map(|x| p.opc = Some(x)),
            "freq" => small(v).map(|x| p.freq = Some(x)),
            "occ_sel" => small(v).map(|x| p.occ_sel = Some(x)),
            "packet" => num(v).map(|x| p.packet = Some(x)),
            "counter" => small(v).map(|x| p.counter = Some(x)),
            "sub" => num(v).map(|x| p.sub = Some(x)),
            "config" => num(v).map(|x| l.config = Some(x)),
            "rounds" => small(v).map(|x| l.rounds = x),
            "noise" => num(v).map(|x| l.noise = x != 0),
            "programmed" => num(v).map(|x| {
                l.programmed = x != 0;
                l.have_event |= l.programmed;
            }),
            _ => return Err((InputError::Invalid, Some(k))),
        };
        r.map_err(|e| (e, None))?;
    }
    Ok(l)
}

/// Parses `pmu=<name> [socket=<n>]` (the `plug` and `unplug` files).
pub fn parse_target(line: &str) -> Result<(&str, usize), InputError> {
    let mut pmu = None;
    let mut socket = 0usize;
    for kv in line.split_whitespace() {
        match kv.split_once('=').ok_or(InputError::Invalid)? {
            ("pmu", v) => pmu = Some(v),
            ("socket", v) => socket = small(v)?,
            _ => return Err(InputError::Invalid),
        }
    }
    Ok((pmu.ok_or(InputError::Invalid)?, socket))
}

impl Line<'_> {
    /// The most one step of this line adds to any counter: `count` cycles
    /// of `inc` each (an S-box queue occupancy event adds the occupancy its
    /// subcounter kept, at most 127, on top; the model refuses a step
    /// that would take that past a wrap).
    pub fn amount(&self) -> u64 {
        self.occ
            .cycles
            .saturating_mul(u64::from(self.occ.inc.max(1)))
    }

    /// Checks one step against counters of `bits` bits: a step that could
    /// move a counter by a whole wrap is refused, as the driver (or any
    /// hardware, whose counters cannot advance that far between two polls)
    /// would see it as nothing.
    pub fn check_step(&self, bits: u8) -> Result<(), InputError> {
        if self.amount() > low_mask(u32::from(bits)) {
            return Err(InputError::Range);
        }
        Ok(())
    }

    /// The total the self-test expects after all its rounds, each one
    /// step: refused when it does not fit the 63 bits of a perf count.
    pub fn selftest_total(&self) -> Result<u64, InputError> {
        self.amount()
            .checked_mul(u64::from(self.rounds))
            .filter(|&t| i64::try_from(t).is_ok())
            .ok_or(InputError::Range)
    }
}
