// SPDX-License-Identifier: GPL-2.0

//! Ivy Bridge-EP QPI and ring-interface catalogs.

use super::super::join;
use crate::hw::catalog::snbep;
use crate::hw::desc::Alias;

/// QPI events after the aliases the platform carries (perfmon's
/// `UNC_Q_CLOCKTICKS` is `clockticks`). `cto_count` and `match_mask` count
/// the packets selected by `match*`/`mask*` terms; the `message.*` events
/// carry the packet match/mask of 325294-001 Tables 2-51..2-53 (perfmon
/// drops them). The third port has no match/mask registers.
pub const QPI: &[Alias] = &join::<QPI_LEN>(&[QPI_OWN, snbep::QPI_SHARED]);

/// The QPI events of Ivy Bridge-EP only (after the aliases the platform carries).
const QPI_OWN: &[Alias] = tsv!(include_str!("qpi_own.tsv"));

const QPI_LEN: usize = QPI_OWN.len() + snbep::QPI_SHARED.len();

/// R2PCIe events.
pub const R2PCIE: &[Alias] = &join::<R2PCIE_LEN>(&[R2PCIE_OWN, snbep::R2PCIE_SHARED]);

/// The R2PCIe events of Ivy Bridge-EP only.
const R2PCIE_OWN: &[Alias] = tsv!(include_str!("r2pcie_own.tsv"));

const R2PCIE_LEN: usize = R2PCIE_OWN.len() + snbep::R2PCIE_SHARED.len();

/// R3QPI events.
pub const R3QPI: &[Alias] = &join::<R3QPI_LEN>(&[R3QPI_OWN, snbep::R3QPI_SHARED]);

/// The R3QPI events of Ivy Bridge-EP only.
const R3QPI_OWN: &[Alias] = tsv!(include_str!("r3qpi_own.tsv"));

const R3QPI_LEN: usize = R3QPI_OWN.len() + snbep::R3QPI_SHARED.len();
