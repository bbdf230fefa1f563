// SPDX-License-Identifier: GPL-2.0

//! The simulation's debugfs interface (root only, mode 0600), in
//! `/sys/kernel/debug/rust_uncore/`:
//!
//! - `inject` (write): one occurrence per line,
//!   `pmu=<name>[,<name>...] [socket=<n>] event=<sel> [umask=<m>] [count=<cycles>]
//!   [inc=<per cycle>] [tid=..] [nid=..] [state=..] [opc=..] [freq=..]
//!   [occ_sel=..] [packet=..] [counter=..] [sub=..] [noise=1]`: the simulated box
//!   sees `count` cycles of the event (see the model's documentation for
//!   what counts). `event=0xff` is the box's clock (its fixed counter).
//!   `programmed=1` instead of `event=` counts `count` (times `inc`) on
//!   every enabled counter of the box, whatever it is programmed for.
//!   Overflow PMIs the model raises are delivered as NMIs to the selected
//!   cores, and the write returns once they are handled; with `noise=1`,
//!   every other CPU of the package first takes an NMI of another source
//!   (counted in `stats` as `noise_nmis`). An occurrence
//!   stands for time passing: the boxes' poll then runs on the collector,
//!   as the poll timer would during those cycles. A count that could move
//!   a counter by a whole wrap in one step, an event select past bits 8:0
//!   or a property past the box's field (a C-box STATE bit number past its
//!   filter, say) is refused (`ERANGE`). An occurrence of an event whose
//!   counters count only what a filter field selects (the platform's
//!   `preconditions.tsv`: a C-box `LLC_LOOKUP` needs `state=`, the
//!   `TOR_INSERTS`/`TOR_OCCUPANCY` opcode and node sub-events `opc=` and
//!   `nid=`) without that key is refused (`EINVAL`, and a debug line
//!   naming the event and the key).
//! - `regs` (read): every box's registers on every socket.
//! - `stats` (read): NMIs taken as uncore PMIs, PMIs handled, NMIs left to
//!   other handlers, the PCI registry's size, the self-test's outcome, and
//!   the boxes that count without a running poll timer (`unpolled_boxes`,
//!   which must be 0), and the driver's register accesses so far by kind
//!   (`access_msr_read`, `access_msr_write`, `access_cfg_read`,
//!   `access_cfg_write`, `access_mmio_read`): what the same operations cost
//!   on hardware, a counter read counted as the hardware path makes it.
//! - `unplug` (write): `pmu=<name> [socket=<n>]` removes the PCI function
//!   of a PCI or MMIO box, as a hot removal or unbind would (`EINVAL` for
//!   an MSR box).
//! - `plug` (write): `pmu=<name> [socket=<n>] [broken=1]` binds it again,
//!   as a probe after load would; `broken=1`: its configuration-space
//!   writes fail (`EIO`) until it is plugged again, so the box's
//!   initialisation fails.
//! - `clock` (write): `1` starts the simulated uncore clock (every fixed
//!   counter advances with real time at the part's nominal clock,
//!   `clock.rs`), `0` stops it; off at load.
//! - `workload` (write): `memcpy <bytes>` or `llc <lines>` stands in for the
//!   selftests' workloads: every IMC box (or every C-box) of socket 0 counts
//!   `bytes / 64` (or `lines`) on each counter programmed for an event.
//! - `selftest` (write): `pmu=<name> [socket=<n>] config=<v> event=<sel>
//!   [umask=..] [count=..] [rounds=<n>]` runs the NMI read self-test
//!   (`selftest.rs`): `EIO` unless every round read the exact count from
//!   NMI context while the collector held the box's and the model's locks,
//!   and the abstraction layer refused what those contexts must not do
//!   (`run_on`, a timer's start and cancel, a sleep from the NMI; `run_on`,
//!   a timer's cancel and a sleep with interrupts off).
//! - `stall` (write): `cpumask <ms>`, `unplug <ms>`, `handover <ms>`,
//!   `nmi <ms>`, `park <ms>` or `event_init <ms>` arms a one-shot pause
//!   for race tests: the next pass through that point spins for `ms`
//!   milliseconds (at most 5000, `ERANGE` past it; `event_init` sleeps, up
//!   to 30000) with whatever locks it holds, so that a test can run another operation inside the window the
//!   point leaves; `release` ends the pauses in progress (the test's
//!   operation is done), `release <point>` that point's only (two pauses
//!   can be in progress at once, on two CPUs). `cpumask`: in a `cpumask`
//!   recomputation, between finding a collector whose box is gone and
//!   clearing its bit. `unplug`: between retiring a box and unbinding its
//!   function. `handover`: in a collector's hand-over, after its events
//!   moved and before the new collector is published. `nmi`: in the
//!   module's NMI handler, on whichever CPU takes an NMI first, before the
//!   handler decides and claims the NMIs sent to that CPU. `park`: in a
//!   package's park (its last CPU goes offline), after the global control
//!   is cleared, with interrupts off and the global control's lock held;
//!   `park <ms> pmi` begins that pause with a late PMI (as `nmi <cpu>
//!   pmi`) whose NMI goes to the parking CPU itself, and ends it once an
//!   NMI took the PMI. `event_init`: in a new event's `event_init`, after
//!   it chose the collector and before perf installs the event there.
//!   `stats` counts the pauses begun (`stalls_taken`) and those that ran
//!   their whole time (`stalls_expired`).
//! - `pmi` (write): how the simulated U-box delivers PMIs: `route
//!   <b0>,<b1>,...` (the `pmi_core_sel` bit of each core rank), `route
//!   none`, `route` (the default); `lvt <0|1>` (delivery masked after each
//!   PMI until the driver re-arms it); `fail_global <n>` (the next `n`
//!   writes of the global control fail): `route.rs`.
//! - `nmi` (write): `<cpu> [pmi]` sends CPU `cpu` an NMI with no other
//!   reason than the send (the abstraction layer's `nmi::send`, which the
//!   handler claims by its count of sends), and returns at once; with
//!   `pmi`, the PMI of the CPU's package is raised first, as a late PMI of
//!   an overflow the model raised before. `ENODEV` for an offline CPU,
//!   `EINVAL` for anything else.
//! - `devices` (read) and `glitch` (read, write), and the `hide=` module
//!   parameter: the faults the selftests must catch (`fault.rs`).

mod backend;
mod clock;
mod fault;
mod pci;
mod route;
mod selftest;

use super::backend::StallPoint;
use super::{Core, Ctx, Pmu};
use crate::hw::desc::BoxKind;
use crate::hw::model::input::{self, InputError, Line};
use crate::hw::model::ModelError;
use crate::hw::terms::parse_number;
use crate::sys::debugfs::{DebugfsOps, Dir, Writer};
pub(crate) use backend::Sim;
use backend::ACCESS_NAMES;
use clock::{Clock, SimClock};
use core::fmt::Write;
use core::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;

/// The longest pause `stall` takes, in milliseconds: well below the
/// kernel's soft lockup and RCU stall thresholds (20 s), as the pause may
/// spin with interrupts off.
const STALL_MAX_MS: u32 = 5000;

/// The longest pause at a point that sleeps (`event_init`: process
/// context, no lock held), which no lockup detector watches: long enough
/// for a CPU's offline to reach the hand-over on a slow guest.
const STALL_SLEEP_MAX_MS: u32 = 30000;

/// Declares the directory's files: each file's number as a constant, and
/// `FILES`, the names with their numbers, in the order they are created.
macro_rules! files {
    ($($name:literal $num:ident = $n:literal,)*) => {
        $(const $num: u32 = $n;)*
        /// The files of the directory, with their numbers.
        static FILES: [(&CStr, u32); [$($n),*].len()] = [$((c_str!($name), $num)),*];
    };
}

files! {
    "stall" STALL = 8,
    "nmi" NMI = 9,
    "clock" CLOCK = 6,
    "workload" WORKLOAD = 7,
    "inject" INJECT = 0,
    "regs" REGS = 1,
    "unplug" UNPLUG = 2,
    "stats" STATS = 3,
    "plug" PLUG = 4,
    "selftest" SELFTEST = 5,
    "devices" DEVICES = 10,
    "glitch" GLITCH = 11,
    "pmi" PMI = 12,
}

/// The one-shot pauses armed through `stall`.
#[derive(Default)]
pub(crate) struct Stalls {
    /// Milliseconds armed at each [`StallPoint`] (the last is
    /// `EventInit`), 0 for none.
    armed: [AtomicU32; StallPoint::EventInit as usize + 1],
    /// The armed park pause begins with a late PMI (`park <ms> pmi`).
    park_pmi: AtomicBool,
    /// Pauses begun.
    taken: AtomicU64,
    /// Pauses that ran their whole time: no `release` came, and a late PMI
    /// they sent was not taken.
    expired: AtomicU64,
    /// A `release` came for the points whose bits are set: their pauses in
    /// progress end.
    released: AtomicU32,
}

impl Stalls {
    /// Pauses here if `point` is armed (once: the arming is consumed). Spins
    /// rather than sleeps: some points hold spinning locks. `late_pmi` runs
    /// first when the pause was armed with `pmi`: it sends the PMI and
    /// returns the flag its NMI clears when it takes it, which ends the
    /// pause.
    pub(crate) fn at<'a>(
        &self,
        point: StallPoint,
        late_pmi: impl FnOnce() -> Option<&'a AtomicBool>,
    ) {
        let ms = self
            .armed
            .get(point as usize)
            .map_or(0, |a| a.swap(0, Ordering::AcqRel));
        if ms == 0 {
            return;
        }
        let pmi = matches!(point, StallPoint::Park) && self.park_pmi.swap(false, Ordering::AcqRel);
        let bit = 1u32 << (point as u32);
        self.released.fetch_and(!bit, Ordering::AcqRel);
        self.taken.fetch_add(1, Ordering::Release);
        let raised = if pmi { late_pmi() } else { None };
        for _ in 0..ms {
            if self.released.load(Ordering::Acquire) & bit != 0
                || raised.is_some_and(|r| !r.load(Ordering::Acquire))
            {
                return;
            }
            // `event_init` sleeps (its context may); the others spin, as
            // some hold spinning locks.
            if !matches!(point, StallPoint::EventInit) || crate::sys::cpu::sleep_ms(1).is_err() {
                crate::sys::cpu::spin_ms(1);
            }
        }
        self.expired.fetch_add(1, Ordering::Release);
    }

    /// Ends the pause in progress at `point`, or at every point.
    fn release(&self, point: Option<StallPoint>) {
        let bits = point.map_or(u32::MAX, |p| 1u32 << (p as u32));
        self.released.fetch_or(bits, Ordering::AcqRel);
    }

    /// Arms `point` for `ms` milliseconds, with a late PMI if `pmi`.
    fn arm(&self, point: StallPoint, ms: u32, pmi: bool) {
        if let Some(a) = self.armed.get(point as usize) {
            if matches!(point, StallPoint::Park) {
                self.park_pmi.store(pmi, Ordering::Release);
            }
            a.store(ms, Ordering::Release);
        }
    }
}

/// A stall point by its name in the `stall` file.
fn stall_point(name: &str) -> Result<StallPoint> {
    Ok(match name {
        "cpumask" => StallPoint::Cpumask,
        "unplug" => StallPoint::Unplug,
        "handover" => StallPoint::Handover,
        "nmi" => StallPoint::Nmi,
        "park" => StallPoint::Park,
        "event_init" => StallPoint::EventInit,
        _ => return Err(EINVAL),
    })
}

/// Parses a `stall` line: `<point> <ms>` or `park <ms> pmi` (`release` is
/// the caller's). Returns the point, the pause and whether it sends a late
/// PMI.
fn parse_stall(line: &str) -> Result<(StallPoint, u32, bool)> {
    let mut words = line.split_whitespace();
    let (Some(what), Some(ms), more) = (words.next(), words.next(), words.next()) else {
        return Err(EINVAL);
    };
    let point = stall_point(what)?;
    let pmi = match (more, words.next()) {
        (None, _) => false,
        (Some("pmi"), None) if matches!(point, StallPoint::Park) => true,
        _ => return Err(EINVAL),
    };
    let ms = num(ms)?;
    let max = match point {
        StallPoint::EventInit => STALL_SLEEP_MAX_MS,
        _ => STALL_MAX_MS,
    };
    match u32::try_from(ms) {
        Ok(ms) if ms <= max => Ok((point, ms, pmi)),
        _ => Err(ERANGE),
    }
}

/// What the simulation's files act on: the driver, the simulation, and
/// the simulated clock.
pub(crate) struct SimDebug {
    pub(super) core: Arc<Core<Sim>>,
    pub(super) ctx: Arc<Ctx<Sim>>,
    clock: Clock,
}

/// The debugfs directory of the simulation.
pub(crate) struct SimFiles {
    _dir: Pin<KBox<Dir<SimDebug>>>,
}

impl SimFiles {
    /// Creates `/sys/kernel/debug/rust_uncore/` and its files, for the
    /// driver `core` over the simulation.
    pub(crate) fn new(module: &'static ThisModule, core: Arc<Core<Sim>>) -> Result<Self> {
        let ctx = core.ctx.clone();
        let clock = SimClock::new(ctx.clone())?;
        let timer = crate::sys::hrtimer::Timer::new(clock.clone())?;
        let debug = Arc::new(
            SimDebug {
                core,
                ctx,
                clock: (clock, timer),
            },
            GFP_KERNEL,
        )?;
        Ok(SimFiles {
            _dir: KBox::pin_init(
                Dir::new(module, c_str!("rust_uncore"), &FILES, debug),
                GFP_KERNEL,
            )?,
        })
    }
}

fn num(v: &str) -> Result<u64> {
    parse_number(v).ok_or(EINVAL)
}

/// The errno of a refused line.
fn errno(e: InputError) -> Error {
    match e {
        InputError::Invalid => EINVAL,
        InputError::Range => ERANGE,
    }
}

/// The errno of a step the model refused.
pub(super) fn model_errno(e: ModelError) -> Error {
    match e {
        ModelError::Range => ERANGE,
        _ => EINVAL,
    }
}

/// Parses the keys of an `inject` or `selftest` line (`hw::model::input`).
fn parse_line(line: &str) -> Result<Line<'_>> {
    input::parse_line(line).map_err(|(e, key)| {
        if let Some(k) = key {
            crate::sys::pr_dbg!("sim: unknown key {}\n", k);
        }
        errno(e)
    })
}

/// Parses `pmu=<name> [socket=<n>]`.
fn parse_target(line: &str) -> Result<(&str, usize)> {
    input::parse_target(line).map_err(errno)
}

impl SimDebug {
    /// The simulation.
    pub(super) fn sim(&self) -> &Sim {
        &self.ctx.regs
    }

    /// The PMU named `name`.
    fn pmu(&self, name: &str) -> Result<&Pmu<Sim>> {
        self.core
            .pmus
            .iter()
            .find(|p| p.ops().name().to_str() == Ok(name))
            .ok_or(ENOENT)
    }

    fn inject_line(&self, line: &str) -> Result {
        self.inject_parsed(parse_line(line)?)
    }

    fn inject_parsed(&self, l: Line<'_>) -> Result {
        let sim = self.sim();
        let names = l.pmus.ok_or(EINVAL)?;
        let socket = l.socket;
        if !l.have_event || socket >= self.ctx.packages {
            return Err(EINVAL);
        }
        // One step must not move a counter by a whole wrap.
        let amount = l.amount();
        for name in names.split(',') {
            let t = self.pmu(name)?.ops().box_type();
            let bits = t.fixed.map_or(t.ctr_bits, |f| f.bits.min(t.ctr_bits));
            l.check_step(bits)
                .inspect_err(|_| {
                    crate::sys::pr_dbg!(
                        "sim: {} occurrences exceed {}'s {}-bit counters\n",
                        amount,
                        name,
                        bits
                    );
                })
                .map_err(errno)?;
        }
        // Several PMUs (comma-separated) see the occurrence at once, before
        // any PMI is delivered.
        let cores = sim.change(socket, |m| -> Result<u64> {
            for name in names.split(',') {
                let p = self.pmu(name)?;
                let t = p.ops().box_type();
                let index = p.ops().index() as u8;
                if l.programmed {
                    m.inject_programmed(socket, t.kind, index, amount)
                } else {
                    m.inject(socket, t.kind, index, &l.occ)
                }
                .inspect_err(|e| {
                    if let ModelError::Lacks { event, key } = e {
                        crate::sys::pr_dbg!(
                            "sim: {} on {} needs {}=: its counters count only what their filter selects\n",
                            event,
                            name,
                            key
                        );
                    }
                })
                .map_err(model_errno)?;
            }
            Ok(m.take_pmi(socket))
        })?;
        self.sim().deliver_pmis(&self.ctx, socket, cores, l.noise);
        // The cycles passed: the boxes' poll runs, on the collector.
        if let Some(cpu) = self.ctx.collector(socket) {
            for name in names.split(',') {
                let p = self.pmu(name)?;
                crate::sys::cpu::run_on(cpu, &|irq| p.ops().poll(irq, socket))?;
            }
        }
        Ok(())
    }

    /// The PCI role of PMU `name` (an MSR PMU has none: `EINVAL`).
    fn pci_role(&self, name: &str) -> Result<crate::hw::pci::Role> {
        // A QPI port's packet match/mask device, as `regs` names it.
        if let Some(port) = name.strip_prefix("qpi_filter_") {
            let port = port.parse::<u8>().map_err(|_| EINVAL)?;
            let role = crate::hw::pci::Role::QpiFilter { port };
            if !crate::hw::pci::functions(self.ctx.platform.id)
                .iter()
                .any(|f| f.role == role)
            {
                crate::sys::pr_dbg!("sim: the platform has no {}\n", name);
                return Err(EINVAL);
            }
            return Ok(role);
        }
        let p = self.pmu(name)?;
        let t = p.ops().box_type();
        if !super::is_pci(t) {
            crate::sys::pr_dbg!("sim: {} is no PCI or MMIO box\n", name);
            return Err(EINVAL);
        }
        Ok(crate::hw::pci::Role::Box {
            ty: t.kind,
            index: p.ops().index() as u8,
        })
    }

    fn unplug_line(&self, line: &str) -> Result {
        let (name, socket) = parse_target(line)?;
        let role = self.pci_role(name)?;
        let at = pci::location(&self.ctx, socket, role)?;
        self.core.unplug(socket, role, at)
    }

    fn plug_line(&self, line: &str) -> Result {
        // `broken=1` last: the function binds, but its writes fail.
        let (line, broken) = match line.strip_suffix("broken=1") {
            Some(l) => (l, true),
            None => (line, false),
        };
        let (name, socket) = parse_target(line)?;
        let role = self.pci_role(name)?;
        let at = pci::location(&self.ctx, socket, role)?;
        self.core.plug(socket, role, at, || {
            pci::plug(&self.ctx, socket, role, broken)
        })
    }

    fn workload_line(&self, line: &str) -> Result {
        let (what, n) = line.split_once(' ').ok_or(EINVAL)?;
        let (ty, amount) = match what {
            "memcpy" => (BoxKind::Imc, num(n.trim())? / 64),
            "llc" => (BoxKind::Cbox, num(n.trim())?),
            _ => return Err(EINVAL),
        };
        for p in self
            .core
            .pmus
            .iter()
            .filter(|p| p.ops().box_type().kind == ty)
        {
            let name = p.ops().name().to_str().map_err(|_| EINVAL)?;
            let mut l = parse_line("")?;
            l.pmus = Some(name);
            l.occ.cycles = amount;
            l.programmed = true;
            l.have_event = true;
            self.inject_parsed(l)?;
        }
        Ok(())
    }

    fn selftest_line(&self, line: &str) -> Result {
        let l = parse_line(line)?;
        let p = self.pmu(l.pmus.ok_or(EINVAL)?)?;
        let config = l.config.ok_or(EINVAL)?;
        if !l.have_event || l.socket >= self.ctx.packages {
            return Err(EINVAL);
        }
        // As for `inject`: each round one step within a wrap, and the
        // total within a perf count.
        let t = p.ops().box_type();
        l.check_step(t.fixed.map_or(t.ctr_bits, |f| f.bits.min(t.ctr_bits)))
            .map_err(errno)?;
        l.selftest_total().map_err(errno)?;
        // One self-test at a time: the test's slot has one writer.
        use core::sync::atomic::Ordering::{AcqRel, Acquire, Release};
        if self
            .sim()
            .selftest_busy
            .compare_exchange(false, true, AcqRel, Acquire)
            .is_err()
        {
            return Err(EBUSY);
        }
        let o = self.nmi_read_test(p, l.socket, config, &l.occ, l.rounds);
        self.sim().selftest_busy.store(false, Release);
        let o = o?;
        use core::sync::atomic::Ordering::Relaxed;
        let s = &self.sim().stats;
        s.selftest_rounds.store(o.rounds.into(), Relaxed);
        s.selftest_nmi_reads.store(o.nmi_reads.into(), Relaxed);
        s.selftest_exact.store(o.exact.into(), Relaxed);
        s.selftest_stale.store(o.stale.into(), Relaxed);
        s.selftest_then_exact.store(o.then_exact.into(), Relaxed);
        s.selftest_refused.store(o.refused.into(), Relaxed);
        s.selftest_accepted.store(o.accepted.into(), Relaxed);
        pr_info!(
            "sim: NMI read self-test on {}: {} rounds, {} NMI reads under the collector's locks, {} exact, {} stale, {} exact right after (last {}, want {}); {} calls refused in NMI and IRQs-off contexts, {} not\n",
            p.ops().name(),
            o.rounds,
            o.nmi_reads,
            o.exact,
            o.stale,
            o.then_exact,
            o.last,
            o.want,
            o.refused,
            o.accepted
        );
        // A box in configuration space cannot be read from NMI context: its
        // NMI reads are stale (or exact, when the poll ran first), and the
        // next read is exact. Every other box reads exactly from NMI.
        let cfg = t.space.in_config_space();
        let nmi_ok = if cfg {
            o.exact + o.stale == l.rounds
        } else {
            o.exact == l.rounds
        };
        let refusals = o.accepted == 0
            && u64::from(o.refused)
                == u64::from(l.rounds) * u64::from(selftest::REFUSALS_PER_ROUND);
        if o.nmi_reads == l.rounds && nmi_ok && o.then_exact == l.rounds && refusals {
            Ok(())
        } else {
            Err(EIO)
        }
    }

    fn dump_regs(&self, out: &mut Writer<'_>) -> Result {
        let m = self.sim().lock();
        let desc = m.desc();
        for s in 0..m.n_sockets {
            let Ok(sock) = m.socket(s) else { continue };
            writeln!(
                out,
                "socket {} global_ctl {:#x} global_status {:#x} pmis {}",
                s, sock.global_ctl, sock.global_status, sock.pmis
            )
            .map_err(|_| ENOSPC)?;
            for b in &sock.boxes[..sock.n_boxes] {
                let name = desc
                    .types
                    .get(b.ty as usize)
                    .map_or("qpi_filter", |t| t.name());
                write!(
                    out,
                    "socket {} {}_{} box_ctl {:#x} status {:#x}",
                    s, name, b.index, b.box_ctl, b.status
                )
                .map_err(|_| ENOSPC)?;
                for c in &b.ctrs[..b.n as usize] {
                    write!(out, " {:#x}:{:#x}", c.ctl, c.value).map_err(|_| ENOSPC)?;
                }
                if b.has_fixed {
                    write!(out, " fixed {:#x}:{:#x}", b.fixed.ctl, b.fixed.value)
                        .map_err(|_| ENOSPC)?;
                }
                writeln!(out).map_err(|_| ENOSPC)?;
            }
        }
        Ok(())
    }
}

impl DebugfsOps for SimDebug {
    fn read(&self, file: u32, out: &mut Writer<'_>) -> Result {
        match file {
            REGS => self.dump_regs(out),
            DEVICES => self.devices(out),
            GLITCH => self.glitch_state(out),
            STATS => {
                use core::sync::atomic::Ordering::Relaxed;
                let (s, t) = (&self.ctx.stats, &self.sim().stats);
                let unpolled = (0..self.ctx.packages)
                    .map(|pkg| {
                        self.core
                            .pmus
                            .iter()
                            .filter(|p| p.ops().unpolled(pkg))
                            .count()
                    })
                    .sum::<usize>();
                writeln!(
                    out,
                    "pmi_nmis {}\npmis_handled {}\nnmi_not_ours {}\npci_entries {}\n\
                     selftest_rounds {}\nselftest_nmi_reads {}\nselftest_exact {}\n\
                     selftest_stale {}\nselftest_then_exact {}\n\
                     selftest_refused {}\nselftest_accepted {}\n\
                     unpolled_boxes {}\nnoise_nmis {}\nstalls_taken {}\nstalls_expired {}\n\
                     stranded_adds {}\npmis_masked {}\nrearms {}\nglobal_writes_failed {}\nnmis_in_grace {}\n\
                     probe_nmis {}",
                    s.pmi_nmis.load(Relaxed),
                    s.pmis_handled.load(Relaxed),
                    s.nmi_not_ours.load(Relaxed),
                    self.ctx.registry.len(),
                    t.selftest_rounds.load(Relaxed),
                    t.selftest_nmi_reads.load(Relaxed),
                    t.selftest_exact.load(Relaxed),
                    t.selftest_stale.load(Relaxed),
                    t.selftest_then_exact.load(Relaxed),
                    t.selftest_refused.load(Relaxed),
                    t.selftest_accepted.load(Relaxed),
                    unpolled,
                    t.noise_nmis.load(Relaxed),
                    self.sim().stalls.taken.load(Relaxed),
                    self.sim().stalls.expired.load(Relaxed),
                    s.stranded_adds.load(Relaxed),
                    self.sim().route.pmis_masked.load(Relaxed),
                    self.sim().route.rearms.load(Relaxed),
                    self.sim().route.global_writes_failed.load(Relaxed),
                    s.nmis_in_grace.load(Relaxed),
                    s.probe_nmis.load(Relaxed)
                )
                .map_err(|_| ENOSPC)?;
                for (name, n) in ACCESS_NAMES.iter().zip(self.sim().accesses()) {
                    writeln!(out, "access_{} {}", name, n).map_err(|_| ENOSPC)?;
                }
                Ok(())
            }
            _ => Err(EINVAL),
        }
    }

    fn write(&self, file: u32, input: &str) -> Result {
        match file {
            INJECT => each_line(input, |l| self.inject_line(l)),
            UNPLUG => each_line(input, |l| self.unplug_line(l)),
            PLUG => each_line(input, |l| self.plug_line(l)),
            SELFTEST => each_line(input, |l| self.selftest_line(l)),
            CLOCK => {
                let (clock, timer) = &self.clock;
                match input.trim() {
                    "1" => clock.set(timer, true),
                    "0" => clock.set(timer, false),
                    _ => return Err(EINVAL),
                }
                Ok(())
            }
            WORKLOAD => self.workload_line(input.trim()),
            PMI => each_line(input, |l| self.sim().route.set(l)),
            GLITCH => self.glitch_line(input.trim()),
            STALL => {
                let mut words = input.split_whitespace();
                if words.next() == Some("release") {
                    let point = match (words.next(), words.next()) {
                        (None, _) => None,
                        (Some(p), None) => Some(stall_point(p)?),
                        _ => return Err(EINVAL),
                    };
                    self.sim().stalls.release(point);
                    return Ok(());
                }
                let (point, ms, pmi) = parse_stall(input.trim())?;
                self.sim().stalls.arm(point, ms, pmi);
                Ok(())
            }
            NMI => {
                let mut words = input.split_whitespace();
                let cpu = words
                    .next()
                    .and_then(|w| w.parse::<u32>().ok())
                    .and_then(crate::sys::cpu::CpuId::from_u32)
                    .ok_or(EINVAL)?;
                let pmi = match (words.next(), words.next()) {
                    (None, None) => false,
                    (Some("pmi"), None) => true,
                    _ => return Err(EINVAL),
                };
                if pmi {
                    self.sim().raise(cpu.package());
                }
                crate::sys::nmi::send(cpu)
            }
            _ => Err(EINVAL),
        }
    }
}

/// Runs `f` on each non-empty line of `input`, trimmed, stopping at the
/// first error.
fn each_line(input: &str, f: impl FnMut(&str) -> Result) -> Result {
    input
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .try_for_each(f)
}
