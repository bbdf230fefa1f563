// SPDX-License-Identifier: GPL-2.0

//! The register addresses and PCI device IDs the documentation names,
//! checked against the platform tables: an MSR address written in
//! `Documentation/*.rst` or `README.md` must be one a platform's register
//! model has (the model is built from the tables, so it has exactly the
//! registers the driver may touch), and a PCI device ID one of a
//! platform's PCI functions. A wrong address in the docs describes a write
//! the driver does not make, or worse, one it must never make.
//!
//! What counts as an MSR address: a hex number of three to five digits,
//! without a leading zero, in the uncore MSR ranges (0x390-0x3ff,
//! 0x700-0x7ff, 0xc00-0xfff, and the Xeon 7100/7400 L3 EMON block
//! 0x10700-0x107ff), unless it is a bit mask of the table of
//! deliberate differences (after its rule word). What counts as a device
//! ID: a four-digit hex number after `8086:`; one that begins a row of a
//! device table (a device and function follow it); and any four-digit hex
//! number in a block of IDs the tables use (the same high byte as one of
//! their device IDs: 0x0exx, 0x19xx, 0x3cxx, ...), where no other value of
//! the documents lies. Other hex numbers (event codes, masks, field
//! values, configuration and MCHBAR offsets) are neither.
//!
//! The allow-list, `NOT_TOUCHED`: MSR addresses a document may name as
//! ones the driver does not touch, each only in a paragraph that says so
//! in those words.

use super::model::Model;
use super::platforms::ALL;
use std::fs;
use std::path::Path;
use std::string::String;
use std::vec::Vec;

/// A hex number of a document: its value, its digits, whether it has a
/// leading zero, the words before and after it on its line (empty at the
/// line's start or end) and its line number.
struct Hex<'a> {
    value: u32,
    digits: usize,
    leading_zero: bool,
    before: &'a str,
    after: &'a str,
    line: usize,
}

/// Every hex number of `text`.
fn hex_numbers(text: &str) -> Vec<Hex<'_>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let b = line.as_bytes();
        let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let mut i = 0;
        while i + 2 < b.len() {
            let start = i == 0 || !word(b[i - 1]);
            if start && b[i] == b'0' && (b[i + 1] == b'x' || b[i + 1] == b'X') {
                let d = i + 2;
                let mut e = d;
                while e < b.len() && b[e].is_ascii_hexdigit() {
                    e += 1;
                }
                if e > d && (e >= b.len() || !word(b[e])) {
                    if let Ok(value) = u32::from_str_radix(&line[d..e], 16) {
                        out.push(Hex {
                            value,
                            digits: e - d,
                            leading_zero: b[d] == b'0',
                            before: line[..i].split_whitespace().last().unwrap_or(""),
                            after: line[e..].split_whitespace().next().unwrap_or(""),
                            line: n + 1,
                        });
                    }
                }
                i = e;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// MSRs the documents name as ones the driver does not touch, with the
/// words their paragraph must have: the Coffee Lake HWP MSRs where the
/// C-box stride would put an eighth C-box (platforms.rst).
const NOT_TOUCHED: &[(u32, &str)] = &[(0x770, "does not touch"), (0x776, "does not touch")];

/// The paragraph (lines up to the blank lines around it) of line `line`
/// (1-based) of `text`, its lines joined with spaces.
fn paragraph(text: &str, line: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = line - 1;
    let mut first = at;
    while first > 0 && !lines[first - 1].trim().is_empty() {
        first -= 1;
    }
    let mut last = at;
    while last + 1 < lines.len() && !lines[last + 1].trim().is_empty() {
        last += 1;
    }
    lines[first..=last].join(" ")
}

/// Whether the documents may name MSR `msr` at line `line` of `text`: it
/// is on the `NOT_TOUCHED` list, and its paragraph says so.
fn allowed(text: &str, msr: u32, line: usize) -> bool {
    NOT_TOUCHED
        .iter()
        .any(|&(a, words)| a == msr && paragraph(text, line).contains(words))
}

/// The rules of the table of deliberate differences from the C driver's
/// writes (platforms.rst): the number after one is a bit mask.
const RULES: &[&str] = &["ignore", "off", "subset", "load", "value"];

/// Whether `after` is a PCI device and function (`0e.1`) or `(any)`: the
/// second column of a device table.
fn dev_fn(after: &str) -> bool {
    let b = after.as_bytes();
    after == "(any)"
        || (b.len() == 4
            && b[2] == b'.'
            && b[..2].iter().all(u8::is_ascii_hexdigit)
            && b[3].is_ascii_digit())
}

fn in_msr_ranges(v: u32) -> bool {
    matches!(v, 0x390..=0x3ff | 0x700..=0x7ff | 0xc00..=0xfff | 0x10700..=0x107ff)
}

/// Whether some platform's model has MSR `msr` (a model has the registers
/// of every box its platform's tables declare: Skylake's all eight
/// C-boxes, whatever C-box count it reports).
fn modelled(models: &[Model], msr: u32) -> bool {
    models.iter().any(|m| m.rdmsr(0, msr).is_ok())
}

/// The documents: `Documentation/*.rst` and `README.md`, by name.
fn docs() -> Vec<(String, String)> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = top.join("Documentation");
    let readme = fs::read_to_string(top.join("README.md")).expect("README.md");
    let mut out = std::vec![(String::from("README.md"), readme)];
    for e in fs::read_dir(&dir).expect("Documentation/") {
        let p = e.expect("a directory entry").path();
        if p.extension().is_some_and(|x| x == "rst") {
            let text = fs::read_to_string(&p).expect("a readable document");
            out.push((p.file_name().unwrap().to_string_lossy().into_owned(), text));
        }
    }
    out.sort();
    out
}

#[test]
fn documented_msr_addresses_are_the_tables() {
    let models: Vec<Model> = ALL.iter().map(|p| Model::new(p.id, 1)).collect();
    let mut bad = Vec::new();
    let mut seen = 0;
    for (name, text) in docs() {
        for h in hex_numbers(&text) {
            let v = h.value;
            if h.leading_zero
                || !(3..=5).contains(&h.digits)
                || !in_msr_ranges(v)
                || RULES.contains(&h.before)
            {
                continue;
            }
            seen += 1;
            if !modelled(&models, v) && !allowed(&text, v, h.line) {
                bad.push(std::format!("{name}:{}: {v:#x}", h.line));
            }
        }
    }
    assert!(seen > 100, "the docs' MSR addresses were found ({seen})");
    assert!(bad.is_empty(), "MSR addresses no platform has: {bad:?}");
}

/// Every device ID of the platforms' PCI functions, and of the functions
/// a platform reads a box count from (Haswell-EP's PCU).
fn device_ids() -> Vec<u32> {
    ALL.iter()
        .flat_map(|p| super::pci::functions(p.id).iter())
        .map(|f| u32::from(f.device))
        .chain(
            ALL.iter()
                .filter_map(|p| p.global.device_count())
                .map(|d| u32::from(d.device)),
        )
        .collect()
}

/// The device IDs `8086:xxxx` of `text`, with their line numbers.
fn vendor_device_ids(text: &str) -> Vec<(u32, usize)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for (i, _) in line.match_indices("8086:") {
            let id = line.get(i + 5..i + 9).unwrap_or("");
            let end = line.as_bytes().get(i + 9);
            if id.len() == 4 && !end.is_some_and(u8::is_ascii_alphanumeric) {
                if let Ok(v) = u32::from_str_radix(id, 16) {
                    out.push((v, n + 1));
                }
            }
        }
    }
    out
}

#[test]
fn documented_pci_ids_are_the_tables() {
    let ids = device_ids();
    let blocks: Vec<u32> = ids.iter().map(|id| id >> 8).collect();
    let mut bad = Vec::new();
    let mut seen = 0;
    for (name, text) in docs() {
        let mut found: Vec<(u32, usize)> = vendor_device_ids(&text);
        for h in hex_numbers(&text) {
            let row = h.before.is_empty() && dev_fn(h.after);
            if h.digits == 4 && (row || blocks.contains(&(h.value >> 8))) {
                found.push((h.value, h.line));
            }
        }
        for (value, line) in found {
            seen += 1;
            if !ids.contains(&value) {
                bad.push(std::format!("{name}:{line}: {value:#06x}"));
            }
        }
    }
    assert!(seen > 60, "the docs' device IDs were found ({seen})");
    assert!(bad.is_empty(), "PCI device IDs no platform has: {bad:?}");
}

/// The PMU name of box `index` of kind `ty` on platform `p`: `uncore_<name>`
/// for a type of one box (not always indexed), else `uncore_<name>_<index>`.
fn pmu_name(p: &super::desc::Platform, ty: super::desc::BoxKind, index: u8) -> Option<String> {
    let t = p.types.iter().find(|t| t.kind == ty)?;
    Some(if t.num_boxes == 1 && !t.always_indexed {
        std::format!("uncore_{}", t.name())
    } else {
        std::format!("uncore_{}_{}", t.name(), index)
    })
}

/// The selftests' table of PCI devices (`tests/selftests/uncore/
/// pci-devices.tsv`: platform, device ID, PMU), from which they fail a
/// machine that has a device and no PMU for it, is the platforms' PCI
/// functions of PMON boxes: each row one of them with its box's PMU name,
/// and every such function a row.
#[test]
fn selftest_pci_devices_are_the_tables() {
    use super::pci::Role;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/selftests/uncore/pci-devices.tsv");
    let text = fs::read_to_string(path).expect("tests/selftests/uncore/pci-devices.tsv");
    let rows: Vec<(String, u16, String)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "a row of three columns: {l:?}");
            let id = u16::from_str_radix(f[1], 16).expect("a hex device ID");
            (f[0].into(), id, f[2].into())
        })
        .collect();
    let mut want = Vec::new();
    for p in ALL.iter() {
        for f in super::pci::functions(p.id) {
            if let Role::Box { ty, index } = f.role {
                let name = pmu_name(p, ty, index).expect("the function's box type");
                want.push((String::from(p.name), f.device, name));
            }
        }
    }
    let mut got = rows.clone();
    got.sort();
    want.sort();
    assert!(
        want.len() > 60,
        "the platforms' box functions were found ({})",
        want.len()
    );
    assert_eq!(got, want, "pci-devices.tsv against the platform tables");
}

/// Every platform's precondition table (`model::precond`), by the
/// platform directory that holds its `preconditions.tsv`.
fn precondition_tables() -> [(&'static str, &'static [super::model::precond::Precondition]); 7] {
    use super::platforms::{bdx, hsx, ivbep, l3, nhmex, skl, snbep};
    [
        ("snbep", snbep::model::PRECONDITIONS),
        ("ivbep", ivbep::model::PRECONDITIONS),
        ("hsx", hsx::model::PRECONDITIONS),
        ("bdx", bdx::model::PRECONDITIONS),
        ("skl", skl::model::PRECONDITIONS),
        ("nhmex", nhmex::model::PRECONDITIONS),
        ("l3", l3::model::PRECONDITIONS),
    ]
}

/// The reStructuredText that `Documentation/platforms.rst` shows for the
/// precondition table of platform directory `dir`: its row count, then the
/// rows (event, encoding, precondition, what the model enforces, source).
fn precondition_block(dir: &str, table: &[super::model::precond::Precondition]) -> String {
    let mut s = std::format!(
        ".. preconditions: {dir}\n\n``src/hw/platforms/{dir}/preconditions.tsv``: {} rows.\n",
        table.len()
    );
    if table.is_empty() {
        return s;
    }
    s += "\n.. list-table::\n   :header-rows: 1\n\n";
    s += "   * - Event\n     - Encoding\n     - Precondition\n     - Model\n     - Source\n";
    for r in table {
        let model = match r.needs_text {
            "-" => String::from("not modelled"),
            n => std::format!("``{n}``"),
        };
        s += &std::format!(
            "   * - ``{}`` ({})\n     - ``{}``\n     - {}\n     - {}\n     - {}\n",
            r.name,
            r.box_name,
            r.encoding,
            r.text,
            model,
            r.source
        );
    }
    s
}

/// The precondition tables of `Documentation/platforms.rst` are the code's
/// (each platform's `preconditions.tsv`), row for row.
#[test]
fn documented_preconditions_are_the_tables() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("Documentation/platforms.rst");
    let doc = fs::read_to_string(path).expect("platforms.rst");
    let mut bad = Vec::new();
    for (dir, table) in precondition_tables() {
        let want = precondition_block(dir, table);
        if !doc.contains(&std::format!("{want}\n")) {
            bad.push(std::format!(
                "{dir}: platforms.rst should have, then a blank line:\n{want}"
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
