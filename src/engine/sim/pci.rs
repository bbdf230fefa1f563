// SPDX-License-Identifier: GPL-2.0

//! The simulated platform's PCI functions, enumerated from the register
//! model through the same decoding and bus-to-socket mapping as the
//! hardware's PCI driver (`pcibox`), and bound again by `plug`.

use super::Sim;
use crate::engine::pcibox::{decode, BusMap, PciLocation};
use crate::engine::Ctx;
use crate::hw::model::MAX_SOCKETS;
use crate::hw::pci::{self, Role, UboxRegs};
use core::sync::atomic::Ordering;
use kernel::prelude::*;

/// Enumerates the simulated platform's PCI functions through the same
/// decoding and mapping as the hardware's.
pub(crate) fn enumerate(ctx: &Ctx<Sim>) -> Result {
    let p = ctx.platform.id;
    let sim = &ctx.regs;
    // The model's registers, read under its lock into fixed arrays: nothing
    // is allocated while it is held.
    let mut ubox = [UboxRegs {
        bus: 0,
        nodeid: 0,
        gidnidmap: 0,
    }; MAX_SOCKETS];
    let mut buses = [0u8; MAX_SOCKETS];
    let n = sim.inspect(|m| -> Result<usize> {
        let n = m.n_sockets.min(MAX_SOCKETS);
        for s in 0..n {
            buses[s] = m.sockets[s].bus;
            if pci::ubox_device(p).is_some() {
                ubox[s] = UboxRegs {
                    bus: buses[s],
                    nodeid: m.cfg_read(s, Role::Ubox, pci::CPUNODEID).map_err(|_| EIO)?,
                    gidnidmap: m.cfg_read(s, Role::Ubox, pci::GIDNIDMAP).map_err(|_| EIO)?,
                };
            }
        }
        Ok(n)
    })?;
    let map = if pci::ubox_device(p).is_none() {
        BusMap::empty()
    } else {
        BusMap::build(&ubox[..n], 0, |s| Some(s as usize)).map_err(|e| {
            pr_warn!(
                "sim: cannot map uncore buses to sockets: {}\n",
                format_args!("{}", e)
            );
            ENODEV
        })?
    };
    let fns = pci::functions(p);
    for &bus in &buses[..n] {
        for (k, f) in fns.iter().enumerate().filter(|(_, f)| f.role != Role::Ubox) {
            // Client parts: the host bridge is on bus 0 of the one socket.
            let bus = if pci::ubox_device(p).is_none() {
                0
            } else {
                bus
            };
            // A role with several device IDs (the Skylake host bridge, one
            // per part) is plugged once, with its first.
            if fns[..k].iter().any(|g| g.role == f.role) {
                continue;
            }
            let (dev, func) = position(f);
            let at = PciLocation {
                vendor: pci::VENDOR_INTEL,
                device: f.device,
                domain: 0,
                bus,
                dev,
                func,
            };
            let (pkg, role) = decode(ctx, &map, at)?;
            ctx.registry.bind(pkg, role, None, None)?;
        }
        if pci::ubox_device(p).is_none() {
            break;
        }
    }
    Ok(())
}

/// The device and function number of simulated function `f`: the
/// table's, or 24.2 for a function the tables fix only by ID (IVB-EP QPI
/// port 2).
pub(super) fn position(f: &pci::PciFn) -> (u8, u8) {
    (f.dev.unwrap_or(24), f.func.unwrap_or(2))
}

/// The bus of package `pkg`'s simulated functions: the model's uncore bus
/// of the socket, or bus 0 on a client part (no U-box device).
pub(super) fn bus(ctx: &Ctx<Sim>, pkg: usize) -> u8 {
    if pci::ubox_device(ctx.platform.id).is_none() {
        return 0;
    }
    ctx.regs
        .inspect(|m| m.sockets.get(pkg).map_or(0, |s| s.bus))
}

/// Binds the simulated function `role` of package `pkg` again (the
/// simulation's `plug`), as a probe after load would; `broken`: a function
/// whose configuration-space writes fail (its box initialisation too)
/// until it is plugged again.
pub(crate) fn plug(ctx: &Ctx<Sim>, pkg: usize, role: Role, broken: bool) -> Result {
    let sim = &ctx.regs;
    // A newly bound device starts from its reset state: reset only when
    // the function is absent, in one step with the bind.
    ctx.registry.bind_with(pkg, role, None, None, || {
        match role {
            Role::Box { ty, index } => sim
                .change(pkg, |m| m.reset_box(pkg, ty, index))
                .map_err(|_| EINVAL)?,
            Role::QpiFilter { port } => sim
                .change(pkg, |m| m.reset_filter(pkg, port))
                .map_err(|_| EINVAL)?,
            Role::Ubox => {}
        }
        if let Some(e) = ctx.registry.entry(pkg, role) {
            e.broken.store(broken, Ordering::Release);
        }
        Ok(())
    })
}

/// Where the simulated function `role` of package `pkg` is (its first
/// device ID where the role has several), for the kernel log's lines.
pub(crate) fn location(ctx: &Ctx<Sim>, pkg: usize, role: Role) -> Result<PciLocation> {
    let f = pci::functions(ctx.platform.id)
        .iter()
        .find(|f| f.role == role)
        .ok_or(EINVAL)?;
    let (dev, func) = position(f);
    Ok(PciLocation {
        vendor: pci::VENDOR_INTEL,
        device: f.device,
        domain: 0,
        bus: bus(ctx, pkg),
        dev,
        func,
    })
}
