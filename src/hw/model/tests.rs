// SPDX-License-Identifier: GPL-2.0

//! Tests of the register model: each behaviour cites the manual section it
//! implements, and a driver-style sequence (the core's programming
//! sequences, executed on the model) counts injected events exactly for
//! every box type of every platform, including across wraps.

use super::*;
use crate::hw::bits::low_mask;
use crate::hw::counter::{delta, read_split};
use crate::hw::desc::{BoxKind, BoxType, Space};
use crate::hw::encode::{encode, Attr, Kind};
use crate::hw::global::GlobalControl;
use crate::hw::platforms::nhmex::control::{u_global, UGlobal};
use crate::hw::platforms::nhmex::special::{S_OCCUPANCY_EVENTS, S_RESET_OCC_CNT};
use crate::hw::program::{self, Addr, Ctr, GlobalState, Op, Ops};
use crate::hw::shared::Shared;
use std::string::ToString;
use std::vec::Vec;

mod preconditions_tests;

/// A minimal driver: executes programming sequences on the model.
struct Drv {
    m: Model,
    s: usize,
}

impl Drv {
    fn new(p: PlatformId, sockets: usize) -> Self {
        Drv {
            m: Model::new(p, sockets),
            s: 0,
        }
    }

    fn exec(&mut self, t: &BoxType, i: usize, ops: &Ops) {
        for op in ops.as_slice() {
            match *op {
                Op::Write(Addr::Msr(a), v) => self.m.wrmsr(self.s, a.addr(), v).unwrap(),
                Op::Write(Addr::Cfg(off), v) => self
                    .m
                    .cfg_write(
                        self.s,
                        Role::Box {
                            ty: t.kind,
                            index: i as u8,
                        },
                        off.offset(),
                        v as u32,
                    )
                    .unwrap(),
                Op::Write(Addr::Helper(off), v) => self
                    .m
                    .cfg_write(
                        self.s,
                        Role::QpiFilter { port: i as u8 },
                        off.offset(),
                        v as u32,
                    )
                    .unwrap(),
                Op::Write(Addr::Mmio(_), _) => panic!("no MMIO writes"),
                Op::WriteControlHalf(a, ctl) => {
                    let old = self.m.rdmsr(self.s, a.addr()).unwrap();
                    self.m
                        .wrmsr(self.s, a.addr(), (ctl & !0xffff_ffff) | (old & 0xffff_ffff))
                        .unwrap();
                }
            }
        }
    }

    fn read(&self, t: &BoxType, i: usize, c: Ctr) -> u64 {
        let r = program::counter_reg(t, i, c);
        let role = Role::Box {
            ty: t.kind,
            index: i as u8,
        };
        let v = match r.addr {
            Addr::Msr(a) => self.m.rdmsr(self.s, a.addr()).unwrap(),
            Addr::Cfg(off) => read_split::<()>(
                || Ok(self.m.cfg_read(self.s, role, off.offset()).unwrap()),
                || Ok(self.m.cfg_read(self.s, role, off.offset() + 4).unwrap()),
            )
            .unwrap(),
            Addr::Mmio(off) => u64::from(self.m.mmio_read(self.s, off).unwrap()),
            Addr::Helper(_) => panic!(),
        };
        program::read_value(t, c, v & low_mask(r.width))
    }
}

/// One programmed event: where it runs and what it was.
struct Prog {
    ctr: Ctr,
    width: u32,
}

/// Programs `attr` on box `i` of `t` the way the driver does and starts it.
fn program(d: &mut Drv, t: &'static BoxType, i: usize, attr: Attr, shared: &mut Shared) -> Prog {
    let p = d.m.desc();
    let g = GlobalState::default();
    let e = encode(t, i, attr).unwrap_or_else(|err| panic!("{}: {}", t.name(), err));
    d.exec(t, i, &program::global_init(p, &g));
    d.exec(t, i, &program::box_init(t, i));
    let ctr = match e.kind {
        Kind::General => Ctr::General(e.counters.trailing_zeros() as u8),
        Kind::Fixed => Ctr::Fixed,
        Kind::FreeRunning(j) => Ctr::Free(j),
    };
    let choice = shared.take(&e.shared).expect("shared registers free");
    let ch = (!e.shared.is_none()).then(|| e.shared.choices()[choice as usize]);
    d.exec(
        t,
        i,
        &program::event_enable(t, i, ctr, e.ctl_for(choice), shared, ch.as_ref(), false),
    );
    let enabled = match ctr {
        Ctr::General(j) => 1 << j,
        Ctr::Fixed => 1 << t.fixed_index(),
        Ctr::Free(_) => 0,
    };
    d.exec(t, i, &program::box_run(p, t, i, true, enabled, &g));
    let width = program::counter_reg(t, i, ctr).width;
    Prog { ctr, width }
}

/// A simple event each box type counts, with a matching occurrence.
fn sample(t: &BoxType) -> (Attr, Occurrence) {
    match t.kind {
        BoxKind::Bbox => (
            Attr::config((1 << 6) | (7 << 1)),
            Occurrence {
                props: Props {
                    counter: Some(1),
                    ..Props::default()
                },
                ..Occurrence::simple(7, 0, 0)
            },
        ),
        BoxKind::Mbox => (Attr::config(0x6 << 9), Occurrence::simple(0x6, 0, 0)),
        BoxKind::Rbox => (
            Attr {
                config: 0,
                config1: 0x8000_0000,
                config2: 0,
            },
            Occurrence {
                props: Props {
                    sub: Some(0x8000_0000),
                    ..Props::default()
                },
                ..Occurrence::simple(0, 0, 0)
            },
        ),
        _ if t.special.free_running() => (Attr::config(2), Occurrence::simple(2, 0, 0)),
        _ if matches!(t.space, Space::Combined { .. }) => (
            Attr::config(0x3 << 32),
            Occurrence {
                props: Props {
                    sub: Some(1 << 32),
                    ..Props::default()
                },
                ..Occurrence::simple(0, 0, 0)
            },
        ),
        _ if t.format("umask").is_none() => (Attr::config(0x14), Occurrence::simple(0x14, 0, 0)),
        _ => (Attr::config(0x0114), Occurrence::simple(0x14, 0x01, 0)),
    }
}

#[test]
fn every_box_of_every_platform_counts_injections_exactly() {
    for p in crate::hw::platforms::ALL {
        for t in p.types {
            for i in 0..t.num_boxes as usize {
                for s in 0..2 {
                    let mut d = Drv::new(p.id, 2);
                    d.s = s;
                    let mut sh = Shared::default();
                    let (attr, mut occ) = sample(t);
                    let pr = program(&mut d, t, i, attr, &mut sh);
                    let before = d.read(t, i, pr.ctr);
                    occ.cycles = 1000 + i as u64;
                    let hits = d.m.inject(s, t.kind, i as u8, &occ).unwrap();
                    assert_eq!(hits, 1, "{}/{}{}", p.name, t.name(), i);
                    let after = d.read(t, i, pr.ctr);
                    assert_eq!(
                        delta(before, after, pr.width),
                        1000 + i as u64,
                        "{}/{}{} socket {}",
                        p.name,
                        t.name(),
                        i,
                        s
                    );
                    // The other socket saw nothing.
                    let other = 1 - s;
                    let d2 = Drv { m: d.m, s: other };
                    assert_eq!(
                        d2.read(t, i, pr.ctr),
                        0,
                        "{}/{}{}: socket {} counted",
                        p.name,
                        t.name(),
                        i,
                        other
                    );
                }
            }
        }
    }
}

#[test]
fn fixed_counters_count_clockticks() {
    for p in crate::hw::platforms::ALL {
        for t in p.types.iter().filter(|t| t.fixed.is_some()) {
            let mut d = Drv::new(p.id, 1);
            let mut sh = Shared::default();
            let pr = program(&mut d, t, 0, Attr::config(0xff), &mut sh);
            assert_eq!(pr.ctr, Ctr::Fixed);
            d.m.inject(0, t.kind, 0, &Occurrence::simple(0xff, 0, 123_456))
                .unwrap();
            assert_eq!(d.read(t, 0, Ctr::Fixed), 123_456, "{}/{}", p.name, t.name());
        }
    }
}

#[test]
fn counts_are_exact_across_wraps_for_every_width() {
    for p in crate::hw::platforms::ALL {
        for t in p.types {
            let mut d = Drv::new(p.id, 1);
            let mut sh = Shared::default();
            let (attr, mut occ) = sample(t);
            let pr = program(&mut d, t, 0, attr, &mut sh);
            let (Ctr::General(j) | Ctr::Free(j)) = pr.ctr else {
                continue;
            };
            let max = low_mask(pr.width);
            d.m.preload(0, t.kind, 0, j as usize, max - 10).unwrap();
            let mut prev = d.read(t, 0, pr.ctr);
            let mut total = 0u64;
            for step in [5u64, 20, 1 << 20, 7] {
                occ.cycles = step;
                d.m.inject(0, t.kind, 0, &occ).unwrap();
                let now = d.read(t, 0, pr.ctr);
                total += delta(prev, now, pr.width);
                prev = now;
            }
            assert_eq!(total, 5 + 20 + (1 << 20) + 7, "{}/{}", p.name, t.name());
        }
    }
}

// ---- SNB-EP semantics (327043) ----

#[test]
fn snbep_box_ctl_bits_are_write_only_and_freeze_needs_frz_en() {
    // Table 2-9: frz_en, frz, rst_ctrs and rst_ctrl are WO.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    m.wrmsr(0, 0xd04, 0x10100).unwrap();
    assert_eq!(m.rdmsr(0, 0xd04).unwrap(), 0, "reads as zero");
    m.wrmsr(0, 0xd10, 0x40_0114).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 0, "frozen with frz_en");
    // A read-modify-write that clears frz from the value read (0) also
    // clears frz_en; the box runs, but can no longer be frozen by frz alone.
    let v = m.rdmsr(0, 0xd04).unwrap() & !(1 << 8);
    m.wrmsr(0, 0xd04, v).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 10);
    m.wrmsr(0, 0xd04, 1 << 8).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    assert_eq!(
        m.rdmsr(0, 0xd16).unwrap(),
        20,
        "frz without frz_en is ignored"
    );
}

#[test]
fn snbep_reset_bits() {
    // §2.1.1 e and Table 2-9: rst_ctrs clears counters, rst_ctrl controls;
    // iMC and HA have no reset bits.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    m.wrmsr(0, 0xd10, 0x40_0114).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    m.wrmsr(0, 0xd04, 0x2).unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 0);
    assert_eq!(m.rdmsr(0, 0xd10).unwrap(), 0x40_0114);
    m.wrmsr(0, 0xd04, 0x1).unwrap();
    assert_eq!(m.rdmsr(0, 0xd10).unwrap(), 0);
    let imc = Role::Box {
        ty: BoxKind::Imc,
        index: 0,
    };
    m.cfg_write(0, imc, 0xd8, 0x40_0304).unwrap();
    m.inject(0, BoxKind::Imc, 0, &Occurrence::simple(0x04, 3, 5))
        .unwrap();
    m.cfg_write(0, imc, 0xf4, 0x3).unwrap();
    assert_eq!(m.cfg_read(0, imc, 0xa0).unwrap(), 5, "iMC ignores rst_ctrs");
    // Table 2-10: a control write with rst (bit 17) clears the counter.
    m.wrmsr(0, 0xd10, 0x42_0114).unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 0);
}

#[test]
fn snbep_counter_width_and_reserved_bits() {
    // Table 2-11: 44-bit counters; Table 2-10: reserved bits read zero.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    m.wrmsr(0, 0xd16, u64::MAX).unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), (1 << 44) - 1);
    m.wrmsr(0, 0xd10, 0x0033_0000).unwrap();
    assert_eq!(
        m.rdmsr(0, 0xd10).unwrap(),
        0,
        "bits 21:20, 17 and 16 do not stick"
    );
    assert_eq!(m.rdmsr(0, 0x1234), Err(ModelError::NoRegister));
}

#[test]
fn snbep_cbox_filter_tid_state_opc() {
    // §2.3.3.3, Table 2-12.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    m.wrmsr(0, 0xd14, (0x4 << 18) | 0x3).unwrap(); // state E, tid 3
    m.wrmsr(0, 0xd10, 0x48_0334).unwrap(); // tid_en
    m.wrmsr(0, 0xd11, 0x40_0334).unwrap();
    let occ = |tid, state| Occurrence {
        props: Props {
            tid: Some(tid),
            state: Some(state),
            ..Props::default()
        },
        ..Occurrence::simple(0x34, 0x03, 7)
    };
    m.inject(0, BoxKind::Cbox, 0, &occ(3, 2)).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ(2, 2)).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ(3, 1)).unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 7, "TID 3 and state E only");
    assert_eq!(
        m.rdmsr(0, 0xd17).unwrap(),
        14,
        "no TID filter without tid_en"
    );
}

#[test]
fn pci_counters_split_into_dwords() {
    // Table 1-3: PCI counters at 0xa0 + 8j, 48 bits.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    let ha = Role::Box {
        ty: BoxKind::Ha,
        index: 0,
    };
    m.cfg_write(0, ha, 0xa4, 0xffff_ffff).unwrap();
    m.cfg_write(0, ha, 0xa0, 0xffff_fffe).unwrap();
    assert_eq!(m.cfg_read(0, ha, 0xa4).unwrap(), 0xffff, "48-bit counter");
    m.cfg_write(0, ha, 0xd8, 0x40_0101).unwrap();
    m.inject(0, BoxKind::Ha, 0, &Occurrence::simple(1, 1, 3))
        .unwrap();
    assert_eq!(m.cfg_read(0, ha, 0xa0).unwrap(), 1);
    assert_eq!(m.cfg_read(0, ha, 0xa4).unwrap(), 0, "wrapped");
    assert_eq!(m.cfg_read(0, ha, 0), Ok(0x3c46_8086));
}

#[test]
fn split_read_of_a_model_counter_never_tears() {
    // The low dword carries into the high dword between the two reads.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    let ha = Role::Box {
        ty: BoxKind::Ha,
        index: 0,
    };
    m.cfg_write(0, ha, 0xd8, 0x40_0101).unwrap();
    m.cfg_write(0, ha, 0xa0, 0xffff_fff0).unwrap();
    let cell = core::cell::RefCell::new(m);
    let mut his = 0;
    let v = read_split::<()>(
        || Ok(cell.borrow().cfg_read(0, ha, 0xa0).unwrap()),
        || {
            his += 1;
            let hi = cell.borrow().cfg_read(0, ha, 0xa4).unwrap();
            if his == 1 {
                cell.borrow_mut()
                    .inject(0, BoxKind::Ha, 0, &Occurrence::simple(1, 1, 0x20))
                    .unwrap();
            }
            Ok(hi)
        },
    )
    .unwrap();
    assert_eq!(v, 0x1_0000_0010);
    // The naive order (low, then high) would have read 0x1_ffff_fff0.
}

#[test]
fn ubox_node_map_registers() {
    let m = Model::new(PlatformId::IVY_BRIDGE_EP, 4);
    let mut ub = [crate::hw::pci::UboxRegs {
        bus: 0,
        nodeid: 0,
        gidnidmap: 0,
    }; 4];
    for (s, u) in ub.iter_mut().enumerate() {
        u.bus = m.sockets[s].bus;
        u.nodeid = m
            .cfg_read(s, Role::Ubox, crate::hw::pci::CPUNODEID)
            .unwrap();
        u.gidnidmap = m
            .cfg_read(s, Role::Ubox, crate::hw::pci::GIDNIDMAP)
            .unwrap();
    }
    let mut map = [None; 256];
    crate::hw::pci::bus_to_socket(&ub, &mut map).unwrap();
    for s in 0..4 {
        assert_eq!(map[m.sockets[s].bus as usize], Some(s as u8));
    }
}

#[test]
fn qpi_match_mask_in_the_helper_device() {
    let mut d = Drv::new(PlatformId::SANDY_BRIDGE_EP, 1);
    let t = d.m.desc().box_type("qpi").unwrap();
    let mut sh = Shared::default();
    let attr = Attr {
        config: 0x38,
        config1: 0x1c00,
        config2: 0x1f80,
    };
    let pr = program(&mut d, t, 1, attr, &mut sh);
    assert_eq!(
        d.m.cfg_read(0, Role::QpiFilter { port: 1 }, 0x228).unwrap(),
        0x1c00
    );
    assert_eq!(
        d.m.cfg_read(0, Role::QpiFilter { port: 1 }, 0x238).unwrap(),
        0x1f80
    );
    let pk = |v| Occurrence {
        props: Props {
            packet: Some(v),
            ..Props::default()
        },
        ..Occurrence::simple(0x38, 0, 1)
    };
    d.m.inject(0, BoxKind::Qpi, 1, &pk(0x1c40)).unwrap();
    d.m.inject(0, BoxKind::Qpi, 1, &pk(0x1d00)).unwrap();
    assert_eq!(d.read(t, 1, pr.ctr), 1);
}

/// The B-box match/mask polarity: a set mask bit selects its bit for the
/// comparison, as on the R-box, whose derived events pair a match with the
/// mask of the fields compared (325294 Table 2-53: `DRS.AnyDataC` is match
/// 0x1C00, mask 0x1F80); the B-box's Table 2-23 names its mask fields
/// without saying. So `mask=0x0` matches every packet (the catalog's
/// `*_match` aliases), and a mask over `opc_in` counts only that opcode.
#[test]
fn bbox_mask_bits_select() {
    let opc_in = |v: u64| v << 52;
    let pk = |v| Occurrence {
        props: Props {
            packet: Some(v),
            ..Props::default()
        },
        ..Occurrence::simple(0x2, 0, 1)
    };
    // `opcode_addr_in_match`: event 0x2 on counter 0.
    for (mask, want) in [(0, 2), (opc_in(0xf), 1)] {
        let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
        let t = d.m.desc().box_type("bbox").unwrap();
        let mut sh = Shared::default();
        let attr = Attr {
            config: 0x2 << 1,
            config1: opc_in(5),
            config2: mask,
        };
        let pr = program(&mut d, t, 0, attr, &mut sh);
        d.m.inject(0, BoxKind::Bbox, 0, &pk(opc_in(5) | 0x40))
            .unwrap();
        d.m.inject(0, BoxKind::Bbox, 0, &pk(opc_in(6))).unwrap();
        assert_eq!(d.read(t, 0, pr.ctr), want, "mask {:#x}", mask);
    }
}

#[test]
fn pcu_band_threshold() {
    let mut d = Drv::new(PlatformId::SANDY_BRIDGE_EP, 1);
    let t = d.m.desc().box_type("pcu").unwrap();
    let mut sh = Shared::default();
    let pr = program(
        &mut d,
        t,
        0,
        Attr {
            config: 0xb,
            config1: 20,
            config2: 0,
        },
        &mut sh,
    );
    let at = |f| Occurrence {
        props: Props {
            freq: Some(f),
            ..Props::default()
        },
        ..Occurrence::simple(0xb, 0, 100)
    };
    d.m.inject(0, BoxKind::Pcu, 0, &at(19)).unwrap();
    d.m.inject(0, BoxKind::Pcu, 0, &at(20)).unwrap();
    d.m.inject(0, BoxKind::Pcu, 0, &at(30)).unwrap();
    assert_eq!(d.read(t, 0, pr.ctr), 200);
}

#[test]
fn threshold_invert_edge() {
    // §1.4: thresh compares each cycle's increment; invert flips it; edge
    // counts rising edges.
    let mut m = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    let occ = Occurrence {
        inc: 5,
        ..Occurrence::simple(0x14, 1, 10)
    };
    m.wrmsr(0, 0xd10, 0x40_0114).unwrap();
    m.wrmsr(0, 0xd11, 0x0440_0114).unwrap();
    m.wrmsr(0, 0xd12, 0x06c0_0114).unwrap();
    m.wrmsr(0, 0xd13, 0x0144_0114).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 50, "raw increments");
    assert_eq!(m.rdmsr(0, 0xd17).unwrap(), 10, "inc 5 >= 4 in 10 cycles");
    assert_eq!(m.rdmsr(0, 0xd18).unwrap(), 10, "inc 5 < 6 inverted");
    assert_eq!(m.rdmsr(0, 0xd19).unwrap(), 1, "one rising edge");
}

// ---- IVB-EP ----

#[test]
fn ivbep_frz_freezes_without_frz_en() {
    let mut m = Model::new(PlatformId::IVY_BRIDGE_EP, 1);
    m.wrmsr(0, 0xd10, 0x40_0114).unwrap();
    m.wrmsr(0, 0xd04, 1 << 8).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 0);
    m.wrmsr(0, 0xd04, 0).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xd16).unwrap(), 10);
}

#[test]
fn ivbep_controls_have_no_inv() {
    // IVB-EP's controls lack SNB-EP's `inv` (bit 23): it does not stick, in
    // the U-box, the C-boxes or the PCI boxes; SNB-EP keeps it.
    let mut m = Model::new(PlatformId::IVY_BRIDGE_EP, 1);
    m.wrmsr(0, 0xc10, 0xc0_0011).unwrap();
    assert_eq!(m.rdmsr(0, 0xc10).unwrap(), 0x40_0011, "U-box");
    m.wrmsr(0, 0xd10, 0xc0_0114).unwrap();
    assert_eq!(m.rdmsr(0, 0xd10).unwrap(), 0x40_0114, "C-box");
    let ha = Role::Box {
        ty: BoxKind::Ha,
        index: 0,
    };
    m.cfg_write(0, ha, 0xd8, 0xc0_0001).unwrap();
    assert_eq!(m.cfg_read(0, ha, 0xd8).unwrap(), 0x40_0001, "HA");
    let mut s = Model::new(PlatformId::SANDY_BRIDGE_EP, 1);
    s.wrmsr(0, 0xd10, 0xc0_0114).unwrap();
    assert_eq!(s.rdmsr(0, 0xd10).unwrap(), 0xc0_0114, "SNB-EP C-box");
}

#[test]
fn ivbep_cbox_filter_is_split_over_two_msrs() {
    let mut d = Drv::new(PlatformId::IVY_BRIDGE_EP, 1);
    let t = d.m.desc().box_type("cbox").unwrap();
    let mut sh = Shared::default();
    let attr = Attr {
        config: 0x4134,
        config1: (0x1 << 17) | (0x2 << 32),
        config2: 0,
    };
    let pr = program(&mut d, t, 3, attr, &mut sh);
    assert_eq!(d.m.rdmsr(0, 0xd14 + 0x60).unwrap(), 0x1 << 17);
    assert_eq!(d.m.rdmsr(0, 0xd1a + 0x60).unwrap(), 0x2);
    let occ = |nid, state| Occurrence {
        props: Props {
            nid: Some(nid),
            state: Some(state),
            ..Props::default()
        },
        ..Occurrence::simple(0x34, 0x41, 4)
    };
    d.m.inject(0, BoxKind::Cbox, 3, &occ(1, 0)).unwrap();
    d.m.inject(0, BoxKind::Cbox, 3, &occ(0, 0)).unwrap();
    assert_eq!(d.read(t, 3, pr.ctr), 4);
}

// ---- Haswell-EP (the Linux driver's "Haswell-EP uncore support") ----

/// The MSR writes of `ops`, in order.
fn msr_writes(ops: &Ops) -> Vec<(u32, u64)> {
    ops.as_slice()
        .iter()
        .filter_map(|op| match *op {
            Op::Write(Addr::Msr(a), v) => Some((a.addr(), v)),
            _ => None,
        })
        .collect()
}

#[test]
fn hsx_cbox_filter_is_split_over_two_msrs_low_then_high() {
    // C-box 3's filter: FILTER0 at 0xe05 + 0x30, FILTER1 at 0xe06 + 0x30;
    // TOR_INSERTS.NID_OPCODE (0x4135) uses the node and opcode fields.
    let mut d = Drv::new(PlatformId::HASWELL_EP, 1);
    let t = d.m.desc().box_type("cbox").unwrap();
    let attr = Attr {
        config: 0x4135,
        config1: (0x2 << 32) | (0x182 << 52),
        config2: 0,
    };
    let e = encode(t, 3, attr).unwrap();
    let mut sh = Shared::default();
    let choice = sh.take(&e.shared).expect("the filter is free");
    let ch = e.shared.choices()[choice as usize];
    let ops = program::event_enable(
        t,
        3,
        Ctr::General(0),
        e.ctl_for(choice),
        &sh,
        Some(&ch),
        false,
    );
    let w = msr_writes(&ops);
    let lo = w
        .iter()
        .position(|&(a, _)| a == 0xe35)
        .expect("FILTER0 written");
    let hi = w
        .iter()
        .position(|&(a, _)| a == 0xe36)
        .expect("FILTER1 written");
    assert!(lo < hi, "low half first: {w:x?}");
    assert_eq!(w[lo].1, 0);
    assert_eq!(w[hi].1, 0x2 | (0x182 << 20));
    let mut sh = Shared::default();
    let pr = program(&mut d, t, 3, attr, &mut sh);
    assert_eq!(d.m.rdmsr(0, 0xe35).unwrap(), 0);
    assert_eq!(d.m.rdmsr(0, 0xe36).unwrap(), 0x2 | (0x182 << 20));
    let occ = |nid, opc| Occurrence {
        props: Props {
            nid: Some(nid),
            opc: Some(opc),
            ..Props::default()
        },
        ..Occurrence::simple(0x35, 0x41, 4)
    };
    d.m.inject(0, BoxKind::Cbox, 3, &occ(0, 0x182)).unwrap();
    d.m.inject(0, BoxKind::Cbox, 3, &occ(1, 0x180)).unwrap();
    assert_eq!(d.read(t, 3, pr.ctr), 0, "another node, another opcode");
    d.m.inject(0, BoxKind::Cbox, 3, &occ(1, 0x182)).unwrap();
    assert_eq!(d.read(t, 3, pr.ctr), 4, "node 1 and opcode 0x182 only");
}

#[test]
fn hsx_cbox_filter_fields_are_the_linux_drivers() {
    // `hswep_uncore_cbox_extra_regs`: LLC_LOOKUP.NID (0x4134) uses the
    // state field only, TOR_INSERTS.OPCODE (0x0135) the link and opcode
    // fields, tid_en the thread field.
    let f = &crate::hw::platforms::hsx::special::CBOX_FILTER;
    assert_eq!(f.fields_used(0x4134), 0x4);
    assert_eq!(f.fields_used(0x0135), 0x12);
    assert_eq!(f.fields_used(0x4335), 0x18);
    assert_eq!(f.fields_used(0x8_0014), 0x1);
    assert_eq!(f.fields_used(0x0014), 0);
    let t = crate::hw::platforms::hsx::HSX.box_type("cbox").unwrap();
    // The node field is refused on LLC_LOOKUP.NID, as the Linux driver
    // drops it.
    let nid = Attr {
        config: 0x4134,
        config1: 0x1 << 32,
        config2: 0,
    };
    assert!(encode(t, 0, nid).is_err());
}

#[test]
fn hsx_sbox_is_initialised_bit_by_bit() {
    // `hswep_uncore_sbox_msr_init_box`: 0x1, 0x3, 0x10003 to S-box 2's
    // box control (0x720 + 2 * 0xa); the other boxes in one write.
    let p = crate::hw::platforms::hsx::HSX;
    let s = p.box_type("sbox").unwrap();
    assert_eq!(
        msr_writes(&program::box_init(s, 2)),
        [(0x734, 0x1), (0x734, 0x3), (0x734, 0x1_0003)]
    );
    let c = p.box_type("cbox").unwrap();
    assert_eq!(msr_writes(&program::box_init(c, 17)), [(0xf10, 0x1_0003)]);
    // The model takes the writes and the S-box counts, frozen by `frz`.
    let mut d = Drv::new(PlatformId::HASWELL_EP, 1);
    let mut sh = Shared::default();
    let attr = Attr {
        config: 0x0114,
        ..Attr::default()
    };
    let pr = program(&mut d, s, 2, attr, &mut sh);
    d.m.inject(0, BoxKind::Sbox, 2, &Occurrence::simple(0x14, 1, 7))
        .unwrap();
    assert_eq!(d.read(s, 2, pr.ctr), 7);
    d.m.wrmsr(0, 0x734, 0x1_0100).unwrap();
    d.m.inject(0, BoxKind::Sbox, 2, &Occurrence::simple(0x14, 1, 7))
        .unwrap();
    assert_eq!(d.read(s, 2, pr.ctr), 7, "frozen");
}

#[test]
fn hsx_ubox_and_pcu_filters() {
    // Every U-box event writes U_MSR_PMON_FILTER (0x707) with its
    // filter_tid (bit 0) and filter_cid (bit 5); a PCU band event the band
    // filter at 0x715.
    let p = crate::hw::platforms::hsx::HSX;
    let mut d = Drv::new(PlatformId::HASWELL_EP, 1);
    let u = p.box_type("ubox").unwrap();
    let mut sh = Shared::default();
    let attr = Attr {
        config: 0x0114,
        config1: 0x21,
        config2: 0,
    };
    program(&mut d, u, 0, attr, &mut sh);
    assert_eq!(d.m.rdmsr(0, 0x707).unwrap(), 0x21);
    let bad = Attr {
        config: 0x0114,
        config1: 0x2,
        config2: 0,
    };
    assert!(encode(u, 0, bad).is_err(), "bits 4:1 have no format");
    let pcu = p.box_type("pcu").unwrap();
    let mut sh = Shared::default();
    let band1 = Attr {
        config: 0xc,
        config1: 0x14 << 8,
        config2: 0,
    };
    program(&mut d, pcu, 0, band1, &mut sh);
    assert_eq!(d.m.rdmsr(0, 0x715).unwrap(), 0x14 << 8);
}

#[test]
fn hsx_sbox_count_from_capid4() {
    // The Linux driver's hswep_has_limit_sbox: CAPID4 bits 7:6 ("chop") 0
    // means two S-boxes; otherwise the table's four.
    use crate::hw::platforms::hsx::special::capid4_sboxes;
    assert_eq!(capid4_sboxes(0), Some(2));
    assert_eq!(capid4_sboxes(0x3f), Some(2));
    assert_eq!(capid4_sboxes(1 << 6), None);
    assert_eq!(capid4_sboxes(3 << 6), None);
    assert_eq!(capid4_sboxes(0xffff_ff3f), Some(2));
    let d = crate::hw::platforms::hsx::HSX
        .global
        .device_count()
        .expect("HSX reads its S-box count");
    assert_eq!((d.kind, d.device, d.offset), (BoxKind::Sbox, 0x2fc0, 0x94));
    // Broadwell-EP (bdx_uncore_cpu_init): chop 0 means no S-box at all, in
    // the PCU function 0x6fc0; Broadwell-DE has none to count.
    use crate::hw::platforms::bdx::special::capid4_sboxes as bdx_sboxes;
    assert_eq!(bdx_sboxes(0x3f), Some(0));
    assert_eq!(bdx_sboxes(2 << 6), None);
    let d = crate::hw::platforms::bdx::BDX
        .global
        .device_count()
        .expect("BDX reads its S-box count");
    assert_eq!((d.kind, d.device, d.offset), (BoxKind::Sbox, 0x6fc0, 0x94));
    assert_eq!((d.decode)(0), Some(0));
    for p in crate::hw::platforms::ALL {
        if p.id != PlatformId::HASWELL_EP && p.id != PlatformId::BROADWELL_X {
            assert!(p.global.device_count().is_none(), "{}", p.name);
        }
    }
}

// ---- NHM-EX / WSM-EX (325294) ----

#[test]
fn wsmex_enable_hierarchy() {
    // §2.1.3: counting needs en_all, the box's ctr_en bit and the counter's en.
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    let occ = Occurrence::simple(0x14, 1, 10);
    m.wrmsr(0, 0xd10, 0x40_0114).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ).unwrap();
    m.wrmsr(0, 0xd00, 1).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0xd11).unwrap(), 0, "no en_all yet");
    m.wrmsr(0, 0xc00, 1 << 28).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0xd11).unwrap(), 10);
    m.wrmsr(0, 0xd00, 0).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0xd11).unwrap(), 10, "box enable cleared");
    // rst_all clears every counter (Table 2-2).
    m.wrmsr(0, 0xc00, (1 << 29) | (1 << 28)).unwrap();
    assert_eq!(m.rdmsr(0, 0xd11).unwrap(), 0);
}

/// Programs event 0x14 on C-box `cb`'s counter 0 with `pmi_en`, preloaded
/// `left` below overflow.
fn arm_cbox(m: &mut Model, cb: usize, left: u64) {
    let base = crate::hw::platforms::nhmex::CBOX_OFFSETS[cb] + 0xd00;
    m.wrmsr(0, base, 1).unwrap();
    m.wrmsr(0, base + 0x10, 0x50_0114).unwrap();
    m.wrmsr(0, base + 0x11, (1 << 48) - left).unwrap();
}

#[test]
fn wsmex_overflow_propagates_up_and_clears_down() {
    // §2.1.4 and Table 2-26: box status -> S-box summary -> U-box status;
    // §2.1.5 b: clearing the box's bit clears the summaries above it.
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    m.wrmsr(0, 0xc00, (1 << 28) | (1 << 3)).unwrap(); // en_all, PMI to core 2
    arm_cbox(&mut m, 7, 5);
    m.inject(0, BoxKind::Cbox, 7, &Occurrence::simple(0x14, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xde1).unwrap(), 1, "C-box 7 counter 0");
    assert_eq!(m.rdmsr(0, 0xcc3).unwrap(), 1 << 2, "S1 ov_c_m");
    assert_eq!(m.rdmsr(0, 0xc43).unwrap(), 0);
    let st = m.rdmsr(0, 0xc01).unwrap();
    assert_eq!(st & 0xf, 1 << 2, "ov_s1");
    assert_ne!(st & (1 << 30), 0, "pmi");
    assert_eq!(m.take_pmi(0), 1 << 2, "core 2");
    assert_eq!(m.take_pmi(0), 0);
    assert_eq!(
        m.rdmsr(0, 0xde0 + 0x11).unwrap(),
        5,
        "wrapped and kept counting"
    );
    m.wrmsr(0, 0xde2, 1).unwrap();
    assert_eq!(m.rdmsr(0, 0xde1).unwrap(), 0);
    assert_eq!(m.rdmsr(0, 0xcc3).unwrap(), 0);
    assert_eq!(m.rdmsr(0, 0xc01).unwrap() & 0xf, 0);
    m.wrmsr(0, 0xc02, 1 << 30).unwrap();
    assert_eq!(m.rdmsr(0, 0xc01).unwrap() & (1 << 30), 0);
}

#[test]
fn wsmex_summary_bits_cover_every_box() {
    // Table 2-26 on both sides, plus the W-box and U-box bits of Table 2-3.
    let cases: &[(&str, u8, u32, u64, u64)] = &[
        ("cbox", 0, 0xc43, 1 << 0, 1 << 3),
        ("cbox", 3, 0xc43, 1 << 2, 1 << 3),
        ("cbox", 4, 0xc43, 1 << 20, 1 << 3),
        ("cbox", 5, 0xcc3, 1 << 0, 1 << 2),
        ("cbox", 9, 0xcc3, 1 << 20, 1 << 2),
        ("rbox", 0, 0xc43, 1 << 19, 1 << 3),
        ("rbox", 1, 0xcc3, 1 << 19, 1 << 2),
        ("sbox", 0, 0xc43, 1 << 18, 1 << 3),
        ("sbox", 1, 0xcc3, 1 << 18, 1 << 2),
        ("mbox", 0, 0xc43, 1 << 16, 1 << 3),
        ("bbox", 1, 0xcc3, 1 << 16, 1 << 2),
    ];
    for &(ty, i, summary, sbit, ubit) in cases {
        let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
        let t = d.m.desc().box_type(ty).unwrap();
        let mut sh = Shared::default();
        let (attr, mut occ) = sample(t);
        let pr = program(&mut d, t, i as usize, attr, &mut sh);
        let Ctr::General(j) = pr.ctr else { panic!() };
        d.m.preload(0, t.kind, i, j as usize, (1 << 48) - 1)
            .unwrap();
        occ.cycles = 2;
        d.m.inject(0, t.kind, i, &occ).unwrap();
        assert_eq!(d.m.rdmsr(0, summary).unwrap(), sbit, "{ty}{i}");
        assert_eq!(d.m.rdmsr(0, 0xc01).unwrap() & 0xf, ubit, "{ty}{i}");
        assert_eq!(d.m.take_pmi(0), 0, "no pmi_en, no PMI");
    }
    // W-box fixed counter: W status bit 31, U ov_w.
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
    let t = d.m.desc().box_type("wbox").unwrap();
    let mut sh = Shared::default();
    program(&mut d, t, 0, Attr::config(0xff), &mut sh);
    d.m.wrmsr(0, 0x394, (1 << 48) - 1).unwrap();
    d.m.inject(0, BoxKind::Wbox, 0, &Occurrence::simple(0xff, 0, 3))
        .unwrap();
    assert_eq!(d.m.rdmsr(0, 0xc81).unwrap(), 1 << 31);
    assert_eq!(d.m.rdmsr(0, 0xc01).unwrap() & 0xf, 1 << 1);
    // U-box counter: ov_u.
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
    let t = d.m.desc().box_type("ubox").unwrap();
    let pr = program(&mut d, t, 0, Attr::config(0x14), &mut sh);
    assert_eq!(pr.ctr, Ctr::General(0));
    d.m.wrmsr(0, 0xc11, (1 << 48) - 1).unwrap();
    d.m.inject(0, BoxKind::Ubox, 0, &Occurrence::simple(0x14, 0, 3))
        .unwrap();
    assert_eq!(d.m.rdmsr(0, 0xc01).unwrap() & 0xf, 1);
}

#[test]
fn wsmex_freeze_on_pmi() {
    // §2.1.1: with pmi_en and frz_all, the U-box clears en_all.
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    m.wrmsr(0, 0xc00, (1 << 31) | (1 << 28) | (1 << 1)).unwrap();
    arm_cbox(&mut m, 0, 1);
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 3))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xc00).unwrap() & (1 << 28), 0, "en_all cleared");
    assert_eq!(m.take_pmi(0), 1, "core 0");
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x14, 1, 3))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xd11).unwrap(), 2, "frozen after the overflow");
}

#[test]
fn wsmex_pmi_only_with_pmi_en_and_a_core() {
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    m.wrmsr(0, 0xc00, 1 << 28).unwrap(); // no core selected
    arm_cbox(&mut m, 1, 1);
    m.inject(0, BoxKind::Cbox, 1, &Occurrence::simple(0x14, 1, 3))
        .unwrap();
    assert_eq!(m.take_pmi(0), 0);
    assert_ne!(
        m.rdmsr(0, 0xc01).unwrap() & (1 << 30),
        0,
        "the U-box still saw it"
    );
}

#[test]
fn wsmex_sbox_match_mask_faults_while_enabled() {
    // §2.5.3.4 b.
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    m.wrmsr(0, 0xe48, 1 << 63).unwrap();
    assert_eq!(m.wrmsr(0, 0xe49, 5), Err(ModelError::NoRegister));
    m.wrmsr(0, 0xe48, 0).unwrap();
    m.wrmsr(0, 0xe49, 5).unwrap();
}

/// `TO_R_PROG_EV` with the catalog's aliases: `to_r_prog_ev.any` counts
/// packets of every class, opcode, state, address and home node, and
/// `to_r_prog_ev.hom0` the HOM0 packets of any opcode (325294 Tables 2-33,
/// 2-35: a zero class, opcode or response field is ignored; the mask's
/// address is at 38:1, its bit 0 turns home node matching off).
#[test]
fn wsmex_sbox_prog_ev_catalog_aliases() {
    let hom0_rdcode = (1 << 43) | (1 << 48);
    let hom1_f = (1 << 44) | (1 << 63) | (0x1234 << 5) | 3;
    for (match_, want) in [(0, 2), (1 << 43, 1)] {
        let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
        let t = d.m.desc().box_type("sbox").unwrap();
        let mut sh = Shared::default();
        let attr = Attr {
            config: 0,
            config1: match_,
            config2: 0x7f_ffff_ffff,
        };
        let pr = program(&mut d, t, 0, attr, &mut sh);
        for pk in [hom0_rdcode, hom1_f] {
            let o = Occurrence {
                props: Props {
                    packet: Some(pk),
                    ..Props::default()
                },
                ..Occurrence::simple(0, 0, 1)
            };
            d.m.inject(0, BoxKind::Sbox, 0, &o).unwrap();
        }
        assert_eq!(d.read(t, 0, pr.ctr), want, "match {:#x}", match_);
    }
}

#[test]
fn wsmex_mbox_wrap_mode_zero_stops_at_overflow() {
    // Table 2-67: wrap_mode = 0 stops counting on overflow.
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    m.wrmsr(0, 0xc00, 1 << 28).unwrap();
    m.wrmsr(0, 0xca0, 1).unwrap();
    m.wrmsr(0, 0xcb0, (0x6 << 9) | 1).unwrap();
    m.wrmsr(0, 0xcb1, (1 << 48) - 2).unwrap();
    m.inject(0, BoxKind::Mbox, 0, &Occurrence::simple(0x6, 0, 5))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xcb1).unwrap(), (1 << 48) - 1);
}

#[test]
fn wsmex_rbox_pairs_and_ports() {
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
    let t = d.m.desc().box_type("rbox").unwrap();
    let mut sh = Shared::default();
    // Port 5 (rbox_1 local port 1) IPERF events.
    let a = program(
        &mut d,
        t,
        1,
        Attr {
            config: 6 << 1,
            config1: 0x8000_0000,
            config2: 0,
        },
        &mut sh,
    );
    assert_eq!(d.m.rdmsr(0, 0xe04 + 5).unwrap(), 0x8000_0000);
    let occ = Occurrence {
        props: Props {
            sub: Some(0x8000_0000),
            ..Props::default()
        },
        ..Occurrence::simple(6, 0, 9)
    };
    d.m.inject(0, BoxKind::Rbox, 1, &occ).unwrap();
    assert_eq!(d.read(t, 1, a.ctr), 9);
}

// ---- Skylake (334060) ----

#[test]
fn skl_global_enable_status_and_cbo_config() {
    let mut m = Model::new(PlatformId::SKYLAKE, 1);
    // Table 2-6: NO_CBO_BANKS = CBo units + 1; read-only.
    assert_eq!(m.rdmsr(0, 0x396).unwrap(), 5);
    assert!(m.wrmsr(0, 0x396, 1).is_err());
    m.wrmsr(0, 0x700, 0x50_0134).unwrap(); // en, OVF_EN
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x34, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0x706).unwrap(), 0, "global EN clear");
    m.wrmsr(0, 0xe01, (1 << 29) | 0x2).unwrap();
    m.wrmsr(0, 0x706, (1 << 44) - 4).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x34, 1, 10))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0x706).unwrap(), 6);
    assert_eq!(m.rdmsr(0, 0xe02).unwrap(), 1 << 3, "CBO_CTR_OVF");
    assert_eq!(m.take_pmi(0), 0x2);
    // RW1C (Table 2-3): writing 0 is ignored, 1 clears.
    m.wrmsr(0, 0xe02, 0).unwrap();
    assert_eq!(m.rdmsr(0, 0xe02).unwrap(), 1 << 3);
    m.wrmsr(0, 0xe02, 1 << 3).unwrap();
    assert_eq!(m.rdmsr(0, 0xe02).unwrap(), 0);
    // FRZ_ON_PMI clears EN.
    m.wrmsr(0, 0xe01, (1 << 31) | (1 << 29) | 0x1).unwrap();
    m.wrmsr(0, 0x706, (1 << 44) - 1).unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0x34, 1, 2))
        .unwrap();
    assert_eq!(m.rdmsr(0, 0xe01).unwrap() & (1 << 29), 0);
}

#[test]
fn skl_imc_free_running_32_bit() {
    let mut m = Model::new(PlatformId::SKYLAKE, 1);
    m.inject(0, BoxKind::Imc, 0, &Occurrence::simple(1, 0, 0xffff_fff0))
        .unwrap();
    m.inject(0, BoxKind::Imc, 0, &Occurrence::simple(1, 0, 0x20))
        .unwrap();
    assert_eq!(m.mmio_read(0, 0x5050).unwrap(), 0x10);
    m.inject(0, BoxKind::Imc, 0, &Occurrence::simple(5, 0, 3))
        .unwrap();
    assert_eq!(m.mmio_read(0, 0x5048).unwrap(), 3);
}

// ---- Xeon 7100/7400 (SDM §18.21) ----

#[test]
fn l3_counts_while_control_non_zero_and_gl_ctl_commands() {
    let mut m = Model::new(PlatformId::XEON_7100, 1);
    let occ = Occurrence {
        props: Props {
            sub: Some(1 << 32),
            ..Props::default()
        },
        ..Occurrence::simple(0, 0, 10)
    };
    m.inject(0, BoxKind::Gbsq, 0, &occ).unwrap();
    assert_eq!(
        m.rdmsr(0, 0x107cc).unwrap(),
        0,
        "control zero: not counting"
    );
    m.wrmsr(0, 0x107cc, 0x3 << 32).unwrap();
    m.inject(0, BoxKind::Gbsq, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0x107cc).unwrap(), (0x3 << 32) | 10);
    // Freeze counter 0, then reset it (GL_CTL bits 0, 2 and select 16).
    m.wrmsr(0, 0x107d8, (1 << 16) | 1).unwrap();
    m.inject(0, BoxKind::Gbsq, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0x107cc).unwrap() & 0xffff_ffff, 10);
    m.wrmsr(0, 0x107d8, (1 << 16) | 4 | 2).unwrap();
    m.inject(0, BoxKind::Gbsq, 0, &occ).unwrap();
    assert_eq!(
        m.rdmsr(0, 0x107cc).unwrap() & 0xffff_ffff,
        10,
        "reset then counted"
    );
    // Overflow sets GL_event_status.
    m.wrmsr(0, 0x107cd, (0x3 << 32) | 0xffff_fffe).unwrap();
    m.inject(0, BoxKind::Gbsq, 0, &occ).unwrap();
    assert_eq!(m.rdmsr(0, 0x107d8).unwrap() >> 48, 0b10);
    m.wrmsr(0, 0x107d8, 0b10 << 48).unwrap();
    assert_eq!(m.rdmsr(0, 0x107d8).unwrap() >> 48, 0);
}

#[test]
fn overflow_status_accounting_over_a_thousand_wraps() {
    // WSM-EX C-box and W-box counters preloaded near 2^48, then many
    // injections each less than one wrap: reading with the overflow status
    // (and clearing it) accounts every wrap once, even when an injection
    // carries a counter past its previous value.
    use crate::hw::counter::delta_with_status;
    use crate::hw::program::overflow_bit;
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 2);
    let p = d.m.desc();
    let mut total = [0u64; 2];
    let mut want = [0u64; 2];
    let mut prev = [0u64; 2];
    let cbox = p.box_type("cbox").unwrap();
    let mut sh = Shared::default();
    for (s, pv) in prev.iter_mut().enumerate() {
        d.s = s;
        let pr = program(&mut d, cbox, 3, Attr::config(0x0114), &mut sh);
        assert_eq!(pr.ctr, Ctr::General(0));
        d.m.preload(s, BoxKind::Cbox, 3, 0, (1 << 48) - 3).unwrap();
        *pv = (1 << 48) - 3;
    }
    let ob = overflow_bit(p, cbox, 3, Ctr::General(0)).unwrap();
    let ctr_msr = match program::counter_reg(cbox, 3, Ctr::General(0)).addr {
        Addr::Msr(a) => a,
        _ => panic!(),
    };
    let mut wraps = 0;
    for k in 0..1200u64 {
        let s = (k % 2) as usize;
        // Just under one wrap, so most steps pass the previous value again.
        let n = (1 << 48) - 1 - (k % 7);
        d.m.inject(s, BoxKind::Cbox, 3, &Occurrence::simple(0x14, 1, n))
            .unwrap();
        want[s] += n;
        let (now, ovf) =
            d.m.read_with_overflow(s, ctr_msr.addr(), ob.status, ob.clear, ob.bit)
                .unwrap();
        wraps += u32::from(ovf);
        total[s] += delta_with_status(prev[s], now, 48, ovf);
        prev[s] = now;
    }
    assert_eq!(total, want);
    assert!(wraps >= 1000, "{} wraps", wraps);
}

/// Westmere-EX W-box read erratum (325294 §2.8.3, the note after Table
/// 2-100): the model reads 0x1000000 high when the low 24 bits are 0 or 1,
/// and the driver's correction gives the count back, across the boundary.
#[test]
fn wbox_read_erratum_is_modelled_and_corrected() {
    let p = crate::hw::platforms::nhmex::WSMEX;
    let t = p.box_type("wbox").unwrap();
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
    let mut sh = Shared::default();
    let pr = program(&mut d, t, 0, Attr::config(0x0114), &mut sh);
    let Ctr::General(j) = pr.ctr else { panic!() };
    // Just below a 2^24 boundary.
    d.m.preload(0, BoxKind::Wbox, 0, j as usize, 0xff_fff0)
        .unwrap();
    let raw = |d: &Drv| d.m.rdmsr(0, 0xc91 + 2 * u32::from(j)).unwrap();
    let before = d.read(t, 0, pr.ctr);
    assert_eq!(before, 0xff_fff0);
    d.m.inject(0, BoxKind::Wbox, 0, &Occurrence::simple(0x14, 0x01, 0x10))
        .unwrap();
    // The counter holds 0x1000000: the raw read is 0x1000000 too high.
    assert_eq!(raw(&d), 0x200_0000);
    let after = d.read(t, 0, pr.ctr);
    assert_eq!(after, 0x100_0000);
    assert_eq!(delta(before, after, pr.width), 0x10);
    // Uncorrected, one such read followed by a good one gives a delta near
    // 2^48 (what the driver did before the correction).
    d.m.inject(0, BoxKind::Wbox, 0, &Occurrence::simple(0x14, 0x01, 0x5))
        .unwrap();
    let good = raw(&d);
    assert_eq!(good, 0x100_0005);
    assert!(delta(0x200_0000, good, 48) > 1 << 47);
    // Nehalem-EX (the Xeon 7500 guide) has no such note: reads are plain.
    let mut n = Drv::new(PlatformId::NEHALEM_EX, 1);
    let tn = crate::hw::platforms::nhmex::NHMEX.box_type("wbox").unwrap();
    let prn = program(&mut n, tn, 0, Attr::config(0x0114), &mut sh);
    let Ctr::General(k) = prn.ctr else { panic!() };
    n.m.preload(0, BoxKind::Wbox, 0, k as usize, 0x100_0000)
        .unwrap();
    assert_eq!(n.m.rdmsr(0, 0xc91 + 2 * u32::from(k)).unwrap(), 0x100_0000);
}

/// Nehalem-EX `S_MSR_PMON_SUMMARY` (its guide's Table 2-26): a C-box 4
/// overflow is `ov_c_l` (bit 2) of S-box 1, and the PMI's walk finds it;
/// Westmere-EX reports C-box 4 as `ov_c_h` (bit 20) of S-box 0.
#[test]
fn cbox4_overflow_follows_each_parts_summary_map() {
    for (p, side_summary, bit) in [
        (PlatformId::NEHALEM_EX, 0xcc3u32, 2u32),
        (PlatformId::WESTMERE_EX, 0xc43, 20),
    ] {
        let desc = crate::hw::platforms::by_id(p);
        let t = desc.box_type("cbox").unwrap();
        let mut d = Drv::new(p, 1);
        let mut sh = Shared::default();
        let pr = program(&mut d, t, 4, Attr::config(0x0114), &mut sh);
        let Ctr::General(j) = pr.ctr else { panic!() };
        // pmi_en on the counter, PMIs to core 0.
        let ops = program::event_enable(t, 4, pr.ctr, 0x0114, &sh, None, true);
        d.exec(t, 4, &ops);
        let u = u_global::EN_ALL | (1 << u_global::PMI_CORE_SEL_SHIFT);
        d.m.wrmsr(0, 0xc00, u).unwrap();
        d.m.preload(0, BoxKind::Cbox, 4, j as usize, (1 << 48) - 2)
            .unwrap();
        d.m.inject(0, BoxKind::Cbox, 4, &Occurrence::simple(0x14, 0x01, 4))
            .unwrap();
        assert_eq!(d.m.take_pmi(0), 1, "{:?}: a PMI to core 0", p);
        assert_eq!(d.m.rdmsr(0, side_summary).unwrap(), 1 << bit, "{:?}", p);
        let w = crate::hw::overflow::walk(desc, |a| d.m.rdmsr(0, a.addr()).unwrap());
        let found: std::vec::Vec<_> = w
            .hits()
            .iter()
            .map(|h| (desc.types[h.ty as usize].name(), h.index, h.counters))
            .collect();
        assert_eq!(found, [("cbox", 4, 1 << j)], "{:?}", p);
    }
}

/// S-box queue occupancy (325294 §2.5.2, the note before §2.5.3, and Table
/// 2-30): the enabling write carries `reset_occ_cnt`, so a second use of a
/// counter starts from zero; without it, the subcounter's leftover
/// occupancy is added.
#[test]
fn sbox_occupancy_starts_from_zero() {
    let p = crate::hw::platforms::nhmex::WSMEX;
    let t = p.box_type("sbox").unwrap();
    // TO_R_SNP_MSGQ_OCCUPANCY (0x0a), 3 entries for 100 cycles, twice.
    let occ = Occurrence {
        inc: 3,
        ..Occurrence::simple(0x0a, 0, 100)
    };
    for _ in 0..2 {
        let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
        for round in 0..2 {
            let mut sh = Shared::default();
            let pr = program(&mut d, t, 0, Attr::config(0x0a), &mut sh);
            let before = d.read(t, 0, pr.ctr);
            d.m.inject(0, BoxKind::Sbox, 0, &occ).unwrap();
            let after = d.read(t, 0, pr.ctr);
            assert_eq!(delta(before, after, pr.width), 300, "round {}", round);
        }
    }
    let ops = program::event_enable(t, 0, Ctr::General(0), 0x0a, &Shared::default(), None, false);
    assert!(matches!(ops.as_slice()[0], Op::Write(_, v) if v & S_RESET_OCC_CNT != 0));
    // The model keeps the occupancy without the reset bit.
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
    let mut sh = Shared::default();
    let pr = program(&mut d, t, 0, Attr::config(0x0a), &mut sh);
    d.m.inject(0, BoxKind::Sbox, 0, &occ).unwrap();
    let Ctr::General(j) = pr.ctr else { panic!() };
    let ctl = 0xc50 + 2 * u32::from(j);
    let v = d.m.rdmsr(0, ctl).unwrap();
    d.m.wrmsr(0, ctl, 0).unwrap();
    d.m.wrmsr(0, ctl, v & !S_RESET_OCC_CNT).unwrap();
    let before = d.read(t, 0, pr.ctr);
    d.m.inject(0, BoxKind::Sbox, 0, &occ).unwrap();
    assert_eq!(delta(before, d.read(t, 0, pr.ctr), pr.width), 600);
}

/// A C-box STATE (NID) filter bit number past the filter's field (the
/// simulation's `state=64`, `nid=200`) is refused with `Range` and changes
/// nothing; an in-range one counts. The last bit of the field counts.
#[test]
fn cbox_filter_bit_numbers_past_the_field_are_refused() {
    for (p, states, nodes) in [
        (PlatformId::SANDY_BRIDGE_EP, 5u8, 8u8),
        (PlatformId::IVY_BRIDGE_EP, 6, 16),
    ] {
        let pl = crate::hw::platforms::by_id(p);
        let t = pl.box_type("cbox").unwrap();
        // LLC_LOOKUP (0x34) with every state selected; with every node
        // (umask 0x41, the NID-filtered lookups).
        for (config, filter, umask, width) in [
            (0x0334, "filter_state", 0x03, states),
            (0x4134, "filter_nid", 0x41, nodes),
        ] {
            // Every lookup needs a state selected (its precondition).
            let mut attr = Attr::config(config);
            crate::hw::terms::apply(t.format(filter).unwrap(), !0, &mut attr);
            crate::hw::terms::apply(t.format("filter_state").unwrap(), !0, &mut attr);
            let mut d = Drv::new(p, 1);
            let mut sh = Shared::default();
            let pr = program(&mut d, t, 0, attr, &mut sh);
            let base = Occurrence::simple(0x34, umask, 10);
            let with = |bitno: u8| {
                let props = if filter == "filter_state" {
                    Props {
                        state: Some(bitno),
                        ..Props::default()
                    }
                } else {
                    Props {
                        nid: Some(bitno),
                        state: Some(0),
                        ..Props::default()
                    }
                };
                Occurrence { props, ..base }
            };
            // In-range bits count: the filter is on.
            for bitno in [0, width - 1] {
                let before = d.read(t, 0, pr.ctr);
                d.m.inject(0, BoxKind::Cbox, 0, &with(bitno)).unwrap();
                assert_eq!(
                    delta(before, d.read(t, 0, pr.ctr), pr.width),
                    10,
                    "{:?} {} bit {}",
                    p,
                    filter,
                    bitno
                );
            }
            for bitno in [width, 64, 255] {
                let before = d.m;
                assert_eq!(
                    d.m.inject(0, BoxKind::Cbox, 0, &with(bitno)),
                    Err(ModelError::Range),
                    "{:?} {} bit {}",
                    p,
                    filter,
                    bitno
                );
                assert_eq!(d.m, before);
            }
        }
    }
}

/// The other values past their fields: an event select past bits 8:0, a
/// TID past 5 bits and an opcode past 9 on an SNB-EP C-box, a PCU
/// `occ_sel` past 2 bits, an NHM-EX B-box counter past 3. A box without
/// the field ignores the property (a Skylake C-box's `opc`).
#[test]
fn inject_values_past_their_fields_are_refused() {
    let range = |p: PlatformId, kind: BoxKind, o: Occurrence| {
        let mut m = Model::new(p, 1);
        m.inject(0, kind, 0, &o)
    };
    let ev = |event: u16, props: Props| Occurrence {
        props,
        ..Occurrence::simple(event, 1, 1)
    };
    let snb = PlatformId::SANDY_BRIDGE_EP;
    for (p, kind, o) in [
        (snb, BoxKind::Cbox, ev(0x200, Props::default())),
        (
            PlatformId::SKYLAKE,
            BoxKind::Cbox,
            ev(0xffff, Props::default()),
        ),
        (
            snb,
            BoxKind::Cbox,
            ev(
                0x34,
                Props {
                    tid: Some(32),
                    ..Props::default()
                },
            ),
        ),
        (
            snb,
            BoxKind::Cbox,
            ev(
                0x35,
                Props {
                    opc: Some(0x200),
                    ..Props::default()
                },
            ),
        ),
        (
            snb,
            BoxKind::Pcu,
            ev(
                0x80,
                Props {
                    occ_sel: Some(4),
                    ..Props::default()
                },
            ),
        ),
        (
            PlatformId::WESTMERE_EX,
            BoxKind::Bbox,
            ev(
                0x4,
                Props {
                    counter: Some(4),
                    ..Props::default()
                },
            ),
        ),
    ] {
        assert_eq!(
            range(p, kind, o),
            Err(ModelError::Range),
            "{:?} {:?} {:?}",
            p,
            kind,
            o
        );
    }
    for (p, kind, o) in [
        (snb, BoxKind::Cbox, ev(0x1ff, Props::default())),
        (
            snb,
            BoxKind::Cbox,
            ev(
                0x34,
                Props {
                    tid: Some(31),
                    opc: Some(0x1ff),
                    state: Some(4),
                    ..Props::default()
                },
            ),
        ),
        (
            PlatformId::SKYLAKE,
            BoxKind::Cbox,
            ev(
                0x34,
                Props {
                    opc: Some(0xffff),
                    ..Props::default()
                },
            ),
        ),
    ] {
        assert!(range(p, kind, o).is_ok(), "{:?} {:?} {:?}", p, kind, o);
    }
    // A Skylake C-box has no filter: the properties do not keep an
    // occurrence from counting.
    let t = crate::hw::platforms::by_id(PlatformId::SKYLAKE)
        .box_type("cbox")
        .unwrap();
    let mut d = Drv::new(PlatformId::SKYLAKE, 1);
    let mut sh = Shared::default();
    let pr = program(&mut d, t, 0, Attr::config(0x0134), &mut sh);
    let before = d.read(t, 0, pr.ctr);
    let o = Occurrence {
        props: Props {
            tid: Some(3),
            nid: Some(1),
            state: Some(2),
            opc: Some(0x1ff),
            ..Props::default()
        },
        ..Occurrence::simple(0x34, 1, 7)
    };
    d.m.inject(0, BoxKind::Cbox, 0, &o).unwrap();
    assert_eq!(delta(before, d.read(t, 0, pr.ctr), pr.width), 7);
}

/// A step of a whole wrap or more is refused and changes nothing, on every
/// path that counts: the Skylake IMC's free-running counters (where a
/// 64-bit sum overflowed), programmed injections, fixed counters, and the
/// S-box occupancy events whose increment adds the kept occupancy.
#[test]
fn steps_of_a_whole_wrap_are_refused() {
    let mut m = Model::new(PlatformId::SKYLAKE, 1);
    let before = m.mmio_read(0, 0x5050).unwrap();
    let huge = Occurrence {
        inc: 2,
        ..Occurrence::simple(1, 0, u64::MAX)
    };
    assert_eq!(m.inject(0, BoxKind::Imc, 0, &huge), Err(ModelError::Range));
    assert_eq!(
        m.inject_programmed(0, BoxKind::Imc, 0, u64::MAX),
        Err(ModelError::Range)
    );
    assert_eq!(m.mmio_read(0, 0x5050).unwrap(), before);
    // A step just below a wrap counts and wraps as modular arithmetic.
    let near = Occurrence::simple(1, 0, (1 << 32) - 1);
    assert_eq!(m.inject(0, BoxKind::Imc, 0, &near), Ok(1));
    assert_eq!(m.inject(0, BoxKind::Imc, 0, &near), Ok(1));

    // S-box occupancy: 2^40 cycles of 127 entries exceed the 48-bit counter.
    let p = crate::hw::platforms::nhmex::WSMEX;
    let t = p.box_type("sbox").unwrap();
    let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
    let mut sh = Shared::default();
    let pr = program(&mut d, t, 0, Attr::config(0x0a), &mut sh);
    // 127 entries for one cycle: the subcounter keeps 127. Then one entry
    // for 2^47 cycles is within a wrap, but with the kept 127 on top of
    // each cycle's it is 2^54.
    let full = Occurrence {
        inc: 127,
        ..Occurrence::simple(0x0a, 0, 1)
    };
    assert_eq!(d.m.inject(0, BoxKind::Sbox, 0, &full), Ok(1));
    let before = d.read(t, 0, pr.ctr);
    let occ = Occurrence::simple(0x0a, 0, 1 << 47);
    assert_eq!(
        d.m.inject(0, BoxKind::Sbox, 0, &occ),
        Err(ModelError::Range)
    );
    assert_eq!(d.read(t, 0, pr.ctr), before);
}

mod text {
    //! The simulation's text input, any of it, through the parser and the
    //! step checks into the model.

    use super::*;
    use crate::hw::model::input::{parse_line, InputError};
    use proptest::prelude::*;
    use std::string::String;
    use std::vec::Vec;

    const KEYS: [&str; 19] = [
        "pmu",
        "socket",
        "event",
        "umask",
        "count",
        "inc",
        "tid",
        "nid",
        "state",
        "opc",
        "freq",
        "occ_sel",
        "packet",
        "counter",
        "sub",
        "config",
        "rounds",
        "programmed",
        "noise",
    ];

    fn key() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            20 => (0usize..KEYS.len()).prop_map(|k| KEYS[k]),
            1 => Just("bogus"),
            1 => Just(""),
        ]
    }

    fn value() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => (0u64..300).prop_map(|v| std::format!("{}", v)),
            2 => any::<u64>().prop_map(|v| std::format!("{:#x}", v)),
            2 => (0u32..64).prop_map(|b| std::format!("{}", 1u64 << b)),
            1 => Just(String::from("18446744073709551615")),
            1 => Just(String::from("18446744073709551616")),
            1 => Just(String::from("-1")),
            1 => "[a-z0-9,_]{0,8}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        /// Any line, on every box type of every platform with an event
        /// programmed the driver's way: parsed, checked as the engine
        /// checks it (one step within a wrap, the self-test's total within
        /// a perf count), and given to the model, which counts it or
        /// refuses it with a reason, never panicking; what it refuses
        /// changes nothing.
        #[test]
        fn any_text_reaches_the_model(bi in 0usize..16,
                                      words in proptest::collection::vec((key(), value()), 0..8),
                                      junk in proptest::option::weighted(0.1, "[ -~]{0,20}"),
                                      matching in any::<bool>()) {
            let mut text: Vec<String> = words.iter().map(|(k, v)| std::format!("{}={}", k, v)).collect();
            text.extend(junk);
            let line = text.join(" ");
            let parsed = parse_line(&line);
            let Ok(mut l) = parsed else {
                // A refusal says why: invalid, or a number out of range.
                let (e, _) = parsed.unwrap_err();
                prop_assert!(matches!(e, InputError::Invalid | InputError::Range));
                return Ok(());
            };
            let _ = l.selftest_total();
            for p in crate::hw::platforms::ALL {
                for t in p.types.iter().filter(|t| t.num_boxes > 0) {
                    let i = bi % t.num_boxes as usize;
                    let bits = t.fixed.map_or(t.ctr_bits, |f| f.bits.min(t.ctr_bits));
                    if l.check_step(bits).is_err() {
                        continue;
                    }
                    let mut d = Drv::new(p.id, 1);
                    let mut sh = Shared::default();
                    let (attr, occ) = sample(t);
                    let pr = program(&mut d, t, i, attr, &mut sh);
                    // Half the time, the event the counter is programmed
                    // for, so that the filters and the counting see the
                    // line's properties.
                    if matching {
                        l.occ.event = occ.event;
                        l.occ.umask = occ.umask;
                    }
                    let before = d.m;
                    let r = if l.programmed {
                        d.m.inject_programmed(0, t.kind, i as u8, l.amount())
                    } else {
                        d.m.inject(0, t.kind, i as u8, &l.occ)
                    };
                    if r.is_err() {
                        prop_assert_eq!(d.m, before);
                    }
                    // The driver's read after it.
                    let _ = d.read(t, i, pr.ctr);
                }
            }
        }
    }
}

/// Xeon 7100/7400 stop: the control shares its MSR with the count, so
/// stopping is a read-modify-write. Replayed with events and a lock-free
/// observer (an NMI read, a BPF read) between the read and the write: the
/// total accounted never exceeds what was injected (before the freeze
/// around it, the write took back what the observer had seen, and the next
/// delta was about 2^32).
#[test]
fn xeon7x00_stop_is_exact_with_an_observer_between_its_accesses() {
    use crate::hw::live::Prev;
    for (pid, group_frozen) in [
        (PlatformId::XEON_7100, false),
        (PlatformId::XEON_7400, false),
        (PlatformId::XEON_7400, true),
    ] {
        let p = crate::hw::platforms::by_id(pid);
        let t = p.box_type("fsb").unwrap();
        let mut d = Drv::new(pid, 1);
        let mut sh = Shared::default();
        let (attr, mut occ) = sample(t);
        let pr = program(&mut d, t, 0, attr, &mut sh);
        let Ctr::General(j) = pr.ctr else { panic!() };
        let prev = Prev::new();
        prev.arm(d.read(t, 0, pr.ctr));
        occ.cycles = 100;
        d.m.inject(0, BoxKind::Fsb, 0, &occ).unwrap();
        let mut total = 0u64;
        let mut injected = 100u64;
        if group_frozen {
            // pmu_disable froze the group; the stop keeps it frozen.
            let g = GlobalState::default();
            d.exec(t, 0, &program::box_run(p, t, 0, false, 1 << j, &g));
        }
        let ops = program::event_disable(p.global, t, 0, pr.ctr, 0, group_frozen);
        for op in ops.as_slice() {
            match *op {
                Op::WriteControlHalf(a, ctl) => {
                    let old = d.m.rdmsr(0, a.addr()).unwrap();
                    // 30 more events, and an observer, between the halves.
                    occ.cycles = 30;
                    d.m.inject(0, BoxKind::Fsb, 0, &occ).unwrap();
                    injected += 30;
                    let seen = d.read(t, 0, pr.ctr);
                    total += prev.update(pr.width, || Some(seen)).unwrap_or(0);
                    d.m.wrmsr(0, a.addr(), (ctl & !0xffff_ffff) | (old & 0xffff_ffff))
                        .unwrap();
                }
                Op::Write(Addr::Msr(a), v) => d.m.wrmsr(0, a.addr(), v).unwrap(),
                other => panic!("{:?}", other),
            }
        }
        let now = d.read(t, 0, pr.ctr);
        total += prev.disarm(pr.width, || Some(now));
        assert!(
            total <= injected,
            "{:?}: {} accounted of {} injected",
            pid,
            total,
            injected
        );
        assert_eq!(
            total, 100,
            "{:?} (group frozen {}): the events before the stop",
            pid, group_frozen
        );
        // The counter is not left frozen by the stop when its group runs.
        let frozen = d.m.socket(0).unwrap().l3_frozen;
        assert_eq!(frozen & (1 << (4 + j)) != 0, group_frozen, "{:?}", pid);
    }
}

/// The driver's S-box occupancy events (whose enable resets the occupancy
/// subcounter) are exactly the catalog's `*_OCCUPANCY` events of Table 2-37
/// (TO_R_LOC_NCS_MSGQ_OCCUPANCY, 0x8e, was missing); and every one of them
/// starts from zero at a second use, as the model keeps the occupancy of
/// each queue independently of the driver's list.
#[test]
fn sbox_occupancy_events_are_the_catalogs_and_start_from_zero() {
    let mut from_catalog: Vec<u16> =
        crate::hw::catalog::parts(PlatformId::WESTMERE_EX, BoxKind::Sbox, 0)
            .into_iter()
            .flat_map(crate::hw::desc::each)
            .filter(|a| {
                a.name
                    .split('.')
                    .next()
                    .unwrap_or("")
                    .ends_with("_occupancy")
            })
            .filter_map(|a| super::count::alias_event(&a.terms))
            .collect();
    from_catalog.sort_unstable();
    from_catalog.dedup();
    let driver: Vec<u16> = S_OCCUPANCY_EVENTS.iter().map(|&e| u16::from(e)).collect();
    assert_eq!(driver, from_catalog);
    let p = crate::hw::platforms::nhmex::WSMEX;
    let t = p.box_type("sbox").unwrap();
    for ev in from_catalog {
        let occ = Occurrence {
            inc: 3,
            ..Occurrence::simple(ev, 0x1, 100)
        };
        let mut d = Drv::new(PlatformId::WESTMERE_EX, 1);
        for round in 0..2 {
            let mut sh = Shared::default();
            let pr = program(&mut d, t, 0, Attr::config(u64::from(ev) | 0x100), &mut sh);
            let before = d.read(t, 0, pr.ctr);
            d.m.inject(0, BoxKind::Sbox, 0, &occ).unwrap();
            let after = d.read(t, 0, pr.ctr);
            assert_eq!(
                delta(before, after, pr.width),
                300,
                "event {:#x} round {}",
                ev,
                round
            );
        }
    }
}

/// S-box events with C-box unit masks: Nehalem-EX has four bits (C-boxes
/// k and k + 4 at bit k, `ALL` 0xf; Xeon 7500 uncore guide 323535 section
/// 2.5.6), Westmere-EX five (k and k + 5, `ALL` 0x1f). Each part's aliases
/// name its own C-boxes, count exactly the occurrences of the C-boxes they
/// name, and `.all` counts every C-box.
#[test]
fn sbox_cbox_unit_masks_per_part() {
    for (pid, cboxes, width) in [
        (PlatformId::NEHALEM_EX, 8u8, 4u8),
        (PlatformId::WESTMERE_EX, 10, 5),
    ] {
        let p = crate::hw::platforms::by_id(pid);
        let t = p.box_type("sbox").unwrap();
        let aliases: Vec<_> = crate::hw::catalog::instance_aliases(pid, t, 0)
            .filter(|a| {
                a.name.contains(".cbox")
                    || (a.name.ends_with(".all") && a.terms.to_string().starts_with("event=0xe,"))
            })
            .collect();
        assert!(!aliases.is_empty());
        for a in aliases
            .iter()
            .filter(|a| a.terms.to_string().starts_with("event=0xe,"))
        {
            let attr = {
                let mut at = Attr::config(0);
                for term in a.terms.to_string().split(',') {
                    let (k, v) = term.split_once('=').unwrap();
                    crate::hw::terms::apply(
                        t.format(k).unwrap(),
                        crate::hw::terms::parse_number(v).unwrap(),
                        &mut at,
                    );
                }
                at
            };
            let umask = ((attr.config >> 8) & 0xff) as u8;
            assert_eq!(
                umask >> width,
                0,
                "{:?} {}: a bit past the part's C-box field",
                pid,
                a.name
            );
            // The C-boxes the name gives (cboxA_B), or all.
            let named: Vec<u8> = match a.name.rsplit('.').next().unwrap() {
                "all" => (0..cboxes).collect(),
                s => s
                    .trim_start_matches("cbox")
                    .split('_')
                    .map(|x| x.parse().unwrap())
                    .collect(),
            };
            for c in 0..cboxes {
                let mut d = Drv::new(pid, 1);
                let mut sh = Shared::default();
                let pr = program(&mut d, t, 0, attr, &mut sh);
                let before = d.read(t, 0, pr.ctr);
                let occ = Occurrence::simple(0xe, 1 << (c % width), 7);
                d.m.inject(0, BoxKind::Sbox, 0, &occ).unwrap();
                let got = delta(before, d.read(t, 0, pr.ctr), pr.width);
                let want = if named.contains(&c) { 7 } else { 0 };
                assert_eq!(got, want, "{:?} {}: C-box {}", pid, a.name, c);
            }
        }
    }
}

/// `pmi_core_sel` has ten bits (325294 Table 2-2): the cores of rank 0 to 9
/// get their bit, and PMIs go nowhere for a core past them (rank 10, 63, 64
/// and beyond: no shift overflow), which polling alone then keeps exact.
/// The bit, written through the driver's global control value, is the one
/// the model raises the PMI to.
#[test]
fn pmi_core_bits_fit_the_field() {
    for rank in 0..10 {
        assert_eq!(UGlobal.pmi_core_bit(rank), 1 << rank);
    }
    for rank in [10, 31, 63, 64, 65, 1000, u32::MAX] {
        assert_eq!(UGlobal.pmi_core_bit(rank), 0, "rank {}", rank);
    }
    let p = crate::hw::platforms::nhmex::WSMEX;
    for rank in [0u32, 9] {
        let g = GlobalState {
            pmi_cores: UGlobal.pmi_core_bit(rank),
            ..GlobalState::default()
        };
        let (msr, v) = program::global_value(&p, &g).unwrap();
        let msr = msr.addr();
        assert_eq!(
            (v & u_global::PMI_CORE_SEL) >> u_global::PMI_CORE_SEL_SHIFT,
            1 << rank
        );
        let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
        m.wrmsr(0, msr, v).unwrap();
        assert_eq!(m.socket(0).unwrap().global_ctl, v);
    }
}
