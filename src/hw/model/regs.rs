// SPDX-License-Identifier: GPL-2.0

//! Register decoding and access semantics of the model: which register an
//! MSR, configuration-space or MMIO address is, and what reads and writes
//! of it do.

use super::{Family, GlobalBlock, Model, ModelBox, ModelError, Socket};
use crate::hw::bits::low_mask;
use crate::hw::desc::{BoxKind, BoxType, PlatformId, Space};
use crate::hw::pci::{self, Role};
use crate::hw::platforms;

/// A register of a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reg {
    BoxCtl,
    Status,
    OvfCtl,
    Ctl(usize),
    Ctr(usize),
    FixedCtl,
    FixedCtr,
    Aux(usize),
}

/// `*_PMON_BOX_CTL` bits of SNB-EP/IVB-EP (327043 Table 2-9).
pub(super) mod box_ctl {
    pub(crate) const RST_CTRL: u64 = 1 << 0;
    pub(crate) const RST_CTRS: u64 = 1 << 1;
    pub(crate) const FRZ: u64 = 1 << 8;
    pub(crate) const FRZ_EN: u64 = 1 << 16;
}

/// NHM-EX/WSM-EX `U_MSR_PMON_GLOBAL_CTL`/`STATUS` bits (325294 Tables 2-2, 2-3).
pub(super) mod u {
    pub(crate) const FRZ_ALL: u64 = 1 << 31;
    pub(crate) const RST_ALL: u64 = 1 << 29;
    pub(crate) const EN_ALL: u64 = 1 << 28;
    pub(crate) const PMI_CORE_SEL: u64 = 0x3ff << 1;
    pub(crate) const EN: u64 = 1;
    pub(crate) const COND: u64 = 1 << 31;
    pub(crate) const PMI: u64 = 1 << 30;
    pub(crate) const OV_S0: u64 = 1 << 3;
    pub(crate) const OV_S1: u64 = 1 << 2;
    pub(crate) const OV_W: u64 = 1 << 1;
    pub(crate) const OV_U: u64 = 1 << 0;
}

/// Skylake `MSR_UNC_PERF_GLOBAL_CTRL`/`STATUS` bits (334060 Tables 2-2, 2-3).
pub(super) mod skl_bits {
    pub(crate) const CTL_VALID: u64 = (1 << 31) | (1 << 30) | (1 << 29) | 0xf;
    pub(crate) const EN: u64 = 1 << 29;
    pub(crate) const FRZ_ON_PMI: u64 = 1 << 31;
    pub(crate) const FIXED_OVF: u64 = 1 << 0;
    pub(crate) const ARB_OVF: u64 = 1 << 1;
    /// The manual prints bit "31" for `CBO_CTR_OVF` but marks 63:4 reserved;
    /// the model uses bit 3, the one bit left.
    pub(crate) const CBO_OVF: u64 = 1 << 3;
}

/// Implemented bits of a counter control register, by family and box type.
pub(super) fn ctl_valid(p: PlatformId, fam: Family, ty: Option<BoxKind>) -> u64 {
    ctl_bits(p, fam, ty) & !platforms::by_id(p).sim.ctl_lacks
}

/// The bits of [`ctl_valid`] before the bits a part lacks.
fn ctl_bits(p: PlatformId, fam: Family, ty: Option<BoxKind>) -> u64 {
    match fam {
        // U: thresh 28:24, invert 23, en 22, edge 18, umask, ev_sel (Table 2-2).
        Family::EpUbox => 0x1fc4_ffff,
        Family::SnbBox | Family::SnbNoReset | Family::IvbBox => match ty {
            // C-box adds tid_en (Table 2-10), as does the Haswell-EP S-box
            // (the Linux driver's `HSWEP_S_MSR_PMON_RAW_EVENT_MASK`).
            Some(BoxKind::Cbox | BoxKind::Sbox) => 0xffcc_ffff,
            // PCU: occ_edge_det 31, occ_invert 30, thresh 28:24, inv 23, en
            // 22, ev_sel_ext 21, edge 18, occ_sel 15:14, ev_sel.
            Some(BoxKind::Pcu) => 0xdfe4_c0ff,
            // QPI: ev_sel_ext 21.
            Some(BoxKind::Qpi) => 0xffe4_ffff,
            _ => 0xffc4_ffff,
        },
        Family::NhmUbox => 0x0054_00ff,
        Family::NhmBox => match ty {
            // B: pmi_en 20, ev_sel 5:1, en 0 (Table 2-20).
            Some(BoxKind::Bbox) => 0x0010_003f,
            // M: set_flag_sel 21:19, inc_sel 13:9, flag/wrap/storage/count
            // modes 7:2, pmi_en 1, en 0 (Table 2-67).
            Some(BoxKind::Mbox) => 0x0038_3eff,
            // R: pmi_en 6, ev_sel 5:1, en 0 (Table 2-44).
            Some(BoxKind::Rbox) => 0x7f,
            // C, S, W: thresh, invert, en, pmi_en, edge, umask, ev_sel.
            _ => 0xffd4_ffff,
        },
        Family::Skl => 0x1fd4_ffff,
        Family::L3 => 0xffff_ffff_0000_0000,
        Family::SklImc | Family::QpiFilter | Family::None => {
            let _ = p;
            0
        }
    }
}

fn box_type(p: PlatformId, b: &ModelBox) -> Option<&'static BoxType> {
    platforms::by_id(p).types.get(b.ty as usize)
}

/// Decodes MSR `msr` against box `b`.
pub(super) fn decode_msr(p: PlatformId, b: &ModelBox, msr: u32) -> Option<Reg> {
    let t = box_type(p, b)?;
    let i = b.index as usize;
    let Space::Msr {
        box_ctl,
        ctl,
        ctr,
        offsets,
    } = t.space
    else {
        if let Space::Combined { base } = t.space {
            let j = msr.checked_sub(base)? as usize;
            return (j < b.n as usize).then_some(Reg::Ctr(j));
        }
        return None;
    };
    let off = offsets.of(i);
    if b.family != Family::NhmUbox {
        if let Some(bc) = box_ctl {
            let bc = bc + off;
            if msr == bc {
                return Some(Reg::BoxCtl);
            }
            if b.family == Family::NhmBox && msr == bc + 1 {
                return Some(Reg::Status);
            }
            if b.family == Family::NhmBox && msr == bc + 2 {
                return Some(Reg::OvfCtl);
            }
        }
    }
    for j in 0..b.n as usize {
        if msr == ctl.of(j) + off {
            return Some(Reg::Ctl(j));
        }
        if msr == ctr.of(j) + off {
            return Some(Reg::Ctr(j));
        }
    }
    if b.has_fixed {
        if let Some(f) = t.fixed {
            if msr == f.ctl + off {
                return Some(Reg::FixedCtl);
            }
            if msr == f.ctr + off {
                return Some(Reg::FixedCtr);
            }
        }
    }
    (platforms::by_id(p).sim.aux_msr)(t.kind, i as u32, msr).map(Reg::Aux)
}

fn nhm_summary(p: PlatformId, sock: &Socket, s_box: u32) -> u64 {
    let summary_bit = platforms::by_id(p).sim.summary_bit;
    let mut v = 0;
    for b in &sock.boxes[..sock.n_boxes] {
        if b.status == 0 {
            continue;
        }
        let Some(t) = box_type(p, b) else { continue };
        if let Some(bit) = summary_bit(t.kind, b.index, s_box) {
            v |= 1 << bit;
        }
    }
    v
}

/// The U-box global status as software reads it: each overflow summary bit
/// is its latch while something below it is still set.
pub(super) fn nhm_u_status(p: PlatformId, sock: &Socket) -> u64 {
    let mut v = sock.global_status & (u::COND | u::PMI | u::OV_U);
    let latched = sock.global_status;
    if latched & u::OV_S0 != 0 && nhm_summary(p, sock, 0) != 0 {
        v |= u::OV_S0;
    }
    if latched & u::OV_S1 != 0 && nhm_summary(p, sock, 1) != 0 {
        v |= u::OV_S1;
    }
    let w = sock.boxes[..sock.n_boxes].iter().any(|b| {
        b.family == Family::NhmBox
            && box_type(p, b).is_some_and(|t| Some(t.kind) == Some(BoxKind::Wbox))
            && b.status != 0
    });
    if latched & u::OV_W != 0 && w {
        v |= u::OV_W;
    }
    v
}

pub(super) fn rdmsr(m: &Model, sock: &Socket, msr: u32) -> Result<u64, ModelError> {
    let p = m.platform;
    match platforms::by_id(p).sim.global {
        GlobalBlock::NhmexU { ctl, summary } => {
            if msr == ctl {
                return Ok(sock.global_ctl);
            } else if msr == ctl + 1 {
                return Ok(nhm_u_status(p, sock));
            } else if msr == ctl + 2 {
                return Ok(0);
            } else if let Some(side) = summary.iter().position(|&r| r == msr) {
                return Ok(nhm_summary(p, sock, side as u32));
            }
        }
        GlobalBlock::Skl(r) => {
            if msr == r.ctl {
                return Ok(sock.global_ctl);
            } else if msr == r.status {
                return Ok(sock.global_status);
            } else if msr == r.cbo_config {
                return Ok(u64::from(m.cbos) + 1);
            }
        }
        GlobalBlock::L3 { first, gl_ctl } if m.no_emon && (first..=gl_ctl).contains(&msr) => {
            return Err(ModelError::NoRegister);
        }
        GlobalBlock::L3 { gl_ctl, .. } if msr == gl_ctl => {
            return Ok(sock.global_status << 48);
        }
        GlobalBlock::L3 { .. } | GlobalBlock::None => {}
    }
    for b in &sock.boxes[..sock.n_boxes] {
        if b.family == Family::None || b.family == Family::QpiFilter || super::is_pci(p, b.ty) {
            continue;
        }
        if let Some(r) = decode_msr(p, b, msr) {
            return Ok(read_erratum(p, b, r, read_reg(b, r)));
        }
    }
    Err(ModelError::NoRegister)
}

/// What a read of counter register `r` of `b` returns.
pub(super) fn read_counter(p: PlatformId, b: &ModelBox, r: Reg) -> u64 {
    read_erratum(p, b, r, read_reg(b, r))
}

/// What a read of register `r` of `b` returns where the part has a
/// counter read erratum (its model file's `read_counter`).
fn read_erratum(p: PlatformId, b: &ModelBox, r: Reg, v: u64) -> u64 {
    let counter = matches!(r, Reg::Ctr(_) | Reg::FixedCtr);
    match box_type(p, b) {
        Some(t) if counter => (platforms::by_id(p).sim.read_counter)(t.kind, v),
        _ => v,
    }
}

fn read_reg(b: &ModelBox, r: Reg) -> u64 {
    match r {
        // SNB-EP box control bits are write-only and read as zero.
        Reg::BoxCtl => match b.family {
            Family::SnbBox | Family::SnbNoReset => 0,
            _ => b.box_ctl,
        },
        Reg::Status => b.status,
        Reg::OvfCtl => 0,
        Reg::Ctl(j) if b.family == Family::L3 => b.ctrs[j].ctl | b.ctrs[j].value,
        Reg::Ctr(j) if b.family == Family::L3 => b.ctrs[j].ctl | b.ctrs[j].value,
        Reg::Ctl(j) => b.ctrs[j].ctl,
        Reg::Ctr(j) => b.ctrs[j].value,
        Reg::FixedCtl => b.fixed.ctl,
        Reg::FixedCtr => b.fixed.value,
        Reg::Aux(k) => b.aux[k],
    }
}

pub(super) fn wrmsr(
    p: PlatformId,
    _cbos: u8,
    sock: &mut Socket,
    msr: u32,
    v: u64,
) -> Result<(), ModelError> {
    match platforms::by_id(p).sim.global {
        GlobalBlock::NhmexU { ctl, summary } => {
            if msr == ctl {
                if v & u::RST_ALL != 0 {
                    for b in sock.boxes[..sock.n_boxes].iter_mut() {
                        b.ctrs.iter_mut().for_each(|c| c.value = 0);
                        b.fixed.value = 0;
                    }
                }
                sock.global_ctl = v & (u::FRZ_ALL | u::EN_ALL | u::PMI_CORE_SEL | u::EN);
                return Ok(());
            } else if msr == ctl + 1 || summary.contains(&msr) {
                return Ok(());
            } else if msr == ctl + 2 {
                sock.global_status &= !(v & (u::COND | u::PMI | 0xf));
                return Ok(());
            }
        }
        GlobalBlock::Skl(r) => {
            if msr == r.ctl {
                sock.global_ctl = v & skl_bits::CTL_VALID;
                return Ok(());
            } else if msr == r.status {
                sock.global_status &=
                    !(v & (skl_bits::FIXED_OVF | skl_bits::ARB_OVF | skl_bits::CBO_OVF));
                return Ok(());
            } else if msr == r.cbo_config {
                // Read-only: a write faults.
                return Err(ModelError::NoRegister);
            }
        }
        GlobalBlock::L3 { first, gl_ctl } if msr == gl_ctl => {
            l3_command(p, first, sock, v);
            return Ok(());
        }
        GlobalBlock::L3 { .. } | GlobalBlock::None => {}
    }
    for k in 0..sock.n_boxes {
        let b = &sock.boxes[k];
        if b.family == Family::None || b.family == Family::QpiFilter || super::is_pci(p, b.ty) {
            continue;
        }
        if let Some(r) = decode_msr(p, b, msr) {
            return write_reg(p, sock, k, r, v);
        }
    }
    Err(ModelError::NoRegister)
}

/// `MSR_EMON_L3_GL_CTL` commands: freeze, unfreeze and reset the selected
/// counters; `GL_event_status` bits written as one are cleared (the SDM does
/// not say how the status is cleared; the model takes write-one-to-clear).
fn l3_command(p: PlatformId, first_ctr: u32, sock: &mut Socket, v: u64) {
    let sel = ((v >> 16) & 0xff) as u8;
    if v & 1 != 0 {
        sock.l3_frozen |= sel;
    }
    if v & 2 != 0 {
        sock.l3_frozen &= !sel;
    }
    if v & 4 != 0 {
        for b in sock.boxes[..sock.n_boxes]
            .iter_mut()
            .filter(|b| b.family == Family::L3)
        {
            let first = group_first(p, first_ctr, b);
            for j in 0..b.n as usize {
                if sel & (1 << (first + j)) != 0 {
                    b.ctrs[j].value = 0;
                }
            }
        }
    }
    sock.global_status &= !((v >> 48) & 0xff);
}

/// Index of a Xeon 7100/7400 group's first counter among the eight
/// (`first` is the first counter's register).
pub(super) fn group_first(p: PlatformId, first: u32, b: &ModelBox) -> usize {
    match box_type(p, b).map(|t| t.space) {
        Some(Space::Combined { base }) => base.saturating_sub(first) as usize,
        _ => 0,
    }
}

/// [`group_first`] for a box of platform `p`, whose global block names
/// the first counter.
pub(super) fn group_of(p: PlatformId, b: &ModelBox) -> usize {
    match platforms::by_id(p).sim.global {
        GlobalBlock::L3 { first, .. } => group_first(p, first, b),
        _ => 0,
    }
}

fn write_reg(p: PlatformId, sock: &mut Socket, k: usize, r: Reg, v: u64) -> Result<(), ModelError> {
    let ty = box_type(p, &sock.boxes[k]).map(|t| t.kind);
    let b = &mut sock.boxes[k];
    let wmask = low_mask(u32::from(b.width));
    match r {
        Reg::BoxCtl => match b.family {
            Family::SnbBox | Family::SnbNoReset | Family::IvbBox => {
                // iMC and HA have no reset bits (327043 §2.1.1 e).
                if b.family != Family::SnbNoReset {
                    if v & box_ctl::RST_CTRL != 0 {
                        b.ctrs.iter_mut().for_each(|c| c.ctl = 0);
                    }
                    if v & box_ctl::RST_CTRS != 0 {
                        b.ctrs.iter_mut().for_each(|c| c.value = 0);
                    }
                }
                let keep = if b.family == Family::IvbBox {
                    box_ctl::FRZ
                } else {
                    box_ctl::FRZ | box_ctl::FRZ_EN
                };
                b.box_ctl = v & keep;
            }
            Family::NhmBox => {
                let fixed_en = if b.has_fixed { 1 << 31 } else { 0 };
                b.box_ctl = v & (low_mask(u32::from(b.n)) | fixed_en);
            }
            _ => return Err(ModelError::NoRegister),
        },
        // Status reads back; software clears it through OVF_CTL.
        Reg::Status => {}
        Reg::OvfCtl => {
            let clr = low_mask(u32::from(b.n)) | if b.has_fixed { 1 << 31 } else { 0 };
            b.status &= !(v & clr);
        }
        Reg::Ctl(j) => {
            if b.family == Family::L3 {
                b.ctrs[j].ctl = v & 0xffff_ffff_0000_0000;
                b.ctrs[j].value = v & 0xffff_ffff;
                return Ok(());
            }
            let valid = ctl_valid(p, b.family, ty);
            // `rst` (bit 17) of SNB-EP/IVB-EP controls clears the counter
            // (Table 2-10); it is write-only.
            if matches!(
                b.family,
                Family::SnbBox | Family::SnbNoReset | Family::IvbBox | Family::EpUbox
            ) && v & (1 << 17) != 0
            {
                b.ctrs[j].value = 0;
            }
            // NHM-EX/WSM-EX S-box `reset_occ_cnt` (Table 2-30): clears the
            // counter's occupancy subcounter; a command, not kept.
            if b.family == Family::NhmBox && ty == Some(BoxKind::Sbox) && v & (1 << 17) != 0 {
                b.occ[j] = 0;
            }
            b.ctrs[j].ctl = v & valid;
        }
        Reg::Ctr(j) => {
            if b.family == Family::L3 {
                b.ctrs[j].ctl = v & 0xffff_ffff_0000_0000;
                b.ctrs[j].value = v & 0xffff_ffff;
                return Ok(());
            }
            b.ctrs[j].value = v & wmask;
        }
        Reg::FixedCtl => {
            // U/iMC fixed: en 22; Skylake: CNT_EN 22 and OVF_EN 20; W-box:
            // pmi_en 1, en 0.
            b.fixed.ctl = v & ((1 << 22) | (1 << 20) | 0x3);
        }
        Reg::FixedCtr => b.fixed.value = v & low_mask(u32::from(b.fixed_width)),
        Reg::Aux(a) => {
            // S-box: writing match/mask while MM_CFG.mm_en is set faults
            // (325294 §2.5.3.4 b).
            if b.family == Family::NhmBox
                && ty == Some(BoxKind::Sbox)
                && a != 0
                && b.aux[0] & (1 << 63) != 0
            {
                return Err(ModelError::NoRegister);
            }
            b.aux[a] = v;
        }
    }
    Ok(())
}

/// Decodes configuration offset `off` of a PCI box.
fn decode_cfg(p: PlatformId, b: &ModelBox, off: u32) -> Option<(Reg, bool)> {
    let t = box_type(p, b)?;
    let Space::Pci { box_ctl, ctl, ctr } = t.space else {
        return None;
    };
    if off == box_ctl {
        return Some((Reg::BoxCtl, false));
    }
    for j in 0..b.n as usize {
        if off == ctl.of(j) {
            return Some((Reg::Ctl(j), false));
        }
        if off == ctr.of(j) {
            return Some((Reg::Ctr(j), false));
        }
        if off == ctr.of(j) + 4 {
            return Some((Reg::Ctr(j), true));
        }
    }
    if let (true, Some(f)) = (b.has_fixed, t.fixed) {
        if off == f.ctl {
            return Some((Reg::FixedCtl, false));
        }
        if off == f.ctr {
            return Some((Reg::FixedCtr, false));
        }
        if off == f.ctr + 4 {
            return Some((Reg::FixedCtr, true));
        }
    }
    None
}

fn find_role(m_p: PlatformId, sock: &Socket, role: Role) -> Option<usize> {
    let desc = platforms::by_id(m_p);
    sock.boxes[..sock.n_boxes].iter().position(|b| match role {
        Role::Box { ty, index } => {
            desc.types.get(b.ty as usize).is_some_and(|t| t.kind == ty) && b.index == index
        }
        Role::QpiFilter { port } => b.family == Family::QpiFilter && b.index == port,
        Role::Ubox => false,
    })
}

/// Offsets of the QPI match/mask device: PKT_MATCH0/1, PKT_MASK0/1.
const QPI_FILTER_REGS: [u32; 4] = [0x228, 0x22c, 0x238, 0x23c];

pub(super) fn cfg_read(m: &Model, sock: &Socket, role: Role, off: u32) -> Result<u32, ModelError> {
    let p = m.platform;
    if off == 0 {
        // Vendor and device ID.
        let f = pci::functions(p)
            .iter()
            .find(|f| f.role == role)
            .ok_or(ModelError::NoBox)?;
        return Ok(u32::from(pci::VENDOR_INTEL) | u32::from(f.device) << 16);
    }
    if role == Role::Ubox {
        return match off {
            pci::CPUNODEID => Ok(u32::from(sock.node_id)),
            pci::GIDNIDMAP => Ok(gidnidmap(m.n_sockets)),
            _ => Ok(0),
        };
    }
    let k = find_role(p, sock, role).ok_or(ModelError::NoBox)?;
    let b = &sock.boxes[k];
    if b.family == Family::SklImc {
        return match off {
            pci::MCHBAR => Ok(super::MODEL_MCHBAR as u32),
            o if o == pci::MCHBAR + 4 => Ok((super::MODEL_MCHBAR >> 32) as u32),
            _ => Ok(0),
        };
    }
    if b.family == Family::QpiFilter {
        let i = QPI_FILTER_REGS
            .iter()
            .position(|&o| o == off)
            .ok_or(ModelError::NoRegister)?;
        return Ok((b.aux[i / 2] >> (32 * (i % 2))) as u32);
    }
    let (r, hi) = decode_cfg(p, b, off).ok_or(ModelError::NoRegister)?;
    let v = read_reg(b, r);
    Ok(if hi { (v >> 32) as u32 } else { v as u32 })
}

/// `GIDNIDMAP` of the model: socket `i` has node ID `i`; unused entries hold
/// node IDs no socket has, counting down from 7.
pub(super) fn gidnidmap(n: usize) -> u32 {
    (0..8).fold(0u32, |m, i| {
        let node = if i < n { i } else { 7 - (i - n) };
        m | ((node as u32 & 7) << (3 * i))
    })
}

pub(super) fn cfg_write(
    p: PlatformId,
    sock: &mut Socket,
    role: Role,
    off: u32,
    v: u32,
) -> Result<(), ModelError> {
    if role == Role::Ubox {
        return Ok(());
    }
    let k = find_role(p, sock, role).ok_or(ModelError::NoBox)?;
    if sock.boxes[k].family == Family::QpiFilter {
        let i = QPI_FILTER_REGS
            .iter()
            .position(|&o| o == off)
            .ok_or(ModelError::NoRegister)?;
        let a = &mut sock.boxes[k].aux[i / 2];
        let shift = 32 * (i % 2);
        *a = (*a & !(0xffff_ffff << shift)) | (u64::from(v) << shift);
        return Ok(());
    }
    let (r, hi) = decode_cfg(p, &sock.boxes[k], off).ok_or(ModelError::NoRegister)?;
    let b = &sock.boxes[k];
    let v = match r {
        // Counters take the written half and keep the other.
        Reg::Ctr(_) | Reg::FixedCtr => {
            let old = read_reg(b, r);
            if hi {
                (old & 0xffff_ffff) | (u64::from(v) << 32)
            } else {
                (old & !0xffff_ffff) | u64::from(v)
            }
        }
        _ => u64::from(v),
    };
    write_reg(p, sock, k, r, v)
}

pub(super) fn mmio_read(m: &Model, sock: &Socket, off: u32) -> Result<u32, ModelError> {
    if platforms::by_id(m.platform).mmio_window.is_none() {
        return Err(ModelError::NoRegister);
    }
    let b = sock.boxes[..sock.n_boxes]
        .iter()
        .find(|b| b.family == Family::SklImc)
        .ok_or(ModelError::NoBox)?;
    let t = box_type(m.platform, b).ok_or(ModelError::NoBox)?;
    let Space::Mmio { ctr } = t.space else {
        return Err(ModelError::NoRegister);
    };
    let j = (0..b.n as usize)
        .find(|&j| ctr.of(j) == off)
        .ok_or(ModelError::NoRegister)?;
    Ok(b.ctrs[j].value as u32)
}
