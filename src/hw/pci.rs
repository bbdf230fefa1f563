// SPDX-License-Identifier: GPL-2.0

//! PCI decoding: which uncore box a PCI function is, and which socket a
//! PCI bus belongs to.
//!
//! Device IDs and their positions: Xeon E5-2600 uncore guide (327043)
//! Table 1-3 for the device and function numbers of SNB-EP, the Linux
//! driver's ID tables and the likwid register maps for the rest. A device
//! is accepted only at the device/function where the platform puts it.

use super::desc::{BoxKind, PlatformId};

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

const fn at(device: u16, dev: u8, func: u8, role: Role) -> PciFn {
    PciFn {
        device,
        dev: Some(dev),
        func: Some(func),
        role,
    }
}

const fn bx(ty: BoxKind, index: u8) -> Role {
    Role::Box { ty, index }
}

/// SNB-EP uncore PCI functions (327043 Table 1-3).
pub const SNBEP: &[PciFn] = &[
    at(0x3c46, 14, 1, bx(BoxKind::Ha, 0)),
    at(0x3cb0, 16, 0, bx(BoxKind::Imc, 0)),
    at(0x3cb1, 16, 1, bx(BoxKind::Imc, 1)),
    at(0x3cb4, 16, 4, bx(BoxKind::Imc, 2)),
    at(0x3cb5, 16, 5, bx(BoxKind::Imc, 3)),
    at(0x3c41, 8, 2, bx(BoxKind::Qpi, 0)),
    at(0x3c42, 9, 2, bx(BoxKind::Qpi, 1)),
    at(0x3c43, 19, 1, bx(BoxKind::R2pcie, 0)),
    at(0x3c44, 19, 5, bx(BoxKind::R3qpi, 0)),
    at(0x3c45, 19, 6, bx(BoxKind::R3qpi, 1)),
    at(0x3c86, 8, 6, Role::QpiFilter { port: 0 }),
    at(0x3c96, 9, 6, Role::QpiFilter { port: 1 }),
    PciFn {
        device: 0x3ce0,
        dev: None,
        func: None,
        role: Role::Ubox,
    },
];

/// IVB-EP uncore PCI functions. QPI port 2 (0x0e3a) has no agreed
/// position across sources, so only its ID is checked; it has no match/mask
/// device. The U-box devices of both platforms are found by ID only (they
/// are read for the node ID map, never bound).
pub const IVBEP: &[PciFn] = &[
    at(0x0e30, 14, 1, bx(BoxKind::Ha, 0)),
    at(0x0e38, 28, 1, bx(BoxKind::Ha, 1)),
    at(0x0eb4, 16, 4, bx(BoxKind::Imc, 0)),
    at(0x0eb5, 16, 5, bx(BoxKind::Imc, 1)),
    at(0x0eb0, 16, 0, bx(BoxKind::Imc, 2)),
    at(0x0eb1, 16, 1, bx(BoxKind::Imc, 3)),
    at(0x0ef4, 30, 4, bx(BoxKind::Imc, 4)),
    at(0x0ef5, 30, 5, bx(BoxKind::Imc, 5)),
    at(0x0ef0, 30, 0, bx(BoxKind::Imc, 6)),
    at(0x0ef1, 30, 1, bx(BoxKind::Imc, 7)),
    at(0x0e39, 5, 6, bx(BoxKind::Irp, 0)),
    at(0x0e32, 8, 2, bx(BoxKind::Qpi, 0)),
    at(0x0e33, 9, 2, bx(BoxKind::Qpi, 1)),
    PciFn {
        device: 0x0e3a,
        dev: None,
        func: None,
        role: bx(BoxKind::Qpi, 2),
    },
    at(0x0e34, 19, 1, bx(BoxKind::R2pcie, 0)),
    at(0x0e36, 19, 5, bx(BoxKind::R3qpi, 0)),
    at(0x0e37, 19, 6, bx(BoxKind::R3qpi, 1)),
    at(0x0e3e, 18, 5, bx(BoxKind::R3qpi, 2)),
    at(0x0e86, 8, 6, Role::QpiFilter { port: 0 }),
    at(0x0e96, 9, 6, Role::QpiFilter { port: 1 }),
    PciFn {
        device: 0x0e1e,
        dev: None,
        func: None,
        role: Role::Ubox,
    },
];

/// Skylake client host bridges (0:0.0): the IMC counters are in the MCHBAR
/// they hold at 0x48, so each is the device of the `imc` box.
pub const SKL: &[PciFn] = &[
    // Skylake: Y, U, HD, HQ, SD, SQ, E3.
    at(0x190c, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1904, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1900, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1910, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x190f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x191f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1918, 0, 0, bx(BoxKind::Imc, 0)),
    // Kaby Lake: Y (also Amber Lake YD), U, UQ, SD, SQ, HQ, WQ.
    at(0x590c, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5904, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5914, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x590f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x591f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5910, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5918, 0, 0, bx(BoxKind::Imc, 0)),
    // Amber Lake YQ.
    at(0x590d, 0, 0, bx(BoxKind::Imc, 0)),
    // Coffee Lake: 2U, 4U (also Whiskey Lake UQ), 4H, 6H, 2S/4S/6S/8S
    // desktop, 4S/6S/8S workstation, 4S/6S/8S server.
    at(0x3ecc, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ed0, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e10, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ec4, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e0f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e1f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ec2, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e30, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e18, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ec6, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e31, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e33, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3eca, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e32, 0, 0, bx(BoxKind::Imc, 0)),
    // Whiskey Lake 4-UQ, UD.
    at(0x3e34, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e35, 0, 0, bx(BoxKind::Imc, 0)),
    // Comet Lake: H1-H3, U1-U3, S1-S5.
    at(0x9b44, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b54, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b64, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b51, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b61, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b71, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b33, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b43, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b53, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b63, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b73, 0, 0, bx(BoxKind::Imc, 0)),
];

/// The PCI function tables of the platforms that have PCI boxes.
const TABLES: [&[PciFn]; 3] = [SNBEP, IVBEP, SKL];

/// How many PCI functions the driver binds: every known one but the U-box
/// devices, which are only read.
pub const BOUND_COUNT: usize = {
    let mut n = 0;
    let mut t = 0;
    while t < TABLES.len() {
        let mut i = 0;
        while i < TABLES[t].len() {
            if !matches!(TABLES[t][i].role, Role::Ubox) {
                n += 1;
            }
            i += 1;
        }
        t += 1;
    }
    n
};

/// The device IDs of the PCI functions the driver binds, for its PCI ID
/// table (and the module's aliases).
pub const BOUND_IDS: [u16; BOUND_COUNT] = {
    let mut ids = [0; BOUND_COUNT];
    let mut n = 0;
    let mut t = 0;
    while t < TABLES.len() {
        let mut i = 0;
        while i < TABLES[t].len() {
            if !matches!(TABLES[t][i].role, Role::Ubox) {
                ids[n] = TABLES[t][i].device;
                n += 1;
            }
            i += 1;
        }
        t += 1;
    }
    ids
};

/// The PCI functions of a platform.
pub fn functions(p: PlatformId) -> &'static [PciFn] {
    match p {
        PlatformId::SandyBridgeEp => SNBEP,
        PlatformId::IvyBridgeEp => IVBEP,
        PlatformId::Skylake => SKL,
        _ => &[],
    }
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
    offset: u32,
    size: u32,
    decode: fn(u32, u32) -> Option<u64>,
}

impl BarWindow {
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

/// The Skylake IMC counters' window: `MCHBAR` of the host bridge.
pub const MCHBAR_WINDOW: BarWindow = BarWindow {
    offset: MCHBAR,
    size: super::platforms::skl::MCHBAR_WINDOW,
    decode: mchbar_base,
};

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
