// SPDX-License-Identifier: GPL-2.0

//! A register-level model of each platform's uncore PMON hardware: the
//! simulated hardware the driver runs against with `sim=`, and the oracle of
//! the host tests.
//!
//! The model keeps, per socket, every box's control, counter, status and
//! auxiliary (filter, match/mask, subcontrol) registers, and implements the
//! manuals' semantics for the registers the driver touches: the enable
//! hierarchy, freeze, reset bits, write-only/read-only/ignored bits, counter
//! width and wrap, overflow status and its propagation, write-1-to-clear,
//! PMIs per `pmi_en` and the PMI core select, and freeze-on-PMI. Events are
//! injected ([`Occurrence`]); every enabled counter programmed for them
//! counts. Where the model simplifies the hardware is said in [`count`].
//!
//! The model is plain data (zero is its reset state) and never allocates.

pub mod count;
pub mod input;
pub mod precond;
mod regs;
pub mod zero;

pub use count::{Occurrence, Props};

use super::desc::{BoxKind, Platform, PlatformId};
use super::pci::Role;
use super::platforms;

/// Most sockets a model has.
pub const MAX_SOCKETS: usize = 8;
/// Most PMON boxes (PCI helper devices included) per socket.
pub const MAX_BOXES: usize = 64;
/// Most counters of a box.
pub const MAX_CTRS: usize = 8;
/// Most auxiliary registers of a box.
pub const MAX_AUX: usize = 40;

/// One counter: its control register and its count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counter {
    /// Control register (only its implemented bits).
    pub ctl: u64,
    /// Count (only `width` bits).
    pub value: u64,
}

/// How a model box behaves; decided by the model from the platform and box
/// type, independently of the driver's descriptions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub enum Family {
    /// Unused slot.
    #[default]
    None = 0,
    /// SNB-EP box with `*_PMON_BOX_CTL` (`frz_en` gates `frz`; the bits are
    /// write-only and read as zero, 327043 Table 2-9).
    SnbBox,
    /// SNB-EP iMC/HA: as [`Family::SnbBox`] without reset bits (§2.1.1).
    SnbNoReset,
    /// SNB-EP/IVB-EP U-box: no box control.
    EpUbox,
    /// IVB-EP box: `frz` alone freezes; the control reads back.
    IvbBox,
    /// NHM-EX/WSM-EX box with `GLOBAL_CTL`/`STATUS`/`OVF_CTL`.
    NhmBox,
    /// NHM-EX/WSM-EX U-box counter, gated by the U-box global control.
    NhmUbox,
    /// Skylake CBo/ARB: gated by the global control.
    Skl,
    /// Skylake IMC free-running counters.
    SklImc,
    /// Xeon 7100/7400 combined control/counter group.
    L3,
    /// SNB-EP/IVB-EP QPI match/mask PCI device.
    QpiFilter,
}

/// How the model's global (per socket) registers behave, and where they
/// are; named by each platform's [`SimSpec`](crate::hw::desc::SimSpec),
/// independently of the driver's global control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalBlock {
    /// None (SNB-EP, IVB-EP).
    None,
    /// NHM-EX/WSM-EX U-box `U_MSR_PMON_GLOBAL_CTL`/`STATUS`/`OVF_CTL` and
    /// the S-box summaries.
    NhmexU {
        /// `U_MSR_PMON_GLOBAL_CTL`; `STATUS` and `OVF_CTL` follow it.
        ctl: u32,
        /// `S_MSR_PMON_SUMMARY` of S-box 0 and 1.
        summary: [u32; 2],
    },
    /// Skylake `MSR_UNC_PERF_GLOBAL_CTRL`/`STATUS`, `MSR_UNC_CBO_CONFIG`.
    Skl(SklRegs),
    /// Xeon 7100/7400 `MSR_EMON_L3_GL_CTL`.
    L3 {
        /// The first counter's combined control/counter register.
        first: u32,
        /// `MSR_EMON_L3_GL_CTL`.
        gl_ctl: u32,
    },
}

/// Where Skylake's global registers are ([`GlobalBlock::Skl`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SklRegs {
    /// `MSR_UNC_PERF_GLOBAL_CTRL`.
    pub ctl: u32,
    /// `MSR_UNC_PERF_GLOBAL_STATUS`.
    pub status: u32,
    /// `MSR_UNC_CBO_CONFIG`.
    pub cbo_config: u32,
}

/// One PMON box of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelBox {
    /// Behaviour.
    pub family: Family,
    /// Index of its type in the platform description.
    pub ty: u8,
    /// Instance.
    pub index: u8,
    /// Number of general counters.
    pub n: u8,
    /// Counter width.
    pub width: u8,
    /// Box control (`*_BOX_CTL` or `*_GLOBAL_CTL`), implemented bits.
    pub box_ctl: u64,
    /// Overflow status (`*_GLOBAL_STATUS`).
    pub status: u64,
    /// General counters.
    pub ctrs: [Counter; MAX_CTRS],
    /// Fixed counter, when the box has one.
    pub fixed: Counter,
    /// Whether the box has a fixed counter.
    pub has_fixed: bool,
    /// Fixed counter width.
    pub fixed_width: u8,
    /// Filters, match/mask and subcontrol registers.
    pub aux: [u64; MAX_AUX],
    /// NHM-EX/WSM-EX S-box: each counter's 7-bit occupancy subcounter,
    /// which keeps the occupancy it last saw unless `reset_occ_cnt` is
    /// written with the enable.
    pub occ: [u8; MAX_CTRS],
}

impl Default for ModelBox {
    fn default() -> Self {
        ModelBox {
            family: Family::None,
            ty: 0,
            index: 0,
            n: 0,
            width: 0,
            box_ctl: 0,
            status: 0,
            ctrs: [Counter::default(); MAX_CTRS],
            fixed: Counter::default(),
            has_fixed: false,
            fixed_width: 0,
            aux: [0; MAX_AUX],
            occ: [0; MAX_CTRS],
        }
    }
}

/// One socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Socket {
    /// Boxes.
    pub boxes: [ModelBox; MAX_BOXES],
    /// Number of boxes in use.
    pub n_boxes: usize,
    /// Global control (NHM-EX `U_MSR_PMON_GLOBAL_CTL`, Skylake
    /// `MSR_UNC_PERF_GLOBAL_CTRL`, Xeon 7100 `GL_CTL` command bits).
    pub global_ctl: u64,
    /// Global status (NHM-EX latches and `pmi`/`cond`; Skylake status;
    /// Xeon 7100 `GL_event_status`).
    pub global_status: u64,
    /// Xeon 7100/7400: counters frozen by `GL_freeze_cmd`.
    pub l3_frozen: u8,
    /// Cores with a PMI raised and not yet taken.
    pub pmi_pending: u64,
    /// PMIs raised so far.
    pub pmis: u64,
    /// Uncore PCI bus number (SNB-EP/IVB-EP).
    pub bus: u8,
    /// Node ID in `CPUNODEID`.
    pub node_id: u8,
}

impl Default for Socket {
    fn default() -> Self {
        Socket {
            boxes: [ModelBox::default(); MAX_BOXES],
            n_boxes: 0,
            global_ctl: 0,
            global_status: 0,
            l3_frozen: 0,
            pmi_pending: 0,
            pmis: 0,
            bus: 0,
            node_id: 0,
        }
    }
}

/// Errors of the model's access functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// No such socket.
    NoSocket,
    /// No such box.
    NoBox,
    /// An address no register of the model has (a `#GP` on hardware).
    NoRegister,
    /// A step that would move a counter by a whole wrap or more.
    Range,
    /// An occurrence of an event with a precondition
    /// ([`precond::lacking`]) without the property its filter matches.
    Lacks {
        /// The event's name, as its precondition table has it.
        event: &'static str,
        /// The `inject` key the occurrence lacks.
        key: &'static str,
    },
}

/// The model of one platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    /// The platform.
    pub platform: PlatformId,
    /// Sockets in use.
    pub n_sockets: usize,
    /// Skylake: CBo units (reported by `MSR_UNC_CBO_CONFIG` as this plus one).
    pub cbos: u8,
    /// Family 15 model 6 without the L3 EMON registers (a Pentium D 9xx,
    /// Pentium 4 6x1 or Xeon 5000): their MSRs fault.
    pub no_emon: bool,
    /// The sockets.
    pub sockets: [Socket; MAX_SOCKETS],
}

// The kernel allocates the model zeroed, in place (it is too large for a
// stack): all-zero bytes must be a valid `Model`, which `zero.rs` proves
// field by field (`zero::ZeroValid`).

/// Skylake MCHBAR value of the model (bit 0: enabled).
pub const MODEL_MCHBAR: u64 = 0xfed1_0000 | 1;

impl Model {
    /// A new model of `p` with `sockets` sockets, in its reset state.
    pub fn new(p: PlatformId, sockets: usize) -> Self {
        let mut m = Model {
            platform: p,
            n_sockets: 0,
            cbos: 0,
            no_emon: false,
            sockets: [Socket::default(); MAX_SOCKETS],
        };
        m.reset(p, sockets);
        m
    }

    /// Resets the model in place to `p` with `sockets` sockets (at most
    /// [`MAX_SOCKETS`]; at least one). Uses little stack: the kernel
    /// allocates the model zeroed and resets it in place.
    pub fn reset(&mut self, p: PlatformId, sockets: usize) {
        let n = sockets.clamp(1, MAX_SOCKETS);
        self.platform = p;
        self.n_sockets = n;
        let desc = platforms::by_id(p);
        self.cbos = desc.sim.cbos;
        self.no_emon = false;
        for (s, sock) in self.sockets.iter_mut().enumerate() {
            // Field by field: a whole `Socket` is too large a temporary for
            // a kernel stack.
            for b in sock.boxes.iter_mut() {
                *b = ModelBox::default();
            }
            sock.n_boxes = 0;
            sock.global_ctl = 0;
            sock.global_status = 0;
            sock.l3_frozen = 0;
            sock.pmi_pending = 0;
            sock.pmis = 0;
            sock.bus = 0;
            sock.node_id = 0;
            if s >= n {
                continue;
            }
            // Socket s's uncore bus: the top of its 256/n share of buses.
            sock.bus = (((s + 1) * 256 / n) - 1) as u8;
            sock.node_id = s as u8;
            let mut k = 0;
            for (ti, t) in desc.types.iter().enumerate() {
                for i in 0..t.num_boxes {
                    if k >= MAX_BOXES {
                        break;
                    }
                    let family = (desc.sim.family)(t.kind);
                    let has_fixed = t.fixed.is_some_and(|f| !f.only_box0 || i == 0);
                    sock.boxes[k] = ModelBox {
                        family,
                        ty: ti as u8,
                        index: i,
                        n: t.num_counters.min(MAX_CTRS as u8),
                        width: t.ctr_bits,
                        has_fixed,
                        fixed_width: t.fixed.map_or(0, |f| f.bits),
                        ..ModelBox::default()
                    };
                    k += 1;
                }
            }
            // QPI match/mask devices.
            for f in super::pci::functions(p) {
                if let Role::QpiFilter { port } = f.role {
                    if k < MAX_BOXES {
                        sock.boxes[k] = ModelBox {
                            family: Family::QpiFilter,
                            ty: u8::MAX,
                            index: port,
                            ..ModelBox::default()
                        };
                        k += 1;
                    }
                }
            }
            sock.n_boxes = k;
        }
    }

    /// The platform description.
    pub fn desc(&self) -> &'static Platform {
        platforms::by_id(self.platform)
    }

    /// Socket `s`.
    pub fn socket(&self, s: usize) -> Result<&Socket, ModelError> {
        if s < self.n_sockets {
            Ok(&self.sockets[s])
        } else {
            Err(ModelError::NoSocket)
        }
    }

    fn socket_mut(&mut self, s: usize) -> Result<&mut Socket, ModelError> {
        if s < self.n_sockets {
            Ok(&mut self.sockets[s])
        } else {
            Err(ModelError::NoSocket)
        }
    }

    /// Index of the box of kind `ty` and instance `index` in a socket.
    pub fn find_box(&self, ty: BoxKind, index: u8) -> Result<usize, ModelError> {
        let desc = self.desc();
        let ti = desc
            .types
            .iter()
            .position(|t| t.kind == ty)
            .ok_or(ModelError::NoBox)? as u8;
        self.sockets[0].boxes[..self.sockets[0].n_boxes]
            .iter()
            .position(|b| b.ty == ti && b.index == index)
            .ok_or(ModelError::NoBox)
    }

    /// Reads MSR `msr` on socket `s`.
    pub fn rdmsr(&self, s: usize, msr: u32) -> Result<u64, ModelError> {
        let sock = self.socket(s)?;
        regs::rdmsr(self, sock, msr)
    }

    /// Writes MSR `msr` on socket `s`.
    pub fn wrmsr(&mut self, s: usize, msr: u32, v: u64) -> Result<(), ModelError> {
        let p = self.platform;
        let cbos = self.cbos;
        let sock = self.socket_mut(s)?;
        regs::wrmsr(p, cbos, sock, msr, v)
    }

    /// Reads the configuration dword at `off` of the PCI function `role` of
    /// socket `s`.
    pub fn cfg_read(&self, s: usize, role: Role, off: u32) -> Result<u32, ModelError> {
        let sock = self.socket(s)?;
        regs::cfg_read(self, sock, role, off)
    }

    /// Writes the configuration dword at `off` of PCI function `role` of socket `s`.
    pub fn cfg_write(&mut self, s: usize, role: Role, off: u32, v: u32) -> Result<(), ModelError> {
        let p = self.platform;
        let sock = self.socket_mut(s)?;
        regs::cfg_write(p, sock, role, off, v)
    }

    /// Reads the 32-bit MMIO register at `off` of socket `s`'s Skylake
    /// MCHBAR window.
    pub fn mmio_read(&self, s: usize, off: u32) -> Result<u32, ModelError> {
        let sock = self.socket(s)?;
        regs::mmio_read(self, sock, off)
    }

    /// Injects `occ` into box `index` of type `ty` on socket `s`. Returns the
    /// number of counters that counted it.
    pub fn inject(
        &mut self,
        s: usize,
        ty: BoxKind,
        index: u8,
        occ: &Occurrence,
    ) -> Result<u32, ModelError> {
        self.on_box(s, ty, index, |p, sock, b| count::inject(p, sock, b, occ))
    }

    /// Runs `f` on box `index` of type `ty` of socket `s` (the platform,
    /// the socket and the box's place in it).
    fn on_box<R>(
        &mut self,
        s: usize,
        ty: BoxKind,
        index: u8,
        f: impl FnOnce(PlatformId, &mut Socket, usize) -> Result<R, ModelError>,
    ) -> Result<R, ModelError> {
        let b = self.find_box(ty, index)?;
        let p = self.platform;
        f(p, self.socket_mut(s)?, b)
    }

    /// Counts `n` on every enabled counter of box `index` of type `ty` on
    /// socket `s`, whatever event it is programmed for (the simulation's
    /// `programmed` injection, which exercises any alias). Returns how many
    /// counters counted.
    pub fn inject_programmed(
        &mut self,
        s: usize,
        ty: BoxKind,
        index: u8,
        n: u64,
    ) -> Result<u32, ModelError> {
        self.on_box(s, ty, index, |p, sock, b| {
            count::inject_programmed(p, sock, b, n)
        })
    }

    /// Reads the counter at MSR `ctr` of socket `s` with its overflow status
    /// bit (`bit` of MSR `status`), clearing the bit (through MSR `clear`) if
    /// it was set, in one step: the simulation's hardware cannot change in
    /// between.
    pub fn read_with_overflow(
        &mut self,
        s: usize,
        ctr: u32,
        status: u32,
        clear: u32,
        bit: u64,
    ) -> Result<(u64, bool), ModelError> {
        let ovf = self.rdmsr(s, status)? & bit != 0;
        let v = self.rdmsr(s, ctr)?;
        if ovf {
            self.wrmsr(s, clear, bit)?;
        }
        Ok((v, ovf))
    }

    /// What a read of counter `c` of box `k` (an index of a socket's box
    /// table, see [`box_index`]) on socket `s` returns: general counters
    /// `0..n`, the fixed counter at [`FIXED`]. `None` for a counter the box
    /// does not have.
    pub fn counter_read(&self, s: usize, k: usize, c: usize) -> Option<u64> {
        let sock = self.socket(s).ok()?;
        let b = sock.boxes[..sock.n_boxes].get(k)?;
        let r = if c == FIXED {
            b.has_fixed.then_some(regs::Reg::FixedCtr)?
        } else {
            (c < b.n as usize).then_some(regs::Reg::Ctr(c))?
        };
        Some(regs::read_counter(self.platform, b, r))
    }

    /// Puts the registers of box (`ty`, `index`) on socket `s` in their
    /// reset state, as a newly bound device has them.
    pub fn reset_box(&mut self, s: usize, ty: BoxKind, index: u8) -> Result<(), ModelError> {
        let k = self.find_box(ty, index)?;
        let b = &mut self.socket_mut(s)?.boxes[k];
        *b = ModelBox {
            family: b.family,
            ty: b.ty,
            index: b.index,
            n: b.n,
            width: b.width,
            has_fixed: b.has_fixed,
            fixed_width: b.fixed_width,
            ..ModelBox::default()
        };
        Ok(())
    }

    /// Puts the registers of QPI port `port`'s match/mask device on socket
    /// `s` in their reset state, as a newly bound device has them.
    pub fn reset_filter(&mut self, s: usize, port: u8) -> Result<(), ModelError> {
        let sock = self.socket_mut(s)?;
        let b = sock.boxes[..sock.n_boxes]
            .iter_mut()
            .find(|b| b.family == Family::QpiFilter && b.index == port)
            .ok_or(ModelError::NoBox)?;
        *b = ModelBox {
            family: Family::QpiFilter,
            ty: b.ty,
            index: port,
            ..ModelBox::default()
        };
        Ok(())
    }

    /// Takes the cores with a pending PMI on socket `s` (bit per core).
    pub fn take_pmi(&mut self, s: usize) -> u64 {
        match self.socket_mut(s) {
            Ok(sock) => core::mem::take(&mut sock.pmi_pending),
            Err(_) => 0,
        }
    }

    /// Sets counter `c` of box (`ty`, `index`) on socket `s` to `v`, as if
    /// written through its register (tests and fault injection).
    pub fn preload(
        &mut self,
        s: usize,
        ty: BoxKind,
        index: u8,
        c: usize,
        v: u64,
    ) -> Result<(), ModelError> {
        let b = self.find_box(ty, index)?;
        let sock = self.socket_mut(s)?;
        let bx = &mut sock.boxes[b];
        let mask = super::bits::low_mask(u32::from(bx.width));
        let ctr = bx.ctrs.get_mut(c).ok_or(ModelError::NoRegister)?;
        ctr.value = v & mask;
        Ok(())
    }
}

/// The counter number of a box's fixed counter in [`Model::counter_read`].
pub const FIXED: usize = MAX_CTRS;

/// The index of box `i` of the platform's type number `ti` in a socket's
/// box table: the types in order, each with its boxes (the layout
/// [`Model::reset`] builds).
pub fn box_index(p: &Platform, ti: usize, i: u8) -> Option<usize> {
    let t = p.types.get(ti)?;
    if i >= t.num_boxes {
        return None;
    }
    let before: usize = p.types[..ti].iter().map(|t| t.num_boxes as usize).sum();
    let k = before + i as usize;
    (k < MAX_BOXES).then_some(k)
}

/// Whether a box type lives in PCI configuration space.
pub fn is_pci(p: PlatformId, ty: u8) -> bool {
    platforms::by_id(p)
        .types
        .get(ty as usize)
        .is_some_and(|t| t.space.in_config_space())
}

#[cfg(test)]
mod tests;
