// SPDX-License-Identifier: GPL-2.0

//! Faults the selftests must catch, made in the simulation only (the
//! hardware path has none of this): the machine's PCI functions as a user
//! would list them, a box type whose PMUs are missing, and a torn counter
//! read.
//!
//! - `devices` (read): the simulated PCI functions that are present, one
//!   per line as `lspci -Dn` names them (`0000:ff:10.0 8086:3cb0`); the
//!   selftests read it under `sim=` where on hardware they read
//!   `/sys/bus/pci/devices`.
//! - the `hide=<type>[,<type>...]` module parameter: no PMU is registered
//!   for the boxes of these types (`imc`, `cbox`, ...), while the model
//!   keeps their registers and `devices` their functions: a driver that
//!   misses a box the machine has.
//! - `glitch` (write): `pmu=<PMU> [socket=<n>]` arms a one-shot torn read:
//!   the first read of one of the box's counters whose value moved since
//!   that counter's first read after the arming returns the value with its
//!   top bit flipped. The driver takes the flip for a jump of half the
//!   counter's range and the next read for a wrap, so the event's count
//!   comes out 2^width too high (2^48, 2^44, ...). `off` disarms. (read)
//!   `armed <0|1>` and `fired <n>`, the torn reads made since load.

use super::backend::PER_BOX;
use super::{parse_target, SimDebug};
use crate::hw::desc::BoxType;
use crate::hw::model::MAX_BOXES;
use crate::hw::pci::{self, VENDOR_INTEL};
use crate::sys::debugfs::Writer;
use core::fmt::Write;
use core::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use kernel::prelude::*;

/// Whether the `hide=` parameter names box type `t` (it then gets no PMU).
pub(crate) fn hidden(t: &BoxType) -> bool {
    let Some(list) = crate::glue::params::hide().and_then(|s| s.to_str().ok()) else {
        return false;
    };
    let hide = list.split(',').any(|n| n.trim() == t.name());
    if hide {
        pr_info!(
            "sim: hide={}: no PMU for the {} boxes (their registers and functions stay)\n",
            list,
            t.name()
        );
    }
    hide
}

/// The torn read armed through `glitch`.
#[derive(Default)]
pub(crate) struct Glitch {
    /// The armed box, as `socket * MAX_BOXES + model box + 1`; 0 for none.
    armed: AtomicUsize,
    /// The counters of the armed box read since the arming (a bit each).
    seen: AtomicU32,
    /// What each counter's first read since the arming returned.
    base: [AtomicU64; PER_BOX],
    /// Torn reads made since load.
    fired: AtomicU64,
}

impl Glitch {
    /// Arms the torn read on model box `b` of socket `s`.
    fn arm(&self, s: usize, b: usize) {
        self.armed.store(0, Ordering::Release);
        self.seen.store(0, Ordering::Release);
        self.armed.store(s * MAX_BOXES + b + 1, Ordering::Release);
    }

    /// What a read of counter `n` of model box `b` of socket `s` returns:
    /// `v`, or once armed and `v` moved since the counter's first read, `v`
    /// with bit `width - 1` flipped (one-shot). Lock-free: the read path's
    /// (NMI included).
    pub(crate) fn apply(&self, s: usize, b: usize, n: usize, v: u64, width: u32) -> u64 {
        let key = s * MAX_BOXES + b + 1;
        if self.armed.load(Ordering::Acquire) != key {
            return v;
        }
        let (Some(base), Some(bit)) = (self.base.get(n), 1u32.checked_shl(n as u32)) else {
            return v;
        };
        if self.seen.load(Ordering::Acquire) & bit == 0 {
            base.store(v, Ordering::Release);
            self.seen.fetch_or(bit, Ordering::AcqRel);
            return v;
        }
        if base.load(Ordering::Acquire) == v
            || self
                .armed
                .compare_exchange(key, 0, Ordering::AcqRel, Ordering::Acquire)
                .is_err()
        {
            return v;
        }
        self.fired.fetch_add(1, Ordering::Relaxed);
        v ^ 1u64.checked_shl(width.saturating_sub(1)).unwrap_or(0)
    }
}

impl SimDebug {
    /// `glitch` (write): `pmu=<PMU> [socket=<n>]`, or `off`.
    pub(super) fn glitch_line(&self, line: &str) -> Result {
        let g = &self.sim().glitch;
        if line == "off" {
            g.armed.store(0, Ordering::Release);
            return Ok(());
        }
        let (name, socket) = parse_target(line)?;
        if socket >= self.ctx.packages {
            return Err(EINVAL);
        }
        let p = self.pmu(name)?;
        let b = super::backend::sim_box(self.ctx.platform, p.ops().box_type(), p.ops().index())
            .ok_or(ENOENT)?;
        g.arm(socket, b);
        Ok(())
    }

    /// `glitch` (read).
    pub(super) fn glitch_state(&self, out: &mut Writer<'_>) -> Result {
        let g = &self.sim().glitch;
        writeln!(
            out,
            "armed {}\nfired {}",
            u8::from(g.armed.load(Ordering::Acquire) != 0),
            g.fired.load(Ordering::Relaxed)
        )
        .map_err(|_| ENOSPC)
    }

    /// `devices` (read): the simulated PCI functions present, as `lspci
    /// -Dn` names them.
    pub(super) fn devices(&self, out: &mut Writer<'_>) -> Result {
        let fns = pci::functions(self.ctx.platform.id);
        for pkg in 0..self.ctx.packages {
            let bus = super::pci::bus(&self.ctx, pkg);
            for f in fns {
                if !self.ctx.registry.present(pkg, f.role) {
                    continue;
                }
                // A role of several device IDs is the first one's.
                if fns.iter().find(|g| g.role == f.role).map(|g| g.device) != Some(f.device) {
                    continue;
                }
                let (dev, func) = super::pci::position(f);
                writeln!(
                    out,
                    "0000:{:02x}:{:02x}.{} {:04x}:{:04x}",
                    bus, dev, func, VENDOR_INTEL, f.device
                )
                .map_err(|_| ENOSPC)?;
            }
        }
        Ok(())
    }
}
