// SPDX-License-Identifier: GPL-2.0

//! Where the driver's register accesses go: the hardware, or the register
//! model of the simulated platform (`sim=`).
//!
//! On hardware every MSR access is local: the engine only touches a
//! package's MSRs from a CPU of that package (the collector, the CPU being
//! hotplugged, or a CPU of the package reading its events). PCI
//! configuration space and MMIO go to the functions the PCI driver bound,
//! looked up in the registry; the simulation checks the same registry for
//! presence and then reads the model.

use super::Ctx;
use crate::hw::counter::read_split;
use crate::hw::desc::BoxType;
use crate::hw::model::Model;
use crate::hw::pci::Role;
use crate::hw::program::{self, Addr, Ctr, Op, Ops, OverflowBit};
use crate::sys::{msr, sync::IrqLock};
use kernel::prelude::*;

/// The register backend.
pub(crate) enum Backend {
    /// Real MSRs, PCI configuration space and MMIO.
    Hw,
    /// The register model, one socket per package.
    Sim(Pin<KBox<IrqLock<KVBox<Model>>>>),
}

impl Ctx {
    /// Reads MSR `msr` of package `pkg`.
    pub(crate) fn rdmsr(&self, pkg: usize, msr: u32) -> Result<u64> {
        match &self.backend {
            Backend::Hw => msr::read(msr),
            Backend::Sim(m) => m.lock().rdmsr(pkg, msr).map_err(|_| EIO),
        }
    }

    /// Writes MSR `msr` of package `pkg`.
    pub(crate) fn wrmsr(&self, pkg: usize, msr: u32, v: u64) -> Result {
        match &self.backend {
            Backend::Hw => msr::write(msr, v),
            Backend::Sim(m) => m.lock().wrmsr(pkg, msr, v).map_err(|_| EIO),
        }
    }

    /// Whether PCI function `role` of package `pkg` is present.
    pub(crate) fn pci_present(&self, pkg: usize, role: Role) -> bool {
        self.pci
            .lock()
            .iter()
            .any(|e| e.present && e.pkg == pkg && e.role == role)
    }

    fn cfg_read(&self, pkg: usize, role: Role, off: u32) -> Result<u32> {
        let reg = self.pci.lock();
        let e = reg
            .iter()
            .find(|e| e.present && e.pkg == pkg && e.role == role)
            .ok_or(ENODEV)?;
        match (&self.backend, &e.dev) {
            (Backend::Hw, Some(d)) => d.read_config_u32(off),
            (Backend::Sim(m), _) => m.lock().cfg_read(pkg, role, off).map_err(|_| EIO),
            _ => Err(ENODEV),
        }
    }

    fn cfg_write(&self, pkg: usize, role: Role, off: u32, v: u32) -> Result {
        let reg = self.pci.lock();
        let e = reg
            .iter()
            .find(|e| e.present && e.pkg == pkg && e.role == role)
            .ok_or(ENODEV)?;
        match (&self.backend, &e.dev) {
            (Backend::Hw, Some(d)) => d.write_config_u32(off, v),
            (Backend::Sim(m), _) => m.lock().cfg_write(pkg, role, off, v).map_err(|_| EIO),
            _ => Err(ENODEV),
        }
    }

    fn mmio_read(&self, pkg: usize, t: &BoxType, i: usize, off: u32) -> Result<u32> {
        let role = Role::Box {
            ty: t.name,
            index: i as u8,
        };
        let reg = self.pci.lock();
        let e = reg
            .iter()
            .find(|e| e.present && e.pkg == pkg && e.role == role)
            .ok_or(ENODEV)?;
        match (&self.backend, &e.mmio) {
            (Backend::Hw, Some(w)) => w.read32(off),
            (Backend::Sim(m), _) => m.lock().mmio_read(pkg, off).map_err(|_| EIO),
            _ => Err(ENODEV),
        }
    }

    /// Reads counter `c` of box `i` of type `t` on package `pkg` with its
    /// overflow status bit `ob`, clearing the bit if it was set. On hardware
    /// the status is read before and after the counter, and the pair is
    /// retried when a wrap falls between the reads.
    pub(crate) fn read_with_overflow(
        &self,
        pkg: usize,
        t: &BoxType,
        i: usize,
        c: Ctr,
        ob: OverflowBit,
    ) -> Result<(u64, bool)> {
        let r = program::counter_reg(t, i, c);
        let Addr::Msr(ctr) = r.addr else {
            return Err(EINVAL);
        };
        let mask = crate::hw::bits::low_mask(r.width);
        if let Backend::Sim(m) = &self.backend {
            let (v, ovf) = m
                .lock()
                .read_with_overflow(pkg, ctr, ob.status, ob.clear, ob.bit)
                .map_err(|_| EIO)?;
            return Ok((v & mask, ovf));
        }
        for _ in 0..3 {
            let s1 = self.rdmsr(pkg, ob.status)? & ob.bit != 0;
            let v = self.rdmsr(pkg, ctr)? & mask;
            let s2 = self.rdmsr(pkg, ob.status)? & ob.bit != 0;
            if s1 == s2 {
                if s1 {
                    self.wrmsr(pkg, ob.clear, ob.bit)?;
                }
                return Ok((v, s1));
            }
        }
        Err(EAGAIN)
    }

    /// Executes `ops` for box `i` of type `t` on package `pkg`; stops at the
    /// first failing access.
    pub(crate) fn exec(&self, pkg: usize, t: &BoxType, i: usize, ops: &Ops) -> Result {
        let role = Role::Box {
            ty: t.name,
            index: i as u8,
        };
        for op in ops.as_slice() {
            match *op {
                Op::Write(Addr::Msr(a), v) => self.wrmsr(pkg, a, v)?,
                Op::Write(Addr::Cfg(off), v) => self.cfg_write(pkg, role, off, v as u32)?,
                Op::Write(Addr::Helper(off), v) => {
                    self.cfg_write(pkg, Role::QpiFilter { port: i as u8 }, off, v as u32)?
                }
                Op::Write(Addr::Mmio(_), _) => return Err(EINVAL),
                Op::WriteControlHalf(a, ctl) => {
                    let old = self.rdmsr(pkg, a)?;
                    self.wrmsr(pkg, a, (ctl & !0xffff_ffff) | (old & 0xffff_ffff))?;
                }
            }
        }
        Ok(())
    }

    /// Reads counter `c` of box `i` of type `t` on package `pkg`, masked to
    /// its width.
    pub(crate) fn read_counter(&self, pkg: usize, t: &BoxType, i: usize, c: Ctr) -> Result<u64> {
        let r = program::counter_reg(t, i, c);
        let role = Role::Box {
            ty: t.name,
            index: i as u8,
        };
        let v = match r.addr {
            Addr::Msr(a) => self.rdmsr(pkg, a)?,
            Addr::Cfg(off) => read_split(
                || self.cfg_read(pkg, role, off),
                || self.cfg_read(pkg, role, off + 4),
            )?,
            Addr::Mmio(off) => self.mmio_read(pkg, t, i, off)? as u64,
            Addr::Helper(_) => return Err(EINVAL),
        };
        Ok(v & crate::hw::bits::low_mask(r.width))
    }
}
