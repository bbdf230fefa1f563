// SPDX-License-Identifier: GPL-2.0

//! How the simulated U-box delivers PMIs, where the real one may differ
//! from what the driver assumes (the `pmi` debugfs file):
//!
//! - `route <b0>,<b1>,...`: the core of rank `r` in its package (the order
//!   of core IDs) is bit `b<r>` of `pmi_core_sel` (a sparse numbering such
//!   as Nehalem-EX's cores 0-3 and 8-11 is `0,1,2,3,8,9,10,11`, a
//!   permutation `1,0`); a rank with no bit listed gets no PMIs. `route
//!   none`: no core gets any; `route`: bit `r` is rank `r` again (the
//!   default, what the driver assumes).
//! - `lvt <0|1>`: with 1, a CPU's PMI delivery is masked once it took a
//!   PMI, until the driver re-arms it (as the local APIC masks its
//!   performance-counter entry): PMIs raised meanwhile are not sent.
//! - `fail_global <n>`: the next `n` writes of the global control register
//!   fail (`EIO`), as a write the hardware refused.
//!
//! `stats` shows `pmis_masked` (PMIs not sent to a masked CPU), `rearms`
//! and `global_writes_failed`.

use super::Sim;
use crate::engine::Ctx;
use crate::sys::cpu::CpuId;
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use kernel::prelude::*;

/// Core ranks a route names (`pmi_core_sel` has ten bits).
const RANKS: usize = 16;
/// A rank with no bit.
const NO_BIT: u8 = u8::MAX;

/// The simulated U-box's PMI delivery.
pub(crate) struct Route {
    /// Renumbered: bit of each rank in [`Route::bits`].
    renumbered: AtomicBool,
    bits: [AtomicU8; RANKS],
    /// Delivery masks after each PMI (`lvt 1`).
    lvt: AtomicBool,
    /// Masked CPUs, one per CPU number.
    masked: KVec<AtomicBool>,
    /// Writes of the global control left to fail.
    fail_global: AtomicU32,
    /// What `stats` shows.
    pub(crate) pmis_masked: AtomicU64,
    pub(crate) rearms: AtomicU64,
    pub(crate) global_writes_failed: AtomicU64,
}

impl Route {
    /// The default route: bit `r` is rank `r`, nothing masked, no write
    /// fails.
    pub(crate) fn new(cpus: usize) -> Result<Self> {
        let mut masked = KVec::with_capacity(cpus, GFP_KERNEL)?;
        for _ in 0..cpus {
            masked.push(AtomicBool::new(false), GFP_KERNEL)?;
        }
        Ok(Route {
            renumbered: AtomicBool::new(false),
            bits: Default::default(),
            lvt: AtomicBool::new(false),
            masked,
            fail_global: AtomicU32::new(0),
            pmis_masked: AtomicU64::new(0),
            rearms: AtomicU64::new(0),
            global_writes_failed: AtomicU64::new(0),
        })
    }

    /// The rank `pmi_core_sel` bit `bit` delivers to, if any.
    pub(crate) fn rank_of_bit(&self, bit: u32) -> Option<u32> {
        if !self.renumbered.load(Ordering::Acquire) {
            return Some(bit);
        }
        (0..RANKS)
            .find(|&r| u32::from(self.bits[r].load(Ordering::Acquire)) == bit)
            .and_then(|r| u32::try_from(r).ok())
    }

    /// Whether a PMI may be sent to `cpu` now; with `lvt 1`, sending one
    /// masks it.
    pub(crate) fn may_send(&self, cpu: CpuId) -> bool {
        if !self.lvt.load(Ordering::Acquire) {
            return true;
        }
        let Some(m) = self.masked.get(cpu.as_u32() as usize) else {
            return true;
        };
        if m.swap(true, Ordering::AcqRel) {
            self.pmis_masked.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// The driver re-armed `cpu`'s PMI delivery.
    pub(crate) fn rearm(&self, cpu: CpuId) {
        self.rearms.fetch_add(1, Ordering::Relaxed);
        if let Some(m) = self.masked.get(cpu.as_u32() as usize) {
            m.store(false, Ordering::Release);
        }
    }

    /// Whether this write of the global control fails (`fail_global`).
    pub(crate) fn global_write_fails(&self) -> bool {
        let failing = self
            .fail_global
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .is_ok();
        if failing {
            self.global_writes_failed.fetch_add(1, Ordering::Relaxed);
        }
        failing
    }

    /// Applies a line of the `pmi` file.
    pub(crate) fn set(&self, line: &str) -> Result {
        let mut words = line.split_whitespace();
        let (key, value) = (words.next(), words.next());
        if words.next().is_some() {
            return Err(EINVAL);
        }
        match (key, value) {
            (Some("route"), None) => self.renumbered.store(false, Ordering::Release),
            (Some("route"), Some("none")) => {
                for b in &self.bits {
                    b.store(NO_BIT, Ordering::Relaxed);
                }
                self.renumbered.store(true, Ordering::Release);
            }
            (Some("route"), Some(list)) => {
                let mut bits = [NO_BIT; RANKS];
                for (r, w) in list.split(',').enumerate() {
                    let slot = bits.get_mut(r).ok_or(EINVAL)?;
                    *slot = w.parse::<u8>().ok().filter(|&b| b < 64).ok_or(EINVAL)?;
                }
                for (b, v) in self.bits.iter().zip(bits) {
                    b.store(v, Ordering::Relaxed);
                }
                self.renumbered.store(true, Ordering::Release);
            }
            (Some("lvt"), Some(v)) => {
                let on = match v {
                    "0" => false,
                    "1" => true,
                    _ => return Err(EINVAL),
                };
                for m in self.masked.iter() {
                    m.store(false, Ordering::Relaxed);
                }
                self.lvt.store(on, Ordering::Release);
            }
            (Some("fail_global"), Some(v)) => {
                let n = v.parse::<u32>().map_err(|_| EINVAL)?;
                self.fail_global.store(n, Ordering::Release);
            }
            _ => return Err(EINVAL),
        }
        Ok(())
    }
}

impl Sim {
    /// Delivers the PMIs the model raised on `socket` (a bit per core) as
    /// NMIs, and waits (up to 100 ms) until they are handled, as the
    /// hardware's PMI latency is far shorter than any counter's wrap. With
    /// `noise`, once a PMI is raised every other CPU of the package takes
    /// an NMI of another source (and has handled it) before the PMI's NMI
    /// is sent.
    pub(crate) fn deliver_pmis(&self, ctx: &Ctx<Sim>, socket: usize, cores: u64, noise: bool) {
        let route = &self.route;
        for bit in (0..64).filter(|b| cores & (1 << b) != 0) {
            let Some(rank) = route.rank_of_bit(bit) else {
                // No core has this bit: the PMI stays raised.
                self.raise(socket);
                continue;
            };
            if let Some(cpu) = Ctx::<Sim>::cpu_of_core(socket, rank) {
                let before = ctx.stats.pmis_handled.load(Ordering::Acquire);
                self.raise(socket);
                if noise {
                    self.send_noise(socket, cpu);
                }
                if !route.may_send(cpu) {
                    continue;
                }
                if crate::sys::nmi::send(cpu).is_err() {
                    // Offline (or no handler): the PMI stays raised for
                    // the next collector's poll.
                    continue;
                }
                for _ in 0..10_000 {
                    if ctx.stats.pmis_handled.load(Ordering::Acquire) != before {
                        break;
                    }
                    crate::sys::cpu::delay_us(10);
                }
            }
        }
    }

    /// Sends an NMI of another source to every online CPU of `socket` but
    /// `target`'s core, each waited for (up to 10 ms).
    fn send_noise(&self, socket: usize, target: CpuId) {
        let others = CpuId::all()
            .filter(|c| c.is_online() && c.package() == socket && c.core_id() != target.core_id());
        for c in others {
            let Some(flag) = self.noise_flag(c) else {
                continue;
            };
            flag.store(true, Ordering::Release);
            if crate::sys::nmi::send(c).is_err() {
                flag.store(false, Ordering::Release);
                continue;
            }
            for _ in 0..1000 {
                if !flag.load(Ordering::Acquire) {
                    break;
                }
                crate::sys::cpu::delay_us(10);
            }
            // Not taken (the NMI was claimed elsewhere): no later NMI may
            // take it for one of its own.
            flag.store(false, Ordering::Release);
        }
    }
}
