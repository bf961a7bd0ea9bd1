/*
 * Argument handling shared by the extension's functions: parsing METH_FASTCALL arguments by
 * name (no dict is built: the call overhead matters for 20-byte headers), integers with a
 * range, buffers that must be C-contiguous, and IP addresses in the three forms Python code
 * has them (bytes, str, ipaddress objects). Every failure sets a Python exception naming the
 * function and the argument, and returns -1.
 */
#ifndef CSUM_PY_ARGS_H
#define CSUM_PY_ARGS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

/* Fill out[0..nmax) with borrowed references (NULL: not given) from positional and keyword
 * arguments; the first `nreq` names are required. */
int args_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               const char *const *names, int nreq, int nmax, PyObject **out);

/* The items of an iterable as a new tuple (TypeError with `message` if it is not iterable).
 * A snapshot: the caller then runs Python code per item (__index__, __fspath__), which could
 * shrink or free a list that PySequence_Fast() would have handed back as it is. */
PyObject *args_tuple(PyObject *obj, const char *message);

/* An int in 0..max (TypeError for a non-integer, ValueError outside the range). `obj` NULL
 * leaves *out as it is (the caller's default). */
int args_uint(PyObject *obj, unsigned long long max, const char *fname, const char *arg,
              unsigned long long *out);

/* A C-contiguous buffer (any bytes-like object, whatever its items: integers, floats,
 * pointers, structures, all taken as their bytes), writable if asked. TypeError for an object
 * without the buffer protocol, a buffer of Python objects (format 'O': NumPy object arrays,
 * ctypes.py_object arrays; its bytes are addresses, and references where written) or a
 * read-only one where a writable one is needed, BufferError for a non-contiguous one (as
 * hashlib and zlib.crc32 do). Release with PyBuffer_Release. */
int args_buffer(PyObject *obj, Py_buffer *view, int writable, const char *fname, const char *arg);

/* An IPv4 (size 4) or IPv6 (size 16) address: bytes-like of exactly that size, a str, or an
 * object with a `packed` attribute (ipaddress.IPv4Address / IPv6Address). An IPv6 zone
 * ("fe80::1%eth0", or IPv6Address's scope_id) is dropped alike from a str and an IPv6Address:
 * it is not in the address's bytes on the wire, nor in a pseudo-header. With `allow_int`,
 * also a non-negative int below 2**(8*size), taken big-endian (a field as a number), or any
 * object __index__ takes (NumPy integers; a NumPy array of bytes is bytes-like). */
int args_address(PyObject *obj, int size, int allow_int, const char *fname, const char *arg,
                 unsigned char *out);

#endif /* CSUM_PY_ARGS_H */
