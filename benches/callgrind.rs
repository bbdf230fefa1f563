// SPDX-License-Identifier: GPL-2.0

//! Instructions per operation of the core's hot paths, counted by callgrind
//! (`make bench`, table 3; `scripts/bench.sh` runs it).
//!
//! `uncore-callgrind OP N` prepares operation `OP` and runs it `N` times,
//! each run inside one call of [`callgrind_measured`]. Under
//! `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*callgrind_measured*'` only what runs inside that
//! function is counted (the preparation, the loop and the process's start
//! and exit are not), so the total divided by `N` is the instructions of one
//! operation, the same on every run of the same build. Every run of an
//! operation takes the same inputs and the same path, on a stack placed the
//! same way whatever the environment; the `empty` operation gives what the
//! marker call itself adds to each figure.
//!
//! `uncore-callgrind --list` prints the operations, one per line: the name,
//! a tab, and what it measures.
//!
//! Register reads are not the core's: the overflow walk reads from a replay
//! of values recorded from the register model, and the slot observation
//! from a value in memory, so the figures count the core's own work around
//! the reads.

use std::hint::black_box;
use std::process::ExitCode;
use uncore_core::hw::counter::{delta, delta_with_status};
use uncore_core::hw::desc::{BoxType, PlatformId, Space};
use uncore_core::hw::encode::{encode, Attr};
use uncore_core::hw::live::Slot;
use uncore_core::hw::model::{Model, Occurrence};
use uncore_core::hw::overflow::walk;
use uncore_core::hw::platforms::{self, by_id};
use uncore_core::hw::program::{box_ctl_addr, Addr};
use uncore_core::hw::sched::{assign, Want, MAX_EVENTS};

/// One measured operation: its name on the command line, what it measures,
/// and the function that prepares it and runs it `N` times.
struct Op {
    /// The command-line name.
    name: &'static str,
    /// What one run does (a row of table 3).
    what: &'static str,
    /// Prepares the operation and runs it the given number of times.
    run: fn(u64),
}

/// The operations, in the order of table 3.
const OPS: &[Op] = &[
    Op {
        name: "empty",
        what: "marker call alone (included in every row)",
        run: run_empty,
    },
    Op {
        name: "encode-plain",
        what: "validation: encode SNB-EP C-box plain event",
        run: run_encode_plain,
    },
    Op {
        name: "encode-filter",
        what: "validation: encode SNB-EP C-box NID+opcode filter",
        run: run_encode_filter,
    },
    Op {
        name: "encode-band",
        what: "validation: encode SNB-EP PCU band event",
        run: run_encode_band,
    },
    Op {
        name: "encode-fvc",
        what: "validation: encode WSM-EX M-box FVC event",
        run: run_encode_fvc,
    },
    Op {
        name: "sched-1",
        what: "scheduling: 1 event, empty SNB-EP C-box",
        run: run_sched_1,
    },
    Op {
        name: "sched-4-add",
        what: "scheduling: 4 events, 3 running + 1 added",
        run: run_sched_4_add,
    },
    Op {
        name: "sched-4-group",
        what: "scheduling: 4 events, group check (none placed)",
        run: run_sched_4_group,
    },
    Op {
        name: "sched-8-add",
        what: "scheduling: 8 events, 7 running + 1 added",
        run: run_sched_8_add,
    },
    Op {
        name: "sched-8-group",
        what: "scheduling: 8 events, group check (none placed)",
        run: run_sched_8_group,
    },
    Op {
        name: "walk-wsmex-idle",
        what: "overflow walk: WSM-EX, nothing pending",
        run: run_walk_wsmex_idle,
    },
    Op {
        name: "walk-wsmex-1",
        what: "overflow walk: WSM-EX, 1 C-box counter",
        run: run_walk_wsmex_1,
    },
    Op {
        name: "walk-wsmex-3",
        what: "overflow walk: WSM-EX, C-box + M-box + R-box",
        run: run_walk_wsmex_3,
    },
    Op {
        name: "walk-skl",
        what: "overflow walk: Skylake, a C-box counter",
        run: run_walk_skl,
    },
    Op {
        name: "delta",
        what: "delta: 48-bit modular (counter::delta)",
        run: run_delta,
    },
    Op {
        name: "delta-status",
        what: "delta: with overflow status",
        run: run_delta_status,
    },
    Op {
        name: "observe",
        what: "delta: read path's slot update (Slot::observe)",
        run: run_observe,
    },
];

/// The marker: callgrind counts only what runs inside this function (with
/// `--toggle-collect`). Never inlined, so that it exists as a function.
#[inline(never)]
fn callgrind_measured<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f` `n` times, each inside the marker.
fn repeat<R>(n: u64, mut f: impl FnMut() -> R) {
    for _ in 0..n {
        black_box(callgrind_measured(&mut f));
    }
}

/// The marker with nothing inside but an optimisation barrier.
fn run_empty(n: u64) {
    repeat(n, || black_box(()));
}

/// A box type of a platform, by name.
fn box_type(p: PlatformId, name: &str) -> &'static BoxType {
    by_id(p)
        .box_type(name)
        .unwrap_or_else(|| panic!("no box type {name}"))
}

/// Encodes `attr` for box 0 of `t` `n` times; the attribute must be valid.
fn run_encode(n: u64, t: &'static BoxType, attr: Attr) {
    assert!(
        encode(t, 0, attr).is_ok(),
        "{}: {attr:?} is refused",
        t.name()
    );
    repeat(n, || encode(t, 0, black_box(attr)).ok());
}

/// Encodes a plain SNB-EP C-box event (`event=0x14,umask=0x1`).
fn run_encode_plain(n: u64) {
    run_encode(
        n,
        platforms::snbep::SNBEP.box_type("cbox").unwrap(),
        Attr::config(0x0114),
    );
}

/// Encodes an SNB-EP C-box event with the node and opcode filters.
fn run_encode_filter(n: u64) {
    run_encode(
        n,
        platforms::snbep::SNBEP.box_type("cbox").unwrap(),
        Attr {
            config: 0x4135,
            config1: (1 << 10) | (0x182 << 23),
            config2: 0,
        },
    );
}

/// Encodes an SNB-EP PCU frequency band event (four filter alternatives).
fn run_encode_band(n: u64) {
    run_encode(
        n,
        platforms::snbep::SNBEP.box_type("pcu").unwrap(),
        Attr {
            config: 0xb,
            config1: 20,
            config2: 0,
        },
    );
}

/// Encodes a WSM-EX M-box event with its FVC sub-event.
fn run_encode_fvc(n: u64) {
    run_encode(
        n,
        box_type(PlatformId::WESTMERE_EX, "mbox"),
        Attr {
            config: 0xd << 9,
            config1: 0x5000,
            config2: 0,
        },
    );
}

/// The counter masks of events `configs` of box 0 of `t`, as the encoder
/// gives them.
fn masks(t: &'static BoxType, configs: &[u64]) -> Vec<u32> {
    configs
        .iter()
        .map(|&c| match encode(t, 0, Attr::config(c)) {
            Ok(e) => e.counters,
            Err(e) => panic!("{}: config {c:#x} refused: {e:?}", t.name()),
        })
        .collect()
}

/// The wants of `add` for events with `masks`, added one after the other:
/// every event but the last running where the earlier `add`s put it, the
/// last one new.
fn added(masks: &[u32]) -> Vec<Want> {
    let mut wants: Vec<Want> = Vec::new();
    let mut out = [0u8; MAX_EVENTS];
    for &m in masks {
        wants.push(Want {
            counters: m,
            current: None,
        });
        assert!(assign(&wants, &mut out), "the events do not fit");
        for (w, &c) in wants.iter_mut().zip(&out) {
            w.current = Some(c);
        }
    }
    if let Some(last) = wants.last_mut() {
        last.current = None;
    }
    wants
}

/// The wants of a group check (`event_init`): no event placed.
fn group(masks: &[u32]) -> Vec<Want> {
    masks
        .iter()
        .map(|&m| Want {
            counters: m,
            current: None,
        })
        .collect()
}

/// Schedules `wants` `n` times; they must fit.
fn run_sched(n: u64, wants: &[Want]) {
    let mut out = [0u8; MAX_EVENTS];
    assert!(assign(wants, &mut out), "the events do not fit");
    repeat(n, || assign(black_box(wants), &mut out));
}

/// Four SNB-EP C-box events with different constraints: counter 0 only
/// (0x11), 0-1 (0x34), 1-3 (0x1f), 2-3 (0x1b).
fn snbep_cbox_4() -> Vec<u32> {
    masks(
        platforms::snbep::SNBEP.box_type("cbox").unwrap(),
        &[0x0111, 0x0134, 0x011f, 0x011b],
    )
}

/// Eight NHM-EX R-box events (the R-box has eight counters per PMU).
fn nhmex_rbox_8() -> Vec<u32> {
    let events: Vec<u64> = (0..8).map(|e| e << 1).collect();
    masks(box_type(PlatformId::NEHALEM_EX, "rbox"), &events)
}

/// One event added to an empty SNB-EP C-box.
fn run_sched_1(n: u64) {
    let m = masks(platforms::snbep::SNBEP.box_type("cbox").unwrap(), &[0x0134]);
    run_sched(n, &added(&m));
}

/// Four C-box events, the last one added.
fn run_sched_4_add(n: u64) {
    run_sched(n, &added(&snbep_cbox_4()));
}

/// Four C-box events checked as a group.
fn run_sched_4_group(n: u64) {
    run_sched(n, &group(&snbep_cbox_4()));
}

/// Eight R-box events, the last one added.
fn run_sched_8_add(n: u64) {
    run_sched(n, &added(&nhmex_rbox_8()));
}

/// Eight R-box events checked as a group.
fn run_sched_8_group(n: u64) {
    run_sched(n, &group(&nhmex_rbox_8()));
}

/// Enables counter `j` of box `i` of type `ty` on socket 0 of a NHM-EX or
/// WSM-EX model with an event it counts, and loads it one below overflow;
/// returns the occurrence that makes it overflow.
fn arm(m: &mut Model, ty: &str, i: u8, j: usize) -> Occurrence {
    let t = by_id(m.platform).box_type(ty).unwrap();
    let Some(Addr::Msr(bc)) = box_ctl_addr(t, i as usize) else {
        panic!("{ty}: no box control MSR");
    };
    let bc = bc.addr();
    let Space::Msr {
        ctl, ctr, offsets, ..
    } = t.space
    else {
        panic!("{ty}: not an MSR box");
    };
    let off = offsets.of(i as usize);
    let (v, ev) = match ty {
        "bbox" | "rbox" => ((7 << 1) | 1, 7u16),
        "mbox" => ((6 << 9) | (1 << 6) | 1, 6),
        _ => ((1 << 22) | 0x14, 0x14),
    };
    let old = m.rdmsr(0, bc).unwrap();
    m.wrmsr(0, bc, old | (1 << j)).unwrap();
    m.wrmsr(0, ctl.of(j) + off, v).unwrap();
    m.wrmsr(0, ctr.of(j) + off, (1 << 48) - 1).unwrap();
    Occurrence::simple(ev, 0, 1)
}

/// The values a walk of a WSM-EX model reads, in order, after counter `j` of
/// each (type, box, counter) of `boxes` overflowed; checks that the walk
/// finds them all.
fn wsmex_reads(boxes: &[(&str, u8, usize)]) -> Vec<u64> {
    let mut m = Model::new(PlatformId::WESTMERE_EX, 1);
    // The U-box global enable.
    m.wrmsr(0, 0xc00, 1 << 28).unwrap();
    let occs: Vec<Occurrence> = boxes
        .iter()
        .map(|&(t, i, j)| arm(&mut m, t, i, j))
        .collect();
    for (&(t, i, _), o) in boxes.iter().zip(&occs) {
        let kind = by_id(PlatformId::WESTMERE_EX).box_type(t).unwrap().kind;
        m.inject(0, kind, i, o).unwrap();
    }
    let mut reads = Vec::new();
    let w = walk(by_id(PlatformId::WESTMERE_EX), |a| {
        let v = m.rdmsr(0, a.addr()).unwrap_or(0);
        reads.push(v);
        v
    });
    assert_eq!(w.hits().len(), boxes.len(), "the walk missed an overflow");
    reads
}

/// Walks platform `p` `n` times, replaying `reads` (the register values the
/// walk reads, in order).
fn run_walk(n: u64, p: PlatformId, reads: &[u64]) {
    let p = by_id(p);
    repeat(n, || {
        let mut k = 0;
        walk(p, |_| {
            let v = reads.get(k).copied().unwrap_or(0);
            k += 1;
            v
        })
    });
}

/// A WSM-EX walk that finds nothing.
fn run_walk_wsmex_idle(n: u64) {
    run_walk(n, PlatformId::WESTMERE_EX, &wsmex_reads(&[]));
}

/// A WSM-EX walk that finds one C-box counter.
fn run_walk_wsmex_1(n: u64) {
    run_walk(n, PlatformId::WESTMERE_EX, &wsmex_reads(&[("cbox", 0, 0)]));
}

/// A WSM-EX walk that finds counters of three boxes, under both S-box
/// summaries.
fn run_walk_wsmex_3(n: u64) {
    let reads = wsmex_reads(&[("cbox", 0, 0), ("mbox", 1, 2), ("rbox", 1, 3)]);
    run_walk(n, PlatformId::WESTMERE_EX, &reads);
}

/// A Skylake walk: the global status says a C-box counter overflowed (bit
/// 3), the one register the walk reads.
fn run_walk_skl(n: u64) {
    run_walk(n, PlatformId::SKYLAKE, &[1 << 3]);
}

/// The modular delta of a 48-bit counter.
fn run_delta(n: u64) {
    repeat(n, || {
        delta(black_box(0xffff_ffff_fff0), black_box(0x10), 48)
    });
}

/// The delta with the counter's overflow status.
fn run_delta_status(n: u64) {
    repeat(n, || {
        delta_with_status(black_box(0x10), black_box(0x20), 48, black_box(true))
    });
}

/// The read path's update of a counting slot: the counter advances by 7
/// between observations.
fn run_observe(n: u64) {
    let slot = Slot::new();
    slot.claim(1);
    slot.start(0, 0);
    let mut now = 0u64;
    repeat(n, || {
        now += 7;
        let v = now;
        slot.observe(black_box(1), |_| 48, |_| Some(v))
    });
}

/// Lists the operations (`--list`) or runs one (`OP N`).
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [l] if l == "--list" => {
            for op in OPS {
                println!("{}\t{}", op.name, op.what);
            }
            ExitCode::SUCCESS
        }
        [name, n] => {
            let Some(op) = OPS.iter().find(|op| op.name == name) else {
                eprintln!("uncore-callgrind: no operation {name} (--list)");
                return ExitCode::from(2);
            };
            let Ok(n) = n.parse::<u64>() else {
                eprintln!("uncore-callgrind: {n} is not a count");
                return ExitCode::from(2);
            };
            // A thread of its own: its stack starts at the same offset in
            // a page whatever the environment and the arguments, which
            // shift the main thread's; libc's memcpy and memset, which the
            // operations call, take paths that depend on the alignment.
            let run = op.run;
            match std::thread::Builder::new()
                .stack_size(1 << 20)
                .spawn(move || run(n))
                .map(|t| t.join())
            {
                Ok(Ok(())) => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            }
        }
        _ => {
            eprintln!("usage: uncore-callgrind --list | OP N");
            ExitCode::from(2)
        }
    }
}
