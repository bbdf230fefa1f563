// SPDX-License-Identifier: GPL-2.0

//! Sandy Bridge-EP memory controller, QPI and ring-interface catalogs.

use super::super::join;
use crate::hw::desc::Alias;

/// iMC events after the Linux driver's aliases. Perfmon's programmable
/// `UNC_M_CLOCKTICKS` (event 0) is `dclockticks`, as on IVB-EP, since
/// `clockticks` is the fixed DCLK counter. CAS counts are 64-byte lines,
/// reported in MiB.
pub const IMC: &[Alias] = &join::<IMC_LEN>(&[IMC_OWN, IMC_SHARED]);

/// The iMC events of Sandy Bridge-EP only (after the aliases the platform carries).
const IMC_OWN: &[Alias] = tsv!(include_str!("imc_own.tsv"));

/// The iMC events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const IMC_SHARED: &[Alias] = tsv!(include_str!("imc_shared.tsv"));

const IMC_LEN: usize = IMC_OWN.len() + IMC_SHARED.len();

/// QPI events after the Linux driver's aliases (perfmon's `UNC_Q_CLOCKTICKS`
/// is the driver's `clockticks`). `cto_count` counts the packets selected by
/// the match/mask registers, to be given as `match*`/`mask*` terms; the
/// `message.*` events are `cto_count` with the packet match/mask of
/// 325294-001 Tables 2-51..2-53 (the same QPI packet fields as these
/// formats; IVB-EP's perfmon catalog names the same events).
pub const QPI: &[Alias] = &join::<QPI_LEN>(&[QPI_OWN, QPI_SHARED]);

/// The QPI events of Sandy Bridge-EP only (after the aliases the platform carries).
const QPI_OWN: &[Alias] = tsv!(include_str!("qpi_own.tsv"));

/// The QPI events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const QPI_SHARED: &[Alias] = tsv!(include_str!("qpi_shared.tsv"));

const QPI_LEN: usize = QPI_OWN.len() + QPI_SHARED.len();

/// R2PCIe events.
pub const R2PCIE: &[Alias] = &join::<R2PCIE_LEN>(&[R2PCIE_OWN, R2PCIE_SHARED]);

/// The R2PCIe events of Sandy Bridge-EP only.
const R2PCIE_OWN: &[Alias] = tsv!(include_str!("r2pcie_own.tsv"));

/// The R2PCIe events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const R2PCIE_SHARED: &[Alias] = tsv!(include_str!("r2pcie_shared.tsv"));

const R2PCIE_LEN: usize = R2PCIE_OWN.len() + R2PCIE_SHARED.len();

/// R3QPI events.
pub const R3QPI: &[Alias] = &join::<R3QPI_LEN>(&[R3QPI_OWN, R3QPI_SHARED]);

/// The R3QPI events of Sandy Bridge-EP only.
const R3QPI_OWN: &[Alias] = tsv!(include_str!("r3qpi_own.tsv"));

/// The R3QPI events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const R3QPI_SHARED: &[Alias] = tsv!(include_str!("r3qpi_shared.tsv"));

const R3QPI_LEN: usize = R3QPI_OWN.len() + R3QPI_SHARED.len();
