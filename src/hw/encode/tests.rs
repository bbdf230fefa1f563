// SPDX-License-Identifier: GPL-2.0

//! Tests of event validation and encoding.

use super::*;
use crate::hw::desc::{BoxKind, Word};
use crate::hw::platforms::{ivbep::IVBEP, nhmex::NHMEX, nhmex::WSMEX, skl::SKL, snbep::SNBEP, ALL};
use crate::hw::platforms::{l3::FSB_MUST_BE_ONE, nhmex::mbox::MBOX_WRAP_MODE};
use crate::hw::shared::Shared;
use proptest::prelude::*;

fn t(p: &'static crate::hw::desc::Platform, name: &str) -> &'static BoxType {
    p.box_type(name).unwrap()
}

#[test]
fn plain_event_is_masked_into_the_control_register() {
    let e = encode(t(&SNBEP, "ha"), 0, Attr::config(0x1234_0101)).unwrap_err();
    assert!(matches!(
        e,
        Invalid::UnknownBits {
            word: Word::Config,
            bits: 0x30_0000
        }
    ));
    let e = encode(t(&SNBEP, "ha"), 0, Attr::config(0x8404_0101)).unwrap();
    assert_eq!(e.ctl, 0x8404_0101);
    assert_eq!(e.counters, 0xf);
    assert_eq!(e.kind, Kind::General);
}

#[test]
fn fixed_counter_selection() {
    let imc = t(&SNBEP, "imc");
    let e = encode(imc, 2, Attr::config(0xff)).unwrap();
    assert_eq!(e.kind, Kind::Fixed);
    assert_eq!(e.counters, 1 << 4);
    assert_eq!(
        encode(t(&SNBEP, "ha"), 0, Attr::config(0xff)),
        Err(Invalid::NoFixedCounter)
    );
    let cbox = t(&SKL, "cbox");
    assert_eq!(
        encode(cbox, 0, Attr::config(0xff)).unwrap().kind,
        Kind::Fixed
    );
    assert_eq!(
        encode(cbox, 1, Attr::config(0xff)),
        Err(Invalid::FixedOnBox0)
    );
    // event=0xff with a umask is a general event select, not the fixed counter.
    assert_eq!(
        encode(cbox, 1, Attr::config(0x1ff)).unwrap().kind,
        Kind::General
    );
}

#[test]
fn constraints_follow_the_event_select() {
    let cbox = t(&SNBEP, "cbox");
    assert_eq!(encode(cbox, 0, Attr::config(0x0111)).unwrap().counters, 0x1);
    assert_eq!(encode(cbox, 0, Attr::config(0x011f)).unwrap().counters, 0xe);
    assert_eq!(encode(cbox, 0, Attr::config(0x0100)).unwrap().counters, 0xf);
    let r3 = t(&SNBEP, "r3qpi");
    assert_eq!(encode(r3, 0, Attr::config(0x13)).unwrap().counters, 0x1);
    assert_eq!(encode(r3, 0, Attr::config(0x01)).unwrap().counters, 0x7);
}

#[test]
fn snbep_cbox_filter_fields_by_event() {
    let cbox = t(&SNBEP, "cbox");
    // LLC_LOOKUP with umask 0x03 uses STATE (fields 0x4).
    let e = encode(
        cbox,
        0,
        Attr {
            config: 0x0334,
            config1: 0x1f << 18,
            config2: 0,
        },
    )
    .unwrap();
    let c = &e.shared.choices()[0];
    assert_eq!(c.slots().len(), 1);
    assert_eq!((c.slots()[0].slot, c.slots()[0].value), (2, 0x1f << 18));
    // A filter field the event does not use is refused, not dropped.
    let err = encode(
        cbox,
        0,
        Attr {
            config: 0x0334,
            config1: 0x182 << 23,
            config2: 0,
        },
    )
    .unwrap_err();
    assert!(matches!(
        err,
        Invalid::UnusedBits {
            word: Word::Config1,
            ..
        }
    ));
    // TID needs tid_en.
    assert!(encode(
        cbox,
        0,
        Attr {
            config: 0x0100,
            config1: 3,
            config2: 0
        }
    )
    .is_err());
    let e = encode(
        cbox,
        0,
        Attr {
            config: 0x8_0100,
            config1: 3,
            config2: 0,
        },
    )
    .unwrap();
    assert_eq!(e.shared.choices()[0].slots()[0].slot, 0);
    // TOR_INSERTS.NID_OPCODE (0x4135) uses NID and OPC.
    let e = encode(
        cbox,
        0,
        Attr {
            config: 0x4135,
            config1: (1 << 10) | (0x182 << 23),
            config2: 0,
        },
    )
    .unwrap();
    assert_eq!(e.shared.choices()[0].slots().len(), 2);
}

#[test]
fn cbox_filters_share_fields_with_equal_values() {
    let cbox = t(&IVBEP, "cbox");
    let a = encode(
        cbox,
        0,
        Attr {
            config: 0x4134,
            config1: (0x11 << 17) | (1 << 32),
            config2: 0,
        },
    )
    .unwrap();
    let b = encode(
        cbox,
        0,
        Attr {
            config: 0x1134,
            config1: 0x11 << 17,
            config2: 0,
        },
    )
    .unwrap();
    let c = encode(
        cbox,
        0,
        Attr {
            config: 0x1134,
            config1: 0x01 << 17,
            config2: 0,
        },
    )
    .unwrap();
    let mut s = Shared::default();
    assert!(s.take(&a.shared).is_some());
    assert!(
        s.take(&b.shared).is_some(),
        "same state value shares the field"
    );
    assert!(s.take(&c.shared).is_none(), "another state value conflicts");
    assert_eq!(s.combined(0..5), (0x11 << 17) | (1 << 32));
}

#[test]
fn pcu_band_retargets_to_a_free_band() {
    let pcu = t(&SNBEP, "pcu");
    let a = encode(
        pcu,
        0,
        Attr {
            config: 0xb,
            config1: 30,
            config2: 0,
        },
    )
    .unwrap();
    let b = encode(
        pcu,
        0,
        Attr {
            config: 0xb,
            config1: 20,
            config2: 0,
        },
    )
    .unwrap();
    let mut s = Shared::default();
    let ia = s.take(&a.shared).unwrap();
    let ib = s.take(&b.shared).unwrap();
    assert_eq!(a.ctl_for(ia) & 0xff, 0xb);
    assert_eq!(b.ctl_for(ib) & 0xff, 0xc, "moved to band 1");
    assert_eq!(s.combined(0..4), 30 | (20 << 8));
    // Band fields of other bands are refused.
    assert!(encode(
        pcu,
        0,
        Attr {
            config: 0xb,
            config1: 1 << 8,
            config2: 0
        }
    )
    .is_err());
    // Non-band events take no filter.
    assert!(encode(
        pcu,
        0,
        Attr {
            config: 0x80 | (1 << 14),
            config1: 1,
            config2: 0
        }
    )
    .is_err());
    // occ_edge is bit 31.
    assert_eq!(
        encode(pcu, 0, Attr::config(0x8000_4080)).unwrap().ctl,
        0x8000_4080
    );
}

#[test]
fn qpi_match_mask_only_for_event_0x38() {
    let qpi = t(&SNBEP, "qpi");
    let e = encode(
        qpi,
        0,
        Attr {
            config: 0x38,
            config1: 0x1c00,
            config2: 0x1f80,
        },
    )
    .unwrap();
    assert_eq!(e.shared.choices()[0].slots().len(), 2);
    assert!(encode(
        qpi,
        0,
        Attr {
            config: 0x14,
            config1: 1,
            config2: 0
        }
    )
    .is_err());
}

#[test]
fn ivbep_has_no_inv_bit() {
    let ha = t(&IVBEP, "ha");
    assert!(matches!(
        encode(ha, 0, Attr::config(1 << 23)),
        Err(Invalid::UnknownBits { .. })
    ));
    assert!(ha.format("inv").is_none());
}

#[test]
fn nhmex_bbox_counter_field_and_match() {
    let b = t(&NHMEX, "bbox");
    // Counter 2 event 4 (ADDR_IN_MATCH) uses match/mask.
    let e = encode(
        b,
        0,
        Attr {
            config: (2 << 6) | (4 << 1),
            config1: 5,
            config2: 6,
        },
    )
    .unwrap();
    assert_eq!(e.counters, 0x4);
    assert_eq!(e.ctl, 4 << 1, "counter field is not programmed");
    assert_eq!(e.shared.choices()[0].slots().len(), 2);
    // Counter 3 events never do.
    assert!(encode(
        b,
        0,
        Attr {
            config: (3 << 6) | (2 << 1),
            config1: 5,
            config2: 0
        }
    )
    .is_err());
}

#[test]
fn nhmex_rbox_limits_and_pairs() {
    let r = t(&WSMEX, "rbox");
    assert!(matches!(
        encode(r, 0, Attr::config(0x18 << 1)),
        Err(Invalid::Value(_))
    ));
    let a = encode(
        r,
        0,
        Attr {
            config: 0,
            config1: 0x8000_0000,
            config2: 0,
        },
    )
    .unwrap();
    let b = encode(
        r,
        0,
        Attr {
            config: 0,
            config1: 0x4000_0000,
            config2: 0,
        },
    )
    .unwrap();
    let mut s = Shared::default();
    let ia = s.take(&a.shared).unwrap();
    let ib = s.take(&b.shared).unwrap();
    assert_eq!(a.ctl_for(ia), 0);
    assert_eq!(b.ctl_for(ib), 1 << 1, "second IPERF event moves to IPERF1");
    // A third one on the same port conflicts.
    let c = encode(
        r,
        0,
        Attr {
            config: 0,
            config1: 0x2000_0000,
            config2: 0,
        },
    )
    .unwrap();
    assert!(s.take(&c.shared).is_none());
    // QLX uses the byte of its event.
    assert!(encode(
        r,
        0,
        Attr {
            config: 2 << 1,
            config1: 0x100,
            config2: 0
        }
    )
    .is_err());
    assert!(encode(
        r,
        0,
        Attr {
            config: 3 << 1,
            config1: 0x100,
            config2: 0
        }
    )
    .is_ok());
}

#[test]
fn nhmex_match_mask_reserved_bits_are_refused() {
    // R-box XBR set 1 of port 0 (event 4): RDS 51:48, RNID 35:31, DNID
    // 17:13, MC 12:9, OPC 8:5, VNW 4:3 are fields; the rest is reserved
    // (325294 Tables 2-51, 2-52).
    let r = t(&WSMEX, "rbox");
    let xbr = |config1: u64, config2: u64| {
        encode(
            r,
            0,
            Attr {
                config: (4 << 1) | (0x21_0000 << 32),
                config1,
                config2,
            },
        )
    };
    let fields = (0xf << 48) | (0x1f << 31) | (0x1f << 13) | (0xf << 9) | (0xf << 5) | (0x3 << 3);
    assert!(xbr(fields, fields).is_ok());
    for bit in (0..64).filter(|b| fields & (1u64 << b) == 0) {
        assert_eq!(
            xbr(1 << bit, 0),
            Err(Invalid::Reserved {
                word: Word::Config1,
                bits: 1 << bit,
                field: "xbr_match"
            }),
            "xbr_match bit {bit}"
        );
        assert_eq!(
            xbr(0, 1 << bit),
            Err(Invalid::Reserved {
                word: Word::Config2,
                bits: 1 << bit,
                field: "xbr_mask"
            }),
            "xbr_mask bit {bit}"
        );
    }
    // B-box match/mask: opc_out (59:56) is the highest field (Tables 2-22,
    // 2-23); event 4 of counter 2 (ADDR_IN_MATCH) uses them.
    let b = t(&NHMEX, "bbox");
    let bb = |config1: u64, config2: u64| {
        encode(
            b,
            0,
            Attr {
                config: (2 << 6) | (4 << 1),
                config1,
                config2,
            },
        )
    };
    assert!(bb(u64::MAX >> 4, u64::MAX >> 4).is_ok());
    assert_eq!(
        bb(1 << 60, 0),
        Err(Invalid::Reserved {
            word: Word::Config1,
            bits: 1 << 60,
            field: "match"
        })
    );
    assert_eq!(
        bb(0, 0xf << 60),
        Err(Invalid::Reserved {
            word: Word::Config2,
            bits: 0xf << 60,
            field: "mask"
        })
    );
    assert_eq!(
        std::format!(
            "{}",
            Invalid::Reserved {
                word: Word::Config1,
                bits: 0x7,
                field: "xbr_match"
            }
        ),
        "config1 bits 0x7 are reserved in xbr_match (they must be 0)"
    );
}

#[test]
fn nhmex_mbox_subcontrols() {
    let m = t(&WSMEX, "mbox");
    // bbox_cmds_read: inc_sel=0xd, fvc=0x5000 -> ZDP field 0.
    let e = encode(
        m,
        0,
        Attr {
            config: 0xd << 9,
            config1: 0x5000,
            config2: 0,
        },
    )
    .unwrap();
    assert_eq!(e.shared.choices().len(), 4);
    let f = encode(
        m,
        0,
        Attr {
            config: 0xd << 9,
            config1: 0x5040,
            config2: 0,
        },
    )
    .unwrap();
    let mut s = Shared::default();
    assert!(s.take(&e.shared).is_some());
    // Different shared bits (bcmd) conflict even on another field.
    assert!(s.take(&f.shared).is_none());
    // Same shared bits, another field: moves to field 1 and inc_sel 0xe.
    let g = encode(
        m,
        0,
        Attr {
            config: 0xd << 9,
            config1: 0x3000,
            config2: 0,
        },
    )
    .unwrap();
    let ig = s.take(&g.shared).unwrap();
    assert_eq!((g.ctl_for(ig) >> 9) & 0x1f, 0xe);
    // PLD takes config1's high half.
    assert!(encode(
        m,
        0,
        Attr {
            config: 0xb << 9,
            config1: 0x1f << 40,
            config2: 0
        }
    )
    .is_ok());
    assert!(encode(
        m,
        0,
        Attr {
            config: 0xb << 9,
            config1: 1,
            config2: 0
        }
    )
    .is_err());
    // Address match only for inc_sel 0xa.
    assert!(encode(
        m,
        0,
        Attr {
            config: 0xa << 9,
            config1: 0,
            config2: 1 << 63
        }
    )
    .is_ok());
    assert!(encode(
        m,
        0,
        Attr {
            config: 0xb << 9,
            config1: 0,
            config2: 1 << 63
        }
    )
    .is_err());
}

/// `M_MSR_PMU_MM_CFG` (0xe54 + 8 *n*): an address-match event sets it;
/// once no running event holds the address match, the next M-box event
/// clears it (as the C driver writes it 0 for every M-box event), and
/// while one holds it, another event leaves it alone.
#[test]
fn nhmex_mbox_mm_cfg_cleared_when_free() {
    use crate::hw::program::{self, Addr, Ctr, Msr, Op};
    use crate::hw::shared::Choice;
    let m = t(&WSMEX, "mbox");
    // The MM_CFG (0xe54 + 8) writes of counter j's enabling write.
    let mm_writes = |j: u8, ctl: u64, s: &Shared, ch: Option<&Choice>| -> std::vec::Vec<u64> {
        let ops = program::event_enable(m, 1, Ctr::General(j), ctl, s, ch, false);
        ops.as_slice()
            .iter()
            .filter_map(|o| match o {
                Op::Write(Addr::Msr(r), v) if *r == Msr::new(0xe54 + 8) => Some(*v),
                _ => None,
            })
            .collect()
    };
    let matched = encode(
        m,
        1,
        Attr {
            config: 0xa << 9,
            config1: 0,
            config2: 1 << 63,
        },
    )
    .unwrap();
    // inc_sel 0x4 (a subcontrol register), inc_sel 0x1 (none).
    let plain = encode(m, 1, Attr::config(0x4 << 9)).unwrap();
    let bare = encode(m, 1, Attr::config(0x1 << 9)).unwrap();
    assert!(bare.shared.is_none());
    let mut s = Shared::default();
    let im = s.take(&matched.shared).unwrap();
    let ch = matched.shared.choices()[usize::from(im)];
    assert_eq!(
        mm_writes(0, matched.ctl_for(im), &s, Some(&ch)),
        [0, 1 << 63]
    );
    // Another event while the address match is held: MM_CFG stays.
    let ip = s.take(&plain.shared).unwrap();
    let pch = plain.shared.choices().get(usize::from(ip)).copied();
    assert_eq!(mm_writes(1, plain.ctl_for(ip), &s, pch.as_ref()), []);
    // The address-match event gone, the next event clears it, with shared
    // registers or without.
    s.release(&matched.shared, im);
    assert_eq!(mm_writes(1, plain.ctl_for(ip), &s, pch.as_ref()), [0]);
    assert_eq!(mm_writes(2, bare.ctl_for(0), &s, None), [0]);
}

#[test]
fn skl_imc_free_running() {
    let imc = t(&SKL, "imc");
    assert_eq!(
        encode(imc, 0, Attr::config(1)).unwrap().kind,
        Kind::FreeRunning(0)
    );
    assert_eq!(
        encode(imc, 0, Attr::config(5)).unwrap().kind,
        Kind::FreeRunning(4)
    );
    assert!(encode(imc, 0, Attr::config(0)).is_err());
    assert!(encode(imc, 0, Attr::config(6)).is_err());
    assert!(encode(imc, 0, Attr::config(0x101)).is_err());
}

proptest! {
    /// Any accepted configuration has no bit outside the formats, its control
    /// value only has control bits, and its counter mask is non-empty and in range.
    #[test]
    fn accepted_configurations_are_well_formed(pi in 0usize..7, ti in 0usize..9, idx in 0usize..4,
                                               config in any::<u64>(), config1 in any::<u64>(), config2 in any::<u64>(),
                                               sparse in any::<bool>()) {
        let p = ALL[pi];
        let t = &p.types[ti % p.types.len()];
        // Bias towards valid values: keep only format bits half of the time.
        let (c0, c1, c2) = if sparse {
            (config & t.valid_mask(Word::Config), config1 & t.valid_mask(Word::Config1), config2 & t.valid_mask(Word::Config2))
        } else {
            (config, config1, config2)
        };
        let attr = Attr { config: c0, config1: c1, config2: c2 };
        match encode(t, idx, attr) {
            Ok(e) => {
                prop_assert_eq!(c0 & !t.valid_mask(Word::Config), 0);
                prop_assert_eq!(c1 & !t.valid_mask(Word::Config1), 0);
                prop_assert_eq!(c2 & !t.valid_mask(Word::Config2), 0);
                match e.kind {
                    Kind::General => {
                        prop_assert!(e.counters != 0);
                        prop_assert_eq!(e.counters & !t.all_counters(), 0);
                        let extra = match t.kind { BoxKind::Fsb => FSB_MUST_BE_ONE, BoxKind::Mbox => MBOX_WRAP_MODE, _ => 0 };
                        for i in 0..e.shared.choices().len().max(1) {
                            prop_assert_eq!(e.ctl_for(i as u8) & !(t.ctl_mask | extra), 0);
                        }
                    }
                    Kind::Fixed => prop_assert!(t.fixed.is_some()),
                    Kind::FreeRunning(i) => prop_assert!(i < t.num_counters),
                }
            }
            Err(Invalid::UnknownBits { word, bits }) => {
                prop_assert!(bits != 0);
                prop_assert_eq!(bits & t.valid_mask(word), 0);
            }
            Err(_) => {}
        }
    }
}
