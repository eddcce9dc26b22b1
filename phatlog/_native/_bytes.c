/* Record bytes, in C: an optional speed-up of the duplicate checks and the canonical digest.
 *
 *   maybe_duplicate_keys(data)   whether a JSON document may hold a key twice (phatlog/record/decoder.py)
 *   deal_keys(deals)             the deals' keys (phatlog/record/canonical.py)
 *   record_stream(record, ...)   the record's digest stream (phatlog/record/canonical.py)
 *   drop_nulls(data)             a JSON text without its null members (the canonical form: canonical.py)
 *   canonical_json(record, ...)  the record's canonical form, in one walk (canonical.py)
 *   DealTable                    the deals seen in a run (phatlog/archive/duplicates.py)
 *
 * Each declines (None) what is not of the common shape, and the Python code, the reference, decides.
 * No rule of any game is here. See phatlog/_native/_bytes.pyi.
 */
#include "_common.h"

/* ------------------------------------------------------------------------ duplicate keys
 *
 * maybe_duplicate_keys(data) scans a JSON document that a parser has already accepted and says whether
 * some object in it may hold one key twice: False means certainly not; True means it does, or that this
 * scan cannot tell (a key with an escape, which may spell another key differently; an object nested
 * deeper, or with more keys, than the scan keeps). The reader then finds the duplicates, and where they
 * are, in Python (phatlog/record/decoder.py); that is rare, so this scan is all that most records pay.
 *
 * JSON parsers keep the last of a repeated key without a word; a record with one is ambiguous.
 */

#define DUP_DEPTH 64
#define DUP_KEYS 512

typedef struct {
    const char *p;
    Py_ssize_t n;
} dup_key;

/* The end of the string whose opening quote is at s (one past its closing quote), or NULL if it does
 * not close; *escaped is set if it holds a backslash. */
/* 1 for the characters that neither end a string nor escape one. */
static char plain_char[256];

static inline const char *
string_end(const char *s, const char *end, int *escaped)
{
    const char *q = s + 1;
    /* Most strings of a record are cards: two plain characters. */
    if (end - q >= 3 && q[2] == '"' && q[0] != '\\' && q[1] != '\\' && q[0] != '"' && q[1] != '"') {
        return q + 3;
    }
    while (q < end) {
        char c = *q;
        if (c == '"') {
            return q + 1;
        }
        if (c == '\\') {
            *escaped = 1;
            q += 2;
            continue;
        }
        q++;
    }
    return NULL;
}

/* A new key of the innermost object: 1 if that object already holds it, or if the scan cannot tell
 * (too many keys). */
static inline int
add_key(dup_key *keys, Py_ssize_t *nkeys, Py_ssize_t first, const char *k, Py_ssize_t n)
{
    for (Py_ssize_t i = first; i < *nkeys; i++) {
        if (keys[i].n == n && keys[i].p[0] == k[0] && memcmp(keys[i].p, k, (size_t)n) == 0) {
            return 1;
        }
    }
    if (*nkeys == DUP_KEYS) {
        return 1;
    }
    keys[*nkeys].p = k;
    keys[*nkeys].n = n;
    (*nkeys)++;
    return 0;
}

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#define DUP_SIMD 1

/* The bytes of a 64-byte block equal to c, as a 64-bit mask. */
static inline uint64_t
block_mask(const __m128i v[4], char c)
{
    const __m128i x = _mm_set1_epi8(c);
    uint64_t m = 0;
    for (int i = 0; i < 4; i++) {
        m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v[i], x)) << (16 * i);
    }
    return m;
}

/* The scan for a document without a backslash, 64 bytes at a time: with no escapes, a byte is inside a
 * string when an odd number of quotes come before it, so only the braces and colons outside strings
 * are looked at one by one; a key is the string just before its colon. */
static int
scan_blocks(const char *buf, Py_ssize_t len)
{
    dup_key keys[DUP_KEYS];
    Py_ssize_t nkeys = 0, frame[DUP_DEPTH];
    int depth = 0;
    uint64_t carry = 0; /* all ones when a block starts inside a string */
    unsigned char tail[64];
    for (Py_ssize_t base = 0; base < len; base += 64) {
        const unsigned char *b = (const unsigned char *)buf + base;
        if (len - base < 64) {
            memset(tail, ' ', sizeof tail);
            memcpy(tail, b, (size_t)(len - base));
            b = tail;
        }
        __m128i v[4];
        for (int i = 0; i < 4; i++) {
            v[i] = _mm_loadu_si128((const __m128i *)(b + 16 * i));
        }
        uint64_t inside = block_mask(v, '"');
        inside ^= inside << 1;
        inside ^= inside << 2;
        inside ^= inside << 4;
        inside ^= inside << 8;
        inside ^= inside << 16;
        inside ^= inside << 32;
        inside ^= carry;
        carry = (inside >> 63) ? ~(uint64_t)0 : 0;
        uint64_t marks = (block_mask(v, '{') | block_mask(v, '}') | block_mask(v, ':')) & ~inside;
        while (marks) {
            Py_ssize_t pos = base + __builtin_ctzll(marks);
            marks &= marks - 1;
            char c = buf[pos];
            if (c == '{') {
                if (depth == DUP_DEPTH) {
                    return 1;
                }
                frame[depth++] = nkeys;
            }
            else if (c == '}') {
                if (depth == 0) {
                    return 1;
                }
                nkeys = frame[--depth];
            }
            else {
                Py_ssize_t e = pos - 1;
                while (e >= 0 && (buf[e] == ' ' || buf[e] == '\t' || buf[e] == '\n' || buf[e] == '\r')) {
                    e--;
                }
                Py_ssize_t s = e - 1;
                while (s >= 0 && buf[s] != '"') {
                    s--;
                }
                if (depth == 0 || e < 0 || buf[e] != '"' || s < 0 ||
                    add_key(keys, &nkeys, frame[depth - 1], buf + s + 1, e - s - 1)) {
                    return 1;
                }
            }
        }
    }
    return 0;
}
#endif

static PyObject *
maybe_duplicate_keys(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    const char *p = (const char *)view.buf, *end = p + view.len;
#ifdef DUP_SIMD
    if (memchr(p, '\\', (size_t)view.len) == NULL) {
        int found = scan_blocks(p, view.len);
        PyBuffer_Release(&view);
        return PyBool_FromLong(found);
    }
#endif
    dup_key keys[DUP_KEYS];
    Py_ssize_t nkeys = 0;
    Py_ssize_t frame[DUP_DEPTH]; /* the first key of each open object, or -1 for an array */
    int depth = 0, expect_key = 0, maybe = 0;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            int escaped = 0;
            const char *after = string_end(p, end, &escaped);
            if (after == NULL) {
                maybe = 1;
                break;
            }
            if (expect_key) {
                expect_key = 0;
                if (escaped || add_key(keys, &nkeys, frame[depth - 1], p + 1, after - p - 2)) {
                    maybe = 1;
                    break;
                }
            }
            p = after;
            continue;
        }
        switch (c) {
        case ',':
            if (depth == 0) {
                maybe = 1;
                goto out;
            }
            if (frame[depth - 1] >= 0) {
                expect_key = 1;
                break;
            }
            /* In an array: skip a run of cards ("QH",) at once. */
            while (end - p >= 6 && p[1] == '"' && p[4] == '"' && p[5] == ',' && plain_char[(unsigned char)p[2]] &&
                   plain_char[(unsigned char)p[3]]) {
                p += 5;
            }
            break;
        case '{':
            if (depth == DUP_DEPTH) {
                maybe = 1;
                goto out;
            }
            frame[depth++] = nkeys;
            expect_key = 1;
            break;
        case '[':
            if (depth == DUP_DEPTH) {
                maybe = 1;
                goto out;
            }
            frame[depth++] = -1;
            break;
        case '}':
        case ']':
            if (depth == 0) {
                maybe = 1;
                goto out;
            }
            depth--;
            if (frame[depth] >= 0) {
                nkeys = frame[depth]; /* the closed object's keys are done with */
            }
            expect_key = 0;
            break;
        default:
            break;
        }
        p++;
    }
out:
    PyBuffer_Release(&view);
    return PyBool_FromLong(maybe);
}

PyDoc_STRVAR(maybe_duplicate_keys_doc,
             "maybe_duplicate_keys(data, /)\n--\n\n"
             "Whether an object of this JSON document (already parsed, so valid) may hold a key twice:\n"
             "False for certainly not; True for it does, or for this scan cannot tell.");

/* ------------------------------------------------------------------ the deals' keys (duplicate check) */

static PyObject *str_dealer, *str_hands;

PyDoc_STRVAR(deal_keys_doc,
             "deal_keys(deals, /)\n--\n\n"
             "[(index, key)] for every deal that records its hands, the key as phatlog.record.canonical.deal_keys\n"
             "makes it; None where some deal is not of the common shape (then the Python code decides).");

/* phatlog.record.canonical.deal_keys' fast path. A deal's key is the number of hands (3 bits) and the dealer
 * (3 bits), then each hand's cards as a 52-bit set, first hand highest: as an unsigned big-endian
 * integer. The common shape only: 1 to 7 hands, a dealer 0 to 7, every card a card text held once in
 * its hand. Anything else returns None (no exception) and the Python code, the reference, makes the
 * keys, so this file decides nothing that code would not. */
#define DEAL_KEY_BYTES 48 /* a deal's key, big-endian, right-aligned: 6 + 7 * 52 bits fit in 47 bytes */

/* One deal's key into ``bytes`` (DEAL_KEY_BYTES, big-endian): 0, or -1 where the deal is not of the
 * common shape (then the Python code makes the keys). Runs no Python code. */
static int
deal_key_bytes(PyObject *dealer_obj, PyObject *hands, unsigned char bytes[DEAL_KEY_BYTES])
{
    long dealer = small_int(dealer_obj, 8);
    Py_ssize_t nhands;
    PyObject **hand_items = items_of(hands, &nhands);
    if (dealer < 0 || hand_items == NULL || nhands < 1 || nhands > MAX_SEATS) {
        return -1;
    }
    const size_t nbytes = DEAL_KEY_BYTES;
    memset(bytes, 0, nbytes);
    /* set bit ``bit`` (from the number's lowest) of the big-endian bytes */
#define SET_BIT(bit) (bytes[nbytes - 1 - (bit) / 8] |= (unsigned char)(1u << ((bit) % 8)))
    uint64_t head = ((uint64_t)nhands << 3) | (uint64_t)dealer;
    for (size_t b = 0; b < 6; b++) {
        if ((head >> b) & 1) {
            SET_BIT(52 * (size_t)nhands + b);
        }
    }
    for (Py_ssize_t h = 0; h < nhands; h++) {
        Py_ssize_t ncards = 0;
        PyObject *hand = hand_items[h];
        if (!PyList_CheckExact(hand) && !PyTuple_CheckExact(hand)) {
            return -1;
        }
        PyObject **cards = items_of(hand, &ncards); /* NULL for an empty list: then ncards is 0 */
        size_t start = 52 * (size_t)(nhands - 1 - h); /* where the hand's lowest bit is */
        uint64_t held = 0;
        for (Py_ssize_t c = 0; c < ncards; c++) {
            int id = card_id(cards[c]);
            if (id < 0 || (held >> id) & 1) {
                return -1;
            }
            held |= (uint64_t)1 << id;
            SET_BIT(start + (size_t)id);
        }
    }
#undef SET_BIT
    return 0;
}

/* One deal's key as an int (a new reference), or NULL with no exception where the deal is not of the
 * common shape. */
static PyObject *
deal_key_of(PyObject *dealer_obj, PyObject *hands)
{
    unsigned char bytes[DEAL_KEY_BYTES];
    if (deal_key_bytes(dealer_obj, hands, bytes) < 0) {
        return NULL;
    }
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(bytes, DEAL_KEY_BYTES, Py_ASNATIVEBYTES_BIG_ENDIAN);
#else
    return _PyLong_FromByteArray(bytes, DEAL_KEY_BYTES, 0, 0);
#endif
}

static PyObject *
deal_keys(PyObject *Py_UNUSED(module), PyObject *deals)
{
    if (!PyList_CheckExact(deals) && !PyTuple_CheckExact(deals)) {
        Py_RETURN_NONE;
    }
    Py_ssize_t ndeals = 0;
    PyObject **items = items_of(deals, &ndeals); /* NULL for an empty list: then ndeals is 0 */
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t d = 0; d < ndeals; d++) {
        Py_ssize_t now; /* a lookup may run code that changes the list: read it afresh, hold the deal */
        items = items_of(deals, &now);
        if (items == NULL || now != ndeals) {
            goto unusual;
        }
        PyObject *deal = items[d];
        Py_INCREF(deal);
        PyObject *hands = PyObject_GetAttr(deal, str_hands);
        if (hands == NULL) {
            Py_DECREF(deal);
            goto unusual;
        }
        if (hands == Py_None) {
            Py_DECREF(hands);
            Py_DECREF(deal);
            continue;
        }
        PyObject *dealer_obj = PyObject_GetAttr(deal, str_dealer);
        Py_DECREF(deal);
        PyObject *key = dealer_obj == NULL ? NULL : deal_key_of(dealer_obj, hands);
        Py_XDECREF(dealer_obj);
        Py_DECREF(hands);
        if (key == NULL) {
            if (PyErr_Occurred() && !PyErr_ExceptionMatches(PyExc_AttributeError)) {
                Py_DECREF(out);
                return NULL; /* out of memory */
            }
            goto unusual;
        }
        PyObject *pair = Py_BuildValue("(nN)", d, key);
        if (pair == NULL || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(pair);
    }
    return out;
unusual:
    PyErr_Clear();
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ the record's digest stream (duplicate check) */

PyDoc_STRVAR(record_stream_doc,
             "record_stream(record, classes, keys=False, /)\n--\n\n"
             "The bytes phatlog.record.canonical.record_stream makes of a record read by phatlog.record.decoder (a tree of\n"
             "msgspec structs, lists, strings, integers, booleans and None), the same byte for byte; None\n"
             "where the record holds anything else (an extension object, a float): then the Python code\n"
             "decides. ``classes`` maps each struct class of the record to (its number, its all-defaults\n"
             "instance or None, and for a deal's class where its dealer and hands fields are), as\n"
             "phatlog.record.canonical._classes makes it. With ``keys``: (the bytes or None, the deals' keys as\n"
             "phatlog.record.canonical.deal_blob writes them, or None where it declines), in the same walk.");

/* phatlog.record.canonical.record_stream's fast path: see there for the encoding, which this mirrors. */
enum { S_NONE = 0, S_FALSE, S_TRUE, S_BYTE, S_INT, S_STR8, S_STR, S_LIST8, S_LIST, S_STRUCT, S_CARD };

#define STREAM_TYPES 64
#define STREAM_FIELDS 24
#define STREAM_DEPTH 32

typedef struct {
    PyTypeObject *type; /* a strong reference while the table holds it */
    PyObject *empty;    /* borrowed from ``classes`` (which the table holds); NULL: never written as None */
    int number;
    int nfields;
    int dealer, hands; /* a deal's class: where its dealer and hands fields are (else -1) */
    Py_ssize_t offsets[STREAM_FIELDS];
} stream_type;

static stream_type stream_types[STREAM_TYPES];
#define STREAM_SLOTS 256
static unsigned char stream_slot[STREAM_SLOTS]; /* a class's likely place in the table, by its address */
static int stream_ntypes;
static PyObject *stream_classes; /* the ``classes`` the table was made from: another one starts it anew */

typedef struct {
    unsigned char *data;
    size_t len, cap;
    /* asked for: the deals' keys, each a 4-byte index (little-endian) and its key (DEAL_KEY_BYTES);
     * ``keys_ok`` 0 once a deal is not of the common shape */
    unsigned char *keys;
    size_t keys_len, keys_cap;
    int keys_ok;
} stream_buf;

/* Room for ``n`` more bytes at ``b->data + b->len``; -1 out of memory. */
static inline int
buf_room(stream_buf *b, size_t n)
{
    if (b->len + n <= b->cap) {
        return 0;
    }
    size_t cap = b->cap * 2 > b->len + n ? b->cap * 2 : b->len + n + 256;
    unsigned char *data = PyMem_Realloc(b->data, cap);
    if (data == NULL) {
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

static inline void
put_u32(unsigned char *at, uint32_t value)
{
    at[0] = (unsigned char)value;
    at[1] = (unsigned char)(value >> 8);
    at[2] = (unsigned char)(value >> 16);
    at[3] = (unsigned char)(value >> 24);
}

/* A length after its tag at ``at``: one byte (``short_tag``) below 256, else four (``long_tag``); 0 where
 * it does not fit in four bytes (the walk declines). */
static inline int
put_length(stream_buf *b, unsigned char *at, unsigned char short_tag, unsigned char long_tag, Py_ssize_t n)
{
    if (n < 256) {
        at[0] = short_tag;
        at[1] = (unsigned char)n;
        b->len += 2;
    } else if ((size_t)n <= 0xFFFFFFFFu) {
        at[0] = long_tag;
        put_u32(at + 1, (uint32_t)n);
        b->len += 5;
    } else {
        return 0;
    }
    return 1;
}

/* The slot of a table's hints that a struct class's address hashes to. */
static inline size_t
type_slot(const PyTypeObject *type)
{
    return ((uintptr_t)type >> 6) & (STREAM_SLOTS - 1);
}

/* Where a table of struct classes (``entries``: ``n`` entries of ``size`` bytes, each starting with its
 * class) holds ``type``, or -1: the slot its address hashes to remembers the last found there. */
static int
known_type(PyTypeObject *type, unsigned char *slots, const void *entries, size_t size, int n)
{
    size_t slot = type_slot(type);
    const char *base = (const char *)entries;
    int hint = slots[slot];
    if (hint < n && *(PyTypeObject *const *)(base + (size_t)hint * size) == type) {
        return hint;
    }
    for (int i = 0; i < n; i++) {
        if (*(PyTypeObject *const *)(base + (size_t)i * size) == type) {
            slots[slot] = (unsigned char)i;
            return i;
        }
    }
    return -1;
}

/* The table entry of a struct class, made on first sight; NULL (no exception) where it is not one of
 * ``classes``. */
static stream_type *
stream_type_of(PyTypeObject *type)
{
    int known = known_type(type, stream_slot, stream_types, sizeof stream_types[0], stream_ntypes);
    if (known >= 0) {
        return &stream_types[known];
    }
    if (stream_ntypes >= STREAM_TYPES) {
        return NULL;
    }
    PyObject *entry = PyDict_GetItemWithError(stream_classes, (PyObject *)type);
    if (entry == NULL || !PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 4) {
        PyErr_Clear();
        return NULL;
    }
    long number = small_int(PyTuple_GET_ITEM(entry, 0), 256);
    long dealer = PyTuple_GET_ITEM(entry, 2) == Py_None ? -1 : small_int(PyTuple_GET_ITEM(entry, 2), STREAM_FIELDS);
    long hands = PyTuple_GET_ITEM(entry, 3) == Py_None ? -1 : small_int(PyTuple_GET_ITEM(entry, 3), STREAM_FIELDS);
    PyObject *fields = PyObject_GetAttrString((PyObject *)type, "__struct_fields__");
    if (number < 0 || fields == NULL || !PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) > STREAM_FIELDS) {
        Py_XDECREF(fields);
        PyErr_Clear();
        return NULL;
    }
    stream_type *t = &stream_types[stream_ntypes];
    t->nfields = (int)PyTuple_GET_SIZE(fields);
    for (int f = 0; f < t->nfields; f++) {
        if ((t->offsets[f] = member_offset(type, PyTuple_GET_ITEM(fields, f))) <= 0) {
            Py_DECREF(fields);
            return NULL;
        }
    }
    Py_DECREF(fields);
    PyObject *empty = PyTuple_GET_ITEM(entry, 1);
    t->empty = empty == Py_None ? NULL : empty;
    t->number = (int)number;
    t->dealer = dealer < t->nfields && hands >= 0 ? (int)dealer : -1;
    t->hands = dealer < t->nfields && hands < t->nfields && dealer >= 0 ? (int)hands : -1;
    Py_INCREF(type);
    t->type = type;
    stream_slot[type_slot(type)] = (unsigned char)stream_ntypes;
    stream_ntypes++;
    return t;
}

/* Write one value (``index``: its place in the list that holds it, else -1); 1: done, 0: not of the
 * kinds this writes (decline), -1: an exception (memory). */
static int
stream_value(stream_buf *b, PyObject *value, int depth, Py_ssize_t index)
{
    if (depth > STREAM_DEPTH) {
        return 0;
    }
    if (buf_room(b, 16) < 0) {
        return -1;
    }
    unsigned char *at = b->data + b->len;
    if (PyUnicode_CheckExact(value)) {
        int card = card_id(value);
        if (card >= 0) { /* a card text: its id */
            at[0] = S_CARD;
            at[1] = (unsigned char)card;
            b->len += 2;
            return 1;
        }
        Py_ssize_t n;
        const char *text;
        if (PyUnicode_IS_COMPACT_ASCII(value)) {
            n = PyUnicode_GET_LENGTH(value);
            text = (const char *)PyUnicode_DATA(value);
        } else {
            text = PyUnicode_AsUTF8AndSize(value, &n);
            if (text == NULL) {
                PyErr_Clear();
                return 0;
            }
        }
        if (!put_length(b, at, S_STR8, S_STR, n)) {
            return 0;
        }
        if (buf_room(b, (size_t)n) < 0) {
            return -1;
        }
        memcpy(b->data + b->len, text, (size_t)n);
        b->len += (size_t)n;
        return 1;
    }
    if (value == Py_None) {
        at[0] = S_NONE;
        b->len += 1;
        return 1;
    }
    if (value == Py_False || value == Py_True) {
        at[0] = value == Py_True ? S_TRUE : S_FALSE;
        b->len += 1;
        return 1;
    }
    if (PyLong_CheckExact(value)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        if (v >= 0 && v < 256) {
            at[0] = S_BYTE;
            at[1] = (unsigned char)v;
            b->len += 2;
            return 1;
        }
        unsigned long long u = (unsigned long long)v;
        at[0] = S_INT;
        for (int i = 0; i < 8; i++) {
            at[1 + i] = (unsigned char)(u >> (8 * i));
        }
        b->len += 9;
        return 1;
    }
    if (PyList_CheckExact(value) || PyTuple_CheckExact(value)) {
        Py_ssize_t n;
        PyObject **items = items_of(value, &n);
        if (!put_length(b, at, S_LIST8, S_LIST, n)) {
            return 0;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            int done = stream_value(b, items[i], depth + 1, i);
            if (done != 1) {
                return done;
            }
        }
        return 1;
    }
    stream_type *t = stream_type_of(Py_TYPE(value));
    if (t == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    if (t->empty != NULL) {
        int same = PyObject_RichCompareBool(value, t->empty, Py_EQ);
        if (same < 0) {
            PyErr_Clear();
            return 0;
        }
        if (same) {
            at[0] = S_NONE;
            b->len += 1;
            return 1;
        }
    }
    at[0] = S_STRUCT;
    at[1] = (unsigned char)t->number;
    b->len += 2;
    for (int f = 0; f < t->nfields; f++) {
        PyObject *field = *(PyObject **)((char *)value + t->offsets[f]);
        if (field == NULL) {
            return 0;
        }
        int done = stream_value(b, field, depth + 1, -1);
        if (done != 1) {
            return done;
        }
    }
    if (b->keys_ok && t->hands >= 0 && depth == 2 && index >= 0) { /* a deal of the record's deals */
        PyObject *hands = *(PyObject **)((char *)value + t->offsets[t->hands]);
        if (hands != Py_None) {
            const size_t entry = 4 + DEAL_KEY_BYTES;
            if (b->keys_len + entry > b->keys_cap || index > 0x7FFFFFFF) {
                size_t cap = b->keys_cap * 2 + 16 * entry;
                unsigned char *keys = index > 0x7FFFFFFF ? NULL : PyMem_Realloc(b->keys, cap);
                if (keys == NULL) {
                    b->keys_ok = 0;
                    return 1;
                }
                b->keys = keys;
                b->keys_cap = cap;
            }
            unsigned char *at = b->keys + b->keys_len;
            put_u32(at, (uint32_t)index);
            if (deal_key_bytes(*(PyObject **)((char *)value + t->offsets[t->dealer]), hands, at + 4) < 0) {
                b->keys_ok = 0; /* not the common shape: the Python code makes the keys */
                return 1;
            }
            b->keys_len += entry;
        }
    }
    return 1;
}

/* What a writer's walk gives back (``done``: 1 written, 0 declined, -1 an exception or out of memory): the
 * bytes written, None, or NULL with the exception set. */
static PyObject *
written(const stream_buf *b, int done)
{
    if (done == 1) {
        return PyBytes_FromStringAndSize((const char *)b->data, (Py_ssize_t)b->len);
    }
    if (done == 0) {
        return Py_NewRef(Py_None);
    }
    if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    return NULL;
}

static PyObject *
record_stream(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 2 || nargs > 3 || !PyDict_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "record_stream(record, classes, keys=False)");
        return NULL;
    }
    int keys = nargs == 3 ? PyObject_IsTrue(args[2]) : 0;
    if (keys < 0) {
        return NULL;
    }
    if (args[1] != stream_classes) { /* another table of classes: the type table starts anew */
        for (int i = 0; i < stream_ntypes; i++) {
            Py_DECREF(stream_types[i].type);
        }
        stream_ntypes = 0;
        Py_XDECREF(stream_classes);
        Py_INCREF(args[1]);
        stream_classes = args[1];
    }
    stream_buf b = {PyMem_Malloc(8192), 0, 8192, NULL, 0, 0, keys};
    if (b.data == NULL) {
        return PyErr_NoMemory();
    }
    int done = stream_value(&b, args[0], 0, -1);
    PyObject *out = written(&b, done);
    PyMem_Free(b.data);
    if (out != NULL && nargs == 3) {
        if (b.keys_ok && done == 1) {
            out = Py_BuildValue("(Ny#)", out, (const char *)(b.keys == NULL ? (unsigned char *)"" : b.keys),
                                (Py_ssize_t)b.keys_len);
        } else {
            out = Py_BuildValue("(NO)", out, Py_None);
        }
    }
    PyMem_Free(b.keys);
    return out;
}

/* ------------------------------------------------------------------ the deals seen (duplicate check) */

/* phatlog.archive.duplicates' table of the deals seen in a run: each deal's key (DEAL_KEY_BYTES) and where it was
 * first seen (a packed int64), in an array of entries found through an open-addressed index; 56 bytes an
 * entry and 4 to 8 an index slot, against some 150 for a dict of Python ints. ``seen`` takes a record's
 * deals as phatlog.record.canonical.deal_blob writes them. duplicates._DealTable is the same in Python. */
typedef struct {
    unsigned char key[DEAL_KEY_BYTES];
    int64_t where;
} deal_entry;

typedef struct {
    PyObject_HEAD
    deal_entry *entries;
    uint32_t *index; /* entry number + 1; 0: empty */
    size_t count, entries_cap, mask;
} DealTable;

static uint64_t
deal_hash(const unsigned char *key)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < DEAL_KEY_BYTES; i += 8) {
        uint64_t w;
        memcpy(&w, key + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    return h;
}

static int
deal_table_grow(DealTable *self)
{
    size_t slots = self->mask ? (self->mask + 1) * 2 : 1024;
    if (slots > ((size_t)1 << 32)) {
        PyErr_NoMemory();
        return -1;
    }
    uint32_t *index = PyMem_Calloc(slots, sizeof *index);
    if (index == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t e = 0; e < self->count; e++) {
        size_t at = deal_hash(self->entries[e].key) & (slots - 1);
        while (index[at]) {
            at = (at + 1) & (slots - 1);
        }
        index[at] = (uint32_t)(e + 1);
    }
    PyMem_Free(self->index);
    self->index = index;
    self->mask = slots - 1;
    return 0;
}

static PyObject *
deal_table_seen(DealTable *self, PyObject *const *args, Py_ssize_t nargs)
{
    Py_buffer blob;
    if (nargs != 2 || PyObject_GetBuffer(args[0], &blob, PyBUF_SIMPLE) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "seen(blob, here)");
        }
        return NULL;
    }
    long long here = PyLong_AsLongLong(args[1]);
    const size_t entry = 4 + DEAL_KEY_BYTES;
    if ((here == -1 && PyErr_Occurred()) || here < 0 || blob.len % entry) {
        PyBuffer_Release(&blob);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "seen: a blob of whole entries and a place of 0 or more");
        }
        return NULL;
    }
    PyObject *found = NULL;
    const unsigned char *data = blob.buf;
    for (Py_ssize_t off = 0; off < blob.len; off += (Py_ssize_t)entry) {
        uint32_t deal = (uint32_t)data[off] | (uint32_t)data[off + 1] << 8 | (uint32_t)data[off + 2] << 16 |
                        (uint32_t)data[off + 3] << 24;
        const unsigned char *key = data + off + 4;
        if ((self->count + 1) * 4 > (self->mask + 1) * 3 || self->mask == 0) {
            if (deal_table_grow(self) < 0) {
                goto fail;
            }
        }
        size_t at = deal_hash(key) & self->mask;
        int64_t first = -1;
        while (self->index[at]) {
            deal_entry *e = &self->entries[self->index[at] - 1];
            if (memcmp(e->key, key, DEAL_KEY_BYTES) == 0) {
                first = e->where;
                break;
            }
            at = (at + 1) & self->mask;
        }
        if (first >= 0) {
            PyObject *pair = Py_BuildValue("(IL)", deal, (long long)first);
            if (pair == NULL || (found == NULL && (found = PyList_New(0)) == NULL) || PyList_Append(found, pair) < 0) {
                Py_XDECREF(pair);
                goto fail;
            }
            Py_DECREF(pair);
            continue;
        }
        if (self->count == self->entries_cap) {
            size_t cap = self->entries_cap ? self->entries_cap * 2 : 512;
            deal_entry *entries = cap > ((size_t)1 << 32) - 1 ? NULL : PyMem_Realloc(self->entries, cap * sizeof *entries);
            if (entries == NULL) {
                PyErr_NoMemory();
                goto fail;
            }
            self->entries = entries;
            self->entries_cap = cap;
        }
        deal_entry *e = &self->entries[self->count];
        memcpy(e->key, key, DEAL_KEY_BYTES);
        e->where = (int64_t)here + deal;
        self->index[at] = (uint32_t)(++self->count);
    }
    PyBuffer_Release(&blob);
    if (found == NULL) {
        Py_RETURN_NONE;
    }
    return found;
fail:
    Py_XDECREF(found);
    PyBuffer_Release(&blob);
    return NULL;
}

static Py_ssize_t
deal_table_len(DealTable *self)
{
    return (Py_ssize_t)self->count;
}

static void
deal_table_dealloc(DealTable *self)
{
    PyMem_Free(self->entries);
    PyMem_Free(self->index);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef deal_table_methods[] = {
    {"seen", (PyCFunction)(void (*)(void))deal_table_seen, METH_FASTCALL,
     "seen(blob, here, /)\n--\n\nAdd a record's deals (phatlog.record.canonical.deal_blob), each first seen at here + its\n"
     "index; [(index, where it was first seen)] for those seen before, or None."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods deal_table_sequence = {.sq_length = (lenfunc)deal_table_len};

static PyTypeObject DealTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "phatlog._native._bytes.DealTable",
    .tp_doc = "The deals seen in a run, by key (phatlog.archive.duplicates).",
    .tp_basicsize = sizeof(DealTable),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)deal_table_dealloc,
    .tp_methods = deal_table_methods,
    .tp_as_sequence = &deal_table_sequence,
};

/* ------------------------------------------------------------------------ null members
 *
 * drop_nulls(data) leaves out of a JSON text every object member whose value is null, as
 * phatlog/record/canonical.py's _drop_nulls does (the reference: two regular expressions, a member after a
 * comma, then one first in its object). Only for a text without a backslash, where no string holds a
 * quote, so that quotes open and close strings in turn and a quote followed by a colon closes a key; a
 * text with one is declined (None). One pass: a key's text is copied to the output as read, and taken
 * back with its comma (or, first in its object, with the comma after the null) when its value is null.
 */

static const char drop_nulls_doc[] =
    "drop_nulls(data, /)\n--\n\nThe JSON text without its null members (canonical.py's _drop_nulls), or None for a text\n"
    "with a backslash.";

static PyObject *
drop_nulls(PyObject *self, PyObject *arg)
{
    if (!PyBytes_CheckExact(arg)) {
        PyErr_SetString(PyExc_TypeError, "drop_nulls() takes bytes");
        return NULL;
    }
    const char *in = PyBytes_AS_STRING(arg);
    Py_ssize_t n = PyBytes_GET_SIZE(arg);
    if (memchr(in, '\\', (size_t)n) != NULL) {
        Py_RETURN_NONE;
    }
    PyObject *result = PyBytes_FromStringAndSize(NULL, n);
    if (result == NULL) {
        return NULL;
    }
    char *out = PyBytes_AS_STRING(result);
    Py_ssize_t o = 0, open = -1; /* where the last string opened in the output */
    int in_string = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        char c = in[i];
        if (c == '"') {
            if (!in_string) {
                open = o;
            }
            in_string = !in_string;
            out[o++] = c;
            if (!in_string && i + 6 < n && in[i + 1] == ':' && memcmp(in + i + 2, "null", 4) == 0
                && (in[i + 6] == ',' || in[i + 6] == '}') && open > 0) {
                char before = out[open - 1];
                if (before == ',') {
                    o = open - 1; /* ,"key":null: gone */
                    i += 5;
                }
                else if (before == '{') {
                    o = open; /* {"key":null, -> {   {"key":null} -> {} */
                    i += 5;
                    if (in[i + 1] == ',') {
                        i++;
                    }
                }
            }
            continue;
        }
        out[o++] = c;
    }
    if (o == n) {
        return result;
    }
    PyObject *shorter = PyBytes_FromStringAndSize(out, o);
    Py_DECREF(result);
    return shorter;
}

/* ------------------------------------------------------------------ the canonical form (the record fingerprint)
 *
 * canonical_json(record, classes) writes a record read by phatlog.record.decoder (a tree of msgspec structs,
 * lists, strings, integers, booleans and None) in the canonical form, in one walk: what
 * phatlog.record.canonical.canonical_bytes makes by encoding the record (msgspec, fields sorted), putting
 * null for each empty optional object (``"event":{...all defaults...}``), leaving out every null member and
 * checking for extension data, the same bytes. ``classes`` (canonical._json_classes) gives each struct
 * class's members in msgspec's sorted order and the empty objects it may be. Anything the walk is not sure
 * it writes as those steps would is declined (None), and the Python code makes the form: a string that
 * needs an escape, an extension object (any non-null ``ext``), a dict, a float, an integer beyond 64 bits,
 * a class not in ``classes``, nesting beyond JSON_DEPTH. */

PyDoc_STRVAR(canonical_json_doc,
             "canonical_json(record, classes, /)\n--\n\n"
             "The canonical form of a record read by phatlog.record.decoder, as phatlog.record.canonical.canonical_bytes\n"
             "makes it, byte for byte; None where it holds what this does not write (a string with an escape,\n"
             "extension data, a float, a class not in ``classes``): then the Python code does. ``classes`` maps\n"
             "each struct class to (its members, its empty objects), as phatlog.record.canonical._json_classes\n"
             "makes it.");

#define JSON_TYPES 64
#define JSON_MEMBERS 32
#define JSON_DROPS 4
#define JSON_DEPTH 32

typedef struct {
    const char *key; /* ``"name":``, or the whole member (``"game":"phat"``: a union's tag) */
    Py_ssize_t key_len;
    Py_ssize_t offset; /* the field's slot; 0: a tag, written as it is */
    int null_only;     /* the field must be null (extension data): anything else is declined */
} json_member;

typedef struct {
    const char *key; /* ``"name":``: an instance under this key written as ``text`` is left out */
    Py_ssize_t key_len;
    const char *text;
    Py_ssize_t text_len;
} json_drop;

typedef struct {
    PyTypeObject *type; /* a strong reference while the table holds it */
    PyObject *entry;    /* a strong reference: the bytes below are its */
    int nmembers, ndrops;
    json_member members[JSON_MEMBERS];
    json_drop drops[JSON_DROPS];
} json_type;

static json_type json_types[JSON_TYPES];
static unsigned char json_slot[STREAM_SLOTS]; /* a class's likely place in the table, by its address */
static int json_ntypes;
static PyObject *json_classes; /* the ``classes`` the table was made from: another one starts it anew */
static char json_plain[256];  /* 1 for the bytes a string holds as they are (no escape) */

/* A bytes object's text, or 0 where the object is not bytes. */
static inline int
bytes_of(PyObject *obj, const char **text, Py_ssize_t *n)
{
    if (!PyBytes_CheckExact(obj)) {
        return 0;
    }
    *text = PyBytes_AS_STRING(obj);
    *n = PyBytes_GET_SIZE(obj);
    return 1;
}

/* The table entry of a struct class, made on first sight; NULL (no exception) where it is not one of
 * ``classes`` or its entry is not of the shape _json_classes makes. */
static json_type *
json_type_of(PyTypeObject *type)
{
    int known = known_type(type, json_slot, json_types, sizeof json_types[0], json_ntypes);
    if (known >= 0) {
        return &json_types[known];
    }
    if (json_ntypes >= JSON_TYPES) {
        return NULL;
    }
    PyObject *entry = PyDict_GetItemWithError(json_classes, (PyObject *)type);
    if (entry == NULL || !PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *members = PyTuple_GET_ITEM(entry, 0), *drops = PyTuple_GET_ITEM(entry, 1);
    if (!PyTuple_CheckExact(members) || PyTuple_GET_SIZE(members) > JSON_MEMBERS || !PyTuple_CheckExact(drops)
        || PyTuple_GET_SIZE(drops) > JSON_DROPS) {
        return NULL;
    }
    PyObject *fields = PyObject_GetAttrString((PyObject *)type, "__struct_fields__");
    if (fields == NULL || !PyTuple_CheckExact(fields)) {
        Py_XDECREF(fields);
        PyErr_Clear();
        return NULL;
    }
    json_type *t = &json_types[json_ntypes];
    t->nmembers = (int)PyTuple_GET_SIZE(members);
    t->ndrops = (int)PyTuple_GET_SIZE(drops);
    for (int m = 0; m < t->nmembers; m++) {
        PyObject *member = PyTuple_GET_ITEM(members, m);
        json_member *jm = &t->members[m];
        if (!PyTuple_CheckExact(member) || PyTuple_GET_SIZE(member) != 3
            || !bytes_of(PyTuple_GET_ITEM(member, 0), &jm->key, &jm->key_len) || jm->key_len < 3) {
            Py_DECREF(fields);
            return NULL;
        }
        PyObject *index = PyTuple_GET_ITEM(member, 1);
        int null_only = PyObject_IsTrue(PyTuple_GET_ITEM(member, 2));
        if (null_only < 0) {
            PyErr_Clear();
            Py_DECREF(fields);
            return NULL;
        }
        jm->null_only = null_only;
        if (PyLong_CheckExact(index) && PyLong_AsLong(index) == -1 && !PyErr_Occurred()) {
            jm->offset = 0; /* a tag */
            continue;
        }
        long f = small_int(index, PyTuple_GET_SIZE(fields));
        if (f < 0 || (jm->offset = member_offset(type, PyTuple_GET_ITEM(fields, f))) <= 0) {
            PyErr_Clear();
            Py_DECREF(fields);
            return NULL;
        }
    }
    Py_DECREF(fields);
    for (int d = 0; d < t->ndrops; d++) {
        PyObject *drop = PyTuple_GET_ITEM(drops, d);
        json_drop *jd = &t->drops[d];
        if (!PyTuple_CheckExact(drop) || PyTuple_GET_SIZE(drop) != 2
            || !bytes_of(PyTuple_GET_ITEM(drop, 0), &jd->key, &jd->key_len)
            || !bytes_of(PyTuple_GET_ITEM(drop, 1), &jd->text, &jd->text_len)) {
            return NULL;
        }
    }
    Py_INCREF(type);
    Py_INCREF(entry);
    t->type = type;
    t->entry = entry;
    json_slot[type_slot(type)] = (unsigned char)json_ntypes;
    json_ntypes++;
    return t;
}

/* Append ``n`` bytes; -1 out of memory. */
static inline int
buf_put(stream_buf *b, const void *data, size_t n)
{
    if (buf_room(b, n) < 0) {
        return -1;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    return 0;
}

static int json_value(stream_buf *b, PyObject *value, int depth);

/* Write a struct's members as the canonical form has them; 1: done, 0: decline, -1: an exception. */
static int
json_struct(stream_buf *b, json_type *t, PyObject *value, int depth)
{
    if (buf_room(b, 1) < 0) {
        return -1;
    }
    b->data[b->len++] = '{';
    int first = 1;
    for (int m = 0; m < t->nmembers; m++) {
        const json_member *jm = &t->members[m];
        size_t mark = b->len;
        if (jm->offset == 0) { /* a tag */
            if (buf_room(b, (size_t)jm->key_len + 1) < 0) {
                return -1;
            }
            if (!first) {
                b->data[b->len++] = ',';
            }
            memcpy(b->data + b->len, jm->key, (size_t)jm->key_len);
            b->len += (size_t)jm->key_len;
            first = 0;
            continue;
        }
        PyObject *field = *(PyObject **)((char *)value + jm->offset);
        if (field == NULL) {
            return 0;
        }
        if (field == Py_None) {
            continue; /* a null member: left out */
        }
        if (jm->null_only) {
            return 0; /* extension data */
        }
        if (buf_room(b, (size_t)jm->key_len + 1) < 0) {
            return -1;
        }
        if (!first) {
            b->data[b->len++] = ',';
        }
        memcpy(b->data + b->len, jm->key, (size_t)jm->key_len);
        b->len += (size_t)jm->key_len;
        size_t at = b->len;
        json_type *ft = NULL;
        int done;
        if (!PyUnicode_CheckExact(field) && !PyLong_CheckExact(field) && !PyList_CheckExact(field)
            && field != Py_True && field != Py_False && (ft = json_type_of(Py_TYPE(field))) != NULL) {
            if (depth + 1 > JSON_DEPTH) {
                return 0;
            }
            done = json_struct(b, ft, field, depth + 1);
        } else {
            if (PyErr_Occurred()) {
                return -1;
            }
            done = json_value(b, field, depth + 1);
        }
        if (done != 1) {
            return done;
        }
        if (ft != NULL) { /* an empty optional object: the same as none, left out */
            int dropped = 0;
            for (int d = 0; d < ft->ndrops && !dropped; d++) {
                const json_drop *jd = &ft->drops[d];
                dropped = jd->key_len == jm->key_len && memcmp(jd->key, jm->key, (size_t)jm->key_len) == 0
                          && (size_t)jd->text_len == b->len - at
                          && memcmp(jd->text, b->data + at, (size_t)jd->text_len) == 0;
            }
            if (dropped) {
                b->len = mark;
                continue;
            }
        }
        first = 0;
    }
    if (buf_room(b, 1) < 0) {
        return -1;
    }
    b->data[b->len++] = '}';
    return 1;
}

/* Write one value; 1: done, 0: not of the kinds this writes (decline), -1: an exception (memory). */
static int
json_value(stream_buf *b, PyObject *value, int depth)
{
    if (depth > JSON_DEPTH) {
        return 0;
    }
    if (PyUnicode_CheckExact(value)) {
        Py_ssize_t n;
        const char *text;
        if (PyUnicode_IS_COMPACT_ASCII(value)) {
            n = PyUnicode_GET_LENGTH(value);
            text = (const char *)PyUnicode_DATA(value);
        } else {
            text = PyUnicode_AsUTF8AndSize(value, &n);
            if (text == NULL) {
                PyErr_Clear();
                return 0; /* (a lone surrogate: no UTF-8) */
            }
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!json_plain[(unsigned char)text[i]]) {
                return 0; /* an escape */
            }
        }
        if (buf_room(b, (size_t)n + 2) < 0) {
            return -1;
        }
        unsigned char *at = b->data + b->len;
        at[0] = '"';
        memcpy(at + 1, text, (size_t)n);
        at[n + 1] = '"';
        b->len += (size_t)n + 2;
        return 1;
    }
    if (PyLong_CheckExact(value)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        char digits[24];
        int k = sizeof digits;
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        do {
            digits[--k] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (v < 0) {
            digits[--k] = '-';
        }
        return buf_put(b, digits + k, sizeof digits - (size_t)k) < 0 ? -1 : 1;
    }
    if (PyList_CheckExact(value) || PyTuple_CheckExact(value)) {
        Py_ssize_t n;
        PyObject **items = items_of(value, &n);
        if (buf_room(b, 1) < 0) {
            return -1;
        }
        b->data[b->len++] = '[';
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t now; /* a class's first sight runs a lookup: read the list afresh */
            items = items_of(value, &now);
            if (now != n) {
                return 0;
            }
            if (i > 0) {
                if (buf_room(b, 1) < 0) {
                    return -1;
                }
                b->data[b->len++] = ',';
            }
            int done = json_value(b, items[i], depth + 1);
            if (done != 1) {
                return done;
            }
        }
        if (buf_room(b, 1) < 0) {
            return -1;
        }
        b->data[b->len++] = ']';
        return 1;
    }
    if (value == Py_None) {
        return buf_put(b, "null", 4) < 0 ? -1 : 1;
    }
    if (value == Py_True) {
        return buf_put(b, "true", 4) < 0 ? -1 : 1;
    }
    if (value == Py_False) {
        return buf_put(b, "false", 5) < 0 ? -1 : 1;
    }
    json_type *t = json_type_of(Py_TYPE(value));
    if (t == NULL) {
        return PyErr_Occurred() ? -1 : 0;
    }
    return json_struct(b, t, value, depth);
}

static unsigned char *json_data; /* the last call's buffer, kept for the next (below JSON_KEEP bytes) */
static size_t json_cap;
#define JSON_KEEP (1 << 20)

static PyObject *
canonical_json(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyDict_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "canonical_json(record, classes)");
        return NULL;
    }
    if (args[1] != json_classes) { /* another table of classes: the type table starts anew */
        for (int i = 0; i < json_ntypes; i++) {
            Py_DECREF(json_types[i].type);
            Py_DECREF(json_types[i].entry);
        }
        json_ntypes = 0;
        Py_XDECREF(json_classes);
        Py_INCREF(args[1]);
        json_classes = args[1];
    }
    if (json_data == NULL) {
        json_cap = 16384;
        if ((json_data = PyMem_Malloc(json_cap)) == NULL) {
            return PyErr_NoMemory();
        }
    }
    stream_buf b = {json_data, 0, json_cap, NULL, 0, 0, 0};
    json_data = NULL; /* (the buffer is this call's until it is done: a call within it makes its own) */
    int done = json_value(&b, args[0], 0);
    PyObject *out = written(&b, done);
    if (json_data == NULL && b.cap <= JSON_KEEP) {
        json_data = b.data;
        json_cap = b.cap;
    } else {
        PyMem_Free(b.data);
    }
    return out;
}

static PyMethodDef bytes_methods[] = {
    {"canonical_json", (PyCFunction)(void (*)(void))canonical_json, METH_FASTCALL, canonical_json_doc},
    {"drop_nulls", (PyCFunction)drop_nulls, METH_O, drop_nulls_doc},
    {"maybe_duplicate_keys", (PyCFunction)maybe_duplicate_keys, METH_O, maybe_duplicate_keys_doc},
    {"deal_keys", (PyCFunction)deal_keys, METH_O, deal_keys_doc},
    {"record_stream", (PyCFunction)(void (*)(void))record_stream, METH_FASTCALL, record_stream_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef bytes_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "phatlog._native._bytes",
    .m_doc = "Record bytes, in C (optional): see phatlog/_native/_bytes.pyi.",
    .m_size = -1,
    .m_methods = bytes_methods,
};

PyMODINIT_FUNC
PyInit__bytes(void)
{
    card_letters_init();
    memset(plain_char, 1, sizeof plain_char);
    plain_char['"'] = plain_char['\\'] = 0;
    memset(json_plain, 1, sizeof json_plain);
    memset(json_plain, 0, 0x20);
    json_plain['"'] = json_plain['\\'] = 0;
    str_dealer = PyUnicode_InternFromString("dealer");
    str_hands = PyUnicode_InternFromString("hands");
    if (str_dealer == NULL || str_hands == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&bytes_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyType_Ready(&DealTableType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&DealTableType);
    if (PyModule_AddObject(module, "DealTable", (PyObject *)&DealTableType) < 0) {
        Py_DECREF(&DealTableType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
