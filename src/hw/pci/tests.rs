// SPDX-License-Identifier: GPL-2.0

//! Tests of PCI decoding and the bus to socket map.

use super::*;
use crate::hw::platforms::{by_id, BOUND_COUNT, BOUND_IDS};

#[test]
fn every_listed_device_decodes_to_a_box_of_its_platform() {
    for p in [
        PlatformId::SANDY_BRIDGE_EP,
        PlatformId::IVY_BRIDGE_EP,
        PlatformId::HASWELL_EP,
        PlatformId::BROADWELL_X,
        PlatformId::BROADWELL_DE,
    ] {
        for f in functions(p) {
            let dev = f.dev.unwrap_or(24);
            let func = f.func.unwrap_or(2);
            let role = decode(p, VENDOR_INTEL, f.device, dev, func).unwrap();
            if let Role::Box { ty, index } = role {
                let (_, t) = by_id(p).type_of(ty).unwrap();
                assert!(index < t.num_boxes, "{:?} {:?}", p, ty);
            }
        }
    }
}

#[test]
fn snbep_devices_at_table_1_3_positions() {
    let p = PlatformId::SANDY_BRIDGE_EP;
    assert_eq!(
        decode(p, 0x8086, 0x3c46, 14, 1),
        Ok(Role::Box {
            ty: BoxKind::Ha,
            index: 0
        })
    );
    assert_eq!(
        decode(p, 0x8086, 0x3cb4, 16, 4),
        Ok(Role::Box {
            ty: BoxKind::Imc,
            index: 2
        })
    );
    assert_eq!(
        decode(p, 0x8086, 0x3c96, 9, 6),
        Ok(Role::QpiFilter { port: 1 })
    );
    assert_eq!(
        decode(p, 0x8086, 0x3c45, 19, 6),
        Ok(Role::Box {
            ty: BoxKind::R3qpi,
            index: 1
        })
    );
    assert_eq!(
        decode(p, 0x8086, 0x3c46, 14, 2),
        Err(PciError::UnexpectedPosition)
    );
    assert_eq!(
        decode(p, 0x8086, 0x3c47, 14, 1),
        Err(PciError::UnknownDevice)
    );
    assert_eq!(
        decode(p, 0x1022, 0x3c46, 14, 1),
        Err(PciError::UnknownDevice)
    );
    // IVB-EP IDs are not SNB-EP devices.
    assert_eq!(
        decode(p, 0x8086, 0x0e30, 14, 1),
        Err(PciError::UnknownDevice)
    );
}

#[test]
fn ivbep_third_links() {
    let p = PlatformId::IVY_BRIDGE_EP;
    assert_eq!(
        decode(p, 0x8086, 0x0e3e, 18, 5),
        Ok(Role::Box {
            ty: BoxKind::R3qpi,
            index: 2
        })
    );
    assert_eq!(
        decode(p, 0x8086, 0x0e3a, 24, 2),
        Ok(Role::Box {
            ty: BoxKind::Qpi,
            index: 2
        })
    );
    assert_eq!(qpi_filter_device(p, 2), None);
    assert_eq!(qpi_filter_device(p, 1), Some(0x0e96));
}

/// A GIDNIDMAP listing `nodes[i]` for socket `i` (unused entries repeat
/// nothing: they get node IDs no U-box has).
fn gidnidmap(nodes: &[u8]) -> u32 {
    let mut m = 0u32;
    for i in 0..8 {
        // Unused entries get node IDs counting down from 7.
        let n = match nodes.get(i) {
            Some(&n) => n,
            None => 7 - (i - nodes.len()) as u8,
        };
        m |= (u32::from(n) & 7) << (3 * i);
    }
    m
}

fn ubox(bus: u8, node: u8, nodes: &[u8]) -> UboxRegs {
    UboxRegs {
        bus,
        nodeid: u32::from(node),
        gidnidmap: gidnidmap(nodes),
    }
}

#[test]
fn one_socket() {
    let mut map = [None; 256];
    bus_to_socket(&[ubox(0xff, 0, &[0])], &mut map).unwrap();
    assert!(map.iter().all(|&s| s == Some(0)));
}

#[test]
fn two_sockets_usual_numbering() {
    // Socket 0 owns buses 0x00-0x7f (uncore bus 0x7f), socket 1 0x80-0xff.
    let nodes = [0, 1];
    let mut map = [None; 256];
    bus_to_socket(&[ubox(0x7f, 0, &nodes), ubox(0xff, 1, &nodes)], &mut map).unwrap();
    assert_eq!(map[0x00], Some(0));
    assert_eq!(map[0x7f], Some(0));
    assert_eq!(map[0x80], Some(1));
    assert_eq!(map[0xff], Some(1));
}

#[test]
fn four_sockets_reversed_node_ids() {
    // Node IDs assigned in reverse: socket i has node 3 - i.
    let nodes = [3, 2, 1, 0];
    let uboxes = [
        ubox(0x3f, 3, &nodes),
        ubox(0x7f, 2, &nodes),
        ubox(0xbf, 1, &nodes),
        ubox(0xff, 0, &nodes),
    ];
    let mut map = [None; 256];
    bus_to_socket(&uboxes, &mut map).unwrap();
    assert_eq!(map[0x10], Some(0));
    assert_eq!(map[0x40], Some(1));
    assert_eq!(map[0xbf], Some(2));
    assert_eq!(map[0xc0], Some(3));
}

#[test]
fn four_sockets_reversed_bus_order() {
    // Socket 0's uncore bus is the highest.
    let nodes = [0, 1, 2, 3];
    let uboxes = [
        ubox(0xff, 0, &nodes),
        ubox(0xbf, 1, &nodes),
        ubox(0x7f, 2, &nodes),
        ubox(0x3f, 3, &nodes),
    ];
    let mut map = [None; 256];
    bus_to_socket(&uboxes, &mut map).unwrap();
    assert_eq!(map[0x00], Some(3));
    assert_eq!(map[0x3f], Some(3));
    assert_eq!(map[0x40], Some(2));
    assert_eq!(map[0xc0], Some(0));
}

#[test]
fn eight_sockets_sparse_buses() {
    let nodes = [5, 2, 7, 0, 1, 6, 3, 4];
    let buses = [0x1f, 0x2f, 0x5f, 0x6f, 0x9f, 0xaf, 0xdf, 0xef];
    let uboxes: std::vec::Vec<UboxRegs> = buses
        .iter()
        .zip(nodes)
        .map(|(&b, n)| ubox(b, n, &nodes))
        .collect();
    let mut map = [None; 256];
    bus_to_socket(&uboxes, &mut map).unwrap();
    for (i, &b) in buses.iter().enumerate() {
        assert_eq!(map[b as usize], Some(i as u8), "bus {:#x}", b);
    }
    assert_eq!(
        map[0x20],
        Some(1),
        "bus without a U-box takes the next U-box above"
    );
    assert_eq!(map[0xf0], None, "no U-box above");
}

#[test]
fn inconsistent_maps_are_errors() {
    let mut map = [None; 256];
    assert_eq!(bus_to_socket(&[], &mut map), Err(MapError::NoUbox));
    // Node 5 is in no entry (all entries 0..3 plus fillers 7,6,5,4: make it absent).
    let bad = UboxRegs {
        bus: 0x7f,
        nodeid: 5,
        gidnidmap: 0o00000000,
    };
    assert_eq!(
        bus_to_socket(&[bad], &mut map),
        Err(MapError::NodeNotInMap { bus: 0x7f })
    );
    let nodes = [0, 1];
    assert_eq!(
        bus_to_socket(&[ubox(0x7f, 1, &nodes), ubox(0xff, 1, &nodes)], &mut map),
        Err(MapError::DuplicateSocket { socket: 1 })
    );
    assert_eq!(
        bus_to_socket(&[ubox(0x7f, 0, &[0, 1]), ubox(0xff, 1, &[1, 0])], &mut map),
        Err(MapError::MapsDisagree)
    );
}

#[test]
fn mchbar_decoding() {
    assert_eq!(mchbar_base(0xfed1_0001, 0), Some(0xfed1_0000));
    assert_eq!(mchbar_base(0xfed1_0000, 0), None, "disabled");
    assert_eq!(mchbar_base(0xfed1_7fff, 0x1), Some(0x1_fed1_0000));
}

#[test]
fn mchbar_window_holds_every_imc_counter() {
    use crate::hw::program::{counter_reg, Addr, Ctr};
    let w = by_id(PlatformId::SKYLAKE).mmio_window.unwrap();
    assert_eq!((w.name(), w.holds()), ("MCHBAR", "IMC"));
    assert_eq!(w.offset(), MCHBAR);
    assert_eq!(w.base(0xfed1_0001, 0), mchbar_base(0xfed1_0001, 0));
    assert_eq!(w.base(0xfed1_0000, 0), None, "disabled");
    let t = by_id(PlatformId::SKYLAKE).box_type("imc").unwrap();
    let mut n = 0;
    for j in 0..t.num_counters {
        if let Addr::Mmio(off) = counter_reg(t, 0, Ctr::Free(j)).addr {
            assert!(
                off % 4 == 0 && off + 8 <= w.size(),
                "counter {j} at {off:#x}"
            );
            n += 1;
        }
    }
    assert!(
        n >= 2,
        "the IMC's free-running counters are in the window ({n})"
    );
}

#[test]
fn skl_host_bridges_are_the_imc() {
    let p = PlatformId::SKYLAKE;
    assert_eq!(
        decode(p, 0x8086, 0x1904, 0, 0),
        Ok(Role::Box {
            ty: BoxKind::Imc,
            index: 0
        })
    );
    assert_eq!(
        decode(p, 0x8086, 0x1904, 2, 0),
        Err(PciError::UnexpectedPosition)
    );
    assert_eq!(ubox_device(p), None);
    assert_eq!(ubox_device(PlatformId::SANDY_BRIDGE_EP), Some(0x3ce0));
}

/// The driver's PCI ID table (and so the module's aliases) lists exactly
/// the functions of these tables that the driver binds, all but the U-box
/// devices, each once; its CPU table exactly the platforms' CPUs.
#[test]
fn device_tables_match() {
    use std::collections::BTreeSet;
    let mut want = BTreeSet::new();
    for p in [
        PlatformId::SANDY_BRIDGE_EP,
        PlatformId::IVY_BRIDGE_EP,
        PlatformId::SKYLAKE,
        PlatformId::HASWELL_EP,
        PlatformId::BROADWELL_X,
        PlatformId::BROADWELL_DE,
    ] {
        for f in functions(p).iter().filter(|f| f.role != Role::Ubox) {
            want.insert(f.device);
        }
    }
    let got: BTreeSet<u16> = BOUND_IDS.iter().copied().collect();
    assert_eq!(got, want);
    assert_eq!(BOUND_IDS.len(), want.len());
    // 32 SNB-EP/IVB-EP functions, the 42 host bridges of the Skylake
    // family (Skylake to Comet Lake; the Linux driver's IMC_DEV list has 44
    // entries, two IDs twice), 20 Haswell-EP functions and 21 Broadwell-EP
    // ones (Broadwell-DE's 12 among them, listed once).
    assert_eq!(BOUND_COUNT, 115);
    assert_eq!(functions(PlatformId::SKYLAKE).len(), 42);
    let want: BTreeSet<(u32, u32)> = crate::hw::platforms::ALL
        .iter()
        .flat_map(|p| p.cpus.iter().copied())
        .collect();
    let got: BTreeSet<(u32, u32)> = crate::hw::platforms::CPUS.iter().copied().collect();
    assert_eq!(got, want);
    assert_eq!(crate::hw::platforms::CPUS.len(), want.len());
}

#[test]
fn kernel_log_names() {
    // The kernel log names boxes and map errors in words, not in Rust's
    // `Debug` form ("Box { ty: Imc, index: 2 }", "NoUbox").
    use std::format;
    let imc = Role::Box {
        ty: crate::hw::desc::BoxKind::Imc,
        index: 2,
    };
    assert_eq!(format!("{imc}"), "imc box 2");
    // A box by its PMU's name, as perf lists it.
    let snbep = by_id(PlatformId::SANDY_BRIDGE_EP);
    assert_eq!(format!("{}", imc.log_name(snbep)), "uncore_imc_2");
    let ha = Role::Box {
        ty: crate::hw::desc::BoxKind::Ha,
        index: 0,
    };
    assert_eq!(format!("{}", ha.log_name(snbep)), "uncore_ha");
    assert_eq!(
        format!("{}", Role::QpiFilter { port: 1 }.log_name(snbep)),
        "QPI port 1's match/mask device"
    );
    assert_eq!(
        format!("{}", Role::QpiFilter { port: 1 }),
        "QPI port 1's match/mask device"
    );
    assert_eq!(format!("{}", MapError::NoUbox), "no U-box device");
    assert_eq!(
        format!("{}", MapError::NodeNotInMap { bus: 0x3f }),
        "the U-box on bus 0x3f has a node ID its GIDNIDMAP does not list"
    );
}
