/* What the C kernels share (phatlog/_native/_trick.c, _bytes.c): reading a record's Python objects fast.
 *
 * Cards are ids suit * 13 + rank (suits C D H S, ranks 2..A), as phatlog.rules.cards.Card; a set of cards
 * is a 64-bit mask. Every function is static: each module has its own copy.
 */
#ifndef PHATLOG_COMMON_H
#define PHATLOG_COMMON_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* PyMemberDef (in Python.h itself from 3.12) */
#include <stdint.h>

#define MAX_SEATS 7
#define MAX_TRICKS 17 /* 52 cards among 3 players */

static signed char rank_of_char[256];
static signed char suit_of_char[256];

/* Fill the card letters' tables (each module's init). */
static void
card_letters_init(void)
{
    memset(rank_of_char, -1, sizeof rank_of_char);
    memset(suit_of_char, -1, sizeof suit_of_char);
    const char *ranks = "23456789TJQKA", *suits = "CDHS";
    for (int r = 0; r < 13; r++) {
        rank_of_char[(unsigned char)ranks[r]] = (signed char)r;
    }
    for (int s = 0; s < 4; s++) {
        suit_of_char[(unsigned char)suits[s]] = (signed char)s;
    }
}

/* The card id of a card text ("QH"), or -1 if the object is not one. */
static inline int
card_id(PyObject *text)
{
    if (!PyUnicode_CheckExact(text) || !PyUnicode_IS_COMPACT_ASCII(text) || PyUnicode_GET_LENGTH(text) != 2) {
        return -1;
    }
    const unsigned char *s = (const unsigned char *)PyUnicode_DATA(text);
    int rank = rank_of_char[s[0]], suit = suit_of_char[s[1]];
    if (rank < 0 || suit < 0) {
        return -1;
    }
    return suit * 13 + rank;
}

/* A small int, or -1 (with no exception set) if the object is not an int in [0, limit). */
static inline long
small_int(PyObject *obj, long limit)
{
    if (!PyLong_CheckExact(obj)) {
        return -1;
    }
    int overflow = 0;
    long value = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || value < 0 || value >= limit) {
        PyErr_Clear();
        return -1;
    }
    return value;
}

/* A list or tuple's items (borrowed), or NULL if it is neither. */
static inline PyObject **
items_of(PyObject *seq, Py_ssize_t *n)
{
    if (PyList_CheckExact(seq)) {
        *n = PyList_GET_SIZE(seq);
        return ((PyListObject *)seq)->ob_item;
    }
    if (PyTuple_CheckExact(seq)) {
        *n = PyTuple_GET_SIZE(seq);
        return ((PyTupleObject *)seq)->ob_item;
    }
    return NULL;
}

/* An attribute, or NULL with no exception set where the object has none (a new reference). */
static PyObject *
attr_or_null(PyObject *obj, PyObject *name)
{
    PyObject *value = PyObject_GetAttr(obj, name);
    if (value == NULL) {
        PyErr_Clear();
    }
    return value;
}

#ifdef Py_T_OBJECT_EX
#define SLOT_OBJECT_EX Py_T_OBJECT_EX
#else
#include <structmember.h>
#define SLOT_OBJECT_EX T_OBJECT_EX
#endif

/* Where one attribute of the objects of one type is kept: a record's parts are msgspec structs, whose
 * fields are slots (member descriptors) at fixed offsets; reading the slot directly saves the generic
 * attribute lookup, which was most of the record path's time. The offset is trusted only for the type
 * it was found in and while that type is unchanged (its version tag), with the generic lookup of every
 * Python object (``tp_getattro``). Any other object (a pydantic model) is read the generic way. */
typedef struct {
    PyObject **name;
    PyTypeObject *type; /* borrowed: compared, never dereferenced unless it is the object's type */
    unsigned int tag;
    Py_ssize_t offset; /* 0: read the generic way */
} Slot;

/* Where objects of ``tp`` keep the attribute ``name``: the offset of its object slot (a member descriptor
 * of the type, which the generic lookup would find and read), or 0 where it is kept otherwise (then read
 * it the generic way). The lookup may run Python code. */
static Py_ssize_t
member_offset(PyTypeObject *tp, PyObject *name)
{
    if (tp->tp_getattro != PyObject_GenericGetAttr) {
        return 0;
    }
    PyObject *descr = PyObject_GetAttr((PyObject *)tp, name); /* the class's: the descriptor itself */
    if (descr == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_ssize_t offset = 0;
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDescrObject *member = (PyMemberDescrObject *)descr;
        const PyMemberDef *def = member->d_member;
        if (def->type == SLOT_OBJECT_EX && (def->flags & ~READONLY) == 0 && def->offset > 0
            && PyType_IsSubtype(tp, PyDescr_TYPE(member))) {
            offset = def->offset;
        }
    }
    Py_DECREF(descr);
    return offset;
}

static void
find_slot(Slot *slot, PyTypeObject *tp)
{
    Py_ssize_t offset = member_offset(tp, *slot->name);
#ifdef Py_TPFLAGS_VALID_VERSION_TAG
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) {
        offset = 0;
    }
#endif
    if (tp->tp_version_tag == 0) {
        offset = 0;
    }
    /* Set together, after the lookup (which may run Python code): a tag is never shared by two types. */
    slot->type = tp;
    slot->tag = tp->tp_version_tag;
    slot->offset = offset;
}

/* ``attr_or_null``, through the slot where the object is of the type it was found in. */
static inline PyObject *
slot_attr(Slot *slot, PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp != slot->type || tp->tp_version_tag != slot->tag) {
        find_slot(slot, tp);
    }
    if (slot->offset > 0) {
        PyObject *value = *(PyObject **)((char *)obj + slot->offset);
        if (value != NULL) {
            return Py_NewRef(value);
        }
    }
    return attr_or_null(obj, *slot->name);
}


#endif
