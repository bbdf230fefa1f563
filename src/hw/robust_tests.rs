// SPDX-License-Identifier: GPL-2.0

//! Property tests of the core's robustness: no function panics on any
//! input — the checks the kernel's Rust turns on (overflow, bounds) would
//! turn a panic into an oops. Validation, scheduling, the overflow walk,
//! counter arithmetic, the lock-free slot, term parsing and the register
//! model get arbitrary values.

use super::counter::{delta, delta_with_status, read_split};
use super::desc::Word;
use super::encode::{encode, Attr};
use super::live::Slot;
use super::model::{Model, Occurrence, Props};
use super::overflow::walk;
use super::pci::{self, Role};
use super::platforms::ALL;
use super::sched::{assign, Want, MAX_EVENTS};
use super::terms;
use proptest::prelude::*;
use std::vec::Vec;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every box type of every platform takes any attribute words at any
    /// box index.
    #[test]
    fn encode_takes_anything(pi in 0usize..7, ti in 0usize..16, index in 0usize..300,
                             config in any::<u64>(), config1 in any::<u64>(), config2 in any::<u64>()) {
        let p = ALL[pi % ALL.len()];
        let t = &p.types[ti % p.types.len()];
        let _ = encode(t, index, Attr { config, config1, config2 });
        let _ = encode(t, index, Attr {
            config: config & t.valid_mask(Word::Config),
            config1: config1 & t.valid_mask(Word::Config1),
            config2: config2 & t.valid_mask(Word::Config2),
        });
    }

    /// The functions that make register addresses from a box index give
    /// nothing for an index past the type's boxes or a counter past its
    /// counters (an address past them would leave the PMON block, and the
    /// `Msr` and `CfgReg` they make are trusted as the type's own), and
    /// never panic on any index.
    #[test]
    fn addresses_stay_in_the_type(pi in 0usize..7, ti in 0usize..16, index in 0usize..100_000,
                                  j in any::<u8>(), fixed in any::<bool>(), free in any::<bool>()) {
        use super::program::{self, CounterRegs, Ctr};
        use super::shared::Shared;
        let p = ALL[pi % ALL.len()];
        let t = &p.types[ti % p.types.len()];
        let c = if fixed { Ctr::Fixed } else if free { Ctr::Free(j) } else { Ctr::General(j) };
        let boxed = index < usize::from(t.num_boxes);
        let inside = boxed && match c {
            Ctr::General(j) | Ctr::Free(j) => j < t.num_counters,
            Ctr::Fixed => t.fixed.is_some(),
        };
        let g = program::GlobalState::default();
        let shared = Shared::default();
        let enable = program::event_enable(t, index, c, 0, &shared, None, true);
        let disable = program::event_disable(p.global, t, index, c, 0, false);
        let init = program::box_init(t, index);
        let run = program::box_run(p, t, index, true, 1, &g);
        let ctl = program::control_addr(t, index, c);
        let reg = program::counter_reg(t, index, c);
        let _ = program::overflow_bit(p, t, index, c);
        let _ = CounterRegs::new(t, index);
        if !boxed {
            prop_assert!(init.as_slice().is_empty() && run.as_slice().is_empty());
            prop_assert!(program::box_ctl_addr(t, index).is_none());
        }
        if !inside {
            prop_assert!(enable.as_slice().is_empty() && disable.as_slice().is_empty());
            prop_assert!(ctl.is_none());
            prop_assert_eq!(reg, program::counter_reg(t, usize::MAX, c));
        }
    }

    /// The scheduler takes any wishes, more than it can place included,
    /// and any output length; what it accepts is a valid assignment.
    #[test]
    fn assign_takes_anything(masks in proptest::collection::vec(any::<u32>(), 0..MAX_EVENTS + 4),
                             cur in proptest::collection::vec(proptest::option::of(any::<u8>()), MAX_EVENTS + 4),
                             out_len in 0usize..MAX_EVENTS + 4) {
        let wants: Vec<Want> = masks.iter().zip(&cur).map(|(&m, &c)| Want { counters: m, current: c }).collect();
        let mut out = std::vec![0u8; out_len];
        if assign(&wants, &mut out) {
            let mut used = 0u64;
            for (w, &c) in wants.iter().zip(&out) {
                prop_assert!(c < 32 && w.counters & (1 << c) != 0);
                prop_assert!(used & (1 << c) == 0);
                used |= 1 << c;
            }
        }
    }

    /// The overflow walk reads any register values.
    #[test]
    fn walk_takes_any_registers(pi in 0usize..7, seed in any::<u64>()) {
        let p = ALL[pi % ALL.len()];
        let mut x = seed | 1;
        let w = walk(p, |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        });
        for h in w.hits() {
            prop_assert!((h.ty as usize) < p.types.len());
        }
    }

    /// Counter arithmetic takes any values and widths.
    #[test]
    fn counter_math_takes_anything(prev in any::<u64>(), now in any::<u64>(), width in 0u32..80, ovf in any::<bool>()) {
        let _ = delta(prev, now, width);
        let _ = delta_with_status(prev, now, width, ovf);
        let mut k = 0u32;
        let _ = read_split::<()>(|| { k = k.wrapping_add(1); Ok(k) }, || Ok(now as u32));
    }

    /// The lock-free slot takes any counter values, widths and codes.
    #[test]
    fn slot_takes_anything(start in any::<u64>(), reads in proptest::collection::vec(any::<u64>(), 1..20),
                           width in 0u32..80, code in any::<u8>(), owner in any::<usize>()) {
        let s = Slot::new();
        s.claim(owner);
        s.start(code, start);
        for r in &reads {
            let _ = s.observe(owner, |_| width, |_| Some(*r));
        }
        let _ = s.stop(width, || reads.last().copied());
    }

    /// Term lists of any text apply or fail cleanly.
    #[test]
    fn terms_take_any_text(pi in 0usize..7, ti in 0usize..16, text in "[a-z_0-9=,x ]{0,60}") {
        let p = ALL[pi % ALL.len()];
        let t = &p.types[ti % p.types.len()];
        let mut a = Attr::default();
        let _ = terms::parse(t, &text, &mut a);
    }

    /// PCI decoding takes any IDs and positions.
    #[test]
    fn pci_decode_takes_anything(pi in 0usize..7, vendor in any::<u16>(), device in any::<u16>(),
                                 dev in any::<u8>(), func in any::<u8>()) {
        let _ = pci::decode(ALL[pi % ALL.len()].id, vendor, device, dev, func);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The register model takes any sequence of accesses and injections,
    /// huge counts included.
    #[test]
    fn model_takes_anything(pi in 0usize..7, sockets in 0usize..10,
                            ops in proptest::collection::vec((0u8..6, any::<u32>(), any::<u64>(), any::<u16>()), 0..60)) {
        let p = ALL[pi % ALL.len()];
        let mut m = Model::new(p.id, sockets);
        for (kind, a, v, e) in ops {
            let s = (a as usize >> 24) % 10;
            let msr = if a & 1 == 0 { a & 0xfff } else { a };
            match kind {
                0 => { let _ = m.wrmsr(s, msr, v); }
                1 => { let _ = m.rdmsr(s, msr); }
                2 => {
                    let t = &p.types[e as usize % p.types.len()];
                    let occ = Occurrence {
                        event: e,
                        umask: (v >> 8) as u8,
                        cycles: v,
                        inc: a,
                        props: Props::default(),
                    };
                    let _ = m.inject(s, t.kind, (a >> 16) as u8 % 16, &occ);
                }
                3 => {
                    let t = &p.types[e as usize % p.types.len()];
                    let role = Role::Box { ty: t.kind, index: (a >> 8) as u8 % 16 };
                    let _ = m.cfg_write(s, role, a & 0xffc, v as u32);
                    let _ = m.cfg_read(s, role, a & 0xffc);
                }
                4 => {
                    let _ = m.mmio_read(s, a & 0x7ffc);
                    let _ = m.take_pmi(s);
                }
                _ => {
                    for k in 0..48 {
                        let _ = m.counter_read(s, k, (a % 10) as usize);
                    }
                }
            }
        }
    }
}
