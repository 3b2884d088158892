#!/usr/bin/env python3
"""mkcore.py: makes core2.trace.zip, a small core-sharded drmemtrace.

Usage: mkcore.py [allasm.trace.zip [out.zip]]

The instruction stream of one core as DynamoRIO's -core_sharded output
lays it out: several threads one after another, each with its own
HEADER, THREAD_EXIT and FOOTER, switched by THREAD entries, in one
chunk.0000 member.  Both threads run the 133 instructions of
drmemtrace.allasm_x86_64.trace.zip (its chunks joined, without their
chunk markers):

    HEADER, thread 1001: its first 60 instructions
    THREAD 1002: all 133, THREAD_EXIT 1002, FOOTER
    HEADER, THREAD 1001: its other 73, THREAD_EXIT 1001, FOOTER
    TIMESTAMP markers, FOOTER (an idle core after its last thread)

266 instructions: 60 of thread 1001, 133 of 1002, 73 of 1001.  Entries
are 12 bytes, little-endian: u16 type, u16 size, u64 addr.
"""
import struct
import sys
import zipfile

HEADER, THREAD, THREAD_EXIT, PID, FOOTER, MARKER, ENCODING = \
    25, 22, 23, 24, 26, 28, 47
M_TIMESTAMP, M_CHUNK_FOOTER, M_RECORD_ORDINAL = 2, 21, 22
INSTR = set(range(10, 17)) | {29, 30, 31, 48, 49}
SPLIT = 60


def entries(path):
    z = zipfile.ZipFile(path)
    names = sorted(n for n in z.namelist() if n.startswith("chunk."))
    out = []
    for n in names:
        d = z.read(n)
        out += [struct.unpack_from("<HHQ", d, i) for i in
                range(0, len(d), 12)]
    return out


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else \
        "../ext-traces/drmemtrace.allasm_x86_64.trace.zip"
    dst = sys.argv[2] if len(sys.argv) > 2 else "core2.trace.zip"
    ent = [e for e in entries(src) if not (e[0] == MARKER and e[1] in
           (M_CHUNK_FOOTER, M_RECORD_ORDINAL))]
    # head: up to the THREAD and PID entries; body: up to THREAD_EXIT
    t = next(i for i, e in enumerate(ent) if e[0] == THREAD)
    assert ent[t + 1][0] == PID and ent[-2][0] == THREAD_EXIT and \
        ent[-1][0] == FOOTER
    head, pid, body = ent[:t], ent[t + 1], ent[t + 2:-2]
    # split before the SPLIT-th instruction and its ENCODING entries
    n = 0
    for i, e in enumerate(body):
        if e[0] in INSTR:
            if n == SPLIT:
                break
            n += 1
    while body[i - 1][0] == ENCODING:
        i -= 1

    def thread(tid):
        return [(THREAD, 4, tid), pid]

    out = head + thread(1001) + body[:i]
    out += thread(1002) + body + [(THREAD_EXIT, 4, 1002), (FOOTER, 0, 0)]
    out += head + thread(1001) + body[i:]
    out += [(THREAD_EXIT, 4, 1001), (FOOTER, 0, 0)]
    out += [(MARKER, M_TIMESTAMP, 13352268558647000 + k) for k in
            range(3)] + [(FOOTER, 0, 0)]
    data = b"".join(struct.pack("<HHQ", *e) for e in out)
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("chunk.0000", (1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, data)


if __name__ == "__main__":
    main()
