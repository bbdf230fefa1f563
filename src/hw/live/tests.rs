// SPDX-License-Identifier: GPL-2.0

//! Host tests of the lock-free slot: exactness under racing observers and
//! reconfiguration, wrap handling, and owner and generation checks.

use super::*;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread;
use std::vec::Vec;

/// A slot claimed by owner 1, counter 0 started at `at`.
fn started(at: u64) -> Slot {
    let s = Slot::new();
    s.claim(1);
    s.start(0, at);
    s
}

#[test]
fn disarmed_slot_reports_nothing() {
    let s = Slot::new();
    assert_eq!(s.observe(7, |_| 48, |_| Some(100)), None);
    assert_eq!(s.stop(48, || Some(5)), 0);
}

#[test]
fn observations_account_increments_once() {
    let s = Slot::new();
    s.claim(7);
    s.start(0, 100);
    assert_eq!(s.observe(7, |_| 48, |_| Some(150)), Some(50));
    assert_eq!(s.observe(7, |_| 48, |_| Some(150)), Some(0));
    assert_eq!(s.stop(48, || Some(160)), 10);
    assert_eq!(s.observe(7, |_| 48, |_| Some(170)), None);
}

#[test]
fn a_wrap_is_one_increment() {
    let s = started((1 << 44) - 3);
    assert_eq!(s.observe(1, |_| 44, |_| Some(4)), Some(7));
}

#[test]
fn another_owner_cannot_take_the_progress() {
    let s = started(0);
    assert_eq!(s.observe(2, |_| 48, |_| Some(10)), None);
    assert_eq!(s.observe(1, |_| 48, |_| Some(10)), Some(10));
}

#[test]
fn a_failed_read_accounts_nothing_and_loses_nothing() {
    let s = started(5);
    assert_eq!(s.observe(1, |_| 48, |_| None), None);
    assert_eq!(s.observe(1, |_| 48, |_| Some(9)), Some(4));
}

#[test]
fn rearming_changes_the_generation() {
    let s = started(0);
    let w0 = s.prev.0.load(Ordering::Relaxed);
    s.stop(48, || Some(0));
    s.start(0, 0);
    let w1 = s.prev.0.load(Ordering::Relaxed);
    assert_ne!(w0, w1, "same value, new generation");
    assert!(s.prev.is_armed());
}

#[test]
fn the_generation_wraps_without_touching_the_armed_bit() {
    let s = Slot::new();
    for k in 0..70_000u64 {
        s.start(0, k & 0xff);
        assert!(s.prev.is_armed());
        s.stop(48, || Some(k & 0xff));
        assert!(!s.prev.is_armed());
    }
}

/// A simulated counter advancing by one on every read (so any observer
/// reads a strictly later value than the one before it in real time).
struct Hw {
    ctrs: [AtomicU64; 2],
}

impl Hw {
    fn read(&self, c: u8) -> Option<u64> {
        Some(self.ctrs[c as usize].fetch_add(1, Ordering::SeqCst) + 1)
    }
}

/// Readers race with each other and with a writer that moves the slot
/// between two counters and between two owners; every accounted increment
/// is attributed to the owner of the generation it was taken in, and the
/// totals equal the counters' progress while armed.
#[test]
fn racing_observers_and_reconfiguration_are_exact() {
    let hw = Arc::new(Hw {
        ctrs: [AtomicU64::new(0), AtomicU64::new(1 << 40)],
    });
    let slot = Arc::new(Slot::new());
    let done = Arc::new(AtomicBool::new(false));
    // Accounted per owner (1 and 2).
    let got = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
    let wins = Arc::new(AtomicU64::new(0));
    let mut readers = Vec::new();
    for r in 0..3 {
        let (hw, slot, done, got) = (hw.clone(), slot.clone(), done.clone(), got.clone());
        let wins = wins.clone();
        readers.push(thread::spawn(move || {
            let owner = 1 + (r % 2);
            while !done.load(Ordering::Relaxed) {
                if let Some(d) = slot.observe(owner, |_| 48, |c| hw.read(c)) {
                    got[owner - 1].fetch_add(d, Ordering::Relaxed);
                    wins.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    // The writer: the truth is what it saw at each start and stop, plus
    // what the observers took in between.
    let mut want = [0u64; 2];
    // At least 20,000 reconfigurations, and on until the observers have
    // won some races (a loaded machine may start them late).
    let mut k = 0u64;
    while k < 20_000 || (wins.load(Ordering::Relaxed) < 1000 && k < 50_000_000) {
        k += 1;
        let owner = 1 + (k % 2) as usize;
        let c = ((k / 2) % 2) as u8;
        slot.claim(owner);
        let start = hw.read(c).unwrap();
        slot.start(c, start);
        // The stop may read more than once (it retries when an observer
        // won): the last read is the end of this generation.
        let mut end = start;
        let last = slot.stop(48, || {
            end = hw.read(c).unwrap();
            Some(end)
        });
        want[owner - 1] += end - start;
        got[owner - 1].fetch_add(last, Ordering::Relaxed);
        slot.release();
    }
    done.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().unwrap();
    }
    assert!(
        wins.load(Ordering::Relaxed) > 0,
        "the observers never raced the writer"
    );
    assert_eq!(got[0].load(Ordering::Relaxed), want[0]);
    assert_eq!(got[1].load(Ordering::Relaxed), want[1]);
}

/// Several observers of one long-armed slot: the sum of their increments is
/// the counter's progress.
#[test]
fn racing_observers_of_one_counter_sum_to_its_progress() {
    let hw = Arc::new(Hw {
        ctrs: [AtomicU64::new(1000), AtomicU64::new(0)],
    });
    let slot = Arc::new(Slot::new());
    slot.claim(9);
    slot.start(0, 1000);
    let total = Arc::new(AtomicU64::new(0));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (hw, slot, total) = (hw.clone(), slot.clone(), total.clone());
            thread::spawn(move || {
                for _ in 0..50_000 {
                    if let Some(d) = slot.observe(9, |_| 48, |c| hw.read(c)) {
                        total.fetch_add(d, Ordering::Relaxed);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let end = hw.ctrs[0].load(Ordering::SeqCst);
    let last = slot.stop(48, || Some(end));
    assert_eq!(total.load(Ordering::Relaxed) + last, end - 1000);
}
