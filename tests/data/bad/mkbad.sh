#!/bin/bash
# mkbad.sh: regenerates the corrupt-input corpus from tests/data/pmview/small.tsv.
# Each file has exactly one defect, named by the file; tests/11-pmview-bad.bats
# lists the message each must produce.  Run from the top of the tree after make:
#   bash tests/data/bad/mkbad.sh
set -euo pipefail
cd "$(dirname "$0")"
V=${PMVIEW:-../../../cmd/pmview}
$V -r --no-pg -o /tmp/good.$$.pmr ../pmview/small.tsv
good=/tmp/good.$$.pmr
n=$(stat -c %s $good)
le32() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 24 & 255)))"; }
hdr() { printf '\x89PMR\r\n\x1a\x01'; le32 18; printf '\0\0\0\0'; le32 "${1:-0}"; printf '\0\0\0\0'; le32 2; printf 'hb'; }
end() { le32 1; le32 16; le32 "$1"; le32 0; }
head -c 20 $good > truncated-header.pmr
head -c $((n - 20)) $good > truncated-record.pmr
{ printf 'PMR!'; tail -c +5 $good; } > bad-magic.pmr
{ hdr; le32 70; le32 4; end 1; } > size-below-header.pmr
{ hdr; le32 24; le32 12; le32 0; end 1; } > size-below-fixed-part.pmr
{ hdr; le32 70; le32 4000000000; } > absurd-size.pmr
{ hdr 8; end 0; } > must-understand-flag.pmr
{ hdr; le32 $((0x80000063)); le32 8; end 1; } > must-understand-type.pmr
head -c $((n - 16)) $good > missing-end.pmr
{ hdr; le32 70; le32 8; end 5; } > end-count-mismatch.pmr
{ cat $good; printf 'trailing garbage'; } > garbage-after-end.pmr
{ printf '\x89PMR\r\n\x1a\x02'; tail -c +9 $good; } > major-version-2.pmr
: > empty.pmr
{ hdr; le32 0; le32 8; end 1; } > type-zero.pmr
zstd -q -c $good > /tmp/z.$$ && head -c $(($(stat -c %s /tmp/z.$$) - 6)) /tmp/z.$$ > truncated-zstd.pmr.zst
zstd -q -c $good > corrupt-zstd-checksum.pmr.zst
# flip a byte of the 4-byte content checksum at the end of the frame
sz=$(stat -c %s corrupt-zstd-checksum.pmr.zst)
printf '\xff' | dd of=corrupt-zstd-checksum.pmr.zst bs=1 seek=$((sz - 2)) conv=notrunc status=none
{ printf '\xfd7zXZ\0'; head -c 40 /dev/zero; } > bad-xz.pmr.xz
gzip -c $good | head -c 30 > truncated-gzip.pmr.gz
{ hdr; le32 3; le32 16; le32 50; le32 0; end 1; } > string-past-end.pmr
rm -f $good /tmp/z.$$
