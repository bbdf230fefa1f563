// SPDX-License-Identifier: GPL-2.0

//! PCI decoding: which uncore box a PCI function is, and which socket a
//! PCI bus belongs to.
//!
//! Device IDs and their positions: Xeon E5-2600 uncore guide (327043)
//! Table 1-3 for the device and function numbers of SNB-EP, the Linux
//! driver's ID tables and the likwid register maps for the rest. A device
//! is accepted only at the device/function where the platform puts it.

use super::desc::{BoxKind, Platform, PlatformId};

/// Intel's PCI vendor ID.
pub const VENDOR_INTEL: u16 = 0x8086;

/// What a PCI function is to the driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// PMON box `index` of the box type named `ty`.
    Box {
        /// Box kind.
        ty: BoxKind,
        /// Instance.
        index: u8,
    },
    /// The packet match/mask device of QPI port `port`.
    QpiFilter {
        /// QPI port.
        port: u8,
    },
    /// The U-box device holding the node ID registers.
    Ubox,
}

impl core::fmt::Display for Role {
    /// As the kernel log names it: "imc box 2", "QPI port 1's match/mask
    /// device", "U-box device".
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Role::Box { ty, index } => write!(f, "{} box {}", ty.name(), index),
            Role::QpiFilter { port } => write!(f, "QPI port {}'s match/mask device", port),
            Role::Ubox => write!(f, "U-box device"),
        }
    }
}

impl Role {
    /// How the kernel log names this function of platform `p`: a box by its
    /// PMU's name ("uncore_imc_2", as perf lists it), anything else in
    /// words ([`Role`]'s `Display`).
    pub fn log_name(self, p: &Platform) -> LogName<'_> {
        LogName {
            platform: p,
            role: self,
        }
    }
}

/// A function's name in the kernel log ([`Role::log_name`]).
pub struct LogName<'a> {
    platform: &'a Platform,
    role: Role,
}

impl core::fmt::Display for LogName<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let Role::Box { ty, index } = self.role else {
            return write!(f, "{}", self.role);
        };
        match self.platform.types.iter().find(|t| t.kind == ty) {
            // The driver's PMU names: a type of one box is not indexed.
            Some(t) if t.num_boxes == 1 && !t.always_indexed => write!(f, "uncore_{}", t.name()),
            Some(t) => write!(f, "uncore_{}_{}", t.name(), index),
            None => write!(f, "{}", self.role),
        }
    }
}

/// One known PCI function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PciFn {
    /// Device ID.
    pub device: u16,
    /// Device number on the uncore bus, if fixed.
    pub dev: Option<u8>,
    /// Function number, if fixed.
    pub func: Option<u8>,
    /// Its role.
    pub role: Role,
}

/// A function at a fixed device and function number.
pub(crate) const fn at(device: u16, dev: u8, func: u8, role: Role) -> PciFn {
    PciFn {
        device,
        dev: Some(dev),
        func: Some(func),
        role,
    }
}

/// The role of box `index` of kind `ty`.
pub(crate) const fn bx(ty: BoxKind, index: u8) -> Role {
    Role::Box { ty, index }
}

/// The PCI functions of a platform.
pub fn functions(p: PlatformId) -> &'static [PciFn] {
    super::platforms::by_id(p).pci
}

/// The U-box device whose node-ID registers map buses to sockets.
pub fn ubox_device(p: PlatformId) -> Option<u16> {
    functions(p)
        .iter()
        .find(|f| f.role == Role::Ubox)
        .map(|f| f.device)
}

/// Offset of `MCHBAR` in the Skylake host bridge (64 bits; bit 0 enables it).
pub const MCHBAR: u32 = 0x48;

/// The physical address of the MCHBAR window from the register's two
/// dwords, or `None` when it is disabled (bit 0 clear). The window is
/// 32 KiB aligned (address bits 38:15).
pub fn mchbar_base(lo: u32, hi: u32) -> Option<u64> {
    let v = u64::from(hi) << 32 | u64::from(lo);
    (v & 1 != 0).then_some(v & 0x7f_ffff_8000)
}

/// An MMIO window that a device's base address register places, as the
/// tables declare it: the register's offset (two dwords), how its value
/// gives the window's base, and the window's size. Only the core makes one,
/// so the kernel layer, which maps MMIO only through this type (from a
/// bound device's register), cannot be asked to map any other address.
#[derive(Clone, Copy, Debug)]
pub struct BarWindow {
    name: &'static str,
    holds: &'static str,
    offset: u32,
    size: u32,
    decode: fn(u32, u32) -> Option<u64>,
}

impl BarWindow {
    /// The window of `size` bytes that the base address register `name` at
    /// `offset` places, its base decoded by `decode` from the register's two
    /// dwords (`None`: disabled); `holds` names its counters in messages.
    pub(crate) const fn new(
        name: &'static str,
        holds: &'static str,
        offset: u32,
        size: u32,
        decode: fn(u32, u32) -> Option<u64>,
    ) -> Self {
        BarWindow {
            name,
            holds,
            offset,
            size,
            decode,
        }
    }

    /// The base address register's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// What the window's counters are, for messages (`IMC`).
    pub const fn holds(&self) -> &'static str {
        self.holds
    }

    /// Offset of the base address register (its low dword; the high one
    /// follows).
    pub const fn offset(&self) -> u32 {
        self.offset
    }

    /// Size of the window in bytes.
    pub const fn size(&self) -> u32 {
        self.size
    }

    /// The window's physical base from the register's two dwords, or `None`
    /// when the register leaves it disabled.
    pub fn base(&self, lo: u32, hi: u32) -> Option<u64> {
        (self.decode)(lo, hi)
    }
}

/// Why a PCI function is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PciError {
    /// Not an uncore device of this platform.
    UnknownDevice,
    /// A known device ID at a device/function where it does not belong.
    UnexpectedPosition,
}

/// Decodes device `device` at `dev.func`.
pub fn decode(
    p: PlatformId,
    vendor: u16,
    device: u16,
    dev: u8,
    func: u8,
) -> Result<Role, PciError> {
    if vendor != VENDOR_INTEL {
        return Err(PciError::UnknownDevice);
    }
    let f = functions(p)
        .iter()
        .find(|f| f.device == device)
        .ok_or(PciError::UnknownDevice)?;
    if f.dev.is_some_and(|d| d != dev) || f.func.is_some_and(|x| x != func) {
        return Err(PciError::UnexpectedPosition);
    }
    Ok(f.role)
}

/// The helper (match/mask) device ID of QPI port `port`, if the port has one.
pub fn qpi_filter_device(p: PlatformId, port: u8) -> Option<u16> {
    functions(p)
        .iter()
        .find(|f| f.role == Role::QpiFilter { port })
        .map(|f| f.device)
}

/// `CPUNODEID` offset in the U-box device (node ID of this socket in bits 2:0).
pub const CPUNODEID: u32 = 0x40;
/// `GIDNIDMAP` offset: eight 3-bit node IDs, entry `i` for socket `i`.
pub const GIDNIDMAP: u32 = 0x54;

/// One U-box device as found on a bus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UboxRegs {
    /// Its bus.
    pub bus: u8,
    /// `CPUNODEID` dword.
    pub nodeid: u32,
    /// `GIDNIDMAP` dword.
    pub gidnidmap: u32,
}

/// Why the bus to socket map cannot be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapError {
    /// No U-box device at all.
    NoUbox,
    /// A U-box's node ID is in no entry of its `GIDNIDMAP`.
    NodeNotInMap {
        /// The U-box's bus.
        bus: u8,
    },
    /// Two U-boxes claim the same socket.
    DuplicateSocket {
        /// The socket.
        socket: u8,
    },
    /// The U-boxes disagree on `GIDNIDMAP`.
    MapsDisagree,
}

impl core::fmt::Display for MapError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            MapError::NoUbox => write!(f, "no U-box device"),
            MapError::NodeNotInMap { bus } => write!(
                f,
                "the U-box on bus {:#04x} has a node ID its GIDNIDMAP does not list",
                bus
            ),
            MapError::DuplicateSocket { socket } => {
                write!(f, "two U-boxes claim socket {}", socket)
            }
            MapError::MapsDisagree => write!(f, "the U-boxes' GIDNIDMAP registers disagree"),
        }
    }
}

/// Builds the bus to socket map from the U-box devices: each U-box's bus
/// belongs to the socket whose `GIDNIDMAP` entry holds its node ID; a bus
/// without a U-box belongs to the socket of the next higher bus that has
/// one (the uncore bus is the highest bus of its socket's range). Buses
/// above the highest U-box bus stay unmapped.
pub fn bus_to_socket(uboxes: &[UboxRegs], map: &mut [Option<u8>; 256]) -> Result<(), MapError> {
    *map = [None; 256];
    let first = uboxes.first().ok_or(MapError::NoUbox)?;
    for u in uboxes {
        if u.gidnidmap & 0xff_ffff != first.gidnidmap & 0xff_ffff {
            return Err(MapError::MapsDisagree);
        }
        let node = u.nodeid & 7;
        let socket = (0..8u8)
            .find(|&i| (u.gidnidmap >> (3 * i)) & 7 == node)
            .ok_or(MapError::NodeNotInMap { bus: u.bus })?;
        if let Some(other) = uboxes
            .iter()
            .find(|o| o.bus != u.bus && o.nodeid & 7 == node)
        {
            let _ = other;
            return Err(MapError::DuplicateSocket { socket });
        }
        map[u.bus as usize] = Some(socket);
    }
    let mut current = None;
    for bus in (0..256).rev() {
        match map[bus] {
            Some(s) => current = Some(s),
            None => map[bus] = current,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
