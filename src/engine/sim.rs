// SPDX-License-Identifier: GPL-2.0

//! The simulation's debugfs interface (root only, mode 0600), in
//! `/sys/kernel/debug/rust_uncore/`:
//!
//! - `inject` (write): one occurrence per line,
//!   `pmu=<name>[,<name>...] [socket=<n>] event=<sel> [umask=<m>] [count=<cycles>]
//!   [inc=<per cycle>] [tid=..] [nid=..] [state=..] [opc=..] [freq=..]
//!   [occ_sel=..] [packet=..] [counter=..] [sub=..]`: the simulated box
//!   sees `count` cycles of the event (see the model's documentation for
//!   what counts). `event=0xff` is the box's clock (its fixed counter).
//!   Overflow PMIs the model raises are delivered as NMIs to the selected
//!   cores, and the write returns once they are handled.
//! - `regs` (read): every box's registers on every socket.
//! - `stats` (read): NMIs taken as uncore PMIs, PMIs handled, and NMIs left
//!   to other handlers.
//! - `unplug` (write): `pmu=<name> [socket=<n>]` removes the PCI function
//!   of a PCI or MMIO box, as a hot removal or unbind would.

use super::backend::Backend;
use super::Core;
use crate::hw::model::{Occurrence, Props};
use crate::hw::terms::parse_number;
use crate::sys::debugfs::{DebugfsOps, Dir, Writer};
use core::fmt::Write;
use kernel::c_str;
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;

/// File numbers.
const INJECT: u32 = 0;
const REGS: u32 = 1;
const UNPLUG: u32 = 2;
const STATS: u32 = 3;

/// The files of the directory, with their numbers.
static FILES: [(&CStr, u32); 4] = [
    (c_str!("inject"), INJECT),
    (c_str!("regs"), REGS),
    (c_str!("unplug"), UNPLUG),
    (c_str!("stats"), STATS),
];

/// The debugfs directory of the simulation.
pub(crate) struct SimFiles {
    _dir: Pin<KBox<Dir<Core>>>,
}

impl SimFiles {
    /// Creates `/sys/kernel/debug/rust_uncore/` and its files.
    pub(crate) fn new(module: &'static ThisModule, core: Arc<Core>) -> Result<Self> {
        Ok(SimFiles {
            _dir: KBox::pin_init(
                Dir::new(module, c_str!("rust_uncore"), &FILES, core),
                GFP_KERNEL,
            )?,
        })
    }
}

fn num(v: &str) -> Result<u64> {
    parse_number(v).ok_or(EINVAL)
}

impl Core {
    /// The PMU named `name`.
    fn pmu(&self, name: &str) -> Result<&super::Pmu> {
        self.pmus
            .iter()
            .find(|p| p.ops().name().as_bytes() == name.as_bytes())
            .ok_or(ENOENT)
    }

    fn inject_line(&self, line: &str) -> Result {
        let Backend::Sim(model) = &self.ctx.backend else {
            return Err(ENODEV);
        };
        let mut pmu = None;
        let mut socket = 0usize;
        let mut occ = Occurrence {
            cycles: 1,
            inc: 1,
            ..Occurrence::default()
        };
        let mut have_event = false;
        for kv in line.split_whitespace() {
            let (k, v) = kv.split_once('=').ok_or(EINVAL)?;
            let p: &mut Props = &mut occ.props;
            match k {
                "pmu" => pmu = Some(v),
                "socket" => socket = num(v)? as usize,
                "event" => {
                    occ.event = num(v)? as u16;
                    have_event = true;
                }
                "umask" => occ.umask = num(v)? as u8,
                "count" => occ.cycles = num(v)?,
                "inc" => occ.inc = num(v)? as u32,
                "tid" => p.tid = Some(num(v)? as u8),
                "nid" => p.nid = Some(num(v)? as u8),
                "state" => p.state = Some(num(v)? as u8),
                "opc" => p.opc = Some(num(v)? as u16),
                "freq" => p.freq = Some(num(v)? as u8),
                "occ_sel" => p.occ_sel = Some(num(v)? as u8),
                "packet" => p.packet = Some(num(v)?),
                "counter" => p.counter = Some(num(v)? as u8),
                "sub" => p.sub = Some(num(v)?),
                _ => {
                    crate::sys::pr_dbg!("inject: unknown key {}\n", k);
                    return Err(EINVAL);
                }
            }
        }
        let names = pmu.ok_or(EINVAL)?;
        if !have_event || socket >= self.ctx.packages {
            return Err(EINVAL);
        }
        // Several PMUs (comma-separated) see the occurrence at once, before
        // any PMI is delivered.
        let cores = {
            let mut m = model.lock();
            for name in names.split(',') {
                let p = self.pmu(name)?;
                let t = p.ops().box_type();
                m.inject(socket, t.name, p.ops().index() as u8, &occ)
                    .map_err(|_| EINVAL)?;
            }
            m.take_pmi(socket)
        };
        // The model raised PMIs: deliver them, as NMIs, to those cores, and
        // wait (up to 100 ms) until they are handled, as the hardware's PMI
        // latency is far shorter than any counter's wrap.
        use core::sync::atomic::Ordering;
        for rank in (0..64).filter(|r| cores & (1 << r) != 0) {
            if let (Some(cpu), Some(st)) = (
                super::Ctx::cpu_of_core(socket, rank),
                self.ctx.pmi.get(socket),
            ) {
                let before = self.ctx.stats.pmis_handled.load(Ordering::Acquire);
                st.raised.store(true, Ordering::Release);
                crate::sys::nmi::send(cpu);
                for _ in 0..10_000 {
                    if self.ctx.stats.pmis_handled.load(Ordering::Acquire) != before {
                        break;
                    }
                    crate::sys::cpu::delay_us(10);
                }
            }
        }
        Ok(())
    }

    fn unplug_line(&self, line: &str) -> Result {
        let mut pmu = None;
        let mut socket = 0usize;
        for kv in line.split_whitespace() {
            match kv.split_once('=').ok_or(EINVAL)? {
                ("pmu", v) => pmu = Some(v),
                ("socket", v) => socket = num(v)? as usize,
                _ => return Err(EINVAL),
            }
        }
        let name = pmu.ok_or(EINVAL)?;
        let p = self.pmu(name)?;
        let role = crate::hw::pci::Role::Box {
            ty: p.ops().box_type().name,
            index: p.ops().index() as u8,
        };
        self.unplug(socket, role)
    }

    fn dump_regs(&self, out: &mut Writer<'_>) -> Result {
        let Backend::Sim(model) = &self.ctx.backend else {
            return Err(ENODEV);
        };
        let m = model.lock();
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
                    .map_or("qpi_filter", |t| t.name);
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

impl DebugfsOps for Core {
    fn read(&self, file: u32, out: &mut Writer<'_>) -> Result {
        match file {
            REGS => self.dump_regs(out),
            STATS => {
                use core::sync::atomic::Ordering::Relaxed;
                let s = &self.ctx.stats;
                writeln!(
                    out,
                    "pmi_nmis {}\npmis_handled {}\nnmi_not_ours {}",
                    s.pmi_nmis.load(Relaxed),
                    s.pmis_handled.load(Relaxed),
                    s.nmi_not_ours.load(Relaxed)
                )
                .map_err(|_| ENOSPC)
            }
            _ => Err(EINVAL),
        }
    }

    fn write(&self, file: u32, input: &str) -> Result {
        match file {
            INJECT => {
                for line in input.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    self.inject_line(line)?;
                }
                Ok(())
            }
            UNPLUG => {
                for line in input.lines().map(str::trim).filter(|l| !l.is_empty()) {
                    self.unplug_line(line)?;
                }
                Ok(())
            }
            _ => Err(EINVAL),
        }
    }
}
