#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (python3 standard library only):
corpus/npy/  .npy files: valid ones of every dtype, format versions 1/2/3, 0-d and empty shapes,
             and broken ones (truncated, Fortran order, big-endian, garbled, ...);
corpus/args/ command lines of every subcommand, valid and invalid, one argument per line.
The files are committed; run this again (from anywhere) only to change them."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def npy_header(descr, shape, fortran=False, version=1, quote="'", order=None, pad=True):
    """numpy's header form; `order` lists the keys in the order written."""
    q = quote
    items = {
        "descr": f"{q}descr{q}: {q}{descr}{q}",
        "fortran_order": f"{q}fortran_order{q}: {fortran}",
        "shape": f"{q}shape{q}: {shape}",
    }
    header = "{" + ", ".join(items[k] for k in (order or ["descr", "fortran_order", "shape"])) + ", }"
    pre = 10 if version == 1 else 12
    if pad:
        header += " " * ((64 - (pre + len(header) + 1) % 64) % 64) + "\n"
    raw = header.encode("latin-1" if version < 3 else "utf-8")
    if version == 1:
        return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(raw)) + raw
    return b"\x93NUMPY" + bytes([version, 0]) + struct.pack("<I", len(raw)) + raw


def elements(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


NPY = {
    # valid, one per dtype
    "v1_i1.npy": npy_header("|i1", "(4,)") + elements("b", [1, -2, 3, -4]),
    "v1_u1.npy": npy_header("|u1", "(4,)") + elements("B", [9, 8, 200, 7]),
    "v1_i2.npy": npy_header("<i2", "(3,)") + elements("h", [-1, 2, 300]),
    "v1_u2.npy": npy_header("<u2", "(3,)") + elements("H", [1, 2, 65535]),
    "v1_i4_2x2.npy": npy_header("<i4", "(2, 2)") + elements("i", [1, 2, 3, 4]),
    "v1_u4.npy": npy_header("<u4", "(2,)") + elements("I", [7, 4000000000]),
    "v1_i8.npy": npy_header("<i8", "(2,)") + elements("q", [-5, 5]),
    "v1_u8.npy": npy_header("<u8", "(1,)") + elements("Q", [2**64 - 1]),
    "v1_f4_2x3.npy": npy_header("<f4", "(2, 3)") + elements("f", [1.5, 2, 3, 4, 5, 6.5]),
    "v1_f8.npy": npy_header("<f8", "(3,)") + elements("d", [0.1, -0.0, 1e300]),
    # shapes and forms
    "v1_0d.npy": npy_header("<f8", "()") + elements("d", [42.0]),
    "v1_empty.npy": npy_header("<f4", "(0,)"),
    "v1_empty_3x0.npy": npy_header("<i4", "(3, 0)"),
    "v1_3d.npy": npy_header("<u2", "(2, 1, 2)") + elements("H", [1, 2, 3, 4]),
    "v1_header_only.npy": npy_header("<f4", "(1000,)"),
    "v1_double_quotes.npy": npy_header("<i4", "(2,)", quote='"') + elements("i", [1, 2]),
    "v1_key_order.npy": npy_header("<i8", "(1,)", order=["shape", "fortran_order", "descr"])
    + elements("q", [3]),
    "v1_py2_long.npy": npy_header("<f4", "(2L, 1L)") + elements("f", [1, 2]),
    "v1_unpadded.npy": npy_header("<u1", "(2,)", pad=False) + b"\x01\x02",
    "v1_native_order.npy": npy_header("=i4", "(1,)") + elements("i", [9]),
    "v2_f4.npy": npy_header("<f4", "(2,)", version=2) + elements("f", [1, 2]),
    "v3_i2.npy": npy_header("<i2", "(2,)", version=3) + elements("h", [1, 2]),
    # broken
    "bad_empty_file.npy": b"",
    "bad_magic.npy": b"\x93NUMPX\x01\x00" + npy_header("<f4", "(1,)")[8:],
    "bad_trunc_preamble.npy": b"\x93NUMPY\x01\x00",
    "bad_trunc_header.npy": npy_header("<f8", "(2, 3)")[:30],
    "bad_trunc_v2.npy": b"\x93NUMPY\x02\x00\x40\x00",
    "bad_version4.npy": b"\x93NUMPY\x04\x00" + npy_header("<f4", "(1,)", version=2)[8:],
    "bad_fortran.npy": npy_header("<i4", "(2, 2)", fortran=True) + elements("i", [1, 2, 3, 4]),
    "bad_big_endian.npy": npy_header(">i4", "(1,)") + struct.pack(">i", 1),
    "bad_complex.npy": npy_header("<c16", "(1,)") + elements("d", [1, 2]),
    "bad_bool.npy": npy_header("|b1", "(2,)") + b"\x01\x00",
    "bad_unicode.npy": npy_header("<U3", "(1,)") + b"a\0\0\0b\0\0\0c\0\0\0",
    "bad_object.npy": npy_header("|O", "(1,)"),
    "bad_structured.npy": b"\x93NUMPY\x01\x00"
    + struct.pack("<H", 70)
    + b"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }".ljust(69)
    + b"\n",
    "bad_garbled.npy": b"\x93NUMPY\x01\x00\x10\x00garbage garbage!",
    "bad_shape_list.npy": npy_header("<f4", "[3]"),
    "bad_shape_dim.npy": npy_header("<f4", "(3x,)"),
    "bad_shape_negative.npy": npy_header("<f4", "(-1,)"),
    "bad_shape_overflow.npy": npy_header("<u1", "(4294967296, 4294967296)"),
    # found by fuzz_npy: an 'L' other than one after the digits was read as a digit worth 28
    "bad_shape_LL.npy": npy_header("<f4", "(3LL,)"),
    "bad_shape_L_inside.npy": npy_header("<f4", "(3L5,)"),
    "bad_shape_L_only.npy": npy_header("<f4", "(L, 2)"),
    "bad_no_descr.npy": b"\x93NUMPY\x01\x00"
    + struct.pack("<H", 54)
    + b"{'fortran_order': False, 'shape': (1,), }".ljust(53)
    + b"\n",
}

ARGS = {
    # valid
    "help": ["--help"],
    "version": ["--version"],
    "reduce_help": ["reduce", "--help"],
    "devices": ["devices"],
    "devices_json": ["devices", "--json"],
    "strategies": ["strategies", "--json", "--device", "all"],
    "cache": ["cache"],
    "cache_clear": ["cache", "--clear"],
    "reduce_ones": ["reduce", "--type", "i32", "--op", "sum", "--generate", "ones", "--count", "1000"],
    "reduce_random_json": ["reduce", "--type", "f32", "--op", "argmin", "--generate", "random",
                           "--count", "4Ki", "--seed", "7", "--json"],
    "reduce_acc_wg": ["reduce", "--type", "u8", "--acc", "u32", "--op", "sum", "--generate",
                      "mod:7", "--count", "2^20", "--strategy", "localtree", "--wg", "64"],
    "reduce_input": ["reduce", "--input", "x.npy", "--op", "max", "--device", "cpu"],
    "reduce_equals": ["reduce", "--type=f64", "--op=prod", "--generate=iota", "--count=16Mi",
                      "--device=gpu", "--strategy=auto"],
    "verify_quick": ["verify", "--device", "all", "--strategy", "all", "--quick"],
    "verify_json": ["verify", "--strategy", "localtree", "--max-n", "1Mi", "--seed", "3", "--json"],
    "bench": ["bench", "--device", "cpu", "--strategy", "bottomup,localtree", "--sizes",
              "1Ki,3001", "--repeat", "2", "--json", "out.jsonl"],
    "bench_tuning": ["bench", "--strategy", "fast_strided", "--type", "f32", "--op", "max",
                     "--sizes", "2^24", "--wg", "256", "--groups-per-cu", "8", "--vw", "4",
                     "--unroll", "2", "--label", "tuned", "--peak", "100"],
    # invalid
    "none": [],
    "unknown_subcommand": ["frobnicate"],
    "bad_type": ["reduce", "--type", "f16", "--op", "sum", "--generate", "ones", "--count", "5"],
    "bad_op": ["reduce", "--type", "i32", "--op", "mean", "--generate", "ones", "--count", "5"],
    "bad_strategy": ["reduce", "--strategy", "nope", "--type", "i32", "--op", "sum", "--generate",
                     "ones", "--count", "5"],
    "bad_count": ["reduce", "--type", "i32", "--op", "sum", "--generate", "ones", "--count", "-5"],
    "bad_count_text": ["reduce", "--type", "i32", "--op", "sum", "--generate", "ones", "--count",
                       "abc"],
    "bad_count_overflow": ["reduce", "--type", "i64", "--op", "sum", "--generate", "ones",
                           "--count", "2^62"],
    "bad_pattern": ["reduce", "--type", "i32", "--op", "sum", "--generate", "mod:0", "--count", "5"],
    "bad_argmin_empty": ["reduce", "--type", "i32", "--op", "argmin", "--generate", "ones",
                         "--count", "0"],
    "bad_xor_float": ["reduce", "--type", "f32", "--op", "xor", "--generate", "ones", "--count", "5"],
    "bad_acc": ["reduce", "--type", "i32", "--acc", "i8", "--op", "sum", "--generate", "ones",
                "--count", "5"],
    "bad_no_op": ["reduce", "--type", "i32", "--generate", "ones", "--count", "5"],
    "bad_wg": ["reduce", "--wg", "100", "--type", "i32", "--op", "sum", "--generate", "ones",
               "--count", "5"],
    "bad_input_and_generate": ["reduce", "--input", "f", "--generate", "ones", "--op", "sum"],
    "bad_no_data": ["reduce", "--op", "sum", "--type", "i32"],
    "bad_sizes": ["bench", "--sizes", "1Kx"],
    "bad_repeat": ["bench", "--repeat", "0"],
    "bad_vw": ["bench", "--strategy", "fast_strided", "--vw", "3"],
    "bad_peak": ["bench", "--peak", "nan"],
    "bad_bench_strategy": ["bench", "--strategy", "localtree,,auto"],
    "bad_max_n": ["verify", "--max-n", "2^63"],
    "bad_verify_strategy": ["verify", "--strategy", "nope"],
    "bad_extra": ["devices", "extra"],
}


def write(folder, name, data):
    path = os.path.join(HERE, "corpus", folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


for name, data in NPY.items():
    write("npy", name, data)
for name, argv in ARGS.items():
    write("args", name, "\n".join(argv).encode())
print(f"{len(NPY)} npy and {len(ARGS)} args inputs in {os.path.join(HERE, 'corpus')}")
