// SPDX-License-Identifier: GPL-2.0

//! Benchmarks of the core's hot-path pieces, as the driver uses them:
//! encoding an event (`event_init`, `add`), scheduling a box's events
//! (`add`), the counter delta (every update), and, for the simulation, a
//! model injection and an overflow walk. Prints the median, minimum and
//! maximum time per operation over several rounds, and ratios of medians
//! measured in the same run.

use std::hint::black_box;
use std::time::Instant;
use uncore_core::hw::counter::{delta, delta_with_status};
use uncore_core::hw::desc::{BoxKind, PlatformId};
use uncore_core::hw::encode::{encode, Attr};
use uncore_core::hw::model::{Model, Occurrence};
use uncore_core::hw::overflow::walk;
use uncore_core::hw::platforms::{self, by_id};
use uncore_core::hw::sched::{assign, Want};

/// Runs `f` `iters` times per round for `rounds` rounds; returns the sorted
/// per-operation times in nanoseconds.
fn measure(rounds: usize, iters: u64, mut f: impl FnMut(u64)) -> Vec<f64> {
    let mut v: Vec<f64> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            for i in 0..iters {
                f(i);
            }
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v
}

fn report(name: &str, v: &[f64]) -> f64 {
    let med = v[v.len() / 2];
    println!(
        "{:<44} median {:>9.1} ns/op   min {:>9.1}   max {:>9.1}",
        name,
        med,
        v[0],
        v[v.len() - 1]
    );
    med
}

fn main() {
    let rounds = 21;
    let snbep = &platforms::snbep::SNBEP;
    let cbox = snbep.box_type("cbox").unwrap();
    let pcu = snbep.box_type("pcu").unwrap();
    let wsmex = by_id(PlatformId::WESTMERE_EX);
    let mbox = wsmex.box_type("mbox").unwrap();

    let plain = report(
        "encode: SNB-EP C-box, plain event",
        &measure(rounds, 200_000, |i| {
            black_box(encode(cbox, 0, Attr::config(black_box(0x0114 + (i & 1)))).ok());
        }),
    );
    let filtered = report(
        "encode: SNB-EP C-box, filtered (NID+OPC)",
        &measure(rounds, 200_000, |i| {
            black_box(
                encode(
                    cbox,
                    0,
                    Attr {
                        config: black_box(0x4135),
                        config1: (1 << 10) | (0x182 << 23) | (i & 1),
                        config2: 0,
                    },
                )
                .ok(),
            );
        }),
    );
    report(
        "encode: PCU band event (4 alternatives)",
        &measure(rounds, 200_000, |i| {
            black_box(
                encode(
                    pcu,
                    0,
                    Attr {
                        config: 0xb,
                        config1: black_box(20 + (i & 1)),
                        config2: 0,
                    },
                )
                .ok(),
            );
        }),
    );
    report(
        "encode: WSM-EX M-box FVC event",
        &measure(rounds, 200_000, |i| {
            black_box(
                encode(
                    mbox,
                    0,
                    Attr {
                        config: 0xd << 9,
                        config1: black_box(0x5000 | (i & 0x40)),
                        config2: 0,
                    },
                )
                .ok(),
            );
        }),
    );

    let mut out = [0u8; 17];
    let easy = [
        Want {
            counters: 0xf,
            current: Some(0),
        },
        Want {
            counters: 0xf,
            current: Some(1),
        },
        Want {
            counters: 0xf,
            current: None,
        },
    ];
    let fast = report(
        "sched: 3 events, 2 kept in place",
        &measure(rounds, 500_000, |_| {
            black_box(assign(black_box(&easy), &mut out));
        }),
    );
    let hard: Vec<Want> = [0x1, 0x3, 0x3, 0xc, 0xe, 0x3f]
        .iter()
        .map(|&m| Want {
            counters: m,
            current: None,
        })
        .collect();
    let slow = report(
        "sched: 6 constrained events (search)",
        &measure(rounds, 200_000, |_| {
            black_box(assign(black_box(&hard), &mut out));
        }),
    );
    let d = report(
        "counter delta (48-bit, modular)",
        &measure(rounds, 5_000_000, |i| {
            black_box(delta(black_box(i), black_box(i + 7), 48));
        }),
    );
    report(
        "counter delta with overflow status",
        &measure(rounds, 5_000_000, |i| {
            black_box(delta_with_status(
                black_box(i),
                black_box(i + 7),
                48,
                i & 1 == 0,
            ));
        }),
    );

    let mut m = Model::new(PlatformId::WESTMERE_EX, 2);
    m.wrmsr(0, 0xc00, 1 << 28).unwrap();
    m.wrmsr(0, 0xd00, 1).unwrap();
    m.wrmsr(0, 0xd10, 0x40_0114).unwrap();
    let occ = Occurrence::simple(0x14, 1, 3);
    report(
        "model: inject into a WSM-EX C-box",
        &measure(rounds, 200_000, |_| {
            black_box(m.inject(0, BoxKind::Cbox, 0, black_box(&occ)).ok());
        }),
    );
    report(
        "overflow walk: WSM-EX, nothing pending",
        &measure(rounds, 200_000, |_| {
            black_box(walk(wsmex, |a| m.rdmsr(0, a.addr()).unwrap_or(0)).is_empty());
        }),
    );
    println!();
    println!("ratio filtered/plain encode: {:.2}", filtered / plain);
    println!("ratio search/fast-path schedule: {:.2}", slow / fast);
    println!("ratio plain encode/delta: {:.1}", plain / d);
}
