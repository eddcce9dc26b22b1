/* The hot loop of the All Fours family (Phat, Nine-card Don, Irish Don), in C: an optional speed-up.
 *
 * play() replays one deal's tricks for the common, clean case only: every card held, everyone
 * following suit, the right leaders, the recorded trick winners right, the full number of tricks
 * (or fewer where the game was won at a peg in the last trick recorded), proper hands. It returns a
 * compact result, or None for anything else at all: the Python engine (phatlog/engine/pitch.py),
 * which stays the reference, then replays the deal and says what is wrong. So this file never
 * produces a diagnostic, and a None is always safe; what must never happen is a result where the
 * Python engine would find a problem. tests/test_hot.py holds the two to the same verdicts.
 *
 * Cards are ids suit * 13 + rank (suits C D H S, ranks 2..A), as phatlog.cards.Card; a set of cards
 * is a 64-bit mask.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define SEATS 4

static signed char rank_of_char[256];
static signed char suit_of_char[256];
static PyObject *str_leader, *str_cards, *str_winner;

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

#define MAX_TRICKS 13

typedef struct {
    int leader;
    int winner; /* -1: not recorded */
    PyObject *cards[SEATS]; /* borrowed from ``list``, which is held */
    int ids[SEATS];
} Trick;

/* Read one trick: its leader, cards and recorded winner. 0 on success, -1 if it is not the common
 * shape (an exception may be left set: the caller clears it). ``*held`` gets a new reference to the
 * trick's list of cards (or stays NULL). */
static int
read_trick(PyObject *obj, Trick *out, PyObject **held)
{
    PyObject *leader = PyObject_GetAttr(obj, str_leader);
    if (leader == NULL) {
        return -1;
    }
    out->leader = (int)small_int(leader, SEATS);
    Py_DECREF(leader);
    if (out->leader < 0) {
        return -1;
    }
    PyObject *winner = PyObject_GetAttr(obj, str_winner);
    if (winner == NULL) {
        return -1;
    }
    out->winner = winner == Py_None ? -1 : (int)small_int(winner, SEATS);
    int bad_winner = winner != Py_None && out->winner < 0;
    Py_DECREF(winner);
    if (bad_winner) {
        return -1;
    }
    PyObject *cards = *held = PyObject_GetAttr(obj, str_cards);
    if (cards == NULL) {
        return -1;
    }
    Py_ssize_t n;
    PyObject **items = items_of(cards, &n);
    if (items == NULL || n != SEATS) {
        return -1;
    }
    for (int i = 0; i < SEATS; i++) {
        out->cards[i] = items[i];
        out->ids[i] = card_id(items[i]);
        if (out->ids[i] < 0) {
            return -1;
        }
    }
    return 0;
}

/* The hands as dealt: recorded (hand_size distinct cards each, no card twice), or, where they are not
 * recorded, the cards each seat played (then every trick must have been played). 0 if they are proper,
 * and the undealt cards listed (Nine-card Don) distinct and none of them dealt. */
static int
read_hands(PyObject *hands_obj, PyObject *undealt_obj, const Trick *tricks, Py_ssize_t ntricks, long hand_size,
           uint64_t hand[SEATS])
{
    uint64_t dealt = 0;
    if (hands_obj == Py_None) {
        if (ntricks != hand_size) {
            return -1;
        }
        for (Py_ssize_t t = 0; t < ntricks; t++) {
            for (int i = 0; i < SEATS; i++) {
                uint64_t bit = 1ULL << tricks[t].ids[i];
                if (dealt & bit) {
                    return -1;
                }
                dealt |= bit;
                hand[(tricks[t].leader + i) & 3] |= bit;
            }
        }
    }
    else {
        Py_ssize_t nhands;
        PyObject **hand_objs = items_of(hands_obj, &nhands);
        if (hand_objs == NULL || nhands != SEATS) {
            return -1;
        }
        for (int s = 0; s < SEATS; s++) {
            Py_ssize_t n;
            PyObject **cards = items_of(hand_objs[s], &n);
            if (cards == NULL || n != hand_size) {
                return -1;
            }
            for (Py_ssize_t i = 0; i < n; i++) {
                int id = card_id(cards[i]);
                if (id < 0 || (dealt >> id) & 1) {
                    return -1;
                }
                dealt |= 1ULL << id;
                hand[s] |= 1ULL << id;
            }
        }
    }
    if (undealt_obj != Py_None) {
        Py_ssize_t n;
        PyObject **cards = items_of(undealt_obj, &n);
        if (cards == NULL) {
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            int id = card_id(cards[i]);
            if (id < 0 || (dealt >> id) & 1) {
                return -1;
            }
            dealt |= 1ULL << id;
        }
    }
    return 0;
}

/* The tuple play() returns for a clean deal (NULL with an exception on running out of memory). */
static PyObject *
result(const Trick *tricks, Py_ssize_t ntricks, Py_ssize_t played, const int *sides, int inferred, int trump,
       const long long totals[2], int ended, int ended_side, const unsigned char *game_points)
{
    Py_ssize_t count[2] = {0, 0};
    for (Py_ssize_t t = 0; t < played; t++) {
        count[sides[t]] += SEATS;
    }
    PyObject *taken[2] = {PyList_New(count[0]), PyList_New(count[1])};
    PyObject *dealt = NULL;
    long game[2] = {0, 0};
    if (taken[0] == NULL || taken[1] == NULL) {
        goto fail;
    }
    /* The captured cards, as the tricks' own card texts, in the order they were taken. */
    count[0] = count[1] = 0;
    for (Py_ssize_t t = 0; t < played; t++) {
        int side = sides[t];
        for (int i = 0; i < SEATS; i++) {
            game[side] += game_points[tricks[t].ids[i]];
            PyList_SET_ITEM(taken[side], count[side]++, Py_NewRef(tricks[t].cards[i]));
        }
    }
    if (inferred) {
        /* The hands as dealt, for the bonuses (Don's high and low) and the first deal's checks. */
        dealt = PyTuple_New(SEATS);
        if (dealt == NULL) {
            goto fail;
        }
        for (int s = 0; s < SEATS; s++) {
            PyObject *list = PyList_New(0);
            if (list == NULL) {
                goto fail;
            }
            PyTuple_SET_ITEM(dealt, s, list);
        }
        for (Py_ssize_t t = 0; t < ntricks; t++) {
            for (int i = 0; i < SEATS; i++) {
                if (PyList_Append(PyTuple_GET_ITEM(dealt, (tricks[t].leader + i) & 3), tricks[t].cards[i]) < 0) {
                    goto fail;
                }
            }
        }
    }
    else {
        dealt = Py_NewRef(Py_None);
    }
    return Py_BuildValue("(iLLiinNNllN)", trump, totals[0], totals[1], ended, ended_side, played, taken[0], taken[1],
                         game[0], game[1], dealt);

fail:
    Py_XDECREF(taken[0]);
    Py_XDECREF(taken[1]);
    Py_XDECREF(dealt);
    return NULL;
}

static const char play_doc[] =
    "play(hands, tricks, undealt, pitcher, hand_size, counters, game_points, follow_or_trump, total0, total1,\n"
    "     target, immediate)\n"
    "--\n\n"
    "Replay one deal's tricks for the clean case; None for anything else (see phatlog/engine/pitch.py).";

static PyObject *
play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "play() takes 12 arguments");
        return NULL;
    }
    PyObject *hands_obj = args[0], *tricks_obj = args[1], *undealt_obj = args[2];
    long pitcher = small_int(args[3], SEATS);
    long hand_size = small_int(args[4], MAX_TRICKS + 1);
    if (!PyBytes_CheckExact(args[5]) || PyBytes_GET_SIZE(args[5]) != 4 * 52 || !PyBytes_CheckExact(args[6])
        || PyBytes_GET_SIZE(args[6]) != 52 || pitcher < 0 || hand_size < 1) {
        PyErr_SetString(PyExc_ValueError, "play(): bad tables, pitcher or hand size");
        return NULL;
    }
    const unsigned char *counters_all = (const unsigned char *)PyBytes_AS_STRING(args[5]);
    const unsigned char *game_points = (const unsigned char *)PyBytes_AS_STRING(args[6]);
    int follow_or_trump = PyObject_IsTrue(args[7]);
    long long totals[2];
    totals[0] = PyLong_AsLongLong(args[8]);
    totals[1] = PyLong_AsLongLong(args[9]);
    long long target = PyLong_AsLongLong(args[10]);
    if (PyErr_Occurred() || totals[0] > INT32_MAX || totals[0] < INT32_MIN || totals[1] > INT32_MAX
        || totals[1] < INT32_MIN) {
        /* Totals taken from a record beyond any game's: not the common case. */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    int immediate = PyObject_IsTrue(args[11]);
    if (follow_or_trump < 0 || immediate < 0) {
        return NULL;
    }

    Py_ssize_t ntricks;
    PyObject **trick_objs = items_of(tricks_obj, &ntricks);
    if (trick_objs == NULL || ntricks < 1 || ntricks > hand_size) {
        Py_RETURN_NONE;
    }
    Trick tricks[MAX_TRICKS];
    PyObject *held[MAX_TRICKS] = {NULL};
    PyObject *out = Py_None; /* the answer unless the deal turns out clean */
    uint64_t hand[SEATS] = {0, 0, 0, 0};
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        if (read_trick(trick_objs[t], &tricks[t], &held[t]) < 0) {
            PyErr_Clear();
            goto done;
        }
    }
    if (read_hands(hands_obj, undealt_obj, tricks, ntricks, hand_size, hand) < 0) {
        goto done;
    }

    uint64_t suit_mask[SEATS];
    for (int s = 0; s < SEATS; s++) {
        suit_mask[s] = ((1ULL << 13) - 1) << (13 * s);
    }
    int trump = tricks[0].ids[0] / 13; /* the suit of the pitcher's first lead is trump */
    int trump_instead = follow_or_trump ? trump : -1;
    const unsigned char *counters = counters_all + 52 * trump;
    int sides[MAX_TRICKS];
    int due = (int)pitcher;
    int ended = -1, ended_side = -1;
    Py_ssize_t played = 0;
    while (played < ntricks) {
        const Trick *trick = &tricks[played];
        int leader = trick->leader;
        if (leader != due) {
            goto done;
        }
        /* Every card comes from its player's hand. */
        for (int i = 0; i < SEATS; i++) {
            int seat = (leader + i) & 3;
            uint64_t bit = 1ULL << trick->ids[i];
            if (!(hand[seat] & bit)) {
                goto done;
            }
            hand[seat] &= ~bit;
        }
        /* Everyone follows suit if able (under follow_or_trump, a trump will do instead). */
        int led = trick->ids[0] / 13;
        for (int i = 1; i < SEATS; i++) {
            int suit = trick->ids[i] / 13;
            if (suit != led && suit != trump_instead && (hand[(leader + i) & 3] & suit_mask[led])) {
                goto done;
            }
        }
        /* The highest trump, or else the highest card of the suit led, wins. */
        int position = 0, best = -1;
        for (int i = 0; i < SEATS; i++) {
            int id = trick->ids[i], suit = id / 13;
            int key = suit == trump ? 200 + id % 13 : suit == led ? 100 + id % 13 : -1;
            if (key > best) {
                best = key;
                position = i;
            }
        }
        int winner = (leader + position) & 3;
        if (trick->winner >= 0 && trick->winner != winner) {
            goto done;
        }
        /* The winner's side takes the cards, and pegs the counters in them at once. */
        int side = sides[played] = winner & 1;
        played++;
        int points = counters[trick->ids[0]] + counters[trick->ids[1]] + counters[trick->ids[2]]
                     + counters[trick->ids[3]];
        totals[side] += points;
        if (points && immediate && totals[side] >= target) {
            ended = (int)played - 1; /* the game ends at this peg */
            ended_side = side;
            break;
        }
        due = winner;
    }
    /* Tricks after the winning peg, or a deal cut short: the Python engine says so. */
    if (played == ntricks && (ended >= 0 || ntricks == hand_size)) {
        out = result(tricks, ntricks, played, sides, hands_obj == Py_None, trump, totals, ended, ended_side,
                     game_points);
        goto finish; /* NULL: out of memory */
    }

done:
    Py_INCREF(out);
finish:
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        Py_XDECREF(held[t]);
    }
    return out;
}

/* ------------------------------------------------------------------------ duplicate keys
 *
 * maybe_duplicate_keys(data) scans a JSON document that a parser has already accepted and says whether
 * some object in it may hold one key twice: False means certainly not; True means it does, or that this
 * scan cannot tell (a key with an escape, which may spell another key differently; an object nested
 * deeper, or with more keys, than the scan keeps). The reader then finds the duplicates, and where they
 * are, in Python (phatlog/wire.py); that is rare, so this scan is all that most records pay.
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

static PyMethodDef hot_methods[] = {
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL, play_doc},
    {"maybe_duplicate_keys", (PyCFunction)maybe_duplicate_keys, METH_O, maybe_duplicate_keys_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef hot_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "phatlog.engine._hot",
    .m_doc = "The All Fours family's hot loop in C (optional): see phatlog/engine/pitch.py.",
    .m_size = -1,
    .m_methods = hot_methods,
};

PyMODINIT_FUNC
PyInit__hot(void)
{
    memset(rank_of_char, -1, sizeof rank_of_char);
    memset(plain_char, 1, sizeof plain_char);
    plain_char['"'] = plain_char['\\'] = 0;
    memset(suit_of_char, -1, sizeof suit_of_char);
    const char *ranks = "23456789TJQKA", *suits = "CDHS";
    for (int r = 0; r < 13; r++) {
        rank_of_char[(unsigned char)ranks[r]] = (signed char)r;
    }
    for (int s = 0; s < 4; s++) {
        suit_of_char[(unsigned char)suits[s]] = (signed char)s;
    }
    str_leader = PyUnicode_InternFromString("leader");
    str_cards = PyUnicode_InternFromString("cards");
    str_winner = PyUnicode_InternFromString("winner");
    if (str_leader == NULL || str_cards == NULL || str_winner == NULL) {
        return NULL;
    }
    return PyModule_Create(&hot_module);
}
