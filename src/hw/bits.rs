// SPDX-License-Identifier: GPL-2.0

//! Bit fields of 64-bit registers and of `perf_event_attr` configuration words.

/// A contiguous bit range `lo..=hi` of a 64-bit value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Lowest bit of the field.
    pub lo: u8,
    /// Highest bit of the field (inclusive).
    pub hi: u8,
}

impl Field {
    /// The field made of bits `lo..=hi`.
    pub const fn new(lo: u8, hi: u8) -> Self {
        Field { lo, hi }
    }

    /// The one-bit field `bit`.
    pub const fn bit(bit: u8) -> Self {
        Field { lo: bit, hi: bit }
    }

    /// Number of bits in the field.
    pub const fn width(self) -> u32 {
        (self.hi - self.lo) as u32 + 1
    }

    /// The field's bits in place, as a mask of the 64-bit value.
    pub const fn mask(self) -> u64 {
        low_mask(self.width()) << self.lo
    }

    /// The largest value the field holds.
    pub const fn max(self) -> u64 {
        low_mask(self.width())
    }

    /// Extracts the field from `v`.
    pub const fn get(self, v: u64) -> u64 {
        (v & self.mask()) >> self.lo
    }

    /// Returns `v` with the field replaced by `x` (excess bits of `x` are dropped).
    pub const fn set(self, v: u64, x: u64) -> u64 {
        (v & !self.mask()) | ((x << self.lo) & self.mask())
    }
}

/// A mask of the `n` lowest bits (`n` up to 64).
pub const fn low_mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// A mask with the single bit `b` set.
pub const fn bit(b: u8) -> u64 {
    1u64 << b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_mask_get_set() {
        let f = Field::new(24, 31);
        assert_eq!(f.mask(), 0xff00_0000);
        assert_eq!(f.width(), 8);
        assert_eq!(f.max(), 0xff);
        assert_eq!(f.get(0xab12_3456), 0xab);
        assert_eq!(f.set(0xab12_3456, 0x1ff), 0xff12_3456);
        assert_eq!(Field::new(0, 63).mask(), u64::MAX);
        assert_eq!(Field::bit(63).mask(), 1 << 63);
        assert_eq!(low_mask(0), 0);
        assert_eq!(low_mask(48), 0xffff_ffff_ffff);
    }
}
