// SPDX-License-Identifier: GPL-2.0

//! Consistency tests of every platform table.

use super::*;
use crate::hw::desc::*;
use crate::hw::encode::{encode, Attr};
use crate::hw::terms;
use nhmex::{NHMEX, WSMEX};
use snbep::SNBEP;

/// The MSR layout of box type `t` (which must be in MSR space): box
/// control, counter controls, counters, box offsets.
fn msr_space(t: &BoxType) -> (Option<u32>, Regs, Regs, Offsets) {
    match t.space {
        Space::Msr {
            box_ctl,
            ctl,
            ctr,
            offsets,
        } => (box_ctl, ctl, ctr, offsets),
        _ => panic!("not in MSR space"),
    }
}

#[test]
fn cpu_matching() {
    assert_eq!(for_cpu(6, 45).unwrap().id, PlatformId::SANDY_BRIDGE_EP);
    assert_eq!(for_cpu(6, 62).unwrap().id, PlatformId::IVY_BRIDGE_EP);
    assert_eq!(for_cpu(6, 63).unwrap().id, PlatformId::HASWELL_EP);
    assert_eq!(for_cpu(6, 46).unwrap().id, PlatformId::NEHALEM_EX);
    assert_eq!(for_cpu(6, 47).unwrap().id, PlatformId::WESTMERE_EX);
    assert_eq!(for_cpu(6, 78).unwrap().id, PlatformId::SKYLAKE);
    assert_eq!(for_cpu(6, 94).unwrap().id, PlatformId::SKYLAKE);
    assert_eq!(for_cpu(15, 6).unwrap().id, PlatformId::XEON_7100);
    assert_eq!(for_cpu(6, 29).unwrap().id, PlatformId::XEON_7400);
    assert!(for_cpu(6, 85).is_none());
    assert!(for_cpu(15, 45).is_none());
    for p in ALL {
        assert_eq!(by_name(p.name).unwrap().id, p.id);
        assert_eq!(by_id(p.id).name, p.name);
    }
}

#[test]
fn formats_do_not_overlap_within_a_word_and_fit_the_control_register() {
    for p in ALL {
        for t in p.types {
            for (i, a) in t.formats.iter().enumerate() {
                assert!(a.width() > 0 && a.width() <= 64, "{} {}", t.name(), a.name);
                for b in &t.formats[i + 1..] {
                    assert_ne!(a.name, b.name, "{}/{}: duplicate format", p.name, t.name());
                }
            }
            // Control bits that perf can set are a subset of the formats
            // (software-only fields like the B-box `counter` may add to it).
            let cfg = t.valid_mask(Word::Config);
            let forced = if t.name() == "mbox" { 1 << 6 } else { 0 };
            assert_eq!(
                t.ctl_mask & !cfg & !(1 << 58) & !forced,
                0,
                "{}/{}: ctl bits without a format",
                p.name,
                t.name()
            );
        }
    }
}

#[test]
fn counters_and_constraints_are_consistent() {
    for p in ALL {
        for t in p.types {
            assert!(t.num_counters >= 1 && t.num_counters <= 16, "{}", t.name());
            assert!(t.num_boxes >= 1);
            assert!(matches!(t.ctr_bits, 32 | 44 | 48), "{}", t.name());
            for c in t.constraints {
                assert_eq!(c.counters & !t.all_counters(), 0, "{}/{}", p.name, t.name());
                assert_ne!(c.counters, 0);
            }
        }
    }
}

#[test]
fn every_alias_parses_and_encodes() {
    for p in ALL {
        for t in p.types {
            for a in crate::hw::desc::each(t.aliases) {
                let mut attr = Attr::default();
                a.terms
                    .apply(t, &mut attr)
                    .unwrap_or_else(|e| panic!("{}/{}/{}: {:?}", p.name, t.name(), a.name, e));
                encode(t, 0, attr)
                    .unwrap_or_else(|e| panic!("{}/{}/{}: {}", p.name, t.name(), a.name, e));
                if let Some(s) = a.scale {
                    assert!(s.parse::<f64>().is_ok());
                    assert!(a.unit.is_some());
                }
            }
        }
    }
}

#[test]
fn snbep_facts() {
    let cbox = SNBEP.box_type("cbox").unwrap();
    let (box_ctl, ctl, ctr, offsets) = msr_space(cbox);
    // 327043 Table 2-8: C-box 7 box control 0xde4, controls 0xdf0.., counters 0xdf6...
    assert_eq!(box_ctl.unwrap() + offsets.of(7), 0xde4);
    assert_eq!(ctl.of(3) + offsets.of(7), 0xdf3);
    assert_eq!(ctr.of(0) + offsets.of(7), 0xdf6);
    let qpi = SNBEP.box_type("qpi").unwrap();
    let mut attr = Attr::default();
    terms::parse(qpi, "event=0x102,umask=0x08", &mut attr).unwrap();
    assert_eq!(attr.config, 0x20_0802, "extended select lands in bit 21");
    let pcu = SNBEP.box_type("pcu").unwrap();
    assert_eq!(pcu.format("occ_edge").unwrap().mask(), 1 << 31);
}

#[test]
fn hsx_facts() {
    // The Linux driver's HSWEP_* registers: C-box 17 at 0xe00 + 0x110,
    // S-box 3 at 0x720 + 0x1e, the U-box and PCU blocks.
    let p = &hsx::HSX;
    let (box_ctl, ctl, ctr, offsets) = msr_space(p.box_type("cbox").unwrap());
    assert_eq!(box_ctl.unwrap() + offsets.of(17), 0xf10);
    assert_eq!(ctl.of(3) + offsets.of(17), 0xf14);
    assert_eq!(ctr.of(0) + offsets.of(17), 0xf18);
    let (box_ctl, ctl, ctr, offsets) = msr_space(p.box_type("sbox").unwrap());
    assert_eq!(box_ctl.unwrap() + offsets.of(3), 0x73e);
    assert_eq!(ctl.of(0) + offsets.of(3), 0x73f);
    assert_eq!(ctr.of(3) + offsets.of(3), 0x747);
    let u = p.box_type("ubox").unwrap();
    let (box_ctl, ctl, ctr, _) = msr_space(u);
    assert!(box_ctl.is_none());
    assert_eq!((ctl.of(1), ctr.of(1)), (0x706, 0x70a));
    let f = u.fixed.unwrap();
    assert_eq!((f.ctl, f.ctr, f.bits), (0x703, 0x704, 48));
    let (box_ctl, ctl, ctr, _) = msr_space(p.box_type("pcu").unwrap());
    assert_eq!((box_ctl, ctl.of(3), ctr.of(3)), (Some(0x710), 0x714, 0x71a));
    // Counter widths and counts: C-box 48 bit (IVB-EP's 44), S-box and
    // R3QPI 44, R2PCIe 48; 18 C-boxes, 4 S-boxes, 3 QPI ports.
    let width = |n| p.box_type(n).unwrap().ctr_bits;
    assert_eq!(
        [
            width("cbox"),
            width("sbox"),
            width("r3qpi"),
            width("r2pcie"),
            width("ubox")
        ],
        [48, 44, 44, 48, 44]
    );
    let boxes = |n| p.box_type(n).unwrap().num_boxes;
    assert_eq!(
        [
            boxes("cbox"),
            boxes("sbox"),
            boxes("ha"),
            boxes("imc"),
            boxes("qpi"),
            boxes("r3qpi")
        ],
        [18, 4, 2, 8, 3, 3]
    );
    // IRP counters 0xa0, 0xa8, 0xb0, 0xb8 (hswep_uncore_irp_ctrs).
    match p.box_type("irp").unwrap().space {
        Space::Pci { ctr, .. } => {
            assert_eq!(
                [ctr.of(0), ctr.of(1), ctr.of(2), ctr.of(3)],
                [0xa0, 0xa8, 0xb0, 0xb8]
            )
        }
        _ => panic!("IRP in configuration space"),
    }
    // The C-box formats are the Linux driver's: no inv.
    assert!(p.box_type("cbox").unwrap().format("inv").is_none());
    assert!(p.box_type("sbox").unwrap().format("tid_en").is_some());
}

/// Broadwell-EP and -DE against the Linux driver's "BDX uncore support":
/// Haswell-EP's registers, 48-bit counters, 24 C-boxes, IVB-EP's U-box
/// formats, the PCU's occupancy events off counter 0, a third QPI filter
/// device, and no S-box, QPI or R3QPI on Broadwell-DE.
#[test]
fn bdx_facts() {
    use crate::hw::platforms::{bdx::BDX, bdxde::BDXDE, hsx::HSX};
    let p = &BDX;
    let (box_ctl, _, ctr, offsets) = msr_space(p.box_type("cbox").unwrap());
    assert_eq!(box_ctl.unwrap() + offsets.of(23), 0xe00 + 23 * 0x10);
    assert_eq!(ctr.of(0) + offsets.of(23), 0xf78);
    let width = |n| p.box_type(n).unwrap().ctr_bits;
    assert_eq!(
        [width("ubox"), width("sbox"), width("r3qpi"), width("cbox")],
        [48, 48, 48, 48]
    );
    let boxes = |n| p.box_type(n).unwrap().num_boxes;
    assert_eq!(
        [boxes("cbox"), boxes("sbox"), boxes("qpi"), boxes("r3qpi")],
        [24, 4, 3, 3]
    );
    // The U-box: HSX's registers, IVB-EP's formats (with inv), no filter.
    let u = p.box_type("ubox").unwrap();
    let names: std::vec::Vec<&str> = u.formats.iter().map(|f| f.name).collect();
    assert_eq!(names, ["event", "umask", "edge", "inv", "thresh"]);
    assert_eq!(
        msr_space(u).1.of(0),
        msr_space(HSX.box_type("ubox").unwrap()).1.of(0)
    );
    let mut attr = Attr::default();
    terms::parse(u, "event=0x1", &mut attr).unwrap();
    assert!(
        encode(u, 0, attr).unwrap().shared.is_none(),
        "no U-box filter"
    );
    // PCU: event select bit 7 ("Use Occupancy") keeps counter 0 out.
    let pcu = p.box_type("pcu").unwrap();
    let counters = |t: &BoxType, terms: &str| {
        let mut attr = Attr::default();
        terms::parse(t, terms, &mut attr).unwrap();
        encode(t, 0, attr).unwrap().counters
    };
    assert_eq!(counters(pcu, "event=0x80,occ_sel=1"), 0xe);
    assert_eq!(counters(pcu, "event=0xb"), 0xf);
    let hsx_pcu = HSX.box_type("pcu").unwrap();
    assert_eq!(counters(hsx_pcu, "event=0x80,occ_sel=1"), 0xf);
    // C-box constraints: event 0x09 on counters 0-1 (HSX: 0 only).
    assert_eq!(counters(p.box_type("cbox").unwrap(), "event=0x9"), 0x3);
    assert_eq!(counters(HSX.box_type("cbox").unwrap(), "event=0x9"), 0x1);
    // QPI ports 0-2 have their match/mask device.
    let filters: std::vec::Vec<u16> = p
        .pci
        .iter()
        .filter(|f| matches!(f.role, crate::hw::pci::Role::QpiFilter { .. }))
        .map(|f| f.device)
        .collect();
    assert_eq!(filters, [0x6f86, 0x6f96, 0x6f46]);
    // Broadwell-DE: BDX's boxes but the S-box, QPI and R3QPI.
    let de: std::vec::Vec<&str> = BDXDE.types.iter().map(|t| t.name()).collect();
    assert_eq!(de, ["ubox", "cbox", "pcu", "ha", "imc", "irp", "r2pcie"]);
    assert!(BDXDE.global.device_count().is_none());
    assert_eq!(crate::hw::platforms::for_cpu(6, 86).unwrap().name, "bdxde");
    assert_eq!(crate::hw::platforms::for_cpu(6, 79).unwrap().name, "bdx");
}

#[test]
fn nhmex_cbox_offsets_match_table_2_9() {
    // C-box n global control addresses, Table 2-9.
    let want = [
        0xd00, 0xd80, 0xd40, 0xdc0, 0xd20, 0xda0, 0xd60, 0xde0, 0xf40, 0xfc0,
    ];
    let c = WSMEX.box_type("cbox").unwrap();
    let (box_ctl, ctl, ctr, offsets) = msr_space(c);
    for (i, &w) in want.iter().enumerate() {
        assert_eq!(box_ctl.unwrap() + offsets.of(i), w);
        assert_eq!(ctl.of(5) + offsets.of(i), w + 0x1a);
        assert_eq!(ctr.of(5) + offsets.of(i), w + 0x1b);
    }
    assert_eq!(c.num_boxes, 10);
    assert_eq!(NHMEX.box_type("cbox").unwrap().num_boxes, 8);
}

/// Skylake-family C-box registers: CBo 0..3 as the manual's Table 2-1
/// lists them, 0x10 apart up to CBo 6, and Coffee Lake's eighth CBo in its
/// own MSR space (0xf70/0xf76, as the Linux driver programs it).
#[test]
fn skl_cbox_addresses_match_table_2_1_and_the_eighth_cbo() {
    let c = crate::hw::platforms::skl::SKL.box_type("cbox").unwrap();
    let (_, ctl, ctr, offsets) = msr_space(c);
    let want: [(u32, u32); 8] = [
        (0x700, 0x706),
        (0x710, 0x716),
        (0x720, 0x726),
        (0x730, 0x736),
        (0x740, 0x746),
        (0x750, 0x756),
        (0x760, 0x766),
        (0xf70, 0xf76),
    ];
    assert_eq!(c.num_boxes as usize, want.len());
    for (i, &(sel, pc)) in want.iter().enumerate() {
        assert_eq!(ctl.of(0) + offsets.of(i), sel, "CBo {} PERFEVTSEL0", i);
        assert_eq!(ctl.of(1) + offsets.of(i), sel + 1, "CBo {} PERFEVTSEL1", i);
        assert_eq!(ctr.of(0) + offsets.of(i), pc, "CBo {} PERFCTR0", i);
        assert_eq!(ctr.of(1) + offsets.of(i), pc + 1, "CBo {} PERFCTR1", i);
    }
}

#[test]
fn format_strings_render_like_the_kernel() {
    use std::string::ToString;
    let qpi = SNBEP.box_type("qpi").unwrap();
    assert_eq!(qpi.format("event").unwrap().to_string(), "config:0-7,21");
    assert_eq!(qpi.format("match_rnid4").unwrap().to_string(), "config1:31");
    assert_eq!(qpi.format("mask1").unwrap().to_string(), "config2:32-63");
    let cbox = SNBEP.box_type("cbox").unwrap();
    assert_eq!(cbox.format("thresh").unwrap().to_string(), "config:24-31");
    assert_eq!(
        cbox.format("filter_opc").unwrap().to_string(),
        "config1:23-31"
    );
}

/// `program::run_key` is a sound key for skipping box-level writes: two
/// states with the same key write the same registers with the same values,
/// and a state with no key leaves no counter of the box enabled.
#[test]
fn run_key_equal_means_box_run_equal() {
    use crate::hw::program::{box_init, box_run, run_key, run_key_after_init, GlobalState, Op};
    let g = GlobalState::default();
    for p in ALL {
        for t in p.types {
            let all = ((1u32 << t.num_counters) - 1) | t.fixed.map_or(0, |_| 1 << t.fixed_index());
            let masks = [0, 1, 2, 3, all];
            let mut states = [(false, 0u32); 10];
            for (k, s) in states.iter_mut().enumerate() {
                *s = (k % 2 == 1, masks[k / 2]);
            }
            // What box_init leaves (its last write: the Haswell-EP S-box
            // control is written bit by bit) is the state of its key: the
            // same writes as box_run's with one counter enabled (but the
            // reset bits).
            if let Some(k) = run_key_after_init(t) {
                let init = box_init(t, 0);
                let run = box_run(p, t, 0, k == 1, if k == 1 { 1 } else { 0 }, &g);
                let (Some(Op::Write(ia, iv)), Some(Op::Write(ra, rv))) =
                    (init.as_slice().last(), run.as_slice().first())
                else {
                    panic!("{}/{}: init or run writes nothing", p.name, t.name())
                };
                assert_eq!(ia, ra, "{}/{}", p.name, t.name());
                let reset = t.box_ctl.self_clearing();
                assert_eq!(
                    iv & !reset,
                    *rv,
                    "{}/{}: init leaves another state",
                    p.name,
                    t.name()
                );
            }
            for a in states {
                let ka = run_key(t, a.0, a.1);
                if ka.is_none() {
                    assert!(
                        a.1 == 0
                            || (box_init(t, 0).as_slice().is_empty()
                                && box_run(p, t, 0, true, all, &g).as_slice().is_empty()),
                        "{}/{}: no key with counters enabled",
                        p.name,
                        t.name()
                    );
                    continue;
                }
                for b in states {
                    if ka == run_key(t, b.0, b.1) {
                        assert_eq!(
                            box_run(p, t, 0, a.0, a.1, &g),
                            box_run(p, t, 0, b.0, b.1, &g),
                            "{}/{}: {:?} and {:?} share a key",
                            p.name,
                            t.name(),
                            a,
                            b
                        );
                    }
                }
            }
        }
    }
}

/// A box's resolved counter table gives every counter's register as
/// `counter_reg` does.
#[test]
fn counter_regs_match_counter_reg() {
    use crate::hw::program::{counter_reg, CounterRegs, Ctr};
    for p in ALL {
        for t in p.types {
            for i in 0..t.num_boxes as usize {
                let regs = CounterRegs::new(t, i);
                let n = t.num_counters;
                let codes = (0..n)
                    .map(|j| Ctr::General(j).code())
                    .chain((0..n).map(|j| Ctr::Free(j).code()))
                    .chain(core::iter::once(Ctr::Fixed.code()));
                for code in codes {
                    let c = Ctr::from_code(code);
                    if matches!(c, Ctr::Free(_)) != t.special.free_running()
                        || (matches!(c, Ctr::Fixed) && t.fixed.is_none())
                    {
                        continue;
                    }
                    assert_eq!(
                        *regs.get(code),
                        counter_reg(t, i, c),
                        "{}/{} {} {:?}",
                        p.name,
                        t.name(),
                        i,
                        c
                    );
                }
            }
        }
    }
}

/// A filter-use table file parses to entries that `fields_used` matches:
/// comments and empty lines skipped, the mask applied.
#[test]
fn filter_use_table_files_parse() {
    use crate::hw::platforms::snbep::special::{parse_uses, CboxFilter, FilterUse};
    const USES: [FilterUse; 3] =
        parse_uses::<3>("# a comment\n\n80000\t80000\t1\n0334\tffff\t4\n4037\t40ff\t2\n");
    let f = CboxFilter {
        fields: &[0x1f, 0x3fc00, 0x7c_0000],
        uses: &USES,
        msr: 0xd14,
        high_msr: None,
        stride: 0x20,
    };
    assert_eq!(f.fields_used(0x0334), 0x4);
    assert_eq!(f.fields_used(0x8_0334), 0x5);
    assert_eq!(f.fields_used(0x0434), 0);
    assert_eq!(f.fields_used(0x4137), 0x2);
    assert_eq!(f.fields_used(0x0137), 0);
}
