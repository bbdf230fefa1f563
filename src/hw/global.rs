// SPDX-License-Identifier: GPL-2.0

//! A platform's global (per socket) PMON control: the [`GlobalControl`]
//! trait and the platform without one.
//!
//! Each platform's global block is one implementation in its own files
//! (the NHM-EX/WSM-EX U-box in `platforms/nhmex/`, Skylake's in
//! `platforms/skl.rs`, the Xeon 7100/7400 `MSR_EMON_L3_GL_CTL` in
//! `platforms/l3.rs`), named by its table ([`Platform::global`]): its
//! control value, its overflow-status walk, and what the driver must know
//! of it. Shared code calls the trait and never asks which platform it
//! serves.

use core::fmt;

use super::desc::{BoxKind, BoxType, Platform};
use super::overflow::Walk;
use super::pmi_probe::ProbeCounter;
use super::program::{Ctr, GlobalState, Msr, OverflowBit};

/// How the C-box count is reported: the MSR to read and what its value
/// means (`None` when it gives nothing usable).
#[derive(Clone, Copy, Debug)]
pub struct ReportedCount {
    /// The MSR that reports it.
    pub msr: Msr,
    /// Its name in the manual, for messages.
    pub name: &'static str,
    /// The count the MSR's value gives, if usable.
    pub decode: fn(u64) -> Option<usize>,
}

/// A box count that a PCI function's configuration space reports
/// (Haswell-EP's S-boxes, from the PCU's `CAPID4`): the dword to read and
/// what it means.
#[derive(Clone, Copy, Debug)]
pub struct DeviceCount {
    /// The box kind whose count it is.
    pub kind: BoxKind,
    /// The function's device ID (the first one found is read).
    pub device: u16,
    /// The dword's offset in its configuration space.
    pub offset: u32,
    /// The register's name, for messages.
    pub name: &'static str,
    /// The count the dword gives, when it lowers the table's (`None`:
    /// the table's count stands).
    pub decode: fn(u32) -> Option<usize>,
}

/// An MSR whose read tells a part with the platform's uncore from one
/// without.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The MSR.
    pub msr: Msr,
    /// What a part whose read faults lacks, for the message.
    pub lacking: &'static str,
    /// The parts that have it, for the message.
    pub parts: &'static str,
}

/// A platform's global PMON control. The provided methods are those of a
/// platform without one (SNB-EP, IVB-EP: boxes are frozen individually).
pub trait GlobalControl: Sync + fmt::Debug {
    /// The global control register and its value for `g`, if the driver
    /// writes one.
    fn value(&self, g: &GlobalState) -> Option<(Msr, u64)> {
        let _ = g;
        None
    }

    /// Walks the overflow status of platform `p` from its global status
    /// down to the counters, with `read` (an MSR read), adding to `w` what
    /// overflowed and the writes that clear exactly that.
    fn walk(&self, p: &Platform, read: &mut dyn FnMut(u32) -> u64, w: &mut Walk) {
        let _ = (p, read, w);
    }

    /// Whether counters raise overflow PMIs that the driver takes (with a
    /// core chosen in the global control).
    fn raises_pmis(&self) -> bool {
        false
    }

    /// The bit of [`GlobalState::pmi_cores`] that aims PMIs at the core of
    /// rank `rank` in its package, or 0 when the control has none for it:
    /// that core gets no PMIs, and polling alone keeps its counts.
    fn pmi_core_bit(&self, rank: u32) -> u64 {
        let _ = rank;
        0
    }

    /// A counter the driver can preset to overflow at once, to see where
    /// a PMI goes before it aims any ([`crate::hw::pmi_probe`]).
    fn pmi_probe(&self) -> Option<ProbeCounter> {
        None
    }

    /// The register and bit that say a PMI of the package is pending (read
    /// by the NMI handler on the core the PMIs go to).
    fn pmi_status(&self) -> Option<(Msr, u64)> {
        None
    }

    /// The register and bits a PMI clears when it stops all counting: when
    /// a read after the walk finds them clear, the driver writes the global
    /// control again.
    fn stopped_by_pmi(&self) -> Option<(Msr, u64)> {
        None
    }

    /// The overflow status bit of counter `c` of box `i` of type `t`, where
    /// the status names each counter.
    fn overflow_bit(&self, t: &BoxType, i: usize, c: Ctr) -> Option<OverflowBit> {
        let _ = (t, i, c);
        None
    }

    /// The write that freezes (`freeze`) or unfreezes the one counter at
    /// MSR `msr` alone, where a counter shares its MSR with its control
    /// (`Space::Combined`: clearing the control is a read-modify-write,
    /// which must not race the count). `None`: no such write.
    fn freeze_one(&self, _msr: u32, _freeze: bool) -> Option<(Msr, u64)> {
        None
    }

    /// An MSR every part of the platform has, where its CPU model also
    /// covers parts without this uncore: a read that faults means there is
    /// none.
    fn probe(&self) -> Option<Probe> {
        None
    }

    /// Where the number of C-boxes is reported, if it is.
    fn reported_cboxes(&self) -> Option<ReportedCount> {
        None
    }

    /// A box count a PCI function reports, if the platform has one. When
    /// the function is absent, the table's count stands (as in the Linux
    /// driver).
    fn device_count(&self) -> Option<DeviceCount> {
        None
    }
}

/// A platform without a global control.
#[derive(Debug)]
pub struct NoGlobal;

impl GlobalControl for NoGlobal {}
