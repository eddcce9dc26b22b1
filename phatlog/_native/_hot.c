/* The trick kernel of every game, in C: an optional speed-up of the referee's untraced replay.
 *
 * Two entry points share one trick loop (play_tricks) and one contract:
 *
 *   play(...)     one deal of the All Fours family (Phat, Nine-card Don, Irish Don): 4 seats, the
 *                 pitcher's first lead names trump, counters pegged trick by trick (phatlog/referee/pitch.py)
 *   oh_hell(...)  one hand of Oh Hell: 3 to 7 seats, trump (or none) from the turned-up card
 *                 (phatlog/referee/oh_hell.py)
 *
 * Each returns either success, a tuple whose first item is 0 followed by what the referee uses, or a
 * fault, the tuple (kind, trick, position): kind > 0 (the FAULT_ constants below, named in the module's
 * FAULTS), the trick counted from 0 and the card's position in it (-1 where none applies). A fault is
 * the kernel declining the deal: the Python engine, which stays the reference, then replays the deal and
 * says in words what is wrong (or finds nothing wrong: FAULT_UNUSUAL also covers what is merely outside
 * the common, clean case this code handles, such as a deal cut short). So this file never produces a
 * diagnostic, and a fault is always safe; what must never happen is a success where the Python engine
 * would find a problem. tests/test_hot.py holds the two paths to the same verdicts.
 *
 * Cards are ids suit * 13 + rank (suits C D H S, ranks 2..A), as phatlog.rules.cards.Card; a set of cards
 * is a 64-bit mask.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* PyMemberDef (in Python.h itself from 3.12) */
#include <stdint.h>

#define MAX_SEATS 7
#define MAX_TRICKS 17 /* 52 cards among 3 players */

/* The kinds of fault, in the order of the module's FAULTS. */
enum {
    FAULT_NONE = 0,
    FAULT_UNUSUAL,  /* not the common shape (a field of the wrong type, a seat out of range, a deal cut short) */
    FAULT_HANDS,    /* the hands are not a proper deal: a card twice, a wrong count, a card both dealt and undealt */
    FAULT_LEADER,   /* the wrong seat led the trick */
    FAULT_NOT_HELD, /* a card its player did not hold */
    FAULT_REVOKE,   /* a player did not follow suit, holding the suit led */
    FAULT_TRUMP,    /* must_trump: a player who could not follow and held a trump played none */
    FAULT_WINNER,   /* the recorded winner of the trick is not the one who won it */
    FAULT_TRICKS,   /* more tricks than cards, or tricks after the game was won at a peg */
    FAULT_KINDS
};
static const char *const fault_names[FAULT_KINDS] = {"none",     "unusual", "hands",  "leader",
                                                     "not_held", "revoke",  "trump", "winner", "tricks"};

/* The follow rules (phatlog.rules.trick.FollowRule), as ints. */
enum { MUST_FOLLOW = 0, FOLLOW_OR_TRUMP = 1, MUST_TRUMP = 2 };

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

static Slot slot_leader = {.name = &str_leader}, slot_winner = {.name = &str_winner},
            slot_cards = {.name = &str_cards};

typedef struct {
    int leader;
    int winner;                 /* -1: not recorded */
    PyObject *cards[MAX_SEATS]; /* borrowed from the trick's list of cards, which ``held`` holds */
    int ids[MAX_SEATS];
} Trick;

/* A deal as the kernel reads it: the tricks, and the fault found so far. */
typedef struct {
    int seats;
    Py_ssize_t ntricks;
    Trick tricks[MAX_TRICKS];
    PyObject *held[MAX_TRICKS]; /* new references to the tricks' lists of cards */
    int fault, fault_trick, fault_position;
} Deal;

/* Record a fault (the first one only) and return -1. */
static int
fail(Deal *deal, int kind, Py_ssize_t trick, int position)
{
    if (deal->fault == FAULT_NONE) {
        deal->fault = kind;
        deal->fault_trick = (int)trick;
        deal->fault_position = position;
    }
    return -1;
}

static void
release(Deal *deal)
{
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        Py_CLEAR(deal->held[t]);
    }
}

/* Read one trick: its leader, cards and recorded winner. 0, or -1 with FAULT_UNUSUAL (no exception left). */
static int
read_trick(Deal *deal, Py_ssize_t t, PyObject *obj)
{
    Trick *out = &deal->tricks[t];
    int seats = deal->seats;
    PyObject *leader = slot_attr(&slot_leader, obj);
    if (leader == NULL) {
        return fail(deal, FAULT_UNUSUAL, t, -1);
    }
    out->leader = (int)small_int(leader, seats);
    Py_DECREF(leader);
    PyObject *winner = slot_attr(&slot_winner, obj);
    if (winner == NULL) {
        return fail(deal, FAULT_UNUSUAL, t, -1);
    }
    out->winner = winner == Py_None ? -1 : (int)small_int(winner, seats);
    int bad_winner = winner != Py_None && out->winner < 0;
    Py_DECREF(winner);
    if (out->leader < 0 || bad_winner) {
        return fail(deal, FAULT_UNUSUAL, t, -1);
    }
    PyObject *cards = deal->held[t] = slot_attr(&slot_cards, obj);
    if (cards == NULL) {
        return fail(deal, FAULT_UNUSUAL, t, -1);
    }
    Py_ssize_t n;
    PyObject **items = items_of(cards, &n);
    if (items == NULL || n != seats) {
        return fail(deal, FAULT_UNUSUAL, t, -1);
    }
    for (int i = 0; i < seats; i++) {
        out->cards[i] = items[i];
        out->ids[i] = card_id(items[i]);
        if (out->ids[i] < 0) {
            return fail(deal, FAULT_UNUSUAL, t, i);
        }
    }
    return 0;
}

/* Read the tricks (a list or tuple of objects with leader, cards and winner): 0 or -1 with a fault. */
static int
read_tricks(Deal *deal, PyObject *tricks_obj, int seats, long hand_size)
{
    deal->seats = seats;
    deal->ntricks = 0;
    deal->fault = FAULT_NONE;
    deal->fault_trick = deal->fault_position = -1;
    Py_ssize_t ntricks;
    PyObject **trick_objs = items_of(tricks_obj, &ntricks);
    if (trick_objs == NULL || ntricks < 1) {
        return fail(deal, FAULT_UNUSUAL, -1, -1);
    }
    if (ntricks > hand_size) {
        return fail(deal, FAULT_TRICKS, hand_size, -1);
    }
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        /* An attribute lookup may run code (a property, __getattr__) that changes the list: read it
         * afresh each time, and hold the trick while it is read. */
        Py_ssize_t now;
        trick_objs = items_of(tricks_obj, &now);
        if (trick_objs == NULL || now != ntricks) {
            return fail(deal, FAULT_UNUSUAL, t, -1);
        }
        PyObject *obj = trick_objs[t];
        Py_INCREF(obj);
        deal->held[t] = NULL;
        deal->ntricks = t + 1;
        int read = read_trick(deal, t, obj);
        Py_DECREF(obj);
        if (read < 0) {
            return -1;
        }
    }
    /* The cards are borrowed from the tricks' lists (held): take none that a later lookup moved. */
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        Py_ssize_t n;
        PyObject **items = items_of(deal->held[t], &n);
        if (items == NULL || n != seats) {
            return fail(deal, FAULT_UNUSUAL, t, -1);
        }
        for (int i = 0; i < seats; i++) {
            if (items[i] != deal->tricks[t].cards[i]) {
                return fail(deal, FAULT_UNUSUAL, t, i);
            }
        }
    }
    return 0;
}

/* The hands as dealt: recorded (hand_size distinct cards each, no card twice), or, where they are not
 * recorded (None), the cards each seat played (then every trick must have been played). 0 if they are
 * proper and none of the ``undealt`` cards (a list of card texts, one card text, or None) was dealt. */
static int
read_hands(Deal *deal, PyObject *hands_obj, PyObject *undealt_obj, long hand_size, uint64_t hand[MAX_SEATS])
{
    int seats = deal->seats;
    uint64_t dealt = 0;
    for (int s = 0; s < seats; s++) {
        hand[s] = 0;
    }
    if (hands_obj == Py_None) {
        if (deal->ntricks != hand_size) {
            return fail(deal, FAULT_UNUSUAL, deal->ntricks, -1); /* the Python engine notes it (PL203) */
        }
        for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
            const Trick *trick = &deal->tricks[t];
            int seat = trick->leader;
            for (int i = 0; i < seats; i++) {
                uint64_t bit = 1ULL << trick->ids[i];
                if (dealt & bit) {
                    return fail(deal, FAULT_HANDS, t, i);
                }
                dealt |= bit;
                hand[seat] |= bit;
                seat = seat + 1 == seats ? 0 : seat + 1;
            }
        }
    }
    else {
        Py_ssize_t nhands;
        PyObject **hand_objs = items_of(hands_obj, &nhands);
        if (hand_objs == NULL || nhands != seats) {
            return fail(deal, FAULT_UNUSUAL, -1, -1);
        }
        for (int s = 0; s < seats; s++) {
            Py_ssize_t n;
            PyObject **cards = items_of(hand_objs[s], &n);
            if (cards == NULL || n != hand_size) {
                return fail(deal, FAULT_HANDS, -1, -1);
            }
            for (Py_ssize_t i = 0; i < n; i++) {
                int id = card_id(cards[i]);
                if (id < 0) {
                    return fail(deal, FAULT_UNUSUAL, -1, -1);
                }
                if ((dealt >> id) & 1) {
                    return fail(deal, FAULT_HANDS, -1, -1);
                }
                dealt |= 1ULL << id;
                hand[s] |= 1ULL << id;
            }
        }
    }
    if (undealt_obj != Py_None) {
        Py_ssize_t n;
        PyObject *one[1] = {undealt_obj};
        PyObject **cards = PyUnicode_CheckExact(undealt_obj) ? one : items_of(undealt_obj, &n);
        if (cards == one) {
            n = 1;
        }
        if (cards == NULL) {
            return fail(deal, FAULT_UNUSUAL, -1, -1);
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            int id = card_id(cards[i]);
            if (id < 0) {
                return fail(deal, FAULT_UNUSUAL, -1, -1);
            }
            if ((dealt >> id) & 1) {
                return fail(deal, FAULT_HANDS, -1, -1);
            }
            dealt |= 1ULL << id;
        }
    }
    return 0;
}

/* THE trick loop, for every game: from ``first`` (the seat that leads the first trick), each trick led by
 * the seat due, every card held by its player, suit followed if able (under FOLLOW_OR_TRUMP a trump will
 * do instead; under MUST_TRUMP a player who cannot follow must trump if able), the highest trump (trump
 * -1: none), or else the highest card of the suit led, wins and leads next, and a recorded winner must
 * be that one. ``winners`` gets each trick's winning seat, up to the fault's trick (included for a wrong
 * recorded winner). 0, or -1 with the fault. */
static int
play_tricks(Deal *deal, uint64_t hand[MAX_SEATS], int first, int trump, int follow, int winners[MAX_TRICKS])
{
    static const uint64_t suit_mask[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
    int seats = deal->seats;
    int trump_instead = follow == FOLLOW_OR_TRUMP ? trump : -1;
    int must_trump = follow == MUST_TRUMP && trump >= 0;
    int due = first;
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        const Trick *trick = &deal->tricks[t];
        if (trick->leader != due) {
            return fail(deal, FAULT_LEADER, t, 0);
        }
        int led = trick->ids[0] / 13;
        int seat = trick->leader, position = 0, best = -1;
        for (int i = 0; i < seats; i++) {
            int id = trick->ids[i], suit = id / 13;
            uint64_t bit = 1ULL << id;
            if (!(hand[seat] & bit)) {
                return fail(deal, FAULT_NOT_HELD, t, i);
            }
            hand[seat] &= ~bit;
            if (suit != led) {
                if (suit != trump_instead && (hand[seat] & suit_mask[led])) {
                    return fail(deal, FAULT_REVOKE, t, i);
                }
                if (must_trump && suit != trump && (hand[seat] & suit_mask[trump])) {
                    return fail(deal, FAULT_TRUMP, t, i);
                }
            }
            int key = suit == trump ? 200 + id % 13 : suit == led ? 100 + id % 13 : -1;
            if (key > best) {
                best = key;
                position = i;
            }
            seat = seat + 1 == seats ? 0 : seat + 1;
        }
        int winner = (trick->leader + position) % seats;
        winners[t] = due = winner;
        if (trick->winner >= 0 && trick->winner != winner) {
            return fail(deal, FAULT_WINNER, t, -1);
        }
    }
    return 0;
}

/* The fault tuple (kind, trick, position). */
static PyObject *
fault_tuple(const Deal *deal)
{
    return Py_BuildValue("(iii)", deal->fault, deal->fault_trick, deal->fault_position);
}

/* The follow rule argument: 0, 1 or 2 (-1 with an exception for anything else). */
static int
follow_rule(PyObject *obj)
{
    long follow = small_int(obj, 3);
    if (follow < 0) {
        PyErr_SetString(PyExc_ValueError, "the follow rule is 0 (must follow), 1 (follow or trump) or 2 (must trump)");
    }
    return (int)follow;
}

/* ------------------------------------------------------------------------ the All Fours family */

#define SEATS 4

/* The game (Don) or muck (Phat) points of each rank, 2 to ace: T 10, J 1, Q 2, K 3, A 4 (``pitch.GAME_POINTS``). */
static const int game_points[13] = {0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4};

/* The highest (``top``) or lowest set bit of a mask that is not 0. */
static int
bit_at(uint64_t mask, int top)
{
    int i = 0;
    if (top) {
        while (mask >> (i + 1)) {
            i++;
        }
        return i;
    }
    while (!((mask >> i) & 1)) {
        i++;
    }
    return i;
}

/* What the end-of-deal awards read of a deal's cards (``pitch.deal_cards``, the Python reference): the
 * cards each side took and their game count, the highest and lowest trump dealt (card ids) with the seat
 * dealt each (-1: no trump dealt), the side that took the lowest trump and the side that took the jack of
 * trumps (-1: nobody). */
typedef struct {
    uint64_t taken[2];
    int game[2];
    int high, high_seat, low, low_seat;
    int low_side, jack_side;
} DealCards;

static void
deal_cards(const Deal *deal, const int *winners, const uint64_t dealt[SEATS], int trump, DealCards *out)
{
    out->taken[0] = out->taken[1] = 0;
    out->game[0] = out->game[1] = 0;
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        int side = winners[t] & 1;
        for (int i = 0; i < SEATS; i++) {
            int id = deal->tricks[t].ids[i];
            out->taken[side] |= 1ULL << id;
            out->game[side] += game_points[id % 13];
        }
    }
    int high = -1, high_seat = -1, low = -1, low_seat = -1;
    for (int s = 0; s < SEATS; s++) {
        uint64_t trumps = (dealt[s] >> (13 * trump)) & 0x1FFF;
        if (trumps) {
            int top = bit_at(trumps, 1), bottom = bit_at(trumps, 0);
            if (top > high) {
                high = top;
                high_seat = s;
            }
            if (low < 0 || bottom < low) {
                low = bottom;
                low_seat = s;
            }
        }
    }
    out->low_side = -1;
    if (low >= 0) {
        low += 13 * trump;
        high += 13 * trump;
        out->low_side = (out->taken[0] >> low) & 1 ? 0 : ((out->taken[1] >> low) & 1 ? 1 : -1);
    }
    out->high = high;
    out->high_seat = high_seat;
    out->low = low;
    out->low_seat = low_seat;
    int jack = 13 * trump + 9;
    out->jack_side = (out->taken[0] >> jack) & 1 ? 0 : ((out->taken[1] >> jack) & 1 ? 1 : -1);
}

/* The success tuple of play() (NULL with an exception on running out of memory): what the end-of-deal
 * awards read of the cards (``deal_cards``). */
static PyObject *
pitch_result(const Deal *deal, const int *winners, const uint64_t dealt[SEATS], int inferred, int trump,
             const long long totals[2], int ended, int ended_side)
{
    Py_ssize_t ntricks = deal->ntricks;
    DealCards cards;
    deal_cards(deal, winners, dealt, trump, &cards);
    const int *game = cards.game;
    int high = cards.high, high_seat = cards.high_seat, low = cards.low, low_seat = cards.low_seat;
    int low_side = cards.low_side, jack_side = cards.jack_side;
    PyObject *hands = NULL;
    if (inferred) {
        /* The hands as dealt, where the referee asked for them (the first deal's checks). */
        hands = PyTuple_New(SEATS);
        if (hands == NULL) {
            return NULL;
        }
        for (int s = 0; s < SEATS; s++) {
            PyObject *list = PyList_New(0);
            if (list == NULL) {
                Py_DECREF(hands);
                return NULL;
            }
            PyTuple_SET_ITEM(hands, s, list);
        }
        for (Py_ssize_t t = 0; t < ntricks; t++) {
            for (int i = 0; i < SEATS; i++) {
                PyObject *list = PyTuple_GET_ITEM(hands, (deal->tricks[t].leader + i) & 3);
                if (PyList_Append(list, deal->tricks[t].cards[i]) < 0) {
                    Py_DECREF(hands);
                    return NULL;
                }
            }
        }
    }
    else {
        hands = Py_NewRef(Py_None);
    }
    return Py_BuildValue("(iiLLiiiiiiiiiiN)", FAULT_NONE, trump, totals[0], totals[1], ended, ended_side, game[0],
                         game[1], high, high_seat, low, low_seat, low_side, jack_side, hands);
}

static const char play_doc[] =
    "play(hands, tricks, undealt, pitcher, hand_size, counters, follow, total0, total1, target, immediate,\n"
    "     want_hands)\n"
    "--\n\n"
    "One deal of the All Fours family: (0, trump, total0, total1, ended, side, game0, game1, high, high_seat,\n"
    "low, low_seat, low_side, jack_side, dealt) or a fault (kind, trick, position); see phatlog/_native/_hot.pyi.";

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
    if (!PyBytes_CheckExact(args[5]) || PyBytes_GET_SIZE(args[5]) != 4 * 52 || pitcher < 0 || hand_size < 1
        || SEATS * hand_size > 52) {
        PyErr_SetString(PyExc_ValueError, "play(): bad counters, pitcher or hand size");
        return NULL;
    }
    const unsigned char *counters_all = (const unsigned char *)PyBytes_AS_STRING(args[5]);
    int follow = follow_rule(args[6]);
    if (follow < 0) {
        return NULL;
    }
    int immediate = PyObject_IsTrue(args[10]);
    int want_hands = PyObject_IsTrue(args[11]);
    if (immediate < 0 || want_hands < 0) {
        return NULL;
    }
    Deal deal;
    long long totals[2];
    totals[0] = PyLong_AsLongLong(args[7]);
    totals[1] = PyLong_AsLongLong(args[8]);
    long long target = PyLong_AsLongLong(args[9]);
    if (PyErr_Occurred() || totals[0] > INT32_MAX || totals[0] < INT32_MIN || totals[1] > INT32_MAX
        || totals[1] < INT32_MIN) {
        /* Totals taken from a record beyond any game's: not the common case. */
        PyErr_Clear();
        deal.fault = FAULT_UNUSUAL;
        deal.fault_trick = deal.fault_position = -1;
        return fault_tuple(&deal);
    }

    PyObject *out = NULL;
    uint64_t hand[MAX_SEATS];
    int winners[MAX_TRICKS];
    if (read_tricks(&deal, tricks_obj, SEATS, hand_size) < 0 || read_hands(&deal, hands_obj, undealt_obj, hand_size, hand) < 0) {
        goto done;
    }
    int trump = deal.tricks[0].ids[0] / 13; /* the suit of the pitcher's first lead is trump */
    uint64_t dealt[SEATS] = {hand[0], hand[1], hand[2], hand[3]}; /* as dealt: play_tricks plays them down */
    /* The tricks up to the first fault, if any, are played (and their winners known). */
    Py_ssize_t played = play_tricks(&deal, hand, (int)pitcher, trump, follow, winners) < 0 ? deal.fault_trick
                                                                                           : deal.ntricks;
    if (deal.fault == FAULT_WINNER) {
        played++; /* the trick was won, by someone else than recorded */
    }
    /* The winner's side takes the cards, and pegs the counters in them at once. */
    const unsigned char *counters = counters_all + 52 * trump;
    int ended = -1, ended_side = -1;
    for (Py_ssize_t t = 0; t < played; t++) {
        const int *ids = deal.tricks[t].ids;
        int side = winners[t] & 1;
        int points = counters[ids[0]] + counters[ids[1]] + counters[ids[2]] + counters[ids[3]];
        totals[side] += points;
        if (points && immediate && totals[side] >= target) {
            if (t + 1 < deal.ntricks) {
                /* Tricks after the winning peg: that is the fault, whatever is wrong with them. */
                deal.fault = FAULT_NONE;
                fail(&deal, FAULT_TRICKS, t + 1, -1);
                goto done;
            }
            ended = (int)t; /* the game ends at this peg */
            ended_side = side;
        }
    }
    if (deal.fault != FAULT_NONE) {
        goto done;
    }
    if (ended < 0 && deal.ntricks != hand_size) {
        fail(&deal, FAULT_UNUSUAL, deal.ntricks, -1); /* a deal cut short: the Python engine says so */
        goto done;
    }
    out = pitch_result(&deal, winners, dealt, want_hands && hands_obj == Py_None, trump, totals, ended, ended_side);
    release(&deal);
    return out; /* NULL: out of memory */

done:
    release(&deal);
    return fault_tuple(&deal);
}

/* ------------------------------------------------------------------------ Oh Hell */

static const char oh_hell_doc[] =
    "oh_hell(hands, tricks, turnup, leader, seats, hand_size, trump, follow)\n"
    "--\n\n"
    "One hand of Oh Hell: (0, tricks taken by each seat) or a fault (kind, trick, position); see\n"
    "phatlog/_native/_hot.pyi.";

static PyObject *
oh_hell(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "oh_hell() takes 8 arguments");
        return NULL;
    }
    PyObject *hands_obj = args[0], *tricks_obj = args[1], *turnup_obj = args[2];
    long seats = small_int(args[4], MAX_SEATS + 1);
    long leader = seats < 3 ? -1 : small_int(args[3], seats);
    long hand_size = small_int(args[5], MAX_TRICKS + 1);
    long trump = PyLong_CheckExact(args[6]) ? PyLong_AsLong(args[6]) : -2;
    if (trump == -1 && PyErr_Occurred()) {
        trump = -2; /* beyond a long */
    }
    if (seats < 3 || leader < 0 || trump < -1 || trump > 3) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "oh_hell(): bad seats, leader or trump");
        return NULL;
    }
    Deal deal;
    if (hand_size < 1 || seats * hand_size > 52) {
        deal.fault = FAULT_UNUSUAL; /* a schedule the pack cannot deal: the rules check reports it */
        deal.fault_trick = deal.fault_position = -1;
        return fault_tuple(&deal);
    }
    int follow = follow_rule(args[7]);
    if (follow < 0) {
        return NULL;
    }
    uint64_t hand[MAX_SEATS];
    int winners[MAX_TRICKS];
    if (read_tricks(&deal, tricks_obj, (int)seats, hand_size) < 0
        || read_hands(&deal, hands_obj, turnup_obj, hand_size, hand) < 0
        || play_tricks(&deal, hand, (int)leader, (int)trump, follow, winners) < 0) {
        release(&deal);
        return fault_tuple(&deal);
    }
    release(&deal);
    if (deal.ntricks != hand_size) {
        fail(&deal, FAULT_UNUSUAL, deal.ntricks, -1); /* a hand cut short: the Python engine says so */
        return fault_tuple(&deal);
    }
    PyObject *taken = PyList_New(seats);
    if (taken == NULL) {
        return NULL;
    }
    long count[MAX_SEATS] = {0};
    for (Py_ssize_t t = 0; t < deal.ntricks; t++) {
        count[winners[t]]++;
    }
    for (int s = 0; s < seats; s++) {
        PyObject *n = PyLong_FromLong(count[s]);
        if (n == NULL) {
            Py_DECREF(taken);
            return NULL;
        }
        PyList_SET_ITEM(taken, s, n);
    }
    return Py_BuildValue("(iN)", FAULT_NONE, taken);
}

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

/* The table entry of a struct class, made on first sight; NULL (no exception) where it is not one of
 * ``classes``. */
static stream_type *
stream_type_of(PyTypeObject *type)
{
    size_t slot = ((uintptr_t)type >> 6) & (STREAM_SLOTS - 1);
    int hint = stream_slot[slot];
    if (hint < stream_ntypes && stream_types[hint].type == type) {
        return &stream_types[hint];
    }
    for (int i = 0; i < stream_ntypes; i++) {
        if (stream_types[i].type == type) {
            stream_slot[slot] = (unsigned char)i;
            return &stream_types[i];
        }
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
    stream_slot[((uintptr_t)type >> 6) & (STREAM_SLOTS - 1)] = (unsigned char)stream_ntypes;
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
    PyObject *out = NULL;
    if (done == 1) {
        out = PyBytes_FromStringAndSize((const char *)b.data, (Py_ssize_t)b.len);
    } else if (done == 0) {
        out = Py_NewRef(Py_None);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
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

/* ------------------------------------------------------------------------ the All Fours record (h-pitchrec)
 *
 * pitch_record(deals, params) referees a whole record of the All Fours family in one call, for the
 * common clean case only: every deal played out (or to the winning peg) with no fault, its dealer the
 * one the rotation gives, no ruling, its score recorded (points and running total) exactly as the rules
 * give it, and no deal after the end of the game. It returns the end state the Python referee reads
 * (``PitchGame.referee``), as its ``Verdict`` keeps it: (the totals [t0, t1], the winner [side] or None,
 * where the game ended (deal, trick, or None after the deal's tricks) or None). For anything else it returns None, having decided
 * nothing: the Python referee, the reference, then replays the record and says what is wrong (or finds
 * nothing wrong). As for the kernel above, None is always safe; what must never happen is a success where
 * the Python referee would report something about a deal. tests/test_hot.py holds the two to the same
 * verdicts.
 *
 * ``params`` is the game's rules in typed form, built once per rules object (``PitchGame.hot_rules``):
 * (game, hand_size, counters, follow, target, immediate, undealt, muck_tie, bonus, low_to_capturer), game
 * 0 Phat, 1 Nine-card Don, 2 Irish Don; counters and follow as for play(); undealt 1 where the deals may
 * list the cards left undealt (Nine-card Don); muck_tie 0 none, 1 carry, 2 both; bonus 0 game_8, 1
 * six_high_jack, 2 five_high_low_jack. Junk params are declined too (None). */

enum { REC_PHAT = 0, REC_DON = 1, REC_IRISH = 2 };
enum { MUCK_NONE = 0, MUCK_CARRY = 1, MUCK_BOTH = 2 };
enum { DON_GAME_8 = 0, DON_SIX_HIGH_JACK = 1, DON_FIVE_HIGH_LOW_JACK = 2 };
#define REC_PARAMS 10
#define MUCK_POINTS 8

static PyObject *str_rulings, *str_score, *str_points, *str_total, *str_undealt, *str_tricks;

typedef struct {
    int game, hand_size, follow, immediate, undealt, muck_tie, bonus, low_capturer;
    long long target;
    const unsigned char *counters; /* 4 * 52: by trump suit, then card id */
} RecordRules;

/* The running state of a record: the totals, Phat's carried muck, and where the game ended. */
typedef struct {
    long long totals[2];
    long long carry;
    int winner, ended_deal, ended_trick;
} RecordState;

static Slot slot_rulings = {.name = &str_rulings}, slot_dealer = {.name = &str_dealer},
            slot_hands = {.name = &str_hands}, slot_tricks = {.name = &str_tricks},
            slot_undealt = {.name = &str_undealt}, slot_score = {.name = &str_score},
            slot_points = {.name = &str_points}, slot_total = {.name = &str_total};

/* Whether a recorded list (points or running total) is exactly [a, b]: a list of two ints. */
static int
recorded_pair(PyObject *obj, long long a, long long b)
{
    if (obj == NULL || !PyList_CheckExact(obj) || PyList_GET_SIZE(obj) != 2) {
        return 0;
    }
    long long want[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        PyObject *item = PyList_GET_ITEM(obj, i);
        if (!PyLong_CheckExact(item)) {
            return 0;
        }
        int overflow = 0;
        long long got = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (overflow || (got == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0;
        }
        if (got != want[i]) {
            return 0;
        }
    }
    return 1;
}

/* Peg an end-of-deal award of ``points`` to ``side`` (nothing for no points): 1 if the game ends at
 * this peg (``peg_out: immediate``). ``pitch.peg_bonuses`` is the reference. */
static int
peg_award(const RecordRules *rules, RecordState *st, int d, int side, long long points)
{
    if (side < 0 || points <= 0) {
        return 0;
    }
    st->totals[side] += points;
    if (rules->immediate && st->totals[side] >= rules->target) {
        st->winner = side;
        st->ended_deal = d;
        st->ended_trick = -1;
        return 1;
    }
    return 0;
}

/* The end-of-deal awards of a deal played out, in the order they are pegged (each game's ``bonuses``),
 * then, under ``peg_out: end_of_deal``, the target (``PitchGame._peg_bonuses``). */
static void
peg_awards(const RecordRules *rules, RecordState *st, int d, const Deal *deal, const int *winners,
           const uint64_t dealt[SEATS], int trump, int pitcher)
{
    DealCards cards;
    deal_cards(deal, winners, dealt, trump, &cards);
    const int *game = cards.game;
    if (rules->game == REC_PHAT) {
        /* The muck: more than 40 of the 80 card points pegs 8 (and what tied mucks carried). */
        int mine = game[0], theirs = 80 - game[0];
        if (mine != theirs) {
            long long carried = st->carry;
            st->carry = 0;
            if (peg_award(rules, st, d, mine > theirs ? 0 : 1, MUCK_POINTS + carried)) {
                return;
            }
        }
        else if (rules->muck_tie == MUCK_BOTH) {
            int first = pitcher & 1; /* the pitcher's side pegs its 8 first */
            if (peg_award(rules, st, d, first, MUCK_POINTS) || peg_award(rules, st, d, 1 - first, MUCK_POINTS)) {
                return;
            }
        }
        else if (rules->muck_tie == MUCK_CARRY) {
            st->carry += MUCK_POINTS;
        }
    }
    else if (rules->game == REC_DON) {
        static const int game_value[3] = {8, 6, 5};
        if (game[0] != game[1] && peg_award(rules, st, d, game[0] > game[1] ? 0 : 1, game_value[rules->bonus])) {
            return;
        }
        if (rules->bonus != DON_GAME_8) {
            /* cards.high_seat >= 0: the pitcher's first lead is a trump */
            if (peg_award(rules, st, d, cards.high_seat & 1, 1)) {
                return;
            }
            if (rules->bonus == DON_FIVE_HIGH_LOW_JACK) {
                int side = rules->low_capturer ? (cards.low_side == 0 ? 0 : 1) : cards.low_seat & 1;
                if (peg_award(rules, st, d, side, 1)) {
                    return;
                }
            }
            if (peg_award(rules, st, d, cards.jack_side, 1)) {
                return;
            }
        }
    }
    if (!rules->immediate && (st->totals[0] >= rules->target || st->totals[1] >= rules->target)
        && st->totals[0] != st->totals[1]) {
        st->winner = st->totals[0] > st->totals[1] ? 0 : 1; /* ``pitch.end_of_deal_winner`` */
        st->ended_deal = d;
        st->ended_trick = -1;
    }
}

/* Play deal ``d`` (tricks read, hands read) and peg it: 0, or -1 to decline the record. */
static int
record_play(const RecordRules *rules, RecordState *st, int d, Deal *deal, PyObject *hands_obj, PyObject *undealt_obj,
            int dealer)
{
    uint64_t hand[MAX_SEATS];
    int winners[MAX_TRICKS];
    if (read_hands(deal, hands_obj, undealt_obj, rules->hand_size, hand) < 0) {
        return -1;
    }
    int pitcher = (dealer + 1) & 3;
    int trump = deal->tricks[0].ids[0] / 13; /* the suit of the pitcher's first lead is trump */
    uint64_t dealt[SEATS] = {hand[0], hand[1], hand[2], hand[3]};
    if (play_tricks(deal, hand, pitcher, trump, rules->follow, winners) < 0) {
        return -1;
    }
    if (d == 0 && rules->game == REC_IRISH) {
        /* The holder of the two of diamonds (card 13) pitches first: the first dealer is on their right. */
        int holder = -1;
        for (int s = 0; s < SEATS; s++) {
            if ((dealt[s] >> 13) & 1) {
                holder = s;
            }
        }
        if (holder < 0 || dealer != ((holder + 3) & 3)) {
            return -1;
        }
    }
    const unsigned char *counters = rules->counters + 52 * trump;
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        const int *ids = deal->tricks[t].ids;
        int side = winners[t] & 1;
        int points = counters[ids[0]] + counters[ids[1]] + counters[ids[2]] + counters[ids[3]];
        st->totals[side] += points;
        if (points && rules->immediate && st->totals[side] >= rules->target) {
            if (t + 1 < deal->ntricks) {
                return -1; /* tricks after the winning peg (PL305) */
            }
            st->winner = side;
            st->ended_deal = d;
            st->ended_trick = (int)t;
            return 0; /* the game ends at this peg: no awards */
        }
    }
    if (deal->ntricks != rules->hand_size) {
        return -1; /* a deal cut short */
    }
    peg_awards(rules, st, d, deal, winners, dealt, trump, pitcher);
    return 0;
}

/* One deal of the record: 0 if it is clean (the state moved on past it), -1 to decline the record (no
 * exception left set). */
static int
record_deal(const RecordRules *rules, RecordState *st, int d, PyObject *deal_obj, int *due)
{
    /* A ruling of any kind (format 1.1): the Python referee applies it. */
    PyObject *ruled = slot_attr(&slot_rulings, deal_obj);
    if (ruled != NULL) {
        int none = ruled == Py_None || (PyList_CheckExact(ruled) && PyList_GET_SIZE(ruled) == 0)
                   || (PyTuple_CheckExact(ruled) && PyTuple_GET_SIZE(ruled) == 0);
        Py_DECREF(ruled);
        if (!none) {
            return -1;
        }
    }
    PyObject *dealer_obj = slot_attr(&slot_dealer, deal_obj);
    long dealer = dealer_obj == NULL ? -1 : small_int(dealer_obj, SEATS);
    Py_XDECREF(dealer_obj);
    if (dealer < 0 || (*due >= 0 && dealer != *due)) {
        return -1; /* a wrong dealer (PL202), or one that is not a seat */
    }
    *due = (int)((dealer + 1) & 3); /* the deal passes to the left */
    long long start[2] = {st->totals[0], st->totals[1]};
    PyObject *undealt_obj = NULL, *hands_obj = NULL, *tricks_obj = NULL, *score = NULL;
    int ok = -1;
    Deal deal;
    deal.ntricks = 0;
    if (rules->undealt && (undealt_obj = slot_attr(&slot_undealt, deal_obj)) == NULL) {
        goto done;
    }
    if ((hands_obj = slot_attr(&slot_hands, deal_obj)) == NULL
        || (tricks_obj = slot_attr(&slot_tricks, deal_obj)) == NULL) {
        goto done;
    }
    /* No tricks (a score sheet), or not the common shape: read_tricks declines. */
    if (read_tricks(&deal, tricks_obj, SEATS, rules->hand_size) < 0
        || record_play(rules, st, d, &deal, hands_obj, undealt_obj == NULL ? Py_None : undealt_obj, (int)dealer)
               < 0) {
        goto done;
    }
    /* The recorded score: both the deal's points and the running total, as the rules give them. */
    if ((score = slot_attr(&slot_score, deal_obj)) == NULL || score == Py_None) {
        goto done;
    }
    PyObject *points = slot_attr(&slot_points, score);
    int same = recorded_pair(points, st->totals[0] - start[0], st->totals[1] - start[1]);
    Py_XDECREF(points);
    if (!same) {
        goto done;
    }
    PyObject *total = slot_attr(&slot_total, score);
    same = recorded_pair(total, st->totals[0], st->totals[1]);
    Py_XDECREF(total);
    ok = same ? 0 : -1;
done:
    release(&deal);
    Py_XDECREF(undealt_obj);
    Py_XDECREF(hands_obj);
    Py_XDECREF(tricks_obj);
    Py_XDECREF(score);
    return ok;
}

/* An int param in [0, limit), or -1. */
static long
param_int(PyObject *const *items, int i, long limit)
{
    return small_int(items[i], limit);
}

static const char pitch_record_doc[] =
    "pitch_record(deals, params)\n"
    "--\n\n"
    "A whole record of the All Fours family, the clean common case only: (totals, winners, ended_at)\n"
    "as the Verdict keeps them; None for anything else. See phatlog/_native/_hot.pyi.";

static PyObject *
pitch_record(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "pitch_record() takes 2 arguments");
        return NULL;
    }
    if (str_tricks == NULL) {
        str_rulings = PyUnicode_InternFromString("rulings");
        str_score = PyUnicode_InternFromString("score");
        str_points = PyUnicode_InternFromString("points");
        str_total = PyUnicode_InternFromString("total");
        str_undealt = PyUnicode_InternFromString("undealt");
        str_tricks = PyUnicode_InternFromString("tricks");
        if (str_rulings == NULL || str_score == NULL || str_points == NULL || str_total == NULL
            || str_undealt == NULL || str_tricks == NULL) {
            Py_CLEAR(str_tricks); /* tried again next time */
            return NULL;
        }
    }
    Py_ssize_t nparams = 0, ndeals = 0;
    PyObject *const *p = PyTuple_CheckExact(args[1]) ? items_of(args[1], &nparams) : NULL;
    PyObject **deals = items_of(args[0], &ndeals);
    if (p == NULL || nparams != REC_PARAMS || deals == NULL || ndeals < 1 || ndeals > INT_MAX / 2) {
        Py_RETURN_NONE;
    }
    RecordRules rules;
    rules.game = (int)param_int(p, 0, 3);
    rules.hand_size = (int)param_int(p, 1, MAX_TRICKS + 1);
    rules.follow = (int)param_int(p, 3, 3);
    rules.immediate = (int)param_int(p, 5, 2);
    rules.undealt = (int)param_int(p, 6, 2);
    rules.muck_tie = (int)param_int(p, 7, 3);
    rules.bonus = (int)param_int(p, 8, 3);
    rules.low_capturer = (int)param_int(p, 9, 2);
    rules.target = (long long)param_int(p, 4, 1L << 30);
    if (rules.game < 0 || rules.hand_size < 1 || SEATS * rules.hand_size > 52 || rules.follow < 0
        || rules.immediate < 0 || rules.undealt < 0 || rules.muck_tie < 0 || rules.bonus < 0
        || rules.low_capturer < 0 || rules.target < 0 || !PyBytes_CheckExact(p[2])
        || PyBytes_GET_SIZE(p[2]) != 4 * 52) {
        Py_RETURN_NONE;
    }
    rules.counters = (const unsigned char *)PyBytes_AS_STRING(p[2]);
    RecordState st = {{0, 0}, 0, -1, -1, -1};
    int due = -1;
    /* A reference to the list, so that nothing a getattr runs can free its items under us. */
    PyObject *held = Py_NewRef(args[0]);
    for (Py_ssize_t d = 0; d < ndeals; d++) {
        Py_ssize_t now = 0;
        deals = items_of(held, &now);
        if (st.ended_deal >= 0 || now != ndeals) {
            Py_DECREF(held);
            Py_RETURN_NONE; /* a deal after the end of the game (PL308) */
        }
        PyObject *deal = Py_NewRef(deals[d]);
        int bad = record_deal(&rules, &st, (int)d, deal, &due);
        Py_DECREF(deal);
        if (bad) {
            Py_DECREF(held);
            Py_RETURN_NONE;
        }
    }
    Py_DECREF(held);
    /* (totals, winners, ended_at) as the Verdict keeps them: [t0, t1]; [side] or None; (deal, trick or None)
     * or None. */
    PyObject *out = PyTuple_New(3);
    PyObject *totals = PyList_New(2);
    PyObject *winners = st.winner < 0 ? Py_NewRef(Py_None) : PyList_New(1);
    PyObject *ended = st.ended_deal < 0 ? Py_NewRef(Py_None) : PyTuple_New(2);
    if (out == NULL || totals == NULL || winners == NULL || ended == NULL) {
        goto no_memory;
    }
    PyTuple_SET_ITEM(out, 0, totals);
    PyTuple_SET_ITEM(out, 1, winners);
    PyTuple_SET_ITEM(out, 2, ended);
    for (int i = 0; i < 2; i++) {
        PyObject *total = PyLong_FromLongLong(st.totals[i]);
        if (total == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(totals, i, total);
    }
    if (winners != Py_None) {
        PyObject *side = PyLong_FromLong(st.winner);
        PyList_SET_ITEM(winners, 0, side);
        if (side == NULL) {
            Py_DECREF(out);
            return NULL;
        }
    }
    if (ended != Py_None) {
        PyObject *deal = PyLong_FromLong(st.ended_deal);
        PyObject *trick = st.ended_trick < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(st.ended_trick);
        PyTuple_SET_ITEM(ended, 0, deal);
        PyTuple_SET_ITEM(ended, 1, trick);
        if (deal == NULL || trick == NULL) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
no_memory:
    Py_XDECREF(out);
    Py_XDECREF(totals);
    Py_XDECREF(winners);
    Py_XDECREF(ended);
    return NULL;
}

/* ------------------------------------------------------------------------ Oh Hell: a whole record (h-ohrec)
 *
 * oh_hell_record(deals, params) referees every hand of an Oh Hell record in one call, for the clean,
 * common case only: no rulings, the dealer passing to the left, every hand of the schedule played out
 * with its tricks (the hands proper, the turned-up card undealt, every trick legal, as oh_hell above),
 * a turned-up card exactly where the hand has a trump, the bids 0 to the hand size and allowed by the
 * hook, the tricks taken (if recorded) as won, and each hand's recorded points and running totals the
 * ones the rules give. It returns (totals, judged): the final totals and each hand's (bids, tricks
 * taken), what OhHell.referee gathers; or None, declining, the moment anything else is met (also junk
 * of any kind): the Python referee then does the whole record and words what it finds.
 *
 * params is one bytes object, made once per rules (oh_hell.py's _plan): the seats, the follow rule,
 * the hook (1 only with sequential bidding), no trump in the last hand (1) or never (0), the miss
 * scoring (0 zero, 1 tricks, 2 minus_diff), the zero bid scoring (0 standard, 1 five_plus_cards), then
 * each hand's size, a byte each.
 */

enum { OHR_SEATS, OHR_FOLLOW, OHR_HOOK, OHR_LAST_NO_TRUMP, OHR_MISS, OHR_ZERO_BID, OHR_HEAD };

/* The fields read: their names (interned once) and a Slot each (the kernel's one way of reading a
 * wire struct's field straight from its slot: see Slot). */
enum { F_RULINGS, F_DEALER, F_TURNUP, F_BIDS, F_TRICKS, F_HANDS, F_TAKEN, F_SCORE, F_POINTS, F_TOTAL,
       F_LEADER, F_WINNER, F_CARDS, F_COUNT };

static const char *const ohr_texts[F_COUNT] = {"rulings", "dealer", "turnup", "bids",  "tricks", "hands", "taken",
                                               "score",   "points", "total",  "leader", "winner", "cards"};
static PyObject *ohr_name[F_COUNT];
static Slot ohr_slots[F_COUNT];

/* A hint that memory is about to be read (none where the compiler has no such builtin). */
#if defined(__GNUC__) || defined(__clang__)
#define OHR_PREFETCH(p) __builtin_prefetch(p)
#else
#define OHR_PREFETCH(p) ((void)(p))
#endif

/* Intern the fields' names, once. 0, or -1 with an exception. */
static int
ohr_names(void)
{
    for (int f = 0; f < F_COUNT; f++) {
        if (ohr_name[f] == NULL) {
            if ((ohr_name[f] = PyUnicode_InternFromString(ohr_texts[f])) == NULL) {
                return -1;
            }
            ohr_slots[f].name = &ohr_name[f];
        }
    }
    return 0;
}

/* A field of an object (a new reference), or NULL with no exception left (missing, or anything wrong):
 * the caller declines. */
static inline PyObject *
ohr_get(PyObject *obj, int f)
{
    return slot_attr(&ohr_slots[f], obj);
}

/* The tricks of a hand (the kernel's read_tricks): 0, or -1 to decline. A hand that is not played out
 * declines at once. */
static int
ohr_read_tricks(Deal *deal, PyObject *tricks_obj, int seats, long hand_size)
{
    Py_ssize_t ntricks;
    if (items_of(tricks_obj, &ntricks) == NULL || ntricks != hand_size) {
        deal->ntricks = 0;
        return -1;
    }
    return read_tricks(deal, tricks_obj, seats, hand_size);
}

/* A field read for a hint only: the object's slot where its type is the one the field's cache knows
 * (borrowed; NULL otherwise). It runs no Python code and changes nothing. */
static inline PyObject *
ohr_peek(PyObject *obj, int f)
{
    const Slot *slot = &ohr_slots[f];
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp != slot->type || slot->offset <= 0 || tp->tp_version_tag != slot->tag) {
        return NULL;
    }
    return *(PyObject **)((char *)obj + slot->offset);
}

/* Ask the memory for what reading a hand will wait for: the recorded hands' cards and the tricks' cards.
 * A record just decoded is in the cache; one read long ago, or among much else, is not, and then waiting
 * for each object in turn is most of the time. So level by level (each level's addresses are in the
 * objects of the one before), the hands and the tricks side by side, each level asked for at once. Only
 * lists and the wire structs' slots are looked at: no Python code runs, nothing changes. */
static void
ohr_prefetch(PyObject *hands, PyObject *tricks)
{
    Py_ssize_t nhands = 0, ntricks = 0, n;
    PyObject **hand_objs = hands == Py_None ? NULL : items_of(hands, &nhands);
    PyObject **trick_objs = items_of(tricks, &ntricks);
    nhands = hand_objs == NULL || nhands > MAX_SEATS ? 0 : nhands;
    ntricks = trick_objs == NULL || ntricks > MAX_TRICKS ? 0 : ntricks;
    for (Py_ssize_t s = 0; s < nhands; s++) {
        OHR_PREFETCH(hand_objs[s]);
    }
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        OHR_PREFETCH(trick_objs[t]);
    }
    PyObject **held[MAX_SEATS], *cards[MAX_TRICKS];
    Py_ssize_t count[MAX_SEATS];
    for (Py_ssize_t s = 0; s < nhands; s++) {
        held[s] = items_of(hand_objs[s], &n);
        count[s] = held[s] == NULL ? 0 : n;
        OHR_PREFETCH(held[s]);
    }
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        cards[t] = ohr_peek(trick_objs[t], F_CARDS);
        if (cards[t] != NULL) {
            OHR_PREFETCH(cards[t]);
        }
    }
    for (Py_ssize_t s = 0; s < nhands; s++) {
        for (Py_ssize_t i = 0; i < count[s]; i++) {
            OHR_PREFETCH(held[s][i]);
        }
    }
    PyObject **played[MAX_TRICKS];
    Py_ssize_t played_count[MAX_TRICKS];
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        played[t] = cards[t] == NULL ? NULL : items_of(cards[t], &n);
        played_count[t] = played[t] == NULL ? 0 : n;
        if (played[t] != NULL) {
            OHR_PREFETCH(played[t]);
        }
    }
    for (Py_ssize_t t = 0; t < ntricks; t++) {
        for (Py_ssize_t i = 0; i < played_count[t]; i++) {
            OHR_PREFETCH(played[t][i]);
        }
    }
}

/* A list or tuple of ``seats`` ints, each in [0, limit), into out: 0, or -1 (no exception) for anything else. */
static int
ohr_small_ints(PyObject *obj, int seats, long limit, long out[MAX_SEATS])
{
    Py_ssize_t n;
    PyObject **items = items_of(obj, &n);
    if (items == NULL || n != seats) {
        return -1;
    }
    for (int s = 0; s < seats; s++) {
        out[s] = small_int(items[s], limit);
        if (out[s] < 0) {
            return -1;
        }
    }
    return 0;
}

/* Whether obj is a list or tuple of ``seats`` ints equal to want (no exception left). */
static int
ohr_equal_ints(PyObject *obj, int seats, const long want[MAX_SEATS])
{
    Py_ssize_t n;
    PyObject **items = obj == NULL ? NULL : items_of(obj, &n);
    if (items == NULL || n != seats) {
        return 0;
    }
    for (int s = 0; s < seats; s++) {
        if (!PyLong_CheckExact(items[s])) {
            return 0;
        }
        int overflow = 0;
        long value = PyLong_AsLongAndOverflow(items[s], &overflow);
        if (overflow || value != want[s]) {
            PyErr_Clear();
            return 0;
        }
    }
    return 1;
}

/* A new list of ints. */
static PyObject *
ohr_list(const long *values, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

/* One hand: 1 if it is clean (bid and taken filled in, the hand's points added to totals, and the recorded
 * points and running totals those), else 0: decline. Never an exception. */
static int
ohr_hand(PyObject *obj, int seats, long size, int dealer, int no_trump, const unsigned char *p, long bid[MAX_SEATS],
         long taken[MAX_SEATS], long totals[MAX_SEATS])
{
    long points[MAX_SEATS];
    int clean = 0;
    PyObject *turnup = NULL, *bids = NULL, *tricks = NULL, *hands = NULL, *taken_obj = NULL, *score = NULL,
             *got = NULL, *total = NULL;
    Deal deal;
    deal.ntricks = 0;
    int trump = -1;
    if ((turnup = ohr_get(obj, F_TURNUP)) == NULL || (bids = ohr_get(obj, F_BIDS)) == NULL
        || (tricks = ohr_get(obj, F_TRICKS)) == NULL || (hands = ohr_get(obj, F_HANDS)) == NULL
        || (taken_obj = ohr_get(obj, F_TAKEN)) == NULL || (score = ohr_get(obj, F_SCORE)) == NULL) {
        goto done;
    }
    if (no_trump ? turnup != Py_None : (trump = card_id(turnup)) < 0) {
        goto done; /* a turned-up card where there should be none, or none (or junk) where there should be one */
    }
    trump = trump < 0 ? -1 : trump / 13;
    if (ohr_small_ints(bids, seats, size + 1, bid) < 0) {
        goto done; /* no bids, or one beyond the hand size */
    }
    if (p[OHR_HOOK]) {
        long others = 0;
        for (int s = 0; s < seats; s++) {
            others += s == dealer ? 0 : bid[s];
        }
        if (size - others == bid[dealer]) { /* (then 0 <= size - others <= size) */
            goto done;
        }
    }
    uint64_t held[MAX_SEATS];
    int winners[MAX_TRICKS];
    ohr_prefetch(hands, tricks);
    if (ohr_read_tricks(&deal, tricks, seats, size) < 0 || read_hands(&deal, hands, no_trump ? Py_None : turnup, size, held) < 0
        || play_tricks(&deal, held, (dealer + 1) % seats, trump, p[OHR_FOLLOW], winners) < 0 || deal.ntricks != size) {
        goto done;
    }
    for (int s = 0; s < seats; s++) {
        taken[s] = 0;
    }
    for (Py_ssize_t t = 0; t < deal.ntricks; t++) {
        taken[winners[t]]++;
    }
    if (taken_obj != Py_None && !ohr_equal_ints(taken_obj, seats, taken)) {
        goto done;
    }
    for (int s = 0; s < seats; s++) { /* oh_hell.hand_score */
        long b = bid[s], took = taken[s];
        if (took == b) {
            points[s] = b == 0 && p[OHR_ZERO_BID] ? 5 + size : 10 + took;
        }
        else {
            points[s] = p[OHR_MISS] == 1 ? took : p[OHR_MISS] == 2 ? -(b > took ? b - took : took - b) : 0;
        }
    }
    for (int s = 0; s < seats; s++) {
        totals[s] += points[s];
    }
    if (score == Py_None || (got = ohr_get(score, F_POINTS)) == NULL || !ohr_equal_ints(got, seats, points)
        || (total = ohr_get(score, F_TOTAL)) == NULL || !ohr_equal_ints(total, seats, totals)) {
        goto done; /* a score missing, or not the rules' */
    }
    clean = 1;
done:
    release(&deal);
    Py_XDECREF(turnup);
    Py_XDECREF(bids);
    Py_XDECREF(tricks);
    Py_XDECREF(hands);
    Py_XDECREF(taken_obj);
    Py_XDECREF(score);
    Py_XDECREF(got);
    Py_XDECREF(total);
    return clean;
}

/* Hand ``d`` (ohr_hand), after what is read before its cards: no rulings, and the dealer (the one after the
 * last hand's, in *dealer). 1 if clean, else 0: decline. */
static int
ohr_deal(PyObject *deal, Py_ssize_t d, int seats, Py_ssize_t nsizes, const unsigned char *p, int *dealer,
         long bid[MAX_SEATS], long taken[MAX_SEATS], long totals[MAX_SEATS])
{
    PyObject *found = ohr_get(deal, F_RULINGS);
    int none = found != NULL
               && (found == Py_None || (PyList_CheckExact(found) && PyList_GET_SIZE(found) == 0)
                   || (PyTuple_CheckExact(found) && PyTuple_GET_SIZE(found) == 0));
    Py_XDECREF(found);
    if (!none) {
        return 0; /* a ruling (or a misdeal): format 1.1's rulings are the Python referee's */
    }
    PyObject *dealer_obj = ohr_get(deal, F_DEALER);
    long seat = dealer_obj == NULL ? -1 : small_int(dealer_obj, seats);
    Py_XDECREF(dealer_obj);
    if (seat < 0 || (d > 0 && seat != (*dealer + 1) % seats)) {
        return 0; /* a seat beyond the table, or the deal not passed to the left */
    }
    *dealer = (int)seat;
    long size = p[OHR_HEAD + d];
    int no_trump = seats * size >= 52 || (d == nsizes - 1 && p[OHR_LAST_NO_TRUMP]);
    return ohr_hand(deal, seats, size, *dealer, no_trump, p, bid, taken, totals);
}

static const char oh_hell_record_doc[] =
    "oh_hell_record(deals, params)\n"
    "--\n\n"
    "A whole Oh Hell record in the clean, common case: (totals, [(bids, taken), ...]), or None to let\n"
    "the Python referee do it; see phatlog/_native/_hot.pyi.";

static PyObject *
oh_hell_record(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "oh_hell_record() takes 2 arguments");
        return NULL;
    }
    PyObject *deals_obj = args[0], *params = args[1];
    if (!PyBytes_CheckExact(params) || PyBytes_GET_SIZE(params) <= OHR_HEAD) {
        PyErr_SetString(PyExc_ValueError, "oh_hell_record(): params is bytes: 6 rules bytes, then the hand sizes");
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(params);
    Py_ssize_t nsizes = PyBytes_GET_SIZE(params) - OHR_HEAD;
    const unsigned char *sizes = p + OHR_HEAD;
    int seats = p[OHR_SEATS];
    int bad = seats < 3 || seats > MAX_SEATS || p[OHR_FOLLOW] > MUST_TRUMP || p[OHR_HOOK] > 1
              || p[OHR_LAST_NO_TRUMP] > 1 || p[OHR_MISS] > 2 || p[OHR_ZERO_BID] > 1;
    for (Py_ssize_t i = 0; i < nsizes && !bad; i++) {
        bad = sizes[i] < 1 || sizes[i] * seats > 52;
    }
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "oh_hell_record(): bad params");
        return NULL;
    }
    if (ohr_names() < 0) {
        return NULL;
    }
    if (!PyList_CheckExact(deals_obj) && !PyTuple_CheckExact(deals_obj)) {
        Py_RETURN_NONE;
    }
    Py_ssize_t ndeals = 0;
    PyObject **deals = items_of(deals_obj, &ndeals); /* NULL for an empty list: then ndeals is 0 */
    if (ndeals > nsizes) {
        Py_RETURN_NONE; /* more hands than the schedule: the Python referee says so */
    }
    PyObject *judged = PyList_New(ndeals);
    if (judged == NULL) {
        return NULL;
    }
    long totals[MAX_SEATS] = {0};
    int dealer = -1;
    for (Py_ssize_t d = 0; d < ndeals; d++) {
        Py_ssize_t now;
        deals = items_of(deals_obj, &now); /* (again: a getattr since may have changed the list) */
        if (deals == NULL || now != ndeals) {
            goto decline;
        }
        PyObject *deal = deals[d];
        long bid[MAX_SEATS], taken[MAX_SEATS];
        Py_INCREF(deal); /* (a getattr could take it out of the list) */
        int clean = ohr_deal(deal, d, seats, nsizes, p, &dealer, bid, taken, totals);
        Py_DECREF(deal);
        if (!clean) {
            goto decline;
        }
        PyObject *pair = Py_BuildValue("(NN)", ohr_list(bid, seats), ohr_list(taken, seats));
        if (pair == NULL) {
            Py_DECREF(judged);
            return NULL;
        }
        PyList_SET_ITEM(judged, d, pair);
    }
    PyObject *final = ohr_list(totals, seats);
    if (final == NULL) {
        Py_DECREF(judged);
        return NULL;
    }
    return Py_BuildValue("(NN)", final, judged);
decline:
    Py_DECREF(judged);
    Py_RETURN_NONE;
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
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "phatlog._native._hot.DealTable",
    .tp_doc = "The deals seen in a run, by key (phatlog.archive.duplicates).",
    .tp_basicsize = sizeof(DealTable),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)deal_table_dealloc,
    .tp_methods = deal_table_methods,
    .tp_as_sequence = &deal_table_sequence,
};

static PyMethodDef hot_methods[] = {
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL, play_doc},
    {"oh_hell", (PyCFunction)(void (*)(void))oh_hell, METH_FASTCALL, oh_hell_doc},
    {"maybe_duplicate_keys", (PyCFunction)maybe_duplicate_keys, METH_O, maybe_duplicate_keys_doc},
    {"deal_keys", (PyCFunction)deal_keys, METH_O, deal_keys_doc},
    {"record_stream", (PyCFunction)(void (*)(void))record_stream, METH_FASTCALL, record_stream_doc},
    {"pitch_record", (PyCFunction)(void (*)(void))pitch_record, METH_FASTCALL, pitch_record_doc},
    {"oh_hell_record", (PyCFunction)(void (*)(void))oh_hell_record, METH_FASTCALL, oh_hell_record_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef hot_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "phatlog._native._hot",
    .m_doc = "The trick kernel of every game, in C (optional): see phatlog/_native/_hot.pyi.",
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
    str_dealer = PyUnicode_InternFromString("dealer");
    str_hands = PyUnicode_InternFromString("hands");
    if (str_leader == NULL || str_cards == NULL || str_winner == NULL || str_dealer == NULL || str_hands == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&hot_module);
    if (module == NULL) {
        return NULL;
    }
    PyObject *faults = PyTuple_New(FAULT_KINDS);
    if (faults == NULL) {
        Py_DECREF(module);
        return NULL;
    }
    for (int k = 0; k < FAULT_KINDS; k++) {
        PyObject *name = PyUnicode_InternFromString(fault_names[k]);
        if (name == NULL) {
            Py_DECREF(faults);
            Py_DECREF(module);
            return NULL;
        }
        PyTuple_SET_ITEM(faults, k, name);
    }
    if (PyModule_AddObject(module, "FAULTS", faults) < 0) {
        Py_DECREF(faults);
        Py_DECREF(module);
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
