// SPDX-License-Identifier: GPL-2.0

//! Counter scheduling: assigns a set of events to a box's counters under
//! their constraints.
//!
//! Events already running keep their counters when that still leads to a
//! complete assignment (so that they need not be stopped and reprogrammed);
//! otherwise the search moves them. The search is a depth-first search over
//! events ordered by how few counters they may use, and it is exhaustive:
//! it fails only when no assignment exists. No allocation: at most
//! [`MAX_EVENTS`] events.

/// Most events one box schedules (counters plus the fixed counter).
pub const MAX_EVENTS: usize = 17;

/// An event to place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Want {
    /// Counters it may use.
    pub counters: u32,
    /// The counter it runs on now, if any.
    pub current: Option<u8>,
}

/// Assigns each event of `wants` a distinct counter from its mask, writing
/// the result to `out` (same order). Returns `false` when impossible.
pub fn assign(wants: &[Want], out: &mut [u8]) -> bool {
    let n = wants.len();
    if n > MAX_EVENTS || out.len() < n {
        return false;
    }
    // Fast path: every event keeps its counter.
    let mut used = 0u32;
    let mut fast = true;
    for w in wants {
        match w.current {
            Some(c) if w.counters & bit(c) != 0 && used & bit(c) == 0 => used |= bit(c),
            _ => {
                fast = false;
                break;
            }
        }
    }
    if fast {
        for (o, w) in out.iter_mut().zip(wants) {
            *o = w.current.unwrap_or(0);
        }
        return true;
    }
    // Order: fewest allowed counters first (ties: original order).
    let mut order = [0u8; MAX_EVENTS];
    for (i, o) in order.iter_mut().enumerate().take(n) {
        *o = i as u8;
    }
    // Insertion sort: stable, in place, and `n` is small.
    for i in 1..n {
        let mut j = i;
        while j > 0 && weight(wants, order[j - 1]) > weight(wants, order[j]) {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    dfs(wants, &order[..n], 0, 0, out)
}

/// The counter-using events of one box to place together, each with a key
/// of the caller's and the counter it runs on now, if any: what scheduling
/// an event (`add`) and validating a group (`event_init`) both build.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    wants: [Want; MAX_EVENTS],
    keys: [usize; MAX_EVENTS],
    n: usize,
}

/// Where [`Schedule::solve`] placed the events: each key with its counter,
/// in the order they were pushed.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    keys: [usize; MAX_EVENTS],
    out: [u8; MAX_EVENTS],
    n: usize,
}

impl Default for Schedule {
    fn default() -> Self {
        Self::new()
    }
}

impl Schedule {
    /// No events.
    pub const fn new() -> Self {
        Schedule {
            wants: [Want {
                counters: 0,
                current: None,
            }; MAX_EVENTS],
            keys: [0; MAX_EVENTS],
            n: 0,
        }
    }

    /// Adds event `key`, which may use `counters` and runs on `current`;
    /// `false` (nothing added) when the box has no room for another.
    pub fn push(&mut self, key: usize, counters: u32, current: Option<u8>) -> bool {
        let (Some(w), Some(k)) = (self.wants.get_mut(self.n), self.keys.get_mut(self.n)) else {
            return false;
        };
        *w = Want { counters, current };
        *k = key;
        self.n += 1;
        true
    }

    /// Gives each event a distinct counter of its mask, running events
    /// kept where they are when possible; `None` when impossible.
    pub fn solve(&self) -> Option<Placement> {
        let mut out = [0u8; MAX_EVENTS];
        assign(&self.wants[..self.n], &mut out).then_some(Placement {
            keys: self.keys,
            out,
            n: self.n,
        })
    }
}

impl Placement {
    /// Each event's key and counter.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.keys[..self.n]
            .iter()
            .copied()
            .zip(self.out[..self.n].iter().copied())
    }

    /// The counter of event `key`.
    pub fn counter_of(&self, key: usize) -> Option<u8> {
        self.iter().find(|&(k, _)| k == key).map(|(_, c)| c)
    }
}

/// The mask bit of counter `c` (none for a counter beyond the mask).
const fn bit(c: u8) -> u32 {
    match 1u32.checked_shl(c as u32) {
        Some(b) => b,
        None => 0,
    }
}

fn weight(wants: &[Want], i: u8) -> u32 {
    wants[i as usize].counters.count_ones()
}

fn dfs(wants: &[Want], order: &[u8], depth: usize, used: u32, out: &mut [u8]) -> bool {
    let Some(&i) = order.get(depth) else {
        return true;
    };
    let w = wants[i as usize];
    let free = w.counters & !used;
    // Try the current counter first, then the others in increasing order.
    if let Some(c) = w.current {
        if free & bit(c) != 0 {
            out[i as usize] = c;
            if dfs(wants, order, depth + 1, used | bit(c), out) {
                return true;
            }
        }
    }
    let mut rest = free;
    while rest != 0 {
        let c = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        if Some(c) == w.current {
            continue;
        }
        out[i as usize] = c;
        if dfs(wants, order, depth + 1, used | bit(c), out) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// An event that may use `counters`, on `current` now.
    fn w(counters: u32, current: Option<u8>) -> Want {
        Want { counters, current }
    }

    fn valid(wants: &[Want], out: &[u8]) -> bool {
        let mut used = 0u32;
        wants.iter().zip(out).all(|(w, &c)| {
            let ok = w.counters & (1 << c) != 0 && used & (1 << c) == 0;
            used |= 1 << c;
            ok
        })
    }

    /// Brute force: does any assignment exist?
    fn exists(wants: &[Want], used: u32) -> bool {
        match wants.split_first() {
            None => true,
            Some((w, rest)) => {
                (0..32).any(|c| w.counters & !used & (1 << c) != 0 && exists(rest, used | (1 << c)))
            }
        }
    }

    #[test]
    fn schedule_places_by_key_and_refuses_past_its_room() {
        let mut s = Schedule::new();
        assert!(s.push(7, 0x3, Some(0)));
        assert!(s.push(3, 0x1, None));
        let p = s.solve().expect("placeable");
        assert_eq!(p.iter().collect::<Vec<_>>(), [(7, 1), (3, 0)]);
        assert_eq!(p.counter_of(3), Some(0));
        assert_eq!(p.counter_of(9), None);
        assert!(s.push(4, 0x1, None));
        assert!(s.solve().is_none());
        let mut full = Schedule::new();
        for k in 0..MAX_EVENTS {
            assert!(full.push(k, u32::MAX, None));
        }
        assert!(!full.push(MAX_EVENTS, u32::MAX, None));
        assert!(full.solve().is_some());
    }

    #[test]
    fn keeps_running_events_in_place() {
        let wants = [w(0xf, Some(2)), w(0xf, Some(0)), w(0xf, None)];
        let mut out = [0; 3];
        assert!(assign(&wants, &mut out));
        assert_eq!(out[..2], [2, 0]);
        assert!(valid(&wants, &out));
    }

    #[test]
    fn moves_events_when_needed() {
        // Event 0 sits on counter 0, which event 1 needs exclusively.
        let wants = [w(0x3, Some(0)), w(0x1, None)];
        let mut out = [0; 2];
        assert!(assign(&wants, &mut out));
        assert_eq!(out, [1, 0]);
    }

    #[test]
    fn reports_impossible() {
        let wants = [w(0x1, None), w(0x1, None)];
        let mut out = [0; 2];
        assert!(!assign(&wants, &mut out));
    }

    #[test]
    fn agrees_with_brute_force_on_all_small_cases() {
        // Every multiset of up to 4 events over 4 counters, each with every
        // possible non-empty mask and no current counter.
        let masks: Vec<u32> = (1..16).collect();
        let mut checked = 0;
        for n in 1..=4usize {
            let mut idx = [0usize; 4];
            loop {
                let wants: Vec<Want> = idx[..n].iter().map(|&i| w(masks[i], None)).collect();
                let mut out = [0u8; 4];
                let ok = assign(&wants, &mut out);
                assert_eq!(ok, exists(&wants, 0), "{:?}", wants);
                if ok {
                    assert!(valid(&wants, &out[..n]));
                }
                checked += 1;
                // Next combination (non-decreasing indices).
                let mut k = n;
                loop {
                    if k == 0 {
                        break;
                    }
                    k -= 1;
                    if idx[k] + 1 < masks.len() {
                        idx[k] += 1;
                        for j in k + 1..n {
                            idx[j] = idx[k];
                        }
                        break;
                    }
                    if k == 0 {
                        k = usize::MAX;
                        break;
                    }
                }
                if k == usize::MAX {
                    break;
                }
            }
        }
        assert!(checked > 3000);
    }

    proptest! {
        #[test]
        fn matches_brute_force(masks in proptest::collection::vec(0u32..64, 0..7),
                               cur in proptest::collection::vec(proptest::option::of(0u8..6), 7)) {
            let wants: Vec<Want> = masks.iter().zip(&cur).map(|(&m, &c)| Want { counters: m, current: c }).collect();
            let mut out = [0u8; 8];
            let ok = assign(&wants, &mut out);
            prop_assert_eq!(ok, exists(&wants, 0));
            if ok {
                prop_assert!(valid(&wants, &out[..wants.len()]));
            }
        }

        #[test]
        fn keeps_current_counters_when_they_form_a_solution(masks in proptest::collection::vec(1u32..256, 1..8)) {
            // Build a valid placement first, then ask again with it as current.
            let wants: Vec<Want> = masks.iter().map(|&m| Want { counters: m, current: None }).collect();
            let mut out = [0u8; 8];
            if assign(&wants, &mut out) {
                let again: Vec<Want> = wants.iter().zip(&out).map(|(w, &c)| Want { current: Some(c), ..*w }).collect();
                let mut out2 = [0u8; 8];
                prop_assert!(assign(&again, &mut out2));
                prop_assert_eq!(&out[..wants.len()], &out2[..wants.len()]);
            }
        }
    }
}
