// SPDX-License-Identifier: GPL-2.0

//! The Haswell-EP parts that a later platform of the same design
//! (Broadwell-EP) reuses: the C-box filter split over two MSRs 0x10 apart
//! per box, the U-box filter, the PCU band filter at 0x715, the S-box type
//! with its bit-by-bit initialisation, and the S-box count from the PCU's
//! `CAPID4`. Source: the Linux driver's "Haswell-EP uncore support".

use crate::hw::box_control::{BoxControl, BoxRun};
use crate::hw::desc::{BoxKind, BoxType, Offsets, Regs, Space};
use crate::hw::global::{DeviceCount, GlobalControl};
use crate::hw::platforms::snbep::box_ctl::{Freeze, BOX_RST};
use crate::hw::platforms::snbep::special::{filter_uses, CboxFilter, FilterUse, PcuBand};
use crate::hw::program::{Addr, Ops};

/// HSX C-box filter fields, by the Linux driver's slot numbers: TID 5:0,
/// LINK 9:6, STATE 23:17, NID 47:32, OPC 60:52 together with C6 (61), NC
/// (62) and ISOC (63).
const CBOX_FIELDS: &[u64] = &[
    0x3f,
    0xf << 6,
    0x7f << 17,
    0xffff << 32,
    0xe000_0000_0000_0000 | (0x1ff << 52),
];

/// The events that use HSX C-box filter fields.
const CBOX_USES: &[FilterUse] = filter_uses!("cbox_filter.tsv");

/// The HSX C-box filter: `Cn_MSR_PMON_BOX_FILTER0` at 0xe05 + 0x10 *n*
/// (low 32 bits), `FILTER1` at 0xe06 + 0x10 *n* (high 32 bits), written low
/// then high.
pub const CBOX_FILTER: CboxFilter = CboxFilter {
    fields: CBOX_FIELDS,
    uses: CBOX_USES,
    msr: 0xe05,
    high_msr: Some(0xe06),
    stride: 0x10,
};

/// Every U-box event uses the filter (the Linux driver's
/// `hswep_ubox_hw_config` takes it for each event): thread ID (bit 0) and
/// core ID (bit 5, the bit its format file names).
const UBOX_USES: &[FilterUse] = filter_uses!("ubox_filter.tsv");

/// The HSX U-box filter, `U_MSR_PMON_FILTER` (0x707): `filter_tid` (bit 0)
/// and `filter_cid` (bit 5).
pub const UBOX_FILTER: CboxFilter = CboxFilter {
    fields: &[0x1, 0x20],
    uses: UBOX_USES,
    msr: 0x707,
    high_msr: None,
    stride: 0,
};

/// The HSX PCU band filter, `PCU_MSR_PMON_BOX_FILTER` (0x715).
pub const PCU_BAND: PcuBand = PcuBand { msr: 0x715 };

/// The S-box registers: box control 0x720, controls 0x721-0x724, counters
/// 0x726-0x729, box *n* 0xa *n* further.
pub const SBOX_SPACE: Space = Space::Msr {
    box_ctl: Some(0x720),
    ctl: Regs::Step {
        base: 0x721,
        step: 1,
    },
    ctr: Regs::Step {
        base: 0x726,
        step: 1,
    },
    offsets: Offsets::Stride(0xa),
};

/// SNB-EP's box control, its initial value written one bit at a time,
/// lowest first, each write keeping the bits before it (the Linux
/// driver's `hswep_uncore_sbox_msr_init_box`: "to avoid spurious #GPs").
#[derive(Debug)]
pub struct BitByBit(pub Freeze);

impl BoxControl for BitByBit {
    fn init(&self, ctl: Option<Addr>, ops: &mut Ops) {
        if let Some(a) = ctl {
            let mut rest = self.0.init;
            let mut v = 0;
            while rest != 0 {
                let low = rest & rest.wrapping_neg();
                v |= low;
                rest &= !low;
                ops.write(a, v);
            }
        }
    }

    fn run(&self, r: &BoxRun<'_>, ops: &mut Ops) {
        self.0.run(r, ops)
    }

    fn run_key(&self, t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
        self.0.run_key(t, run, enabled)
    }

    fn run_key_after_init(&self) -> Option<u64> {
        self.0.run_key_after_init()
    }

    fn self_clearing(&self) -> u64 {
        BOX_RST
    }
}

/// The S-box control: 0x1, 0x3, 0x10003 when first used.
pub const SBOX_CTL: BitByBit = BitByBit(Freeze {
    init: super::BOX_CTL_INIT,
});

/// The number of S-boxes the PCU's `CAPID4` (offset 0x94) gives: two when
/// its "chop" field (bits 7:6) is 0, the 6-8-core parts; otherwise the
/// table's four (`None`).
pub fn capid4_sboxes(capid4: u32) -> Option<usize> {
    ((capid4 >> 6) & 0x3 == 0).then_some(2)
}

/// No global control (boxes are frozen one by one), and the S-box count
/// in the PCU's `CAPID4` (offset 0x94) of PCI device `device`, as
/// `decode` reads it: Haswell-EP's, and Broadwell-EP's with its own
/// device ID and reading.
#[derive(Debug)]
pub struct Capid4 {
    /// The PCU function's device ID.
    pub device: u16,
    /// The S-box count of a `CAPID4` value, when it lowers the table's.
    pub decode: fn(u32) -> Option<usize>,
}

impl GlobalControl for Capid4 {
    fn device_count(&self) -> Option<DeviceCount> {
        Some(DeviceCount {
            kind: BoxKind::Sbox,
            device: self.device,
            offset: 0x94,
            name: "PCU CAPID4",
            decode: self.decode,
        })
    }
}

/// The HSX global control: none, with the S-box count of `CAPID4` in PCU
/// function 0x2fc0.
pub const HSX_GLOBAL: Capid4 = Capid4 {
    device: 0x2fc0,
    decode: capid4_sboxes,
};
