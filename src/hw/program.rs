// SPDX-License-Identifier: GPL-2.0

//! Register programming sequences: what to write, where, to initialise,
//! freeze, run, and enable or disable events on a box, and where to read a
//! counter. Pure: the driver executes the [`Op`]s on real MSRs and PCI
//! configuration space, or on the register model.

#[cfg(doc)]
use super::box_control::BoxControl;
use super::box_control::BoxRun;
use super::desc::{BoxType, Enable, Platform, Space};
use super::global::GlobalControl;
use super::shared::{Choice, Shared};

/// An MSR that the platform tables declare: a register of an uncore box,
/// or a global control, status or filter register the platform names.
/// Only the core (`hw`) makes one, from its tables, so the kernel layer,
/// which writes MSRs only through this type, cannot be asked to write any
/// other MSR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Msr(u32);

impl Msr {
    /// The MSR at `addr`, which the tables declare.
    pub(in crate::hw) const fn new(addr: u32) -> Msr {
        Msr(addr)
    }

    /// Its address.
    pub const fn addr(self) -> u32 {
        self.0
    }
}

/// A PMON register in the configuration space of a box's PCI function (or
/// of its helper device), at an offset the platform tables declare. Only
/// the core makes one, so the kernel layer, which writes configuration
/// space only through this type, cannot be asked to write a BAR or the
/// command register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CfgReg(u32);

impl CfgReg {
    /// The register at offset `off`, which the tables declare.
    pub(in crate::hw) const fn new(off: u32) -> CfgReg {
        CfgReg(off)
    }

    /// Its offset.
    pub const fn offset(self) -> u32 {
        self.0
    }
}

/// A register address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addr {
    /// An MSR (64 bits).
    Msr(Msr),
    /// A dword of the box's own PCI function's configuration space.
    Cfg(CfgReg),
    /// A dword of the configuration space of the helper (QPI match/mask)
    /// device of the box.
    Helper(CfgReg),
    /// A 32-bit register of the box's MMIO window.
    Mmio(u32),
}

/// One register operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Write `value` (truncated to 32 bits for configuration space).
    Write(Addr, u64),
    /// Write `ctl` to bits 63:32 of a combined control/counter MSR, keeping
    /// the count in bits 31:0 (a read-modify-write).
    WriteControlHalf(Msr, u64),
}

/// Most operations one sequence needs.
pub const MAX_OPS: usize = 12;

/// A short sequence of operations, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ops {
    ops: [Op; MAX_OPS],
    n: usize,
}

impl Default for Ops {
    fn default() -> Self {
        Ops {
            ops: [Op::Write(Addr::Msr(Msr::new(0)), 0); MAX_OPS],
            n: 0,
        }
    }
}

impl Ops {
    pub(in crate::hw) fn push(&mut self, op: Op) {
        // The sequences below are bounded by construction (tested); a full
        // buffer would be a table bug, and dropping is safer than panicking.
        if self.n < MAX_OPS {
            self.ops[self.n] = op;
            self.n += 1;
        }
    }

    /// Adds a write of `value` to `addr`.
    pub(in crate::hw) fn write(&mut self, addr: Addr, value: u64) {
        self.push(Op::Write(addr, value));
    }

    /// Adds the writes of a 64-bit `v` as two dwords: its low half to `lo`,
    /// then its high half to `hi`.
    pub(in crate::hw) fn write_split(&mut self, lo: Addr, hi: Addr, v: u64) {
        self.write(lo, v & 0xffff_ffff);
        self.write(hi, v >> 32);
    }

    /// The operations.
    pub fn as_slice(&self) -> &[Op] {
        &self.ops[..self.n]
    }
}

/// A counter of a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctr {
    /// General-purpose counter `j`.
    General(u8),
    /// The fixed counter.
    Fixed,
    /// Free-running counter `j`.
    Free(u8),
}

impl Ctr {
    /// The counter as one byte (for lock-free slots): general counters are
    /// 0 to 63, free-running ones 64 to 127, the fixed counter 128.
    pub const fn code(self) -> u8 {
        match self {
            Ctr::General(j) => j & 0x3f,
            Ctr::Free(j) => 0x40 | (j & 0x3f),
            Ctr::Fixed => 0x80,
        }
    }

    /// The counter of a [`Ctr::code`].
    pub const fn from_code(c: u8) -> Self {
        match c {
            0x80.. => Ctr::Fixed,
            0x40.. => Ctr::Free(c & 0x3f),
            _ => Ctr::General(c),
        }
    }
}

/// How to read a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterReg {
    /// Where it is (for configuration space: the low dword; the high dword
    /// is at +4).
    pub addr: Addr,
    /// Its width in bits.
    pub width: u32,
    /// A 64-bit counter read as two dwords.
    pub split: bool,
    /// Its reads need the box's correction
    /// ([`Special::corrects_reads`](super::special::Special::corrects_reads)).
    pub corrected: bool,
    /// The bits of it a lock-free slot keeps (`live::mask(width)`), once.
    pub live_mask: u64,
}

impl CounterReg {
    /// The value counter `code` (a [`Ctr::code`]) of a box of type `t`
    /// holds, from a read `raw` of this register: masked to its width and,
    /// where the box has a read erratum, corrected ([`read_value`]). Other
    /// boxes' reads make no call for it.
    #[inline(always)]
    pub fn value(&self, t: &BoxType, code: u8, raw: u64) -> u64 {
        let v = raw & super::bits::low_mask(self.width);
        if self.corrected {
            corrected_value(t, code, v)
        } else {
            v
        }
    }
}

/// [`read_value`] of counter `code`, out of the read path's way: only
/// parts with a read erratum take it.
#[cold]
#[inline(never)]
fn corrected_value(t: &BoxType, code: u8, v: u64) -> u64 {
    read_value(t, Ctr::from_code(code), v)
}

/// What `counter_reg` gives for a combination the encoder never produces.
const UNUSED_REG: CounterReg = CounterReg {
    addr: Addr::Msr(Msr::new(0)),
    width: 64,
    split: false,
    corrected: false,
    live_mask: super::live::mask(64),
};

/// The counter registers of one box, resolved once (`counter_reg` walks
/// the box type's tables): the read path looks a counter up by its
/// [`Ctr::code`] without recomputing where it is.
#[derive(Clone, Copy, Debug)]
pub struct CounterRegs {
    regs: [CounterReg; CounterRegs::LEN],
}

impl CounterRegs {
    /// General counters held (the most any box type has is eight).
    const GENERAL: usize = 8;
    /// Free-running counters held.
    const FREE: usize = 7;
    const LEN: usize = Self::GENERAL + 1 + Self::FREE;

    /// The table's entry of each [`Ctr::code`] (`LEN`: none), so that the
    /// read path finds a counter with one load.
    const INDEX: [u8; 256] = {
        let mut t = [Self::LEN as u8; 256];
        let mut code = 0;
        while code < 256 {
            if let Some(k) = Self::slot(Ctr::from_code(code as u8)) {
                t[code] = k as u8;
            }
            code += 1;
        }
        t
    };

    /// Where counter `c` sits in the table, if it has a place.
    const fn slot(c: Ctr) -> Option<usize> {
        match c {
            Ctr::General(j) if (j as usize) < Self::GENERAL => Some(j as usize),
            Ctr::Fixed => Some(Self::GENERAL),
            Ctr::Free(j) if (j as usize) < Self::FREE => Some(Self::GENERAL + 1 + j as usize),
            _ => None,
        }
    }

    /// The table of box `i` of type `t`: every counter the type has; the
    /// other entries hold what `counter_reg` gives for a combination the
    /// encoder never produces.
    pub fn new(t: &'static BoxType, i: usize) -> Self {
        let n = t.num_counters;
        let mut regs = [UNUSED_REG; Self::LEN];
        let counters = (0..n)
            .map(Ctr::General)
            .chain((0..n).map(Ctr::Free))
            .chain(core::iter::once(Ctr::Fixed));
        for c in counters {
            if let Some(k) = Self::slot(c) {
                regs[k] = counter_reg(t, i, c);
            }
        }
        CounterRegs { regs }
    }

    /// The register of counter `code` (a [`Ctr::code`]) of the box: the
    /// same as `counter_reg(t, i, Ctr::from_code(code))` for every counter
    /// the box type has.
    #[inline]
    pub fn get(&self, code: u8) -> &CounterReg {
        self.regs
            .get(usize::from(Self::INDEX[usize::from(code)]))
            .unwrap_or(&UNUSED_REG)
    }
}

/// The per-socket global control state the driver keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlobalState {
    /// Cores that receive overflow PMIs (bit per core of the socket).
    pub pmi_cores: u64,
    /// Freeze all counting when a PMI is raised.
    pub freeze_on_pmi: bool,
    /// NHM-EX/WSM-EX: the U-box counter is enabled.
    pub ubox_en: bool,
}

/// The value of the platform's global control register for `g`, if it has one.
pub fn global_value(p: &Platform, g: &GlobalState) -> Option<(Msr, u64)> {
    p.global.value(g)
}

/// Operations that start the platform's uncore on a socket.
pub fn global_init(p: &Platform, g: &GlobalState) -> Ops {
    let mut ops = Ops::default();
    if let Some((msr, v)) = global_value(p, g) {
        ops.write(Addr::Msr(msr), v);
    }
    ops
}

/// Operations that stop the platform's uncore on a socket.
pub fn global_exit(p: &Platform) -> Ops {
    let mut ops = Ops::default();
    if let Some((msr, _)) = global_value(p, &GlobalState::default()) {
        ops.write(Addr::Msr(msr), 0);
    }
    ops
}

/// Box-level control register of box `i`, if any.
pub fn box_ctl_addr(t: &BoxType, i: usize) -> Option<Addr> {
    if !is_box(t, i) {
        return None;
    }
    match t.space {
        Space::Msr {
            box_ctl: Some(a),
            offsets,
            ..
        } => Some(Addr::Msr(Msr::new(a + offsets.of(i)))),
        Space::Pci { box_ctl, .. } => Some(Addr::Cfg(CfgReg::new(box_ctl))),
        _ => None,
    }
}

/// Operations run when box `i` is first used: resets and freeze enable
/// ([`BoxControl::init`]).
pub fn box_init(t: &BoxType, i: usize) -> Ops {
    let mut ops = Ops::default();
    if !is_box(t, i) {
        return ops;
    }
    t.box_ctl.init(box_ctl_addr(t, i), &mut ops);
    ops
}

/// Operations that freeze (`run == false`) or run box `i`
/// ([`BoxControl::run`]). `enabled` has a bit per general counter in use
/// and bit `num_counters` for the fixed one.
pub fn box_run(
    p: &Platform,
    t: &BoxType,
    i: usize,
    run: bool,
    enabled: u32,
    g: &GlobalState,
) -> Ops {
    let mut ops = Ops::default();
    if !is_box(t, i) {
        return ops;
    }
    let r = BoxRun {
        platform: p,
        ty: t,
        ctl: box_ctl_addr(t, i),
        run,
        enabled,
        global: g,
    };
    t.box_ctl.run(&r, &mut ops);
    ops
}

/// What the box-level run state of box type `t` must be with `run`
/// (between `pmu_enable` and `pmu_disable`) and the started counters in
/// `enabled`, as a key that changes exactly when [`box_run`] must write:
/// `None` when no write is needed whatever was written before
/// ([`BoxControl::run_key`]).
pub fn run_key(t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
    t.box_ctl.run_key(t, run, enabled)
}

/// The [`run_key`] of the state [`box_init`] leaves box type `t` in (its
/// reset bits clear themselves), or `None` when it writes nothing.
pub fn run_key_after_init(t: &BoxType) -> Option<u64> {
    t.box_ctl.run_key_after_init()
}

/// Whether `i` is a box of type `t` (below its table's count): every
/// function here that makes a register address from a box index asks this
/// first, and gives nothing for another index, so that no address it makes
/// (an [`Msr`] or a [`CfgReg`], which only this module's callers can build)
/// leaves the type's own registers.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::platforms;
/// use uncore_core::hw::program::{box_init, is_box};
///
/// let t = &platforms::ALL[0].types[0];
/// assert!(is_box(t, 0));
/// assert!(!is_box(t, usize::from(t.num_boxes)));
/// assert!(box_init(t, usize::from(t.num_boxes)).as_slice().is_empty());
/// ```
pub fn is_box(t: &BoxType, i: usize) -> bool {
    i < usize::from(t.num_boxes)
}

/// Whether counter `c` of box `i` of type `t` exists: a box of the type,
/// and a general or free-running counter below its count, or its fixed
/// counter.
pub fn is_counter(t: &BoxType, i: usize, c: Ctr) -> bool {
    is_box(t, i)
        && match c {
            Ctr::General(j) | Ctr::Free(j) => j < t.num_counters,
            Ctr::Fixed => t.fixed.is_some(),
        }
}

/// Where counter `c` of box `i` is.
pub fn counter_reg(t: &BoxType, i: usize, c: Ctr) -> CounterReg {
    if !is_counter(t, i, c) {
        return UNUSED_REG;
    }
    let place = |addr, width, split| CounterReg {
        addr,
        width,
        split,
        corrected: t.special.corrects_reads(),
        live_mask: super::live::mask(width),
    };
    match (c, t.fixed, t.space) {
        (Ctr::Fixed, Some(f), Space::Pci { .. }) => {
            place(Addr::Cfg(CfgReg::new(f.ctr)), u32::from(f.bits), true)
        }
        (Ctr::Fixed, Some(f), Space::Msr { offsets, .. }) => place(
            Addr::Msr(Msr::new(f.ctr + offsets.of(i))),
            u32::from(f.bits),
            false,
        ),
        (Ctr::General(j), _, Space::Msr { ctr, offsets, .. }) => place(
            Addr::Msr(Msr::new(ctr.of(j as usize) + offsets.of(i))),
            u32::from(t.ctr_bits),
            false,
        ),
        (Ctr::General(j), _, Space::Pci { ctr, .. }) => place(
            Addr::Cfg(CfgReg::new(ctr.of(j as usize))),
            u32::from(t.ctr_bits),
            true,
        ),
        (Ctr::General(j), _, Space::Combined { base }) => {
            place(Addr::Msr(Msr::new(base + u32::from(j))), 32, false)
        }
        (Ctr::Free(j), _, Space::Mmio { ctr }) => {
            place(Addr::Mmio(ctr.of(j as usize)), u32::from(t.ctr_bits), false)
        }
        // Combinations the encoder never produces.
        _ => UNUSED_REG,
    }
}

/// A counter's overflow status bit: where it is read, and where writing
/// `bit` clears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverflowBit {
    /// The status register (MSR).
    pub status: u32,
    /// The register whose write of `bit` clears it (MSR).
    pub clear: u32,
    /// The bit.
    pub bit: u64,
}

/// The overflow status bit of counter `c` of box `i`, on platforms whose
/// status names each counter ([`GlobalControl::overflow_bit`]).
pub fn overflow_bit(p: &Platform, t: &BoxType, i: usize, c: Ctr) -> Option<OverflowBit> {
    if !is_counter(t, i, c) {
        return None;
    }
    p.global.overflow_bit(t, i, c)
}

/// Control register of counter `c` of box `i`.
pub fn control_addr(t: &BoxType, i: usize, c: Ctr) -> Option<Addr> {
    if !is_counter(t, i, c) {
        return None;
    }
    match (c, t.fixed, t.space) {
        (Ctr::Fixed, Some(f), Space::Pci { .. }) => Some(Addr::Cfg(CfgReg::new(f.ctl))),
        (Ctr::Fixed, Some(f), Space::Msr { offsets, .. }) => {
            Some(Addr::Msr(Msr::new(f.ctl + offsets.of(i))))
        }
        (Ctr::General(j), _, Space::Msr { ctl, offsets, .. }) => {
            Some(Addr::Msr(Msr::new(ctl.of(j as usize) + offsets.of(i))))
        }
        (Ctr::General(j), _, Space::Pci { ctl, .. }) => {
            Some(Addr::Cfg(CfgReg::new(ctl.of(j as usize))))
        }
        (Ctr::General(j), _, Space::Combined { base }) => {
            Some(Addr::Msr(Msr::new(base + u32::from(j))))
        }
        _ => None,
    }
}

/// Operations that start counting with control value `ctl` on counter `c`
/// of box `i`, after programming the shared registers of `choice`.
/// `pmi` sets the counter's overflow-interrupt enable where it has one.
pub fn event_enable(
    t: &BoxType,
    i: usize,
    c: Ctr,
    ctl: u64,
    shared: &Shared,
    choice: Option<&Choice>,
    pmi: bool,
) -> Ops {
    let mut ops = Ops::default();
    if !is_counter(t, i, c) {
        return ops;
    }
    t.special.before_enable(i as u32, shared, choice, &mut ops);
    if let Some(ch) = choice {
        t.special.write_shared(i as u32, shared, ch, &mut ops);
    }
    let Some(addr) = control_addr(t, i, c) else {
        return ops;
    };
    match (c, t.space) {
        (Ctr::Fixed, _) => {
            let en = t.fixed.map_or(0, |f| f.enable);
            ops.write(addr, en | if pmi { fixed_pmi_bit(t) } else { 0 });
        }
        (_, Space::Combined { base }) => {
            let _ = addr;
            ops.push(Op::WriteControlHalf(Msr::new(base + general_index(c)), ctl));
        }
        _ => ops.write(
            addr,
            ctl | t.enable.bit() | if pmi { pmi_bit(t) } else { 0 } | t.special.enable_bits(ctl),
        ),
    }
    ops
}

/// The value counter `c` of a box of type `t` holds, from a read `raw`
/// (masked to the counter's width), corrected for the part's read errata
/// ([`Special::read_value`](super::special::Special::read_value)): every read path goes through it.
pub fn read_value(t: &BoxType, c: Ctr, raw: u64) -> u64 {
    t.special.read_value(c, raw)
}

/// Operations that stop counter `c` of box `i` (its control keeps the event
/// for SNB-EP-style boxes, as the Linux driver does, and is cleared
/// elsewhere).
///
/// A Xeon 7100/7400 counter shares its MSR with its control: clearing the
/// control is a read-modify-write that writes back the count it read. The
/// counter is frozen around it (by the platform's global control `g`:
/// [`GlobalControl::freeze_one`]), so that the count cannot move between the two accesses: no
/// increment is lost, and no lock-free observer can see a count that the
/// write then takes back. It is unfrozen after, unless `group_frozen` (the
/// group was frozen, and stays so).
pub fn event_disable(
    g: &dyn GlobalControl,
    t: &BoxType,
    i: usize,
    c: Ctr,
    ctl: u64,
    group_frozen: bool,
) -> Ops {
    let mut ops = Ops::default();
    let Some(addr) = control_addr(t, i, c) else {
        return ops;
    };
    match (c, t.space) {
        (Ctr::Fixed, _) => ops.write(addr, 0),
        (_, Space::Combined { base }) => {
            let j = base + general_index(c);
            if let Some((m, v)) = g.freeze_one(j, true) {
                ops.write(Addr::Msr(m), v);
            }
            ops.push(Op::WriteControlHalf(Msr::new(j), 0));
            if !group_frozen {
                if let Some((m, v)) = g.freeze_one(j, false) {
                    ops.write(Addr::Msr(m), v);
                }
            }
        }
        _ => ops.write(addr, if t.enable == Enable::Bit22 { ctl } else { 0 }),
    }
    ops
}

fn general_index(c: Ctr) -> u32 {
    match c {
        Ctr::General(j) | Ctr::Free(j) => u32::from(j),
        Ctr::Fixed => 0,
    }
}

/// The overflow-interrupt enable bit of a general counter's control: bit
/// 20 (SNB-EP style `ov_en`, NHM-EX B/C/S/U/W-box, Skylake `OVF_EN`) unless
/// the box has its own ([`Special::pmi_bit`](super::special::Special::pmi_bit)); none where a non-zero
/// control enables the counter (Xeon 7100/7400).
pub fn pmi_bit(t: &BoxType) -> u64 {
    match t.enable {
        Enable::NonZeroControl => 0,
        Enable::Bit0 | Enable::Bit22 => t.special.pmi_bit().unwrap_or(1 << 20),
    }
}

/// The overflow-interrupt enable bit of the fixed counter's control: W-box
/// bit 1 (Table 2-98), Skylake `OVF_EN` bit 20 (Table 2-4).
pub fn fixed_pmi_bit(t: &BoxType) -> u64 {
    match t.fixed {
        Some(f) if f.enable == 1 => 1 << 1,
        Some(_) => 1 << 20,
        None => 0,
    }
}
