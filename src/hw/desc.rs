// SPDX-License-Identifier: GPL-2.0

//! The types that describe uncore hardware: platforms, box types, their
//! registers, `format/` fields, `events/` aliases and counter constraints.
//!
//! Each platform is one `const` [`Platform`] value built from these types
//! (see [`crate::hw::platforms`]); the driver engine and the encoder read
//! nothing else about the hardware.

use core::fmt;

use super::bits::Field;
use super::box_control::BoxControl;
use super::catalog::packed::Records;
pub use super::catalog::packed::{AliasRef, Terms};
use super::global::GlobalControl;
#[cfg(feature = "sim")]
use super::model::{Family, GlobalBlock, ModelBox, Occurrence, Socket};
use super::pci::{BarWindow, PciFn};
use super::special::Special;

/// The word of `perf_event_attr` a format field is taken from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// `attr.config`.
    Config,
    /// `attr.config1`.
    Config1,
    /// `attr.config2`.
    Config2,
}

impl Word {
    /// The name perf uses for the word in `format/` files.
    pub const fn name(self) -> &'static str {
        match self {
            Word::Config => "config",
            Word::Config1 => "config1",
            Word::Config2 => "config2",
        }
    }
}

/// One `format/` attribute: a named field of a config word. A field may be
/// split (e.g. QPI `event`: `config:0-7,21`); value bits fill the ranges in
/// order, lowest range first.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// Attribute name, e.g. `umask`.
    pub name: &'static str,
    /// The config word.
    pub word: Word,
    /// The bit ranges, in value order.
    pub bits: &'static [Field],
}

impl Format {
    /// A format field made of one contiguous range.
    pub const fn new(name: &'static str, word: Word, bits: &'static [Field]) -> Self {
        Format { name, word, bits }
    }

    /// Mask of the bits this field occupies in its config word.
    pub const fn mask(&self) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < self.bits.len() {
            m |= self.bits[i].mask();
            i += 1;
        }
        m
    }

    /// Number of value bits.
    pub const fn width(&self) -> u32 {
        let mut w = 0;
        let mut i = 0;
        while i < self.bits.len() {
            w += self.bits[i].width();
            i += 1;
        }
        w
    }
}

impl fmt::Display for Format {
    /// The content of the `format/` file without its newline, e.g.
    /// `config:0-7,21` or `config1:18`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word.name())?;
        for (i, r) in self.bits.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            if r.lo == r.hi {
                write!(f, "{}", r.lo)?;
            } else {
                write!(f, "{}-{}", r.lo, r.hi)?;
            }
        }
        Ok(())
    }
}

/// An entry of an alias table: one alias given as text (the aliases a
/// platform table carries, [`Alias::plain`] and [`Alias::mib`]), or every
/// alias of a catalog file, packed at compile time (`tsv!`, see
/// [`crate::hw::catalog::packed`]). [`Alias::iter`] and [`each`] give the
/// aliases one by one.
#[derive(Clone, Copy, Debug)]
pub struct Alias(Stored);

/// How an [`Alias`] entry is stored.
#[derive(Clone, Copy, Debug)]
enum Stored {
    /// One alias: its name, its term list and whether it counts 64-byte
    /// lines.
    Text {
        name: &'static str,
        terms: &'static str,
        mib: bool,
    },
    /// The records of a packed catalog file.
    Packed(&'static [u8]),
}

impl Alias {
    /// An alias without scale or unit.
    pub const fn plain(name: &'static str, terms: &'static str) -> Self {
        Alias(Stored::Text {
            name,
            terms,
            mib: false,
        })
    }

    /// An alias counting 64-byte lines, reported in MiB.
    pub const fn mib(name: &'static str, terms: &'static str) -> Self {
        Alias(Stored::Text {
            name,
            terms,
            mib: true,
        })
    }

    /// The aliases of a packed catalog file (made by `tsv!`).
    pub(crate) const fn packed(records: &'static [u8]) -> Self {
        Alias(Stored::Packed(records))
    }

    /// The aliases of this entry, in order.
    pub fn iter(&self) -> Aliases {
        match self.0 {
            Stored::Text { name, terms, mib } => Aliases {
                one: Some(AliasRef::new(name, Terms::Text(terms), mib)),
                records: Records::new(&[]),
            },
            Stored::Packed(records) => Aliases {
                one: None,
                records: Records::new(records),
            },
        }
    }
}

/// The aliases of one [`Alias`] entry.
#[derive(Clone, Debug)]
pub struct Aliases {
    /// The entry's one alias, if it is given as text.
    one: Option<AliasRef>,
    /// The aliases of a packed entry.
    records: Records,
}

impl Iterator for Aliases {
    type Item = AliasRef;

    fn next(&mut self) -> Option<AliasRef> {
        self.one.take().or_else(|| self.records.next())
    }
}

/// Every alias of the alias table `table`, in order.
pub fn each(table: &'static [Alias]) -> impl Iterator<Item = AliasRef> + Clone {
    table.iter().flat_map(Alias::iter)
}

/// The `.scale` that turns a count of 64-byte lines into MiB (64 / 2^20).
pub const SCALE_64B_MIB: &str = "6.103515625e-5";

/// A counter constraint: control values with `(ctl & cmask) == code` may
/// only use the counters in `counters`.
#[derive(Clone, Copy, Debug)]
pub struct Constraint {
    /// The value to match.
    pub code: u64,
    /// The bits of the control value compared.
    pub cmask: u64,
    /// Bit mask of the allowed counters.
    pub counters: u32,
}

impl Constraint {
    /// A constraint on the 8-bit event select.
    pub const fn event(code: u64, counters: u32) -> Self {
        Constraint {
            code,
            cmask: 0xff,
            counters,
        }
    }
}

/// Per-box offsets of an MSR box's registers.
#[derive(Clone, Copy, Debug)]
pub enum Offsets {
    /// Box `i` is at `i * stride` from box 0.
    Stride(u32),
    /// Box `i` is at `table[i]` from box 0.
    Table(&'static [u32]),
}

impl Offsets {
    /// Offset of box `i`.
    pub const fn of(self, i: usize) -> u32 {
        match self {
            Offsets::Stride(s) => s * i as u32,
            Offsets::Table(t) => t[i],
        }
    }
}

/// A list of register addresses for counters `0..n`.
#[derive(Clone, Copy, Debug)]
pub enum Regs {
    /// Register `j` is at `base + j * step`.
    Step {
        /// Address of register 0.
        base: u32,
        /// Distance between consecutive registers.
        step: u32,
    },
    /// Register `j` is at `table[j]`.
    Table(&'static [u32]),
}

impl Regs {
    /// Address of register `j`.
    pub const fn of(self, j: usize) -> u32 {
        match self {
            Regs::Step { base, step } => base + j as u32 * step,
            Regs::Table(t) => t[j],
        }
    }
}

/// Where a box type's registers live.
#[derive(Clone, Copy, Debug)]
pub enum Space {
    /// MSRs; addresses are of box 0, plus [`Offsets`] for box `i`.
    Msr {
        /// Box-level control (or the box's `GLOBAL_CTL`), if the box has one.
        box_ctl: Option<u32>,
        /// Counter control registers.
        ctl: Regs,
        /// Counter registers.
        ctr: Regs,
        /// Per-box offsets.
        offsets: Offsets,
    },
    /// PCI configuration space of the box's own PCI function.
    Pci {
        /// Box control register offset.
        box_ctl: u32,
        /// Counter control register offsets.
        ctl: Regs,
        /// Counter register offsets (64-bit, read as two dwords).
        ctr: Regs,
    },
    /// Free-running 32-bit counters in an MMIO BAR; event `k` (1-based
    /// config value) reads `ctr.of(k - 1)`.
    Mmio {
        /// Counter offsets from the BAR.
        ctr: Regs,
    },
    /// Combined control/counter MSRs (Xeon 7100/7400 `MSR_EMON_L3_CTR_CTLn`):
    /// bits 63:32 control, bits 31:0 count.
    Combined {
        /// MSR of counter 0 of this box.
        base: u32,
    },
}

impl Space {
    /// Whether the registers are MSRs (present on every package, reached
    /// from its CPUs).
    pub const fn in_msrs(&self) -> bool {
        matches!(self, Space::Msr { .. } | Space::Combined { .. })
    }

    /// Whether the box is a device's (PCI configuration space or an MMIO
    /// window of one): a package may lack it, and it is bound as a PCI
    /// function.
    pub const fn in_device(&self) -> bool {
        matches!(self, Space::Pci { .. } | Space::Mmio { .. })
    }

    /// Whether the registers are in PCI configuration space.
    pub const fn in_config_space(&self) -> bool {
        matches!(self, Space::Pci { .. })
    }
}

/// How a counter's control register is enabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enable {
    /// `en` is bit 22.
    Bit22,
    /// `en` is bit 0 (NHM-EX B-, M- and R-boxes).
    Bit0,
    /// Xeon 7100/7400: counting runs while the control field (bits 63:32)
    /// is non-zero.
    NonZeroControl,
}

impl Enable {
    /// The bit that enables the counter, or 0 when there is none.
    pub const fn bit(self) -> u64 {
        match self {
            Enable::Bit22 => 1 << 22,
            Enable::Bit0 => 1,
            Enable::NonZeroControl => 0,
        }
    }
}

/// A fixed counter of a box type.
#[derive(Clone, Copy, Debug)]
pub struct Fixed {
    /// Control register (MSR number or PCI offset), of box 0.
    pub ctl: u32,
    /// Counter register.
    pub ctr: u32,
    /// Counter width.
    pub bits: u8,
    /// Value written to the control register to enable the counter.
    pub enable: u64,
    /// Only the box with index 0 has it (Skylake CBo 0).
    pub only_box0: bool,
}

/// The fastest a box's counters can advance, from the manuals, used to
/// derive the polling interval.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Highest clock of the box's domain, in MHz.
    pub clock_mhz: u32,
    /// Largest increment of one counter in one clock.
    pub max_inc: u32,
}

/// What a box is: the uncore unit it monitors, by the manuals' names.
/// The driver and the model tell boxes apart by this, never by a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxKind {
    /// C-box: a slice of the last-level cache (CBo).
    Cbox,
    /// Home agent.
    Ha,
    /// Integrated memory controller channel.
    Imc,
    /// QPI link layer.
    Qpi,
    /// Power control unit.
    Pcu,
    /// Ring to PCIe.
    R2pcie,
    /// Ring to QPI.
    R3qpi,
    /// U-box (system configuration controller).
    Ubox,
    /// IIO ring port (IVB-EP IRP).
    Irp,
    /// Nehalem-EX/Westmere-EX S-box (system bus interface).
    Sbox,
    /// Nehalem-EX/Westmere-EX M-box (memory controller).
    Mbox,
    /// Nehalem-EX/Westmere-EX R-box (router).
    Rbox,
    /// Nehalem-EX/Westmere-EX B-box (home agent).
    Bbox,
    /// Nehalem-EX/Westmere-EX W-box (power controller).
    Wbox,
    /// Skylake client ARB (the system agent's arbiter).
    Arb,
    /// Xeon 7100/7400 L3 EMON group: the bus and snoop queue.
    Gbsq,
    /// Xeon 7100/7400 L3 EMON group: the global snoop queue.
    Gsnpq,
    /// Xeon 7100/7400 L3 EMON group: the front-side bus.
    Fsb,
}

impl BoxKind {
    /// The name in PMU names (`uncore_<name>`).
    pub const fn name(self) -> &'static str {
        match self {
            BoxKind::Cbox => "cbox",
            BoxKind::Ha => "ha",
            BoxKind::Imc => "imc",
            BoxKind::Qpi => "qpi",
            BoxKind::Pcu => "pcu",
            BoxKind::R2pcie => "r2pcie",
            BoxKind::R3qpi => "r3qpi",
            BoxKind::Ubox => "ubox",
            BoxKind::Irp => "irp",
            BoxKind::Sbox => "sbox",
            BoxKind::Mbox => "mbox",
            BoxKind::Rbox => "rbox",
            BoxKind::Bbox => "bbox",
            BoxKind::Wbox => "wbox",
            BoxKind::Arb => "arb",
            BoxKind::Gbsq => "gbsq",
            BoxKind::Gsnpq => "gsnpq",
            BoxKind::Fsb => "fsb",
        }
    }
}

/// One kind of box (C-box, iMC channel, ...), with all instances alike.
#[derive(Clone, Copy, Debug)]
pub struct BoxType {
    /// What the box is; its name makes the PMU's, `uncore_<name>` or
    /// `uncore_<name>_<i>`.
    pub kind: BoxKind,
    /// Its event catalog (its `events/` aliases after [`Self::aliases`]),
    /// from the platform's catalog file.
    pub catalog: &'static [Alias],
    /// The events of this part of the platform only, after `catalog` (the
    /// Nehalem-EX and Westmere-EX S-box events with C-box unit masks).
    pub part_catalog: &'static [Alias],
    /// The events whose terms set 64-bit match/mask fields (NHM-EX/WSM-EX
    /// S- and R-box), after those.
    pub wide_catalog: &'static [Alias],
    /// Each instance's own events, by box index, last (the R-box halves'
    /// QPI links).
    pub instance_catalogs: &'static [&'static [Alias]],
    /// Number of instances (upper bound; some platforms cap it).
    pub num_boxes: u8,
    /// Name the PMU `uncore_<name>_<i>` even when there is one box.
    pub always_indexed: bool,
    /// Number of general-purpose counters.
    pub num_counters: u8,
    /// Width of the general-purpose counters.
    pub ctr_bits: u8,
    /// The fixed counter, if any (selected with `config == 0xff`).
    pub fixed: Option<Fixed>,
    /// Register space and addresses.
    pub space: Space,
    /// Box-level control: how the box is set up, frozen and run, in its
    /// platform's files.
    pub box_ctl: &'static dyn BoxControl,
    /// Counter enable.
    pub enable: Enable,
    /// Bits of `config` that go to the control register (besides `en`).
    pub ctl_mask: u64,
    /// `format/` attributes; bits of config/config1/config2 outside them are rejected.
    pub formats: &'static [Format],
    /// `events/` aliases.
    pub aliases: &'static [Alias],
    /// Counter constraints (first match wins; none means any counter).
    pub constraints: &'static [Constraint],
    /// Its own event handling beyond masking and constraints (filters,
    /// match/mask registers, read corrections), in its platform's files.
    pub special: &'static dyn Special,
    /// Fastest counting rate.
    pub rate: Rate,
}

impl BoxType {
    /// The type's name (`cbox`): the PMU is `uncore_<name>` or
    /// `uncore_<name>_<i>`.
    pub const fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// Mask of the counters an unconstrained event may use.
    pub const fn all_counters(&self) -> u32 {
        (1u32 << self.num_counters) - 1
    }

    /// The index that stands for the fixed counter in counter masks.
    pub const fn fixed_index(&self) -> u8 {
        self.num_counters
    }

    /// Mask of the bits the `format/` attributes cover in `word`.
    pub const fn valid_mask(&self, word: Word) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < self.formats.len() {
            let f = &self.formats[i];
            if f.word as u8 == word as u8 {
                m |= f.mask();
            }
            i += 1;
        }
        m
    }

    /// Looks up a format attribute by name.
    pub fn format(&self, name: &str) -> Option<&'static Format> {
        self.formats.iter().find(|f| f.name == name)
    }
}

/// A platform's identifier: its place in the registry's list
/// (`platforms::ALL`), where each one is named (`PlatformId::SKYLAKE`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(transparent)]
pub struct PlatformId(u8);

impl PlatformId {
    /// The identifier of the registry's entry `index`.
    pub const fn new(index: u8) -> Self {
        PlatformId(index)
    }

    /// Its place in the registry's list.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A whole platform.
#[derive(Clone, Copy, Debug)]
pub struct Platform {
    /// Identifier.
    pub id: PlatformId,
    /// Short name, as given to `sim=`.
    pub name: &'static str,
    /// Marketing name, for messages.
    pub description: &'static str,
    /// CPUID (family, model) pairs of the platform.
    pub cpus: &'static [(u32, u32)],
    /// The box types.
    pub types: &'static [BoxType],
    /// The global control: its value, its overflow-status walk, in the
    /// platform's files.
    pub global: &'static dyn GlobalControl,
    /// NHM-EX/WSM-EX: which boxes each S-box `S_MSR_PMON_SUMMARY` bit
    /// reports (Table 2-26 of each part's guide); empty elsewhere.
    pub s_summary: &'static [SummaryBit],
    /// The uncore PCI functions (empty for MSR-only platforms).
    pub pci: &'static [PciFn],
    /// The MMIO window of its MMIO boxes, which the base address register
    /// of their PCI device places (Skylake's `MCHBAR`).
    pub mmio_window: Option<BarWindow>,
    /// Its part in the register model and the simulation (only where the
    /// model is built: `feature = "sim"`).
    #[cfg(feature = "sim")]
    pub sim: SimSpec,
}

/// What the register model and the simulation need to know of a platform
/// beyond its box types and global control: the model's rules of the
/// platform, set in the platform's own `model` file. The generic model
/// (`hw::model`) names no platform; what differs between parts is here.
#[cfg(feature = "sim")]
#[derive(Clone, Copy, Debug)]
pub struct SimSpec {
    /// The model's behaviour class of each box kind.
    pub family: fn(BoxKind) -> Family,
    /// The model's behaviour class of the global registers.
    pub global: GlobalBlock,
    /// The C-box count the model's `MSR_UNC_CBO_CONFIG` reports (Skylake);
    /// 0 where there is no such register.
    pub cbos: u8,
    /// Nominal clock of the simulated fixed counters in MHz (0: none).
    pub clock_mhz: u64,
    /// Counter control bits the part does not implement, on top of what
    /// its family lacks.
    pub ctl_lacks: u64,
    /// The auxiliary register (filter, match/mask, subcontrol) index of MSR
    /// `msr` in instance `i` of a box of kind `kind`, if it is one.
    pub aux_msr: fn(kind: BoxKind, i: u32, msr: u32) -> Option<usize>,
    /// Whether occurrence `o` has only values the registers of a box of
    /// kind `kind` can hold.
    pub fits: fn(kind: BoxKind, o: &Occurrence) -> bool,
    /// How much counter `j` (control `ctl`) of box `b` counts of `o`, or
    /// `None` when it is not programmed for it.
    pub counts: Counts,
    /// Whether S-box event `event` is a queue occupancy event (whose
    /// subcounter keeps the occupancy unless reset).
    pub occupancy: fn(kind: BoxKind, event: u16) -> bool,
    /// The S-box summary bit (of S-box `side`) a box of kind `kind`,
    /// instance `i`, reports to, if any.
    pub summary_bit: fn(kind: BoxKind, i: u8, side: u32) -> Option<u32>,
    /// What a read of a counter whose value is `v` returns (a read
    /// erratum of the part); the value itself elsewhere.
    pub read_counter: fn(kind: BoxKind, v: u64) -> u64,
    /// The events that count only with a filter field set, from Intel's
    /// descriptions (the platform's `preconditions.tsv`).
    pub preconditions: &'static [crate::hw::model::precond::Precondition],
}

/// The type of [`SimSpec::counts`].
#[cfg(feature = "sim")]
pub type Counts = fn(
    sock: &Socket,
    b: &ModelBox,
    kind: BoxKind,
    j: usize,
    ctl: u64,
    o: &Occurrence,
) -> Option<u64>;

#[cfg(feature = "sim")]
impl SimSpec {
    /// The model families `family`, global registers `global`, `cbos`
    /// C-boxes in `MSR_UNC_CBO_CONFIG`, fixed counters at `clock_mhz`; no
    /// rule of a part's own (the plain event select and unit mask, no
    /// auxiliary registers, no erratum). A platform's model file sets the
    /// rest with struct update syntax.
    pub const fn new(
        family: fn(BoxKind) -> Family,
        global: GlobalBlock,
        cbos: u8,
        clock_mhz: u64,
    ) -> Self {
        SimSpec {
            family,
            global,
            cbos,
            clock_mhz,
            ctl_lacks: 0,
            aux_msr: |_, _, _| None,
            fits: |_, _| true,
            // The event select and the whole unit mask.
            counts: |_, _, _, _, ctl, o| crate::hw::model::count::select_counts(ctl, 0xff, o),
            occupancy: |_, _| false,
            summary_bit: |_, _, _| None,
            read_counter: |_, v| v,
            preconditions: &[],
        }
    }
}

/// `parts` one after the other in an array of `N` entries, for tables that
/// share entries (`fill` only initialises the array). `N` must be the total
/// length of `parts` (checked at compile time where the table is a const).
pub(crate) const fn concat<T: Copy, const N: usize>(parts: &[&[T]], fill: T) -> [T; N] {
    let mut out = [fill; N];
    let mut n = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[n] = parts[p][i];
            n += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(n == N, "concat: N is not the total length of the parts");
    out
}

/// One bit of an S-box's `S_MSR_PMON_SUMMARY` and the boxes behind it.
#[derive(Clone, Copy, Debug)]
pub struct SummaryBit {
    /// The S-box (0 or 1).
    pub side: u8,
    /// The bit.
    pub bit: u32,
    /// The reporting boxes, as (kind, instance).
    pub boxes: &'static [(BoxKind, u8)],
}

impl SummaryBit {
    /// Bit `bit` of S-box `side`'s summary, reporting `boxes`.
    pub const fn new(side: u8, bit: u32, boxes: &'static [(BoxKind, u8)]) -> Self {
        SummaryBit { side, bit, boxes }
    }
}

impl Platform {
    /// Looks up a box type by name.
    pub fn box_type(&self, name: &str) -> Option<&'static BoxType> {
        self.types.iter().find(|t| t.name() == name)
    }

    /// The box type of kind `kind`, and its position in [`Self::types`].
    pub fn type_of(&self, kind: BoxKind) -> Option<(usize, &'static BoxType)> {
        self.types.iter().enumerate().find(|(_, t)| t.kind == kind)
    }
}
