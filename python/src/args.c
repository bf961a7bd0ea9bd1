/* Argument handling for the extension's functions (see args.h). */
#include "args.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>

int args_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
               const char *const *names, int nreq, int nmax, PyObject **out)
{
    if (nargs > nmax) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments (%zd given)", fname, nmax,
                     nargs);
        return -1;
    }
    for (int i = 0; i < nmax; i++)
        out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int i = 0;
        while (i < nmax && PyUnicode_CompareWithASCIIString(key, names[i]) != 0)
            i++;
        if (i == nmax) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname, key);
            return -1;
        }
        if (out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname,
                         names[i]);
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (int i = 0; i < nreq; i++) {
        if (!out[i]) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname,
                         names[i], i + 1);
            return -1;
        }
    }
    return 0;
}

PyObject *args_tuple(PyObject *obj, const char *message)
{
    if (PyTuple_CheckExact(obj)) { /* immutable, and its items with it */
        Py_INCREF(obj);
        return obj;
    }
    PyObject *it = PyObject_GetIter(obj);
    if (!it) {
        if (PyErr_ExceptionMatches(PyExc_TypeError))
            PyErr_SetString(PyExc_TypeError, message);
        return NULL;
    }
    PyObject *tuple = PySequence_Tuple(it);
    Py_DECREF(it);
    return tuple;
}

int args_uint(PyObject *obj, unsigned long long max, const char *fname, const char *arg,
              unsigned long long *out)
{
    if (!obj)
        return 0;
    PyObject *num;
    if (PyLong_Check(obj)) {
        num = obj;
        Py_INCREF(num);
    } else if (PyIndex_Check(obj)) { /* NumPy integers and other __index__ types */
        num = PyNumber_Index(obj);
        if (!num)
            return -1;
    } else {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be an int, not %.100s", fname, arg,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(num, &overflow);
    Py_DECREF(num);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < 0 || (unsigned long long)v > max) {
        char top[24]; /* PyErr_Format has no %llx */
        snprintf(top, sizeof top, "0x%llx", max);
        PyErr_Format(PyExc_ValueError, "%s(): %s must be between 0 and %s, got %R", fname, arg,
                     top, obj);
        return -1;
    }
    *out = (unsigned long long)v;
    return 0;
}

/* Whether a buffer's struct-module format (PEP 3118) has an item that is a Python object
 * ('O', alone as in NumPy's object arrays and ctypes.py_object arrays, or a field of a
 * structure: "T{i:count:O:ref:}"). Field names, between colons, are skipped: "T{d:Open:}"
 * holds none. NULL is plain bytes. */
static int format_holds_objects(const char *format)
{
    for (const char *f = format; f && *f; f++) {
        if (*f == ':') {
            f = strchr(f + 1, ':');
            if (!f)
                return 0;
        } else if (*f == 'O') {
            return 1;
        }
    }
    return 0;
}

int args_buffer(PyObject *obj, Py_buffer *view, int writable, const char *fname, const char *arg)
{
    if (!writable && PyBytes_CheckExact(obj)) /* the common case, without the exporter call */
        return PyBuffer_FillInfo(view, obj, PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj), 1,
                                 PyBUF_SIMPLE);
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): %s must be a bytes-like object (bytes, bytearray, memoryview, mmap, "
                     "array, ...), not %.100s", fname, arg, Py_TYPE(obj)->tp_name);
        return -1;
    }
    /* Ask for strides so that every exporter can answer, then insist on C order: the bytes
     * are summed in the order tobytes() would give them, which needs one contiguous run. The
     * format is asked for only to refuse Python objects: every other item (integers, floats,
     * pointers 'P', structures of them) is bytes here, whatever it means to its exporter.
     * Object slots are not: their bytes are addresses, which would be summed as data, and
     * written (partial_copy's dst) they are references the exporter later releases: a crash. */
    if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return -1;
    if (format_holds_objects(view->format)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): %s must be a bytes-like object, not a buffer of Python objects "
                     "(format '%.50s' of %.100s)", fname, arg, view->format,
                     Py_TYPE(obj)->tp_name);
        PyBuffer_Release(view);
        return -1;
    }
    if (writable) {
        /* Told by the readonly flag, not by what a writable request raises (BufferError from
         * bytes, memoryview and mmap, ValueError from NumPy); then asked for again as
         * writable, as the buffer protocol wants of a caller that writes. */
        int readonly = view->readonly;
        PyBuffer_Release(view);
        if (readonly) {
            PyErr_Format(PyExc_TypeError,
                         "%s(): %s must be a writable bytes-like object (bytearray, memoryview, "
                         "mmap, array, ...), not a read-only %.100s", fname, arg,
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        if (PyObject_GetBuffer(obj, view, PyBUF_STRIDES | PyBUF_WRITABLE) < 0)
            return -1;
    }
    if (!PyBuffer_IsContiguous(view, 'C')) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_BufferError,
                     "%s(): %s is not C-contiguous (a strided view of %.100s); pass a contiguous "
                     "copy such as bytes(%s)", fname, arg, Py_TYPE(obj)->tp_name, arg);
        return -1;
    }
    return 0;
}

/* The int num (a reference taken over) as `size` bytes, big-endian; `obj` is what was given. */
static int address_from_int(PyObject *num, int size, const char *fname, const char *arg,
                            PyObject *obj, unsigned char *out)
{
    /* int.to_bytes raises OverflowError for a negative or too large value. */
    PyObject *bytes = PyObject_CallMethod(num, "to_bytes", "is", size, "big");
    Py_DECREF(num);
    if (!bytes) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s(): %s must be between 0 and 2**%d - 1, got %R",
                     fname, arg, 8 * size, obj);
        return -1;
    }
    memcpy(out, PyBytes_AS_STRING(bytes), (size_t)size);
    Py_DECREF(bytes);
    return 0;
}

/* The text form of an address into out: IPv4 dotted quad, or IPv6 with an optional zone
 * ("fe80::1%eth0", RFC 4007), as ipaddress.IPv6Address() takes it. The zone names the link an
 * address is used on, for this host; it is no part of the 16 bytes sent, and no part of a
 * pseudo-header, so it is checked for form (non-empty, one '%', as ipaddress checks it) and
 * dropped, as IPv6Address(...).packed drops it. */
static int address_from_text(const char *s, size_t n, int size, unsigned char *out)
{
    if (size == 16) {
        const char *zone = memchr(s, '%', n);
        if (zone) {
            char text[64]; /* INET6_ADDRSTRLEN (46), with room to tell too long */
            size_t len = (size_t)(zone - s);
            if (len >= sizeof text || zone + 1 == s + n || memchr(zone + 1, '%', n - len - 1))
                return -1;
            memcpy(text, s, len);
            text[len] = '\0';
            return inet_pton(AF_INET6, text, out) == 1 ? 0 : -1;
        }
    }
    return inet_pton(size == 4 ? AF_INET : AF_INET6, s, out) == 1 ? 0 : -1;
}

int args_address(PyObject *obj, int size, int allow_int, const char *fname, const char *arg,
                 unsigned char *out)
{
    const char *family = size == 4 ? "IPv4" : "IPv6";
    if (PyUnicode_Check(obj)) {
        Py_ssize_t n;
        PyObject *encoded = NULL;
        const char *s = PyUnicode_AsUTF8AndSize(obj, &n); /* cached: no copy per call */
        if (!s) {
            /* A lone surrogate, which UTF-8 refuses: ipaddress takes one in a zone (an
             * interface name os.fsdecode() made of non-UTF-8 bytes), and the zone is dropped;
             * in the address it is refused below, as any character that is no address. */
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
                return -1;
            PyErr_Clear();
            encoded = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
            if (!encoded)
                return -1;
            s = PyBytes_AS_STRING(encoded);
            n = PyBytes_GET_SIZE(encoded);
        }
        int bad = (size_t)n != strlen(s) || address_from_text(s, (size_t)n, size, out) < 0;
        Py_XDECREF(encoded);
        if (bad) {
            PyErr_Format(PyExc_ValueError, "%s(): %s %R is not an %s address", fname, arg, obj,
                         family);
            return -1;
        }
        return 0;
    }
    if (allow_int && (PyLong_Check(obj) || PyIndex_Check(obj))) {
        PyObject *num = PyNumber_Index(obj);
        if (num)
            return address_from_int(num, size, fname, arg, obj, out);
        /* NumPy arrays have __index__ too, and only one holding a single integer passes it:
         * any other array is bytes-like, and taken as bytes below. */
        if (!PyErr_ExceptionMatches(PyExc_TypeError) || !PyObject_CheckBuffer(obj))
            return -1;
        PyErr_Clear();
    }
    PyObject *src = obj, *packed = NULL;
    if (!PyObject_CheckBuffer(obj)) {
        packed = PyObject_GetAttrString(obj, "packed"); /* ipaddress.IPv4Address/IPv6Address */
        if (!packed) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "%s(): %s must be an %s address as bytes, str or ipaddress.%sAddress%s, "
                         "not %.100s", fname, arg, family, family, allow_int ? " or int" : "",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
        src = packed;
    }
    Py_buffer view;
    int rc = args_buffer(src, &view, 0, fname, arg);
    if (rc == 0) {
        if (view.len != size) {
            PyErr_Format(PyExc_ValueError, "%s(): %s must be a %d-byte %s address, got %zd bytes",
                         fname, arg, size, family, view.len);
            rc = -1;
        } else {
            memcpy(out, view.buf, (size_t)size);
        }
        PyBuffer_Release(&view);
    }
    Py_XDECREF(packed);
    return rc;
}
