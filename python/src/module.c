/*
 * csum._csum: the C core of the Python package `csum` (python/csum/ re-exports it).
 *
 * Conventions, chosen so that Python code sees the same numbers on every host and with every
 * implementation of the library:
 *  - a checksum (what is stored in a header) is an int in 0..0xffff whose two bytes in
 *    big-endian order are the bytes on the wire: struct.pack("!H", value) writes it;
 *  - a partial sum ("wsum" in the kernel's words) is the ones'-complement sum of the data's
 *    big-endian 16-bit words, end-around carried into 16 bits but not complemented. Any 32-bit
 *    value congruent modulo 0xffff is accepted back (a sum another tool kept in 32 bits). Not
 *    a __wsum of csum.h or of a little-endian kernel as it is: that one sums the words in
 *    memory order, the two bytes of each swapped (wsum_from_host() converts it).
 * The C library sums 16-bit words in memory order and may return different 32-bit values for
 * the same bytes; the conversions below make both conventions hold.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "csum.h"
#include "pcap_adapter.h"

/* ---- conventions ------------------------------------------------------------------------- */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline uint32_t wsum_from_host(uint32_t w) { return w; }
static inline uint32_t wsum_to_host(uint32_t w) { return w; }
#else
/* Swapping the bytes of every 16-bit word multiplies a sum by 2^8 modulo 0xffff, and so does
 * rotating the 32-bit sum by 8 bits (the kernel's csum_block_add trick for odd offsets). */
static inline uint32_t wsum_from_host(uint32_t w) { return (w >> 8) | (w << 24); }
static inline uint32_t wsum_to_host(uint32_t w) { return (w << 8) | (w >> 24); }
#endif

/* A sum in the Python convention: end-around carried into 16 bits, not complemented. */
static inline PyObject *sum_result(uint32_t w_net)
{
    w_net = (w_net & 0xffff) + (w_net >> 16);
    w_net = (w_net & 0xffff) + (w_net >> 16);
    return PyLong_FromUnsignedLong(w_net);
}

/* A checksum as stored (memory order) -> the int whose big-endian bytes are those bytes. */
static inline PyObject *check_result(csum_sum16 stored)
{
    return PyLong_FromUnsignedLong(ntohs(stored));
}

/* ---- the GIL ------------------------------------------------------------------------------- */

/* Buffers of at least this many bytes are summed with the GIL released, so other threads run
 * meanwhile. Measured with `python -m csum.bench` (its GIL table) on the development VM (AMD
 * EPYC, 2 shared vCPUs, AVX-512, 2026-11): a release/reacquire pair adds 20-60 ns to a call,
 * +40-65% at 4 KiB, +5-15% at 64 KiB, within the noise from 256 KiB (1.3 us). Two threads
 * summing at once gained by it 1.24x at 64 KiB, 1.6x at 256 KiB and 2.1x at 1 MiB while the
 * second vCPU was idle, but lost (0.95x) up to 256 KiB while another process kept it busy:
 * the GIL's hand-over then costs more than a short call. 256 KiB pays in both cases and keeps
 * the GIL at most ~1.5 us per call below it. */
#define GIL_THRESHOLD_DEFAULT (256 * 1024)
static Py_ssize_t gil_threshold = GIL_THRESHOLD_DEFAULT;

static csum_wsum sum_bytes(const void *p, Py_ssize_t n, csum_wsum s)
{
    if (n >= gil_threshold) {
        Py_BEGIN_ALLOW_THREADS
        s = csum_partial(p, (size_t)n, s);
        Py_END_ALLOW_THREADS
    } else {
        s = csum_partial(p, (size_t)n, s);
    }
    return s;
}

/* ---- sums of buffers --------------------------------------------------------------------- */

static const char *const data_initial[] = { "data", "initial" };

/* data and the optional initial sum; 0 or -1. */
static int data_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, Py_buffer *view, uint32_t *initial)
{
    PyObject *a[2];
    unsigned long long init = 0;
    if (args_parse(fname, args, nargs, kwnames, data_initial, 1, 2, a) < 0 ||
        args_uint(a[1], 0xffffffffu, fname, "initial", &init) < 0)
        return -1;
    *initial = (uint32_t)init;
    return args_buffer(a[0], view, 0, fname, "data");
}

PyDoc_STRVAR(checksum_doc,
"checksum($module, data, initial=0)\n--\n\n"
"The Internet checksum (RFC 1071) of `data`: the folded, complemented 16-bit value as it is\n"
"stored in a header, as an int whose two big-endian bytes are the bytes on the wire.\n\n"
"`data` is any C-contiguous bytes-like object (bytes, bytearray, memoryview, mmap, array,\n"
"NumPy array, scapy's raw(pkt)), taken as its bytes whatever its items, except Python objects\n"
"(a NumPy object array: TypeError); it is read in place, never copied. `initial` is a partial\n"
"sum to start from (e.g. a pseudo-header's, from tcpudp_v4_nofold()). Over data that holds a\n"
"correct checksum the result is 0. The GIL is released for large buffers.\n\n"
">>> hdr = bytes.fromhex('450000730000400040110000c0a80001c0a800c7')\n"
">>> hex(csum.checksum(hdr))\n"
"'0xb861'\n"
">>> csum.checksum(hdr[:10] + bytes.fromhex('b861') + hdr[12:])\n"
"0");

static PyObject *py_checksum(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    (void)self;
    Py_buffer view;
    uint32_t initial;
    if (data_args("checksum", args, nargs, kwnames, &view, &initial) < 0)
        return NULL;
    csum_wsum s = sum_bytes(view.buf, view.len, wsum_to_host(initial));
    PyBuffer_Release(&view);
    return check_result(csum_fold(s));
}

PyDoc_STRVAR(partial_doc,
"partial($module, data, initial=0)\n--\n\n"
"The ones'-complement sum of `data`'s big-endian 16-bit words added to `initial` (the\n"
"kernel's csum_partial), end-around carried into 16 bits but not complemented: feed it back\n"
"as `initial`, or to add(), block_add(), fold(), the pseudo-header helpers. An odd last byte\n"
"counts as the high byte of a word. checksum(d) == fold(partial(d)).\n\n"
">>> hex(csum.partial(bytes.fromhex('0001f203f4f5f6f7')))  # RFC 1071's example\n"
"'0xddf2'\n"
">>> csum.partial(b'\\x00\\x01\\xf2\\x03', csum.partial(b'\\xf4\\xf5\\xf6\\xf7')) == 0xddf2\n"
"True");

static PyObject *py_partial(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames)
{
    (void)self;
    Py_buffer view;
    uint32_t initial;
    if (data_args("partial", args, nargs, kwnames, &view, &initial) < 0)
        return NULL;
    csum_wsum s = sum_bytes(view.buf, view.len, wsum_to_host(initial));
    PyBuffer_Release(&view);
    return sum_result(wsum_from_host(s));
}

PyDoc_STRVAR(partial_copy_doc,
"partial_copy($module, dst, src, initial=0)\n--\n\n"
"Copy `src` into the start of the writable buffer `dst` and return partial(src, initial),\n"
"in one pass over the bytes (the kernel's csum_partial_copy). `dst` must have room for\n"
"len(src) bytes and must not overlap `src`; bytes of `dst` past len(src) are left alone.\n\n"
">>> dst = bytearray(8)\n"
">>> hex(csum.partial_copy(dst, bytes.fromhex('0001f203f4f5f6f7')))\n"
"'0xddf2'\n"
">>> dst.hex()\n"
"'0001f203f4f5f6f7'");

static PyObject *py_partial_copy(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "dst", "src", "initial" };
    PyObject *a[3];
    unsigned long long init = 0;
    if (args_parse("partial_copy", args, nargs, kwnames, names, 2, 3, a) < 0 ||
        args_uint(a[2], 0xffffffffu, "partial_copy", "initial", &init) < 0)
        return NULL;
    Py_buffer dst, src;
    if (args_buffer(a[0], &dst, 1, "partial_copy", "dst") < 0)
        return NULL;
    if (args_buffer(a[1], &src, 0, "partial_copy", "src") < 0) {
        PyBuffer_Release(&dst);
        return NULL;
    }
    PyObject *result = NULL;
    const char *d = dst.buf, *s = src.buf;
    if (dst.len < src.len) {
        PyErr_Format(PyExc_ValueError, "partial_copy(): dst has %zd bytes, src needs %zd",
                     dst.len, src.len);
    } else if (src.len > 0 && d < s + src.len && s < d + src.len) {
        PyErr_SetString(PyExc_ValueError, "partial_copy(): dst and src overlap");
    } else {
        csum_wsum w = wsum_to_host((uint32_t)init);
        if (src.len >= gil_threshold) {
            Py_BEGIN_ALLOW_THREADS
            w = csum_partial_copy(dst.buf, src.buf, (size_t)src.len, w);
            Py_END_ALLOW_THREADS
        } else {
            w = csum_partial_copy(dst.buf, src.buf, (size_t)src.len, w);
        }
        result = sum_result(wsum_from_host(w));
    }
    PyBuffer_Release(&src);
    PyBuffer_Release(&dst);
    return result;
}

/* ---- scatter-gather ---------------------------------------------------------------------- */

PyDoc_STRVAR(iov_doc,
"iov($module, buffers, initial=0)\n--\n\n"
"partial() of the concatenation of `buffers` (an iterable of bytes-like objects), each read\n"
"in place, never joined (the library's csum_iov over an iovec): a buffer that starts at an\n"
"odd offset of the whole counts its bytes in the other halves of the words, as join() would.\n\n"
">>> csum.iov([b'\\x00', b'\\x01\\xf2', b'\\x03\\xf4\\xf5\\xf6\\xf7']) == "
"csum.partial(bytes.fromhex('0001f203f4f5f6f7'))\n"
"True");

PyDoc_STRVAR(iov_range_doc,
"iov_range($module, buffers, offset, length, initial=0)\n--\n\n"
"partial() of bytes offset .. offset + length of the concatenation of `buffers`, as if they\n"
"started a message (csum_iov_range; Linux's skb_checksum): a segment's payload in a send\n"
"queue held as several buffers, without joining them. Only those bytes are read. ValueError\n"
"if the range reaches past the buffers' total length.\n\n"
">>> csum.iov_range([b'\\xaa\\x00', b'\\x01\\xf2\\x03', b'\\xf4\\xf5\\xf6\\xf7\\xbb'], 1, 8) == "
"csum.partial(bytes.fromhex('0001f203f4f5f6f7'))\n"
"True");

/* iov() and iov_range() (whole: iov(), the range all of the buffers). Every buffer is held (its view acquired) until the
 * sum is done, with the GIL released from gil_threshold bytes in all: another thread may write
 * them meanwhile and change the result, but none can be freed or resized under the sum. */
static PyObject *iov_common(const char *fname, PyObject *buffers, int whole,
                            unsigned long long offset, unsigned long long length,
                            unsigned long long initial)
{
    char message[96];
    snprintf(message, sizeof message, "%s(): buffers must be an iterable of bytes-like objects",
             fname);
    PyObject *seq = args_tuple(buffers, message);
    if (!seq)
        return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(seq);
    Py_buffer *views = PyMem_Calloc((size_t)(n ? n : 1), sizeof *views);
    struct iovec *iov = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *iov);
    PyObject *result = NULL;
    Py_ssize_t held = 0;
    if (!views || !iov) {
        PyErr_NoMemory();
        goto out;
    }
    unsigned long long total = 0;
    for (; held < n; held++) {
        if (args_buffer(PyTuple_GET_ITEM(seq, held), &views[held], 0, fname, "each buffer") < 0)
            goto out;
        iov[held].iov_base = views[held].buf;
        iov[held].iov_len = (size_t)views[held].len;
        total += (unsigned long long)views[held].len;
    }
    if (whole) {
        offset = 0;
        length = total;
    } else if (offset > total || length > total - offset) {
        PyErr_Format(PyExc_ValueError,
                     "%s(): bytes %llu .. %llu are past the buffers' %llu bytes", fname, offset,
                     offset + length, total);
        goto out;
    }
    /* The whole vector through csum_iov_range too: csum.h promises csum_iov's value to the bit. */
    csum_wsum w = wsum_to_host((uint32_t)initial);
    if (length >= (unsigned long long)gil_threshold) {
        Py_BEGIN_ALLOW_THREADS
        w = csum_iov_range(iov, (size_t)n, (size_t)offset, (size_t)length, w);
        Py_END_ALLOW_THREADS
    } else {
        w = csum_iov_range(iov, (size_t)n, (size_t)offset, (size_t)length, w);
    }
    result = sum_result(wsum_from_host(w));
out:
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    PyMem_Free(iov);
    PyMem_Free(views);
    Py_DECREF(seq);
    return result;
}

static PyObject *py_iov(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "buffers", "initial" };
    PyObject *a[2];
    unsigned long long init = 0;
    if (args_parse("iov", args, nargs, kwnames, names, 1, 2, a) < 0 ||
        args_uint(a[1], 0xffffffffu, "iov", "initial", &init) < 0)
        return NULL;
    return iov_common("iov", a[0], 1, 0, 0, init);
}

static PyObject *py_iov_range(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "buffers", "offset", "length", "initial" };
    PyObject *a[4];
    unsigned long long offset, length, init = 0;
    const unsigned long long max = (unsigned long long)PY_SSIZE_T_MAX;
    if (args_parse("iov_range", args, nargs, kwnames, names, 3, 4, a) < 0 ||
        args_uint(a[1], max, "iov_range", "offset", &offset) < 0 ||
        args_uint(a[2], max, "iov_range", "length", &length) < 0 ||
        args_uint(a[3], 0xffffffffu, "iov_range", "initial", &init) < 0)
        return NULL;
    return iov_common("iov_range", a[0], 0, offset, length, init);
}

/* ---- arithmetic on sums ------------------------------------------------------------------ */

/* The one argument of fold(), unfold() and udp_fixup(): an int in 0..max; 0 or -1. */
static int one_uint_arg(const char *fname, const char *name, unsigned long long max,
                        PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                        unsigned long long *out)
{
    const char *const names[] = { name };
    PyObject *arg;
    if (args_parse(fname, args, nargs, kwnames, names, 1, 1, &arg) < 0)
        return -1;
    return args_uint(arg, max, fname, name, out);
}

PyDoc_STRVAR(fold_doc,
"fold($module, sum)\n--\n\n"
"Fold a partial sum (any 32-bit value) to 16 bits and complement it: the checksum to store.\n\n"
">>> hex(csum.fold(0xddf2))\n"
"'0x220d'");

static PyObject *py_fold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames)
{
    (void)self;
    unsigned long long s;
    if (one_uint_arg("fold", "sum", 0xffffffffu, args, nargs, kwnames, &s) < 0)
        return NULL;
    /* Folding commutes with the byte order: the value is already in the Python convention. */
    return PyLong_FromUnsignedLong(csum_fold((csum_wsum)s));
}

PyDoc_STRVAR(unfold_doc,
"unfold($module, check)\n--\n\n"
"A checksum as stored (0..0xffff) widened to a partial sum: the value itself (the kernel's\n"
"csum_unfold). It brings a stored checksum into the arithmetic on sums: sub(s, unfold(c))\n"
"adds the sum that `c` stands for, as replace_by_diff() does.\n\n"
">>> hdr = bytes.fromhex('450000730000400040110000c0a80001c0a800c7')\n"
">>> c = csum.checksum(hdr)  # over the header with the field zeroed: what to store\n"
">>> hex(csum.unfold(c))\n"
"'0xb861'\n"
">>> csum.fold(csum.sub(0, csum.unfold(c))) == c  # the field stands for the header's sum\n"
"True");

static PyObject *py_unfold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    (void)self;
    unsigned long long c;
    if (one_uint_arg("unfold", "check", 0xffff, args, nargs, kwnames, &c) < 0)
        return NULL;
    /* Through the library, from the stored bytes: its sum in memory order, then ours. */
    return sum_result(wsum_from_host(csum_unfold(htons((uint16_t)c))));
}

/* Two or three 32-bit sums (the third: an offset of any size). */
static int sums_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames, const char *const *names, int n, unsigned long long *v)
{
    PyObject *a[3];
    if (args_parse(fname, args, nargs, kwnames, names, n, n, a) < 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (args_uint(a[i], i < 2 ? 0xffffffffu : (unsigned long long)PY_SSIZE_T_MAX, fname,
                      names[i], &v[i]) < 0)
            return -1;
    return 0;
}

PyDoc_STRVAR(add_doc,
"add($module, a, b)\n--\n\n"
"Ones'-complement sum of two partial sums (end-around carry).\n\n"
">>> hex(csum.add(0xfff0, 0x0020))\n"
"'0x11'");

static PyObject *py_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "a", "b" };
    unsigned long long v[2];
    if (sums_args("add", args, nargs, kwnames, names, 2, v) < 0)
        return NULL;
    return sum_result(csum_add((csum_wsum)v[0], (csum_wsum)v[1]));
}

PyDoc_STRVAR(sub_doc,
"sub($module, a, b)\n--\n\n"
"Remove partial sum `b` from `a` (ones'-complement subtraction).\n\n"
">>> whole, head = csum.partial(b'abcdef'), csum.partial(b'ab')\n"
">>> csum.sub(whole, head) == csum.partial(b'cdef')\n"
"True");

static PyObject *py_sub(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "a", "b" };
    unsigned long long v[2];
    if (sums_args("sub", args, nargs, kwnames, names, 2, v) < 0)
        return NULL;
    return sum_result(csum_sub((csum_wsum)v[0], (csum_wsum)v[1]));
}

PyDoc_STRVAR(block_add_doc,
"block_add($module, sum, block, offset)\n--\n\n"
"Add `block`, the partial sum of a piece summed on its own, into `sum`, the sum of a message\n"
"in which the piece starts at byte `offset` (an odd offset swaps the piece's byte lanes).\n\n"
">>> msg = b'hello, world'\n"
">>> s = csum.block_add(csum.partial(msg[:5]), csum.partial(msg[5:]), 5)\n"
">>> s == csum.partial(msg)\n"
"True");

static PyObject *py_block_add(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "sum", "block", "offset" };
    unsigned long long v[3];
    if (sums_args("block_add", args, nargs, kwnames, names, 3, v) < 0)
        return NULL;
    return sum_result(csum_block_add((csum_wsum)v[0], (csum_wsum)v[1], (size_t)v[2]));
}

PyDoc_STRVAR(block_sub_doc,
"block_sub($module, sum, block, offset)\n--\n\n"
"Remove `block`, the partial sum of a piece summed on its own, from `sum`, the sum of a\n"
"message in which the piece starts at byte `offset`: the inverse of block_add(). Where what\n"
"is left sums to exactly 0 (only zero bytes, zero initial sum) the result is ones'-complement\n"
"negative zero, which fold() makes 0x0000, not 0xffff.\n\n"
">>> msg = b'hello, world'\n"
">>> csum.block_sub(csum.partial(msg), csum.partial(msg[5:]), 5) == csum.partial(msg[:5])\n"
"True");

static PyObject *py_block_sub(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "sum", "block", "offset" };
    unsigned long long v[3];
    if (sums_args("block_sub", args, nargs, kwnames, names, 3, v) < 0)
        return NULL;
    return sum_result(csum_block_sub((csum_wsum)v[0], (csum_wsum)v[1], (size_t)v[2]));
}

/* ---- protocol helpers -------------------------------------------------------------------- */

/* The IPv4 header at buf[0..len): its ihl, or -1 with ValueError. `index` >= 0: the header
 * at offsets[index] of ipv4_header_batch(). */
static int ipv4_ihl(const unsigned char *p, Py_ssize_t len, const char *fname, Py_ssize_t index,
                    unsigned long long offset)
{
    char where[64] = "";
    if (index >= 0)
        snprintf(where, sizeof where, " at offsets[%zd] = %llu", index, offset);
    if (len < 1) {
        PyErr_Format(PyExc_ValueError, "%s(): no IPv4 header%s (0 bytes)", fname, where);
        return -1;
    }
    unsigned ihl = p[0] & 0x0f;
    if (ihl < 5) {
        PyErr_Format(PyExc_ValueError, "%s(): IPv4 header%s has IHL %u (at least 5 needed)",
                     fname, where, ihl);
        return -1;
    }
    if (len < (Py_ssize_t)ihl * 4) {
        PyErr_Format(PyExc_ValueError, "%s(): IPv4 header%s has IHL %u (%u bytes), only %zd "
                     "bytes given", fname, where, ihl, ihl * 4, len);
        return -1;
    }
    return (int)ihl;
}

PyDoc_STRVAR(ipv4_header_doc,
"ipv4_header($module, hdr)\n--\n\n"
"The checksum of the IPv4 header at the start of `hdr` (the kernel's ip_fast_csum): IHL * 4\n"
"bytes are read, IHL being the low nibble of the first byte; `hdr` may be the whole packet.\n"
"0 over an intact header; over a header with a zeroed checksum field, the value to store.\n"
"ValueError for an IHL below 5 or a buffer shorter than the header.\n\n"
">>> hex(csum.ipv4_header(bytes.fromhex('450000730000400040110000c0a80001c0a800c7')))\n"
"'0xb861'");

static PyObject *py_ipv4_header(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "hdr" };
    PyObject *arg;
    Py_buffer view;
    if (args_parse("ipv4_header", args, nargs, kwnames, names, 1, 1, &arg) < 0 ||
        args_buffer(arg, &view, 0, "ipv4_header", "hdr") < 0)
        return NULL;
    int ihl = ipv4_ihl(view.buf, view.len, "ipv4_header", -1, 0);
    PyObject *r = ihl < 0 ? NULL : check_result(csum_ipv4_header(view.buf, (unsigned)ihl));
    PyBuffer_Release(&view);
    return r;
}

static PyObject *array_type; /* array.array */

#define IPV4_MAX_HEADER 60 /* IHL 15 */

PyDoc_STRVAR(ipv4_header_batch_doc,
"ipv4_header_batch($module, buffer, offsets)\n--\n\n"
"ipv4_header() of the headers that start at each of `offsets` (an iterable of ints) in\n"
"`buffer`, at once (SIMD across headers where the CPU has it). Returns array('H') of\n"
"checksums, in the order of `offsets`. ValueError names the first offset whose header does\n"
"not fit in `buffer` or has an IHL below 5.\n\n"
">>> hdr = bytes.fromhex('450000730000400040110000c0a80001c0a800c7')\n"
">>> csum.ipv4_header_batch(hdr + hdr, [0, 20]).tolist() == [0xb861, 0xb861]\n"
"True");

static PyObject *py_ipv4_header_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "buffer", "offsets" };
    const char *fname = "ipv4_header_batch";
    PyObject *a[2];
    if (args_parse(fname, args, nargs, kwnames, names, 2, 2, a) < 0)
        return NULL;
    Py_buffer view;
    if (args_buffer(a[0], &view, 0, fname, "buffer") < 0)
        return NULL;
    PyObject *result = NULL, *seq = NULL, *raw = NULL;
    const void **hdrs = NULL;
    Py_ssize_t *offs = NULL;
    unsigned char *tail_copies = NULL;
    /* A tuple of its own: each offset's __index__ may run Python code (see args_tuple). */
    seq = args_tuple(a[1], "ipv4_header_batch(): offsets must be an iterable of ints");
    if (!seq)
        goto out;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    hdrs = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *hdrs);
    offs = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *offs);
    raw = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(csum_sum16));
    if (!hdrs || !offs || !raw) {
        PyErr_NoMemory();
        goto out;
    }
    /* First every offset, which may run Python code (__index__), then every header, which
     * runs none: code run for offsets[j] could rewrite the header at offsets[i < j] after it
     * was checked (IHL 5 -> 15). The batch takes each IHL from the header again, so a header
     * with fewer than 60 bytes (the most an IHL can ask for) left in the buffer is checked and
     * summed in a copy of its own: another thread writing the buffer while the GIL is released
     * can then change results, never make the batch read past the buffer. */
    const unsigned char *base = view.buf;
    Py_ssize_t tails = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned long long off;
        if (args_uint(PyTuple_GET_ITEM(seq, i), (unsigned long long)PY_SSIZE_T_MAX, fname,
                      "each offset", &off) < 0)
            goto out;
        offs[i] = (Py_ssize_t)off;
        if ((Py_ssize_t)off < view.len && view.len - (Py_ssize_t)off < IPV4_MAX_HEADER)
            tails++;
    }
    if (tails && !(tail_copies = PyMem_Malloc((size_t)tails * IPV4_MAX_HEADER))) {
        PyErr_NoMemory();
        goto out;
    }
    unsigned char *copy = tail_copies;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t off = offs[i];
        Py_ssize_t left = off < view.len ? view.len - off : 0;
        const unsigned char *hdr = base + (left ? off : 0);
        if (left > 0 && left < IPV4_MAX_HEADER) {
            memcpy(copy, hdr, (size_t)left);
            memset(copy + left, 0, (size_t)(IPV4_MAX_HEADER - left));
            hdr = copy;
            copy += IPV4_MAX_HEADER;
        }
        if (ipv4_ihl(hdr, left, fname, i, (unsigned long long)off) < 0)
            goto out;
        hdrs[i] = hdr;
    }
    csum_sum16 *out = (csum_sum16 *)PyBytes_AS_STRING(raw);
    if (n >= 4096) {
        Py_BEGIN_ALLOW_THREADS
        csum_ipv4_header_batch(hdrs, (size_t)n, out);
        Py_END_ALLOW_THREADS
    } else {
        csum_ipv4_header_batch(hdrs, (size_t)n, out);
    }
    for (Py_ssize_t i = 0; i < n; i++) /* as stored -> as numbers read big-endian */
        out[i] = ntohs(out[i]);
    result = PyObject_CallFunction(array_type, "sO", "H", raw);
out:
    PyMem_Free(tail_copies);
    PyMem_Free(offs);
    PyMem_Free(hdrs);
    Py_XDECREF(raw);
    Py_XDECREF(seq);
    PyBuffer_Release(&view);
    return result;
}

/* src, dst, proto, length, payload_sum of the pseudo-header helpers. */
struct pseudo_args {
    unsigned char src[16], dst[16];
    unsigned long long proto, length, sum;
};

static int pseudo_parse(const char *fname, int addr_size, PyObject *const *args,
                        Py_ssize_t nargs, PyObject *kwnames, struct pseudo_args *p)
{
    static const char *const names[] = { "src", "dst", "proto", "length", "payload_sum" };
    PyObject *a[5];
    p->sum = 0;
    if (args_parse(fname, args, nargs, kwnames, names, 4, 5, a) < 0 ||
        args_address(a[0], addr_size, 0, fname, "src", p->src) < 0 ||
        args_address(a[1], addr_size, 0, fname, "dst", p->dst) < 0 ||
        args_uint(a[2], 0xff, fname, "proto", &p->proto) < 0 ||
        args_uint(a[3], 0xffffffffu, fname, "length", &p->length) < 0 ||
        args_uint(a[4], 0xffffffffu, fname, "payload_sum", &p->sum) < 0)
        return -1;
    return 0;
}

static csum_wsum tcpudp_v4_sum(const struct pseudo_args *p)
{
    uint32_t s, d;
    memcpy(&s, p->src, 4);
    memcpy(&d, p->dst, 4);
    return csum_tcpudp_nofold(s, d, (uint32_t)p->length, (uint8_t)p->proto,
                              wsum_to_host((uint32_t)p->sum));
}

PyDoc_STRVAR(tcpudp_v4_doc,
"tcpudp_v4($module, src, dst, proto, length, payload_sum=0)\n--\n\n"
"The TCP/UDP checksum over IPv4 (the kernel's csum_tcpudp_magic): the IPv4 pseudo-header of\n"
"`src`, `dst` (bytes, str or ipaddress.IPv4Address), `proto` (6 TCP, 17 UDP) and `length`\n"
"(header + payload) added to `payload_sum` = partial(segment), folded. Over a segment with\n"
"its checksum field zeroed: the value to store (for UDP, pass it through udp_fixup()); over\n"
"a received segment: 0 when intact.\n\n"
">>> udp = bytes.fromhex('d43100350010000068656c6c6f21') + b'\\n\\n'\n"
">>> hex(csum.tcpudp_v4('10.0.0.1', '10.0.0.2', 17, len(udp), csum.partial(udp)))\n"
"'0xc967'");

static PyObject *py_tcpudp_v4(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    (void)self;
    struct pseudo_args p;
    if (pseudo_parse("tcpudp_v4", 4, args, nargs, kwnames, &p) < 0)
        return NULL;
    return check_result(csum_fold(tcpudp_v4_sum(&p)));
}

PyDoc_STRVAR(tcpudp_v4_nofold_doc,
"tcpudp_v4_nofold($module, src, dst, proto, length, payload_sum=0)\n--\n\n"
"tcpudp_v4() before folding: the partial sum of the IPv4 pseudo-header plus `payload_sum`\n"
"(the kernel's csum_tcpudp_nofold), e.g. to pass as checksum(segment, initial=...).\n\n"
">>> udp = bytes.fromhex('d43100350010000068656c6c6f21') + b'\\n\\n'\n"
">>> ph = csum.tcpudp_v4_nofold('10.0.0.1', '10.0.0.2', 17, len(udp))\n"
">>> hex(csum.checksum(udp, ph))\n"
"'0xc967'");

static PyObject *py_tcpudp_v4_nofold(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames)
{
    (void)self;
    struct pseudo_args p;
    if (pseudo_parse("tcpudp_v4_nofold", 4, args, nargs, kwnames, &p) < 0)
        return NULL;
    return sum_result(wsum_from_host(tcpudp_v4_sum(&p)));
}

PyDoc_STRVAR(ipv6_doc,
"ipv6($module, src, dst, proto, length, payload_sum=0)\n--\n\n"
"The upper-layer checksum over IPv6 (RFC 8200 section 8.1; the kernel's csum_ipv6_magic):\n"
"the pseudo-header of `src`, `dst` (bytes, str or ipaddress.IPv6Address; with a Routing\n"
"header, the final destination), `proto` (6 TCP, 17 UDP, 58 ICMPv6) and the 32-bit upper-layer\n"
"`length`, added to `payload_sum` = partial(upper-layer packet), folded. Over a packet with\n"
"its checksum field zeroed: the value to store (for UDP, pass it through udp_fixup(): IPv6\n"
"sends a computed 0 as 0xffff too); over a received packet: 0 when intact. A zone\n"
"('fe80::1%eth0', IPv6Address.scope_id) is ignored: it is not part of the address on the\n"
"wire.\n\n"
">>> icmp = bytes.fromhex('8000000000010001')  # echo request, checksum zeroed\n"
">>> hex(csum.ipv6('::1', '::1', 58, len(icmp), csum.partial(icmp)))\n"
"'0x7fb9'");

static PyObject *py_ipv6(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames)
{
    (void)self;
    struct pseudo_args p;
    if (pseudo_parse("ipv6", 16, args, nargs, kwnames, &p) < 0)
        return NULL;
    return check_result(csum_ipv6_magic(p.src, p.dst, (uint32_t)p.length, (uint8_t)p.proto,
                                        wsum_to_host((uint32_t)p.sum)));
}

PyDoc_STRVAR(udp_fixup_doc,
"udp_fixup($module, check)\n--\n\n"
"The value to store in a UDP checksum field for a computed checksum: a computed 0 is sent\n"
"as 0xffff (RFC 768; a stored 0 means 'no checksum'), anything else unchanged.\n\n"
">>> hex(csum.udp_fixup(0))\n"
"'0xffff'");

static PyObject *py_udp_fixup(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames)
{
    (void)self;
    unsigned long long c;
    if (one_uint_arg("udp_fixup", "check", 0xffff, args, nargs, kwnames, &c) < 0)
        return NULL;
    return check_result(csum_udp_fixup(htons((uint16_t)c)));
}

/* check, old, new of the replace helpers; the fields as `size` bytes in network order. */
static int replace_parse(const char *fname, int size, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, csum_sum16 *check, unsigned char *old,
                         unsigned char *new)
{
    static const char *const names[] = { "check", "old", "new" };
    PyObject *a[3];
    unsigned long long c;
    if (args_parse(fname, args, nargs, kwnames, names, 3, 3, a) < 0 ||
        args_uint(a[0], 0xffff, fname, "check", &c) < 0)
        return -1;
    *check = htons((uint16_t)c);
    if (size == 2) {
        unsigned long long o, n;
        if (args_uint(a[1], 0xffff, fname, "old", &o) < 0 ||
            args_uint(a[2], 0xffff, fname, "new", &n) < 0)
            return -1;
        old[0] = (unsigned char)(o >> 8), old[1] = (unsigned char)o;
        new[0] = (unsigned char)(n >> 8), new[1] = (unsigned char)n;
        return 0;
    }
    if (args_address(a[1], size, 1, fname, "old", old) < 0 ||
        args_address(a[2], size, 1, fname, "new", new) < 0)
        return -1;
    return 0;
}

/* RFC 1624 update of `check` for a field of 2, 4 or 16 bytes. */
static PyObject *replace_field(const char *fname, int size, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames)
{
    csum_sum16 check;
    unsigned char o[16], n[16];
    if (replace_parse(fname, size, args, nargs, kwnames, &check, o, n) < 0)
        return NULL;
    if (size == 2) {
        uint16_t from, to;
        memcpy(&from, o, 2);
        memcpy(&to, n, 2);
        csum_replace2(&check, from, to);
    } else if (size == 4) {
        uint32_t from, to;
        memcpy(&from, o, 4);
        memcpy(&to, n, 4);
        csum_replace4(&check, from, to);
    } else {
        csum_replace16(&check, o, n);
    }
    return check_result(check);
}

PyDoc_STRVAR(replace2_doc,
"replace2($module, check, old, new)\n--\n\n"
"Update checksum `check` after a 16-bit field it covers changed from `old` to `new` (ints as\n"
"read big-endian), without recomputing (RFC 1624 eqn. 3). The field must start at an even\n"
"offset of the checksummed data, as every IPv4/IPv6/TCP/UDP header field does. UDP is the\n"
"caller's to handle: a stored 0 over IPv4 means \"no checksum\" and must stay 0, and a result\n"
"of 0 is stored as udp_fixup() gives it.\n\n"
">>> hdr = bytearray.fromhex('450000730000400040110000c0a80001c0a800c7')\n"
">>> old = csum.ipv4_header(hdr)\n"
">>> hdr[8] = 0x3f  # TTL 64 -> 63: the word at offset 8 goes 0x4011 -> 0x3f11\n"
">>> csum.replace2(old, 0x4011, 0x3f11) == csum.ipv4_header(hdr)\n"
"True");

static PyObject *py_replace2(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    (void)self;
    return replace_field("replace2", 2, args, nargs, kwnames);
}

PyDoc_STRVAR(replace4_doc,
"replace4($module, check, old, new)\n--\n\n"
"replace2() for a 32-bit field: an IPv4 address (bytes, str, ipaddress.IPv4Address) or a\n"
"port pair, or any 32-bit int as read big-endian.\n\n"
">>> hdr = bytearray.fromhex('450000730000400040110000c0a80001c0a800c7')\n"
">>> old = csum.ipv4_header(hdr)\n"
">>> hdr[12:16] = bytes([10, 0, 0, 1])  # NAT: a new source address\n"
">>> csum.replace4(old, '192.168.0.1', '10.0.0.1') == csum.ipv4_header(hdr)\n"
"True");

static PyObject *py_replace4(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    (void)self;
    return replace_field("replace4", 4, args, nargs, kwnames);
}

PyDoc_STRVAR(replace16_doc,
"replace16($module, check, old, new)\n--\n\n"
"replace2() for a 128-bit field: an IPv6 address (bytes, str, ipaddress.IPv6Address, or an\n"
"int; a zone is ignored, as for ipv6()), e.g. in a TCP, UDP or ICMPv6 checksum after an\n"
"address rewrite.\n\n"
">>> icmp = bytes.fromhex('8000000000010001')\n"
">>> old = csum.ipv6('2001:db8::1', '::1', 58, len(icmp), csum.partial(icmp))\n"
">>> new = csum.ipv6('2001:db8::2', '::1', 58, len(icmp), csum.partial(icmp))\n"
">>> csum.replace16(old, '2001:db8::1', '2001:db8::2') == new\n"
"True");

static PyObject *py_replace16(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    (void)self;
    return replace_field("replace16", 16, args, nargs, kwnames);
}

PyDoc_STRVAR(replace_by_diff_doc,
"replace_by_diff($module, check, diff)\n--\n\n"
"Update checksum `check` by `diff`, the change of the covered data's partial sum (the new\n"
"sum less the old: sub(), or block_sub() and block_add() for bytes at an odd offset), without\n"
"recomputing (the kernel's csum_replace_by_diff, RFC 1624 eqn. 3). It never returns 0xffff:\n"
"data changed to all zeros gives 0x0000, as replace2() does.\n\n"
">>> hdr = bytearray.fromhex('450000730000400040110000c0a80001c0a800c7')\n"
">>> old_check, old = csum.ipv4_header(hdr), csum.partial(hdr[4:9])\n"
">>> hdr[4:9] = bytes.fromhex('beef00003f')  # new identification, flags, TTL 63\n"
">>> diff = csum.block_add(csum.block_sub(0, old, 4), csum.partial(hdr[4:9]), 4)\n"
">>> csum.replace_by_diff(old_check, diff) == csum.ipv4_header(hdr)\n"
"True");

static PyObject *py_replace_by_diff(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames)
{
    (void)self;
    static const char *const names[] = { "check", "diff" };
    PyObject *a[2];
    unsigned long long c, d;
    if (args_parse("replace_by_diff", args, nargs, kwnames, names, 2, 2, a) < 0 ||
        args_uint(a[0], 0xffff, "replace_by_diff", "check", &c) < 0 ||
        args_uint(a[1], 0xffffffffu, "replace_by_diff", "diff", &d) < 0)
        return NULL;
    csum_sum16 check = htons((uint16_t)c);
    csum_replace_by_diff(&check, wsum_to_host((uint32_t)d));
    return check_result(check);
}

/* ---- implementations --------------------------------------------------------------------- */

static PyObject *impl_tuple(const struct csum_impl *impl)
{
    return Py_BuildValue("(sssO)", impl->name, impl->description, impl->requires,
                         csum_impl_supported(impl) ? Py_True : Py_False);
}

static PyObject *py_impls(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    size_t n = csum_impl_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *t = impl_tuple(csum_impl_get(i));
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, t);
    }
    return list;
}

static PyObject *py_active(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return impl_tuple(csum_impl_active());
}

PyDoc_STRVAR(dispatch_doc,
"dispatch($module)\n--\n\n"
"The dispatch plan csum follows on this CPU: which implementation sums which lengths, as\n"
"'name@from,...' (e.g. 'x86-scalar@0,avx512@128,avx512-vnni@256'). The CSUM_DISPATCH and\n"
"CSUM_IMPL environment variables override it (see `csum tune`); they are read once, when the\n"
"plan is first needed (the process's first checksum, or its first dispatch() or active()),\n"
"not at import.\n\n"
">>> csum.active().name in csum.dispatch()\n"
"True");

static PyObject *py_dispatch(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    char plan[512];
    size_t n = csum_dispatch_describe(plan, sizeof plan);
    if (n >= sizeof plan) {
        char *big = PyMem_Malloc(n + 1);
        if (!big)
            return PyErr_NoMemory();
        csum_dispatch_describe(big, n + 1);
        PyObject *r = PyUnicode_FromString(big);
        PyMem_Free(big);
        return r;
    }
    return PyUnicode_FromString(plan);
}

static PyObject *py_gil_threshold(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    Py_ssize_t old = gil_threshold;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "_gil_threshold() takes at most 1 argument");
        return NULL;
    }
    if (nargs == 1 && args[0] != Py_None) { /* None: the default, only read it */
        unsigned long long v;
        if (args_uint(args[0], (unsigned long long)PY_SSIZE_T_MAX, "_gil_threshold", "bytes",
                      &v) < 0)
            return NULL;
        gil_threshold = (Py_ssize_t)v;
    }
    return PyLong_FromSsize_t(old);
}

/* ---- pcap: through pcap_adapter.c -------------------------------------------------------- */

/* Ctrl-C while a capture is walked with the GIL released: the walk's should_stop (asked
 * before each read and every 4096 packets, in the thread that called _pcap()) takes the GIL
 * and runs the signal handlers that are due, PyErr_CheckSignals(), which does so in the main
 * thread only (_pcap() is asked for this there). A handler that raised (Ctrl-C's
 * KeyboardInterrupt, or whatever a handler of the program's raises) stops the walk; its
 * exception stays set in the thread's state, where _pcap() returns it.
 * Taking a free GIL costs about a microsecond, but one that a busy thread holds up to the
 * switch interval (5 ms): after a wait, the next check comes no sooner than 20 times that
 * wait later (at most 0.1 s), so the walk waits at most about 5% of its time, and Ctrl-C
 * stops it within a few reads. */
struct pcap_signals {
    PyThreadState *thread;  /* the caller's, saved while the GIL is released */
    int raised;             /* a handler raised: its exception is set in `thread` */
    uint64_t not_before_ns; /* CLOCK_MONOTONIC: no check before then */
};

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int pcap_should_stop(void *arg)
{
    struct pcap_signals *s = arg;
    if (s->raised)
        return 1;
    const uint64_t asked = monotonic_ns();
    if (asked < s->not_before_ns)
        return 0;
    PyEval_RestoreThread(s->thread);
    const uint64_t got = monotonic_ns();
    s->raised = PyErr_CheckSignals() < 0;
    s->thread = PyEval_SaveThread();
    const uint64_t wait = 20 * (got - asked);
    s->not_before_ns = got + (wait < 100000000u ? wait : 100000000u);
    return s->raised;
}

/* Set while this thread runs _pcap(): a signal handler that the walk runs (above) may call
 * csum.pcap again, but the command's state is per thread, and in use. */
static __thread int pcap_running;

/* _pcap(args, input_fd=-1, output_fd=-1, signals=False) -> (status, errno, usage, stdout,
 * stderr, document) of `csum pcap ARGS...`, "-" meaning input_fd (IN) and output_fd (OUT).
 * `signals`: run the signal handlers during the walk (in the main thread), and raise what
 * one raised (the walk stopped). */
static PyObject *py_pcap(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *list;
    int in_fd = -1, out_fd = -1, signals = 0;
    if (!PyArg_ParseTuple(args, "O|iip:_pcap", &list, &in_fd, &out_fd, &signals))
        return NULL;
    if (pcap_running) {
        PyErr_SetString(PyExc_RuntimeError, "csum.pcap: called by a signal handler during "
                        "another csum.pcap call in the same thread");
        return NULL;
    }
    /* A tuple of its own: an os.PathLike argument's __fspath__ may run Python code. */
    PyObject *seq = args_tuple(list, "_pcap(): args must be a sequence of str");
    if (!seq)
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    char **argv = PyMem_Calloc((size_t)n + 2, sizeof *argv);
    PyObject **encoded = PyMem_Calloc((size_t)n + 1, sizeof *encoded);
    PyObject *result = NULL;
    if (!argv || !encoded) {
        PyErr_NoMemory();
        goto out;
    }
    argv[0] = "pcap";
    for (Py_ssize_t i = 0; i < n; i++) {
        /* Paths as the OS sees them (os.fsencode), so any file name works. */
        if (!PyUnicode_FSConverter(PyTuple_GET_ITEM(seq, i), &encoded[i]))
            goto out;
        argv[i + 1] = PyBytes_AS_STRING(encoded[i]);
    }
    struct pcap_adapter_result r;
    struct pcap_signals sig = { 0 };
    pcap_running = 1;
    sig.thread = PyEval_SaveThread();
    const int rc = pcap_adapter_run((int)n + 1, argv, in_fd, out_fd,
                                    signals ? pcap_should_stop : NULL, &sig, &r);
    PyEval_RestoreThread(sig.thread);
    pcap_running = 0;
    if (sig.raised) { /* the walk stopped: the handler's exception, set, is the result */
        if (rc == 0) {
            free(r.out);
            free(r.err);
            free(r.doc);
        }
        goto out;
    }
    if (rc != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        goto out;
    }
    result = Py_BuildValue("(iiiy#y#y#)", r.status, r.error, r.usage, r.out,
                           (Py_ssize_t)r.out_len, r.err, (Py_ssize_t)r.err_len, r.doc,
                           (Py_ssize_t)r.doc_len);
    free(r.out);
    free(r.err);
    free(r.doc);
out:
    if (encoded)
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(encoded[i]);
    PyMem_Free(encoded);
    PyMem_Free(argv);
    Py_DECREF(seq);
    return result;
}

/* _pcap_compressions() -> ((name, library or None), ...): what this build reads. */
static PyObject *py_pcap_compressions(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);
    const char *name, *library;
    for (int i = 1; list && (name = pcap_adapter_compression(i, &library)); i++) {
        PyObject *item = Py_BuildValue("(sz)", name, library);
        if (!item || PyList_Append(list, item) < 0)
            Py_CLEAR(list);
        Py_XDECREF(item);
    }
    if (!list)
        return NULL;
    PyObject *tuple = PyList_AsTuple(list);
    Py_DECREF(list);
    return tuple;
}

/* ---- the module -------------------------------------------------------------------------- */

#define FAST(name, doc) { #name, (PyCFunction)(void (*)(void))py_##name, METH_FASTCALL | METH_KEYWORDS, doc }

static PyMethodDef methods[] = {
    FAST(checksum, checksum_doc),
    FAST(partial, partial_doc),
    FAST(partial_copy, partial_copy_doc),
    FAST(iov, iov_doc),
    FAST(iov_range, iov_range_doc),
    FAST(fold, fold_doc),
    FAST(unfold, unfold_doc),
    FAST(add, add_doc),
    FAST(sub, sub_doc),
    FAST(block_add, block_add_doc),
    FAST(block_sub, block_sub_doc),
    FAST(ipv4_header, ipv4_header_doc),
    FAST(ipv4_header_batch, ipv4_header_batch_doc),
    FAST(tcpudp_v4, tcpudp_v4_doc),
    FAST(tcpudp_v4_nofold, tcpudp_v4_nofold_doc),
    FAST(ipv6, ipv6_doc),
    FAST(udp_fixup, udp_fixup_doc),
    FAST(replace2, replace2_doc),
    FAST(replace4, replace4_doc),
    FAST(replace16, replace16_doc),
    FAST(replace_by_diff, replace_by_diff_doc),
    { "_impls", py_impls, METH_NOARGS, "_impls($module)\n--\n\n(name, description, requires, supported) of every implementation, in table order (not a speed ranking)." },
    { "_active", py_active, METH_NOARGS, "_active($module)\n--\n\nThe implementation csum_partial uses for the longest buffers." },
    { "dispatch", py_dispatch, METH_NOARGS, dispatch_doc },
    { "_gil_threshold", (PyCFunction)(void (*)(void))py_gil_threshold, METH_FASTCALL, "_gil_threshold($module, bytes=None, /)\n--\n\nThe size from which the GIL is released; sets it when given. Returns the previous value." },
    { "_pcap", py_pcap, METH_VARARGS, "_pcap($module, args, input_fd=-1, output_fd=-1, signals=False, /)\n--\n\nRun `csum pcap ARGS...`, '-' being the descriptors given: (exit status, errno, usage error, stdout, stderr, fix document). signals: run signal handlers during the walk (main thread), raising what one raises." },
    { "_pcap_compressions", py_pcap_compressions, METH_NOARGS, "_pcap_compressions($module, /)\n--\n\n(name, library or None) of each compression `csum pcap` knows." },
    { NULL, NULL, 0, NULL },
};

static int module_exec(PyObject *m)
{
    PyObject *array = PyImport_ImportModule("array");
    if (!array)
        return -1;
    array_type = PyObject_GetAttrString(array, "array");
    Py_DECREF(array);
    if (!array_type)
        return -1;
    if (PyModule_AddStringConstant(m, "library_version", csum_version()) < 0 ||
        PyModule_AddIntConstant(m, "GIL_THRESHOLD_DEFAULT", GIL_THRESHOLD_DEFAULT) < 0 ||
        PyModule_AddIntConstant(m, "_PCAP_MAX_PORTS", pcap_adapter_max_ports()) < 0)
        return -1;
    return 0;
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "csum._csum",
    "The C core of the csum package (import csum, not this module).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__csum(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && module_exec(m) < 0)
        Py_CLEAR(m);
    return m;
}
