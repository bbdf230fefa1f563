// SPDX-License-Identifier: GPL-2.0

//! The platform descriptions, one `const` [`Platform`] per file, and CPU
//! matching.

use super::bits::Field;
use super::desc::{Format, Platform, PlatformId, Word};
use super::pci::Role;

pub mod bdx;
pub mod bdxde;
pub mod hsx;
pub mod ivbep;
pub mod l3;
pub mod nhmex;
pub mod skl;
pub mod snbep;

/// Each platform's identifier: its place in [`ALL`] (checked below).
impl PlatformId {
    /// Sandy Bridge-EP (Xeon E5-2600), family 6 model 45.
    pub const SANDY_BRIDGE_EP: Self = Self::new(0);
    /// Ivy Bridge-EP (Xeon E5 v2), family 6 model 62.
    pub const IVY_BRIDGE_EP: Self = Self::new(1);
    /// Nehalem-EX (Xeon 7500), family 6 model 46.
    pub const NEHALEM_EX: Self = Self::new(2);
    /// Westmere-EX (Xeon E7), family 6 model 47.
    pub const WESTMERE_EX: Self = Self::new(3);
    /// Skylake client (6th generation Core), family 6 models 78 and 94.
    pub const SKYLAKE: Self = Self::new(4);
    /// Xeon 7100 series, family 15 model 6.
    pub const XEON_7100: Self = Self::new(5);
    /// Xeon 7400 series, family 6 model 29.
    pub const XEON_7400: Self = Self::new(6);
    /// Haswell-EP (Xeon E5 v3), family 6 model 63.
    pub const HASWELL_EP: Self = Self::new(7);
    /// Broadwell-EP/EX (Xeon E5 v4, E7 v4), family 6 model 79.
    pub const BROADWELL_X: Self = Self::new(8);
    /// Broadwell-DE (Xeon D-1500), family 6 model 86.
    pub const BROADWELL_DE: Self = Self::new(9);
}

/// How many platforms the driver supports.
pub const COUNT: usize = PLATFORMS.len();

/// Every platform the driver supports.
pub static ALL: [&Platform; COUNT] = PLATFORMS;

/// [`ALL`], for compile-time tables.
pub(crate) const PLATFORMS: [&Platform; 10] = [
    &snbep::SNBEP,
    &ivbep::IVBEP,
    &nhmex::NHMEX,
    &nhmex::WSMEX,
    &skl::SKL,
    &l3::XEON7100,
    &l3::XEON7400,
    &hsx::HSX,
    &bdx::BDX,
    &bdxde::BDXDE,
];

/// How many CPU models the driver supports.
pub const CPU_COUNT: usize = {
    let mut n = 0;
    let mut p = 0;
    while p < PLATFORMS.len() {
        n += PLATFORMS[p].cpus.len();
        p += 1;
    }
    n
};

/// Every CPU `(family, model)` the driver supports, for its CPU ID table
/// (and the module's aliases).
pub const CPUS: [(u32, u32); CPU_COUNT] = {
    let mut c = [(0, 0); CPU_COUNT];
    let mut n = 0;
    let mut p = 0;
    while p < PLATFORMS.len() {
        let mut i = 0;
        while i < PLATFORMS[p].cpus.len() {
            c[n] = PLATFORMS[p].cpus[i];
            n += 1;
            i += 1;
        }
        p += 1;
    }
    c
};

/// Whether function `i` of platform `p`'s device ID is an earlier
/// function's (Broadwell-DE's functions are Broadwell-EP's).
const fn listed_before(p: usize, i: usize) -> bool {
    let id = PLATFORMS[p].pci[i].device;
    let mut q = 0;
    while q <= p {
        let fns = PLATFORMS[q].pci;
        let end = if q == p { i } else { fns.len() };
        let mut j = 0;
        while j < end {
            if fns[j].device == id {
                return true;
            }
            j += 1;
        }
        q += 1;
    }
    false
}

/// The device IDs of the PCI functions the driver binds, every platform's
/// but the U-box devices, which are only read, each once: the first `N` of
/// them, and how many there are.
const fn bound_ids<const N: usize>() -> ([u16; N], usize) {
    let platforms = PLATFORMS;
    let mut ids = [0; N];
    let mut n = 0;
    let mut p = 0;
    while p < platforms.len() {
        let fns = platforms[p].pci;
        let mut i = 0;
        while i < fns.len() {
            if !matches!(fns[i].role, Role::Ubox) && !listed_before(p, i) {
                if n < N {
                    ids[n] = fns[i].device;
                }
                n += 1;
            }
            i += 1;
        }
        p += 1;
    }
    (ids, n)
}

/// How many PCI functions the driver binds.
pub const BOUND_COUNT: usize = bound_ids::<0>().1;

/// The device IDs of the PCI functions the driver binds, for its PCI ID
/// table (and the module's aliases).
pub const BOUND_IDS: [u16; BOUND_COUNT] = bound_ids::<BOUND_COUNT>().0;

/// The platform of an Intel CPU with this CPUID family and model, if supported.
pub fn for_cpu(family: u32, model: u32) -> Option<&'static Platform> {
    ALL.iter()
        .copied()
        .find(|p| p.cpus.iter().any(|&(f, m)| f == family && m == model))
}

/// The platform named `name` (as in `sim=<name>`).
pub fn by_name(name: &str) -> Option<&'static Platform> {
    ALL.iter().copied().find(|p| p.name == name)
}

/// The platform with identifier `id`.
pub fn by_id(id: PlatformId) -> &'static Platform {
    PLATFORMS[id.index()]
}

// `PLATFORMS` lists the platforms in `PlatformId` order, which `by_id`
// relies on.
const _: () = {
    let mut i = 0;
    while i < PLATFORMS.len() {
        assert!(
            PLATFORMS[i].id.index() == i,
            "PLATFORMS is in PlatformId order"
        );
        i += 1;
    }
};

/// Shorthand for a one-range field of `config`.
pub(crate) const fn cfg(name: &'static str, bits: &'static [Field]) -> Format {
    Format::new(name, Word::Config, bits)
}

/// Shorthand for a one-range field of `config1`.
pub(crate) const fn cfg1(name: &'static str, bits: &'static [Field]) -> Format {
    Format::new(name, Word::Config1, bits)
}

/// Shorthand for a one-range field of `config2`.
pub(crate) const fn cfg2(name: &'static str, bits: &'static [Field]) -> Format {
    Format::new(name, Word::Config2, bits)
}

/// Shorthand for `Field::new`.
pub(crate) const fn f(lo: u8, hi: u8) -> Field {
    Field::new(lo, hi)
}

/// Common format fields of the SNB-EP family control registers.
pub(crate) mod common {
    use super::{cfg, f};
    use crate::hw::desc::Format;

    /// `event`: config:0-7.
    pub(crate) const EVENT: Format = cfg("event", &[f(0, 7)]);
    /// `event` with the extended select bit: config:0-7,21.
    pub(crate) const EVENT_EXT: Format = cfg("event", &[f(0, 7), f(21, 21)]);
    /// `umask`: config:8-15.
    pub(crate) const UMASK: Format = cfg("umask", &[f(8, 15)]);
    /// `edge`: config:18.
    pub(crate) const EDGE: Format = cfg("edge", &[f(18, 18)]);
    /// `tid_en`: config:19.
    pub(crate) const TID_EN: Format = cfg("tid_en", &[f(19, 19)]);
    /// `inv`: config:23.
    pub(crate) const INV: Format = cfg("inv", &[f(23, 23)]);
    /// `thresh`: config:24-31.
    pub(crate) const THRESH8: Format = cfg("thresh", &[f(24, 31)]);
    /// `thresh`: config:24-28.
    pub(crate) const THRESH5: Format = cfg("thresh", &[f(24, 28)]);
}

#[cfg(test)]
mod tests;
