// SPDX-License-Identifier: GPL-2.0

//! The hardware backend of `rust_uncore.ko`: real MSRs, PCI configuration
//! space and MMIO, the boot CPU's platform, and the PCI driver that finds
//! the PCI and MMIO boxes.

mod pci;

use super::backend::{At, Backend, Counter};
use super::pcibox::PciEntry;
use super::{Core, Ctx};
use crate::hw::counter::read_split;
use crate::hw::desc::{BoxType, Platform};
use crate::hw::platforms;
use crate::hw::program::{Addr, CfgReg, CounterReg, Msr};
use crate::sys::cpu::{InNmi, OnPackage};
use crate::sys::{cpu, msr, nmi, rcu};
use kernel::c_str;
use kernel::prelude::*;
use kernel::sync::Arc;
use pci::PciHandler;

/// The hardware.
pub(crate) struct Hardware;

/// The registered PCI driver, if the platform has PCI or MMIO boxes and
/// the PCI driver could be set up.
type PciDriver = Option<Pin<KBox<crate::sys::pci::Registration<PciHandler<Hardware>>>>>;

impl Backend for Hardware {
    type Functions = PciDriver;
    type Extras = ();

    fn open(_packages: usize) -> Result<(&'static Platform, Self)> {
        Ok((detect()?, Hardware))
    }

    fn find_functions(module: &'static ThisModule, ctx: &Arc<Ctx<Self>>) -> Result<PciDriver> {
        match PciHandler::new(ctx.clone()) {
            Ok(h) => Ok(Some(KBox::pin_init(
                crate::sys::pci::Registration::new(
                    module,
                    c_str!("rust_uncore"),
                    &crate::glue::PCI_IDS,
                    h,
                ),
                GFP_KERNEL,
            )?)),
            Err(e) => {
                // One line: the MSR PMUs are registered without them.
                pr_warn!("no PCI uncore PMUs: {}\n", format_args!("{}", e));
                Ok(None)
            }
        }
    }

    fn attach(
        _module: &'static ThisModule,
        pci: Option<&PciDriver>,
        core: &Arc<Core<Self>>,
    ) -> Result {
        if let Some(Some(d)) = pci {
            d.ops().set_core(core.clone());
        }
        Ok(())
    }

    fn detach(pci: &PciDriver) {
        if let Some(d) = pci {
            drop(d.ops().take_core());
        }
    }

    fn rdmsr(&self, _on: OnPackage<'_>, msr: Msr) -> Result<u64> {
        // The proof: this CPU's MSR is one of the package's.
        msr::read(msr)
    }

    fn wrmsr(&self, _on: OnPackage<'_>, msr: Msr, v: u64) -> Result {
        msr::write(msr, v)
    }

    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result {
        if !e.is_present() {
            return Err(ENODEV);
        }
        cpu::without_irqs(|irq| {
            let g = rcu::read_lock(irq);
            e.device(&g).ok_or(ENODEV)?.write_config_u32(off, v)
        })
    }

    #[inline(always)]
    fn read_counter(&self, ctx: &Ctx<Self>, at: At<'_>, k: &Counter<'_>) -> Result<u64> {
        match k.r.addr {
            // The proof: this CPU's MSR is one of the package's.
            Addr::Msr(a) => {
                at.on()?;
                // A counter of the detected part, on the read path.
                Ok(msr::read_or_zero(a))
            }
            addr => Self::read_device(ctx, at.package(), k.t, k.i, addr),
        }
    }

    #[inline(always)]
    fn read_plain(&self, at: At<'_>, r: &CounterReg) -> Option<u64> {
        // An MSR counter read on the package, with no erratum to correct.
        match (r.addr, at, r.corrected) {
            (Addr::Msr(a), At::Cpu(_), false) => Some(msr::read_or_zero(a)),
            _ => None,
        }
    }

    fn pmi_pending(&self, ctx: &Ctx<Self>, _nmi: &InNmi) -> bool {
        // A local MSR read is fine in NMI context.
        ctx.platform
            .global
            .pmi_status()
            .is_some_and(|(m, bit)| msr::read(m).is_ok_and(|st| st & bit != 0))
    }

    /// The status register, as [`Backend::pmi_pending`] reads it: reading
    /// takes nothing.
    fn pmi_seen(&self, ctx: &Ctx<Self>, nmi: &InNmi) -> bool {
        self.pmi_pending(ctx, nmi)
    }

    fn rearm_pmi(&self, nmi: &InNmi) {
        nmi::rearm_pmi(nmi);
    }

    fn cores_per_package(&self) -> Option<u32> {
        Some(cpu::cores_per_package())
    }

    fn config_dword(&self, device: u16, offset: u32) -> Option<u32> {
        crate::sys::pci::devices(crate::hw::pci::VENDOR_INTEL, device)
            .next()?
            .read_config_u32(offset)
            .ok()
    }
}

impl Hardware {
    /// [`Backend::read_counter`] of a configuration-space or MMIO counter
    /// (`addr`) of box `i` of type `t` on package `pkg`.
    #[cold]
    #[inline(never)]
    fn read_device(ctx: &Ctx<Self>, pkg: usize, t: &BoxType, i: usize, addr: Addr) -> Result<u64> {
        match addr {
            Addr::Cfg(off) => {
                // Configuration space takes the PCI core's lock: never
                // from NMI context.
                if cpu::in_nmi() {
                    return Err(EAGAIN);
                }
                let e = ctx.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                if !e.is_present() {
                    return Err(ENODEV);
                }
                // One read-side section for the dwords of the read.
                cpu::without_irqs(|irq| {
                    let g = rcu::read_lock(irq);
                    let d = e.device(&g).ok_or(ENODEV)?;
                    read_split(
                        || d.read_config_u32(off.offset()),
                        || d.read_config_u32(off.offset() + 4),
                    )
                })
            }
            Addr::Mmio(off) => {
                let e = ctx.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                cpu::without_irqs(|irq| {
                    let g = rcu::read_lock(irq);
                    if !e.is_present() {
                        return Err(ENODEV);
                    }
                    Ok(u64::from(e.mmio(&g).ok_or(ENODEV)?.read32(off)?))
                })
            }
            Addr::Msr(_) | Addr::Helper(_) => Err(EINVAL),
        }
    }
}

/// Picks the platform of the boot CPU, or refuses with `ENODEV`.
fn detect() -> Result<&'static Platform> {
    let id = cpu::boot_cpu();
    if !id.intel {
        pr_info!("not an Intel CPU; no uncore PMUs\n");
        return Err(ENODEV);
    }
    if id.hypervisor {
        pr_info!("running under a hypervisor, which does not expose the uncore; no uncore PMUs\n");
        return Err(ENODEV);
    }
    platforms::for_cpu(id.family, id.model).ok_or_else(|| {
        pr_info!(
            "CPU family {:#x} model {:#x} is not one of this module's platforms (the kernel's intel_uncore may support it); no uncore PMUs\n",
            id.family,
            id.model
        );
        ENODEV
    })
}
