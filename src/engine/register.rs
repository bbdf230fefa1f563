// SPDX-License-Identifier: GPL-2.0

//! Which PMUs a platform gets, their names, and their registration with
//! their `format/` and `events/` files.

use super::backend::{At, Backend};
use super::pmu::UncorePmu;
use super::{is_msr, is_pci, Ctx, Pmu};
use crate::hw::desc::{BoxKind, BoxType, Format};
use crate::hw::pci::Role;
use crate::sys::cpu;
use crate::sys::perf::{Attr, Registration};
use kernel::prelude::*;
use kernel::str::CString;
use kernel::sync::Arc;

/// The number of boxes of each type the driver exposes, in the platform's
/// type order.
pub(super) fn box_counts<R: Backend>(ctx: &Ctx<R>) -> Result<KVec<usize>> {
    let mut v = KVec::with_capacity(ctx.platform.types.len(), GFP_KERNEL)?;
    for t in ctx.platform.types.iter() {
        v.push(box_count(ctx, t), GFP_KERNEL)?;
    }
    Ok(v)
}

/// The number of boxes of `t` the driver exposes.
fn box_count<R: Backend>(ctx: &Ctx<R>, t: &BoxType) -> usize {
    let n = t.num_boxes as usize;
    match (ctx.platform.global.reported_cboxes(), t.kind) {
        // A global block that reports the C-box count (Skylake's
        // MSR_UNC_CBO_CONFIG, 334060 §2.4.1). When it gives nothing usable
        // (0, or a read that faults, as under some hypervisors and
        // firmware), one C-box per core, as the Linux driver assumes; at
        // most what the MSR layout holds.
        (Some(r), BoxKind::Cbox) => {
            // Every package has the same count: this CPU's is read.
            let reported = cpu::without_irqs(|irq| ctx.rdmsr(irq.on_package(), r.msr))
                .ok()
                .and_then(r.decode);
            match reported {
                Some(v) => v.min(n),
                None => {
                    let k = (cpu::cores_per_package() as usize).clamp(1, n);
                    pr_info!(
                        "{} gives no C-box count; assuming one per core: {}\n",
                        r.name,
                        k
                    );
                    k
                }
            }
        }
        // One C-box per core on the EP and EX parts.
        (_, BoxKind::Cbox) => ctx
            .regs
            .cores_per_package()
            .map_or(n, |c| n.min(c as usize)),
        _ => n,
    }
}

/// The perf name of box `i` of `count` boxes of `t`: `uncore_<type>` for a
/// single box, `uncore_<type>_<i>` otherwise.
fn pmu_name(t: &BoxType, i: usize, count: usize) -> Result<CString> {
    if count == 1 && !t.always_indexed {
        CString::try_from_fmt(format_args!("uncore_{}", t.name()))
    } else {
        CString::try_from_fmt(format_args!("uncore_{}_{}", t.name(), i))
    }
}

/// Whether a PMU named `name` exists (e.g. the kernel's own C uncore
/// driver's), by its directory in sysfs.
fn name_taken(name: &CStr) -> Result<bool> {
    let name = name.to_str().map_err(|_| EINVAL)?;
    let path = CString::try_from_fmt(format_args!("/sys/bus/event_source/devices/{}", name))?;
    Ok(crate::sys::fs::exists(&path))
}

/// Refuses to load, with nothing registered, when a PMU name is taken.
pub(super) fn check_names_free<R: Backend>(ctx: &Ctx<R>, counts: &[usize]) -> Result {
    for (t, &count) in ctx.platform.types.iter().zip(counts) {
        for i in 0..count {
            let name = pmu_name(t, i, count)?;
            if name_taken(&name)? {
                pr_err!(
                    "PMU {} exists already, normally intel_uncore's: rmmod intel_uncore, or if it is built in, boot with initcall_blacklist=intel_uncore_init\n",
                    &*name
                );
                return Err(EBUSY);
            }
        }
    }
    Ok(())
}

/// Which boxes [`box_pmus`] registers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Boxes {
    /// Every MSR box.
    Msr,
    /// Every PCI or MMIO box present on some package, after initialising
    /// the box on each package that has it.
    Pci,
}

/// Registers a PMU for every box of `which`.
pub(super) fn box_pmus<R: Backend>(
    module: &'static ThisModule,
    ctx: &Arc<Ctx<R>>,
    counts: &[usize],
    pmus: &mut KVec<Pmu<R>>,
    which: Boxes,
) -> Result {
    for (t, &count) in ctx.platform.types.iter().zip(counts) {
        let pci = match which {
            Boxes::Msr if is_msr(t) => false,
            Boxes::Pci if is_pci(t) => true,
            _ => continue,
        };
        if ctx.regs.hides(t) {
            continue;
        }
        for i in 0..count {
            let role = Role::Box {
                ty: t.kind,
                index: i as u8,
            };
            let present = |pkg: &usize| ctx.registry.present(*pkg, role);
            if pci && !(0..ctx.packages).any(|pkg| present(&pkg)) {
                continue;
            }
            let name = pmu_name(t, i, count)?;
            let up = UncorePmu::new(ctx, t, i, &name)?;
            for pkg in (0..ctx.packages).filter(|pkg| pci && present(pkg)) {
                up.init_box(At::Any(pkg)).inspect_err(|e| {
                    pr_warn!("{}: box init on package {} failed: {:?}\n", &*name, pkg, e)
                })?;
            }
            pmus.push(register(module, &name, up, t, i)?, GFP_KERNEL)?;
        }
    }
    Ok(())
}

/// Registers `up` as `name`, with its `format/` and `events/` files.
fn register<R: Backend>(
    module: &'static ThisModule,
    name: &CStr,
    up: UncorePmu<R>,
    t: &'static BoxType,
    i: usize,
) -> Result<Pmu<R>> {
    let platform = up.platform();
    // The format strings ("config:0-7\n").
    let mut texts = KVec::with_capacity(t.formats.len(), GFP_KERNEL)?;
    for f in t.formats {
        texts.push(FormatLine(f), GFP_KERNEL)?;
    }
    let mut formats = KVec::with_capacity(t.formats.len(), GFP_KERNEL)?;
    for (f, text) in t.formats.iter().zip(texts.iter()) {
        formats.push(
            Attr {
                name: f.name,
                value: text,
            },
            GFP_KERNEL,
        )?;
    }
    // Aliases: the box's catalog (the Linux driver's first), less the
    // fixed-counter ones where the box has no fixed counter. Their terms
    // are written out from the packed catalog when the files are made.
    // A plain loop rather than `count()`: the fold that `count()` builds over
    // this iterator gets a symbol name longer than objtool accepts.
    let all = || crate::hw::catalog::instance_aliases(platform, t, i);
    let mut n = 0usize;
    for _ in all() {
        n = n.saturating_add(1);
    }
    let mut aliases = KVec::with_capacity(n, GFP_KERNEL)?;
    for a in all() {
        aliases.push(a, GFP_KERNEL)?;
    }
    let mut names = KVec::new();
    for a in aliases.iter() {
        for (suffix, v) in [(".scale", a.scale), (".unit", a.unit)] {
            if v.is_some() {
                names.push(
                    CString::try_from_fmt(format_args!("{}{}", a.name, suffix))?,
                    GFP_KERNEL,
                )?;
            }
        }
    }
    let mut events = KVec::with_capacity(aliases.len() + names.len(), GFP_KERNEL)?;
    for a in aliases.iter() {
        events.push(
            Attr {
                name: a.name,
                value: &a.terms,
            },
            GFP_KERNEL,
        )?;
    }
    // Then the .scale/.unit files, whose names are in `names`, in order.
    let mut k = 0;
    for a in aliases.iter() {
        for v in [&a.scale, &a.unit].into_iter().flatten() {
            let name = names.get(k).ok_or(EINVAL)?.to_str().map_err(|_| EINVAL)?;
            events.push(Attr { name, value: v }, GFP_KERNEL)?;
            k += 1;
        }
    }
    KBox::pin_init(
        Registration::new(module, name, up, &formats, &events),
        GFP_KERNEL,
    )
    .inspect_err(|e| pr_err!("registering {} failed: {:?}\n", name, e))
}

/// The text of a `format/` file: the field's bits and a newline
/// (`config:0-7\n`).
struct FormatLine(&'static Format);

impl core::fmt::Display for FormatLine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        writeln!(f, "{}", self.0)
    }
}
