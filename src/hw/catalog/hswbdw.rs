// SPDX-License-Identifier: GPL-2.0

//! The events that the Haswell-EP, Broadwell-EP and Broadwell-DE catalogs
//! share, stored once: each file holds the lines of perf's tables that
//! exactly the platforms in its name have (`cbox.hsx-bdx.tsv`: Haswell-EP's
//! and Broadwell-EP's C-box events that Broadwell-DE's table lacks), as
//! `scripts/catalog-split.py` wrote them from `catalog-from-json.py`'s
//! tables. The platforms' modules ([`super::hsx`], [`super::bdx`],
//! [`super::bdxde`]) join them with their own.

use crate::hw::desc::Alias;

/// C-box events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const CBOX_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/cbox.hsx-bdx-bdxde.tsv"));

/// C-box events of Haswell-EP, Broadwell-EP, and no other platform.
pub const CBOX_HSX_BDX: &[Alias] = tsv!(include_str!("hswbdw/cbox.hsx-bdx.tsv"));

/// Home agent events of Broadwell-EP, Broadwell-DE, and no other platform.
pub const HA_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/ha.bdx-bdxde.tsv"));

/// Home agent events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const HA_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/ha.hsx-bdx-bdxde.tsv"));

/// Home agent events of Haswell-EP, Broadwell-EP, and no other platform.
pub const HA_HSX_BDX: &[Alias] = tsv!(include_str!("hswbdw/ha.hsx-bdx.tsv"));

/// iMC events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const IMC_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/imc.hsx-bdx-bdxde.tsv"));

/// iMC events of Haswell-EP, Broadwell-EP, and no other platform.
pub const IMC_HSX_BDX: &[Alias] = tsv!(include_str!("hswbdw/imc.hsx-bdx.tsv"));

/// IRP events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const IRP_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/irp.hsx-bdx-bdxde.tsv"));

/// PCU events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const PCU_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/pcu.hsx-bdx-bdxde.tsv"));

/// QPI events of Haswell-EP, Broadwell-EP, and no other platform.
pub const QPI_HSX_BDX: &[Alias] = tsv!(include_str!("hswbdw/qpi.hsx-bdx.tsv"));

/// R2PCIe events of Broadwell-EP, Broadwell-DE, and no other platform.
pub const R2PCIE_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/r2pcie.bdx-bdxde.tsv"));

/// R2PCIe events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const R2PCIE_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/r2pcie.hsx-bdx-bdxde.tsv"));

/// r3QPI events of Haswell-EP, Broadwell-EP, and no other platform.
pub const R3QPI_HSX_BDX: &[Alias] = tsv!(include_str!("hswbdw/r3qpi.hsx-bdx.tsv"));

/// S-box events of Haswell-EP, Broadwell-EP, and no other platform.
pub const SBOX_HSX_BDX: &[Alias] = tsv!(include_str!("hswbdw/sbox.hsx-bdx.tsv"));

/// U-box events of Haswell-EP, Broadwell-EP, Broadwell-DE, and no other platform.
pub const UBOX_HSX_BDX_BDXDE: &[Alias] = tsv!(include_str!("hswbdw/ubox.hsx-bdx-bdxde.tsv"));
