/* The trick kernel of every game, in C: an optional speed-up of the referee's untraced replay.
 *
 * Mechanics only: every rule reaches this file as a table compiled from the Python rules
 * (phatlog/_native/tables.py, whose opening gives the layout): which card wins a trick, which cards may
 * be played, what each card pegs and counts, the end-of-deal awards in their order, the target and when
 * it is looked at, Oh Hell's score by bid and tricks taken and its schedule. No game's number is written
 * here. Seats, hand sizes and the schedule come in the tables too; MAX_SEATS and MAX_TRICKS are only the
 * bounds of this code's arrays. A table is checked (its size and every word relied on) before it is used,
 * once per table object: a junk one raises ValueError.
 *
 *   play(...)            one deal of the All Fours family (the pitcher's first lead names trump; counters
 *                        pegged trick by trick: phatlog/referee/pitch.py)
 *   oh_hell(...)         one hand of Oh Hell (trump, or none, from the turned-up card: referee/oh_hell.py)
 *   pitch_record(...)    a whole All Fours record, the clean common case only (and, asked, what it
 *                        decided of each deal and trick, as words: phatlog/archive/export_columns.py)
 *   oh_hell_record(...)  a whole Oh Hell record, the clean common case only
 *
 * Each per-deal entry returns either success, a tuple whose first item is 0 followed by what the referee
 * uses, or a fault, the tuple (kind, trick, position): kind > 0 (the FAULT_ constants below, named in the
 * module's FAULTS), the trick counted from 0 and the card's position in it (-1 where none applies). A fault
 * is the kernel declining the deal: the Python engine, which stays the reference, then replays the deal
 * and says in words what is wrong (or finds nothing wrong: FAULT_UNUSUAL also covers what is merely
 * outside the common, clean case this code handles, such as a deal cut short). The record paths return
 * None to decline. So this file never produces a diagnostic, and declining is always safe; what must
 * never happen is a success where the Python engine would find a problem. tests/test_hot.py holds the
 * paths to the same verdicts.
 */
#include "_common.h"

/* The kinds of fault, in the order of the module's FAULTS. */
enum {
    FAULT_NONE = 0,
    FAULT_UNUSUAL,  /* not the common shape (a field of the wrong type, a seat out of range, a deal cut short) */
    FAULT_HANDS,    /* the hands are not a proper deal: a card twice, a wrong count, a card both dealt and undealt */
    FAULT_LEADER,   /* the wrong seat led the trick */
    FAULT_NOT_HELD, /* a card its player did not hold */
    FAULT_REVOKE,   /* a player did not follow suit, holding the suit led */
    FAULT_TRUMP,    /* a card the rules forbid to a player who holds none of the suit led (must_trump) */
    FAULT_WINNER,   /* the recorded winner of the trick is not the one who won it */
    FAULT_TRICKS,   /* more tricks than cards, or tricks after the game was won at a peg */
    FAULT_KINDS
};
static const char *const fault_names[FAULT_KINDS] = {"none",     "unusual", "hands",  "leader",
                                                     "not_held", "revoke",  "trump", "winner", "tricks"};

static PyObject *str_leader, *str_cards, *str_winner, *str_dealer, *str_hands;

/* ------------------------------------------------------------------------ the tables (tables.py) */

enum { T_MAGIC = 0x50484154, T_TRICK = 1, T_ALL_FOURS = 2, T_OH_HELL = 3 };
#define T_STRENGTH 3
#define T_ALLOW (T_STRENGTH + 5 * 4 * 52)
#define T_GAME (T_ALLOW + 5 * 8)
#define T_NO_TRUMP 4
/* ALL_FOURS, from T_GAME */
enum { P_SEATS, P_HAND_SIZE, P_TARGET, P_PEG_OUT, P_UNDEALT, P_FIRST_PITCH, P_AWARDS, P_SIDE };
#define P_JACK (P_SIDE + MAX_SEATS)
#define P_COUNTERS (P_JACK + 4)
#define P_CARD_POINTS (P_COUNTERS + 4 * 52)
#define P_AWARD_LIST (P_CARD_POINTS + 52)
enum { PEG_IMMEDIATE = 0, PEG_END_OF_DEAL = 1 };
enum { READS_COUNT = 1, READS_HIGH_DEALT, READS_LOW_DEALT, READS_LOW_CAPTURED, READS_CAPTURED };
enum { TIE_NONE = 0, TIE_CARRY, TIE_BOTH };
/* OH_HELL, from T_GAME */
enum { O_SEATS, O_HANDS, O_HOOK, O_HAND };
#define MAX_AWARDS 16
#define MAX_HANDS 1024
#define WORD_LIMIT (1 << 20) /* the largest points (either sign) a table may give: no sum overflows */
#define CACHED 4             /* tables kept checked, by object (each held, so that no other takes its address) */

/* The trick's rules: ``strength[trump][led][card]`` (trump T_NO_TRUMP: none) and ``allow[trump][case]``. */
typedef struct {
    const int32_t *strength;
    const int32_t *allow;
} TrickRules;

/* The rules of an All Fours game (ALL_FOURS). */
typedef struct {
    TrickRules trick;
    int seats, hand_size, peg_out, undealt, first_pitch, nawards;
    long long target; /* -1: beyond what this code takes (it declines) */
    int side[MAX_SEATS];
    int jack[4];
    const int32_t *counters;    /* [trump][card] */
    const int32_t *card_points; /* [card] */
    const int32_t *awards;      /* nawards x (reads, points, tie) */
} PitchRules;

/* One hand of an Oh Hell schedule. */
typedef struct {
    int size, has_trump;
    const int32_t *score;     /* [bid][took], (size + 1) squared */
    const int32_t *forbidden; /* by the sum of the other bids; NULL: no hook */
} OhHellHand;

typedef struct {
    TrickRules trick;
    int seats, nhands;
    const int32_t *hands; /* nhands x (size, has_trump, score_at, forbid_at) */
    const int32_t *w;
    Py_ssize_t words;
} OhHellRules;

static int
bad_table(const char *what)
{
    PyErr_Format(PyExc_ValueError, "not a rules table of phatlog/_native/tables.py: %s", what);
    return -1;
}

static inline int
in_range(long long v, long long lo, long long hi)
{
    return v >= lo && v <= hi;
}

/* The words of a table of ``kind`` (0: any), its head and trick part checked: 0, or -1 with ValueError. */
static int
table_words(PyObject *obj, int kind, const int32_t **w, Py_ssize_t *words)
{
    if (!PyBytes_CheckExact(obj)) {
        return bad_table("not bytes");
    }
    const char *data = PyBytes_AS_STRING(obj);
    Py_ssize_t size = PyBytes_GET_SIZE(obj);
    if (size % 4 != 0 || size / 4 < T_GAME || ((uintptr_t)data & 3) != 0) {
        return bad_table("its size");
    }
    const int32_t *p = (const int32_t *)data;
    if (p[0] != T_MAGIC || p[2] != size / 4 || (kind != 0 && p[1] != kind) || !in_range(p[1], T_TRICK, T_OH_HELL)) {
        return bad_table("its head");
    }
    for (int i = 0; i < 5 * 8; i++) {
        if (!in_range(p[T_ALLOW + i], 0, 7)) {
            return bad_table("its allow table");
        }
    }
    *w = p;
    *words = size / 4;
    return 0;
}

static void
trick_rules_of(const int32_t *w, TrickRules *out)
{
    out->strength = w + T_STRENGTH;
    out->allow = w + T_ALLOW;
}

static int
check_pitch(const int32_t *w, Py_ssize_t words, PitchRules *r)
{
    const int32_t *g = w + T_GAME;
    if (words < T_GAME + P_AWARD_LIST) {
        return bad_table("its size");
    }
    trick_rules_of(w, &r->trick);
    r->seats = g[P_SEATS];
    r->hand_size = g[P_HAND_SIZE];
    r->target = g[P_TARGET];
    r->peg_out = g[P_PEG_OUT];
    r->undealt = g[P_UNDEALT];
    r->first_pitch = g[P_FIRST_PITCH];
    r->nawards = g[P_AWARDS];
    if (!in_range(r->seats, 2, MAX_SEATS) || !in_range(r->hand_size, 1, MAX_TRICKS) || r->seats * r->hand_size > 52
        || !in_range(r->target, -1, 1 << 30) || !in_range(r->peg_out, 0, 1) || !in_range(r->undealt, 0, 1)
        || !in_range(r->first_pitch, -1, 51) || !in_range(r->nawards, -1, MAX_AWARDS)
        || words != T_GAME + P_AWARD_LIST + 3 * (r->nawards < 0 ? 0 : r->nawards)) {
        return bad_table("its game words");
    }
    for (int s = 0; s < MAX_SEATS; s++) {
        r->side[s] = g[P_SIDE + s];
        if (s < r->seats && !in_range(r->side[s], 0, 1)) {
            return bad_table("its sides");
        }
    }
    for (int t = 0; t < 4; t++) {
        r->jack[t] = g[P_JACK + t];
        if (!in_range(r->jack[t], -1, 51)) {
            return bad_table("its jacks");
        }
    }
    r->counters = g + P_COUNTERS;
    r->card_points = g + P_CARD_POINTS;
    r->awards = g + P_AWARD_LIST;
    for (int i = 0; i < 4 * 52 + 52; i++) {
        if (!in_range(r->counters[i], -WORD_LIMIT, WORD_LIMIT)) { /* (the card points follow the counters) */
            return bad_table("its counters or card points");
        }
    }
    for (int a = 0; a < r->nawards; a++) {
        const int32_t *award = r->awards + 3 * a;
        if (!in_range(award[0], READS_COUNT, READS_CAPTURED) || !in_range(award[1], -WORD_LIMIT, WORD_LIMIT)
            || !in_range(award[2], TIE_NONE, TIE_BOTH)) {
            return bad_table("its awards");
        }
    }
    return 0;
}

static int
check_oh_hell(const int32_t *w, Py_ssize_t words, OhHellRules *r)
{
    const int32_t *g = w + T_GAME;
    if (words < T_GAME + O_HAND) {
        return bad_table("its size");
    }
    trick_rules_of(w, &r->trick);
    r->seats = g[O_SEATS];
    r->nhands = g[O_HANDS];
    r->hands = g + O_HAND;
    r->w = w;
    r->words = words;
    if (!in_range(r->seats, 3, MAX_SEATS) || !in_range(r->nhands, 0, MAX_HANDS)
        || words < T_GAME + O_HAND + 4 * (Py_ssize_t)r->nhands) {
        return bad_table("its game words");
    }
    for (int i = 0; i < r->nhands; i++) {
        const int32_t *h = r->hands + 4 * i;
        long long size = h[0], score_at = h[2], forbid_at = h[3];
        long long cells = (size + 1) * (size + 1), sums = (r->seats - 1) * size + 1;
        if (!in_range(size, 1, MAX_TRICKS) || r->seats * size > 52 || !in_range(h[1], 0, 1)
            || !in_range(score_at, T_GAME, words - cells)
            || (forbid_at != -1 && !in_range(forbid_at, T_GAME, words - sums))) {
            return bad_table("its schedule");
        }
        for (long long c = 0; c < cells; c++) {
            if (!in_range(w[score_at + c], -WORD_LIMIT, WORD_LIMIT)) {
                return bad_table("its scores");
            }
        }
    }
    return 0;
}

static void
oh_hell_hand(const OhHellRules *r, int i, OhHellHand *out)
{
    const int32_t *h = r->hands + 4 * i;
    out->size = h[0];
    out->has_trump = h[1];
    out->score = r->w + h[2];
    out->forbidden = h[3] < 0 ? NULL : r->w + h[3];
}

/* The tables checked so far, by kind: the object (a reference held) and its decoded rules. */
static struct {
    PyObject *obj;
    TrickRules rules;
} trick_cache[CACHED];
static struct {
    PyObject *obj;
    PitchRules rules;
} pitch_cache[CACHED];
static struct {
    PyObject *obj;
    OhHellRules rules;
} oh_hell_cache[CACHED];
static int trick_next, pitch_next, oh_hell_next;

/* Keep ``obj`` at ``*slot`` (the next of CACHED, round the ring). */
static void
keep(PyObject **slot, PyObject *obj, int *next)
{
    Py_XSETREF(*slot, Py_NewRef(obj));
    *next = (*next + 1) % CACHED;
}

/* The trick rules of any table: 0, or -1 with ValueError. */
static int
trick_rules(PyObject *obj, TrickRules *out)
{
    for (int i = 0; i < CACHED; i++) {
        if (trick_cache[i].obj == obj) {
            *out = trick_cache[i].rules;
            return 0;
        }
    }
    const int32_t *w;
    Py_ssize_t words;
    if (table_words(obj, 0, &w, &words) < 0) {
        return -1;
    }
    trick_rules_of(w, out);
    trick_cache[trick_next].rules = *out;
    keep(&trick_cache[trick_next].obj, obj, &trick_next);
    return 0;
}

static int
pitch_rules(PyObject *obj, PitchRules *out)
{
    for (int i = 0; i < CACHED; i++) {
        if (pitch_cache[i].obj == obj) {
            *out = pitch_cache[i].rules;
            return 0;
        }
    }
    const int32_t *w;
    Py_ssize_t words;
    if (table_words(obj, T_ALL_FOURS, &w, &words) < 0 || check_pitch(w, words, out) < 0) {
        return -1;
    }
    pitch_cache[pitch_next].rules = *out;
    keep(&pitch_cache[pitch_next].obj, obj, &pitch_next);
    return 0;
}

static int
oh_hell_rules(PyObject *obj, OhHellRules *out)
{
    for (int i = 0; i < CACHED; i++) {
        if (oh_hell_cache[i].obj == obj) {
            *out = oh_hell_cache[i].rules;
            return 0;
        }
    }
    const int32_t *w;
    Py_ssize_t words;
    if (table_words(obj, T_OH_HELL, &w, &words) < 0 || check_oh_hell(w, words, out) < 0) {
        return -1;
    }
    oh_hell_cache[oh_hell_next].rules = *out;
    keep(&oh_hell_cache[oh_hell_next].obj, obj, &oh_hell_next);
    return 0;
}

/* ------------------------------------------------------------------------ reading a deal */
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
 * the seat due, every card held by its player and allowed by the table's ``allow`` (by what the player
 * holds, the card included), the card of the table's greatest ``strength`` wins (the first of equals:
 * the lead beats what does not beat it) and leads next, and a recorded winner must be that one. ``trump``
 * is the suit (-1: none). ``winners`` gets each trick's winning seat, up to the fault's trick (included
 * for a wrong recorded winner). 0, or -1 with the fault. */
static int
play_tricks(Deal *deal, uint64_t hand[MAX_SEATS], int first, int trump, const TrickRules *rules,
            int winners[MAX_TRICKS])
{
    static const uint64_t suit_mask[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
    int seats = deal->seats;
    int row = trump < 0 ? T_NO_TRUMP : trump;
    uint64_t trump_mask = trump < 0 ? 0 : suit_mask[trump];
    const int32_t *allow = rules->allow + 8 * row;
    /* Whether the table allows a card of the led suit whatever else its player holds (cases 2 and 3:
     * holding the led suit, with and without trumps), for a plain suit led and for trumps led: then a
     * card that follows suit needs no look at the table. */
    const int follows_freely[2] = {(allow[2] & allow[3] & 1) != 0, (allow[6] & allow[7] & 1) != 0};
    /* What a trick reads by the suit led, looked up once a deal: the cards' strengths, the table's cases. */
    const int32_t *strength_by_led[4], *cases_by_led[4];
    int free_by_led[4];
    for (int suit = 0; suit < 4; suit++) {
        strength_by_led[suit] = rules->strength + 208 * row + 52 * suit;
        cases_by_led[suit] = allow + (suit == trump ? 4 : 0);
        free_by_led[suit] = follows_freely[suit == trump];
    }
    int due = first;
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        const Trick *trick = &deal->tricks[t];
        if (trick->leader != due) {
            return fail(deal, FAULT_LEADER, t, 0);
        }
        int led = trick->ids[0] / 13;
        uint64_t led_mask = suit_mask[led];
        const int32_t *strength = strength_by_led[led];
        const int32_t *cases = cases_by_led[led];
        const int free_follow = free_by_led[led];
        int seat = trick->leader, position = 0;
        int32_t best = INT32_MIN;
        for (int i = 0; i < seats; i++) {
            int id = trick->ids[i], suit = id / 13;
            uint64_t bit = 1ULL << id, held = hand[seat];
            if (!(held & bit)) {
                return fail(deal, FAULT_NOT_HELD, t, i);
            }
            if (suit != led || !free_follow) {
                int holds_led = (held & led_mask) != 0;
                int kind = suit == led ? 1 : suit == trump ? 2 : 4;
                if (!(cases[holds_led * 2 + ((held & trump_mask) != 0)] & kind)) {
                    return fail(deal, holds_led ? FAULT_REVOKE : FAULT_TRUMP, t, i);
                }
            }
            hand[seat] = held & ~bit;
            int32_t key = strength[id];
            if (key > best) {
                best = key;
                position = i;
            }
            seat = seat + 1 == seats ? 0 : seat + 1;
        }
        int winner = trick->leader + position;
        winner -= winner >= seats ? seats : 0;
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

static PyObject *
unusual(void)
{
    return Py_BuildValue("(iii)", FAULT_UNUSUAL, -1, -1);
}

/* ------------------------------------------------------------------------ the All Fours family */

/* The highest (``top``) or lowest set bit of a mask that is not 0. */
static int
bit_at(uint64_t mask, int top)
{
#if defined(__GNUC__) || defined(__clang__)
    return top ? 63 - __builtin_clzll(mask) : __builtin_ctzll(mask);
#else
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
#endif
}

/* What the end-of-deal awards read of a deal's cards (``pitch.deal_cards``, the Python reference): the
 * cards each side took and their count (the table's card points), the highest and lowest trump dealt
 * (card ids) with the seat dealt each (-1: no trump dealt), the side that took the lowest trump and the
 * side that took the table's jack (-1: nobody). */
typedef struct {
    uint64_t taken[2];
    long long game[2];
    int high, high_seat, low, low_seat;
    int low_side, jack_side;
} DealCards;

static void
deal_cards(const PitchRules *rules, const Deal *deal, const int *winners, const uint64_t dealt[MAX_SEATS], int trump,
           DealCards *out)
{
    int seats = deal->seats;
    out->taken[0] = out->taken[1] = 0;
    out->game[0] = out->game[1] = 0;
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        int side = rules->side[winners[t]];
        for (int i = 0; i < seats; i++) {
            int id = deal->tricks[t].ids[i];
            out->taken[side] |= 1ULL << id;
            out->game[side] += rules->card_points[id];
        }
    }
    int high = -1, high_seat = -1, low = -1, low_seat = -1;
    for (int s = 0; s < seats; s++) {
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
    int jack = rules->jack[trump];
    out->jack_side = jack < 0 ? -1 : (out->taken[0] >> jack) & 1 ? 0 : ((out->taken[1] >> jack) & 1 ? 1 : -1);
}

/* The success tuple of play() (NULL with an exception on running out of memory). */
static PyObject *
pitch_result(const PitchRules *rules, const Deal *deal, const int *winners, const uint64_t dealt[MAX_SEATS],
             int inferred, int trump, const long long totals[2], int ended, int ended_side)
{
    int seats = deal->seats;
    DealCards cards;
    deal_cards(rules, deal, winners, dealt, trump, &cards);
    PyObject *hands = NULL;
    if (inferred) {
        /* The hands as dealt, where the referee asked for them (the first deal's checks). */
        hands = PyTuple_New(seats);
        if (hands == NULL) {
            return NULL;
        }
        for (int s = 0; s < seats; s++) {
            PyObject *list = PyList_New(0);
            if (list == NULL) {
                Py_DECREF(hands);
                return NULL;
            }
            PyTuple_SET_ITEM(hands, s, list);
        }
        for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
            for (int i = 0; i < seats; i++) {
                PyObject *list = PyTuple_GET_ITEM(hands, (deal->tricks[t].leader + i) % seats);
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
    return Py_BuildValue("(iiLLiiLLiiiiiiN)", FAULT_NONE, trump, totals[0], totals[1], ended, ended_side, cards.game[0],
                         cards.game[1], cards.high, cards.high_seat, cards.low, cards.low_seat, cards.low_side,
                         cards.jack_side, hands);
}

/* Peg the counters of the tricks played (``played`` of them, won by ``winners``) to ``totals``, trick by
 * trick; under peg-out IMMEDIATE the game ends at the peg that reaches the target: the trick it ended at
 * (its side in *side), or -1. */
static Py_ssize_t
peg_counters(const PitchRules *rules, const Deal *deal, Py_ssize_t played, const int *winners, int trump,
             long long totals[2], int *side)
{
    const int32_t *counters = rules->counters + 52 * trump;
    int seats = deal->seats;
    for (Py_ssize_t t = 0; t < played; t++) {
        const int *ids = deal->tricks[t].ids;
        int taker = rules->side[winners[t]];
        long long points = 0;
        for (int i = 0; i < seats; i++) {
            points += counters[ids[i]];
        }
        totals[taker] += points;
        if (points && rules->peg_out == PEG_IMMEDIATE && totals[taker] >= rules->target) {
            *side = taker;
            return t;
        }
    }
    return -1;
}

static const char play_doc[] =
    "play(hands, tricks, undealt, pitcher, tables, total0, total1, want_hands)\n"
    "--\n\n"
    "One deal of the All Fours family: (0, trump, total0, total1, ended, side, game0, game1, high, high_seat,\n"
    "low, low_seat, low_side, jack_side, dealt) or a fault (kind, trick, position); see phatlog/_native/_trick.pyi.";

static PyObject *
play(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "play() takes 8 arguments");
        return NULL;
    }
    PitchRules rules;
    if (pitch_rules(args[4], &rules) < 0) {
        return NULL;
    }
    PyObject *hands_obj = args[0], *tricks_obj = args[1], *undealt_obj = args[2];
    long pitcher = small_int(args[3], rules.seats);
    if (pitcher < 0) {
        PyErr_SetString(PyExc_ValueError, "play(): the pitcher is not a seat");
        return NULL;
    }
    int want_hands = PyObject_IsTrue(args[7]);
    if (want_hands < 0) {
        return NULL;
    }
    long long totals[2];
    totals[0] = PyLong_AsLongLong(args[5]);
    totals[1] = PyLong_AsLongLong(args[6]);
    if (PyErr_Occurred() || totals[0] > INT32_MAX || totals[0] < INT32_MIN || totals[1] > INT32_MAX
        || totals[1] < INT32_MIN || rules.target < 0) {
        /* Totals taken from a record beyond any game's, or a target beyond this code's: not the common case. */
        PyErr_Clear();
        return unusual();
    }
    Deal deal;
    uint64_t hand[MAX_SEATS];
    int winners[MAX_TRICKS];
    if (read_tricks(&deal, tricks_obj, rules.seats, rules.hand_size) < 0
        || read_hands(&deal, hands_obj, undealt_obj, rules.hand_size, hand) < 0) {
        goto done;
    }
    int trump = deal.tricks[0].ids[0] / 13; /* the suit of the pitcher's first lead is trump */
    uint64_t dealt[MAX_SEATS];
    memcpy(dealt, hand, sizeof dealt); /* as dealt: play_tricks plays them down */
    /* The tricks up to the first fault, if any, are played (and their winners known). */
    Py_ssize_t played = play_tricks(&deal, hand, (int)pitcher, trump, &rules.trick, winners) < 0 ? deal.fault_trick
                                                                                                  : deal.ntricks;
    if (deal.fault == FAULT_WINNER) {
        played++; /* the trick was won, by someone else than recorded */
    }
    /* The winner's side takes the cards, and pegs the counters in them at once. */
    int ended_side = -1;
    int ended = (int)peg_counters(&rules, &deal, played, winners, trump, totals, &ended_side);
    if (ended >= 0 && ended + 1 < deal.ntricks) {
        /* Tricks after the winning peg: that is the fault, whatever is wrong with them. */
        deal.fault = FAULT_NONE;
        fail(&deal, FAULT_TRICKS, ended + 1, -1);
        goto done;
    }
    if (deal.fault != FAULT_NONE) {
        goto done;
    }
    if (ended < 0 && deal.ntricks != rules.hand_size) {
        fail(&deal, FAULT_UNUSUAL, deal.ntricks, -1); /* a deal cut short: the Python engine says so */
        goto done;
    }
    PyObject *out = pitch_result(&rules, &deal, winners, dealt, want_hands && hands_obj == Py_None, trump, totals,
                                 ended, ended_side);
    release(&deal);
    return out; /* NULL: out of memory */

done:
    release(&deal);
    return fault_tuple(&deal);
}

/* ------------------------------------------------------------------------ Oh Hell */

static const char oh_hell_doc[] =
    "oh_hell(hands, tricks, turnup, leader, seats, hand_size, trump, tables)\n"
    "--\n\n"
    "One hand of Oh Hell: (0, tricks taken by each seat) or a fault (kind, trick, position); see\n"
    "phatlog/_native/_trick.pyi.";

static PyObject *
oh_hell(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "oh_hell() takes 8 arguments");
        return NULL;
    }
    TrickRules rules;
    if (trick_rules(args[7], &rules) < 0) {
        return NULL;
    }
    PyObject *hands_obj = args[0], *tricks_obj = args[1], *turnup_obj = args[2];
    long seats = small_int(args[4], MAX_SEATS + 1);
    long leader = seats < 2 ? -1 : small_int(args[3], seats);
    long hand_size = small_int(args[5], MAX_TRICKS + 1);
    long trump = PyLong_CheckExact(args[6]) ? PyLong_AsLong(args[6]) : -2;
    if (trump == -1 && PyErr_Occurred()) {
        trump = -2; /* beyond a long */
    }
    if (seats < 2 || leader < 0 || trump < -1 || trump > 3) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "oh_hell(): bad seats, leader or trump");
        return NULL;
    }
    Deal deal;
    if (hand_size < 1 || seats * hand_size > 52) {
        return unusual(); /* a schedule the pack cannot deal: the rules check reports it */
    }
    uint64_t hand[MAX_SEATS];
    int winners[MAX_TRICKS];
    if (read_tricks(&deal, tricks_obj, (int)seats, hand_size) < 0
        || read_hands(&deal, hands_obj, turnup_obj, hand_size, hand) < 0
        || play_tricks(&deal, hand, (int)leader, (int)trump, &rules, winners) < 0) {
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

/* ------------------------------------------------------------------------ the All Fours record
 *
 * pitch_record(deals, tables) referees a whole record of the All Fours family in one call, for the
 * common clean case only: every deal played out (or to the winning peg) with no fault, its dealer the
 * one the rotation gives, no ruling, its score recorded (points and running total) exactly as the rules
 * give it, and no deal after the end of the game. It returns the end state the Python referee reads
 * (``all_fours.AllFours.referee``), as its ``Findings`` keep it: (the totals [t0, t1], the winner [side] or None,
 * where the game ended (deal, trick, or None after the deal's tricks) or None). For anything else it
 * returns None, having decided nothing: the Python referee, the reference, then replays the record and
 * says what is wrong (or finds nothing wrong). As for the kernel above, None is always safe; what must
 * never happen is a success where the Python referee would report something about a deal.
 * tests/test_hot.py holds the two to the same verdicts. */

static PyObject *str_rulings, *str_score, *str_points, *str_total, *str_undealt, *str_tricks;

/* The running state of a record: the totals, the points a tied count carries, and where the game ended. */
typedef struct {
    long long totals[2];
    long long carry;
    int winner, ended_deal, ended_trick;
    PyObject *told_deals, *told_tricks; /* bytearrays the words are appended to (NULL: nothing told) */
    int no_memory;                      /* a bytearray could not grow: MemoryError is set */
} RecordState;

/* The words told of each deal and each trick (``pitch_record``'s ``deals_out`` and ``tricks_out``). */
enum { TOLD_DEAL_WORDS = 17, TOLD_TRICK_FIXED = 4 };

/* Append ``n`` words to a bytearray: 0, or -1 with MemoryError set. */
static int
tell_words(PyObject *out, const int32_t *words, Py_ssize_t n)
{
    Py_ssize_t at = PyByteArray_GET_SIZE(out), size = n * (Py_ssize_t)sizeof(int32_t);
    if (PyByteArray_Resize(out, at + size) < 0) {
        return -1;
    }
    memcpy(PyByteArray_AS_STRING(out) + at, words, (size_t)size);
    return 0;
}

/* Tell what the engine decided of deal ``d`` (the words' layout is in _trick.pyi): the deal's head, then
 * each trick's. ``cards`` NULL: the game ended at a peg in trick ``ended`` (no awards read). */
static int
tell_deal(RecordState *st, int d, const Deal *deal, const int *winners, int dealer, int trump,
          const long long start[2], Py_ssize_t ended, const DealCards *cards)
{
    if (st->told_deals == NULL) {
        return 0;
    }
    int32_t head[TOLD_DEAL_WORDS] = {d,
                                     dealer,
                                     trump,
                                     (int32_t)deal->ntricks,
                                     (int32_t)ended,
                                     (int32_t)start[0],
                                     (int32_t)start[1],
                                     (int32_t)st->totals[0],
                                     (int32_t)st->totals[1],
                                     cards ? (int32_t)cards->game[0] : 0,
                                     cards ? (int32_t)cards->game[1] : 0,
                                     cards ? cards->high : -1,
                                     cards ? cards->high_seat : -1,
                                     cards ? cards->low : -1,
                                     cards ? cards->low_seat : -1,
                                     cards ? cards->low_side : -1,
                                     cards ? cards->jack_side : -1};
    if (tell_words(st->told_deals, head, TOLD_DEAL_WORDS) < 0) {
        st->no_memory = 1;
        return -1;
    }
    int32_t words[TOLD_TRICK_FIXED + MAX_SEATS];
    int n = TOLD_TRICK_FIXED + deal->seats;
    for (Py_ssize_t t = 0; t < deal->ntricks; t++) {
        const Trick *trick = &deal->tricks[t];
        words[0] = d;
        words[1] = (int32_t)t;
        words[2] = trick->leader;
        words[3] = winners[t];
        for (int i = 0; i < deal->seats; i++) {
            words[TOLD_TRICK_FIXED + i] = trick->ids[i];
        }
        if (tell_words(st->told_tricks, words, n) < 0) {
            st->no_memory = 1;
            return -1;
        }
    }
    return 0;
}

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

/* Peg an end-of-deal award of ``points`` to ``side`` (nothing for no points, or nobody): 1 if the game
 * ends at this peg (peg-out IMMEDIATE). ``pitch.peg_bonuses`` is the reference. */
static int
peg_award(const PitchRules *rules, RecordState *st, int d, int side, long long points)
{
    if (side < 0 || points <= 0) {
        return 0;
    }
    st->totals[side] += points;
    if (rules->peg_out == PEG_IMMEDIATE && st->totals[side] >= rules->target) {
        st->winner = side;
        st->ended_deal = d;
        st->ended_trick = -1;
        return 1;
    }
    return 0;
}

/* The side an award goes to (-1: nobody), or -2 where it reads what the deal does not have (decline). */
static int
award_side(const PitchRules *rules, const DealCards *cards, int reads)
{
    switch (reads) {
    case READS_HIGH_DEALT:
        return cards->high_seat < 0 ? -2 : rules->side[cards->high_seat];
    case READS_LOW_DEALT:
        return cards->low_seat < 0 ? -2 : rules->side[cards->low_seat];
    case READS_LOW_CAPTURED:
        return cards->low_side < 0 ? -2 : cards->low_side;
    default: /* READS_CAPTURED */
        return cards->jack_side;
    }
}

/* The table's end-of-deal awards of a deal played out, in their order, then, under peg-out END_OF_DEAL,
 * the target (the higher total wins once one reaches it; as the State pegs the awards). 0, or -1 to
 * decline. */
static int
peg_awards(const PitchRules *rules, RecordState *st, int d, const DealCards *cards, int pitcher)
{
    for (int a = 0; a < rules->nawards; a++) {
        const int32_t *award = rules->awards + 3 * a;
        int reads = award[0], tie = award[2];
        long long points = award[1];
        int side;
        if (reads == READS_COUNT) {
            const long long *game = cards->game;
            if (game[0] != game[1]) {
                side = game[0] > game[1] ? 0 : 1;
                points += st->carry; /* what tied counts carried */
                st->carry = 0;
            }
            else if (tie == TIE_BOTH) {
                int first = rules->side[pitcher]; /* the pitcher's side pegs first */
                if (peg_award(rules, st, d, first, points) || peg_award(rules, st, d, 1 - first, points)) {
                    return 0;
                }
                continue;
            }
            else {
                if (tie == TIE_CARRY) {
                    st->carry += points;
                }
                continue;
            }
        }
        else if ((side = award_side(rules, cards, reads)) == -2) {
            return -1;
        }
        if (peg_award(rules, st, d, side, points)) {
            return 0;
        }
    }
    if (rules->peg_out == PEG_END_OF_DEAL && (st->totals[0] >= rules->target || st->totals[1] >= rules->target)
        && st->totals[0] != st->totals[1]) {
        st->winner = st->totals[0] > st->totals[1] ? 0 : 1; /* ``pitch.end_of_deal_winner`` */
        st->ended_deal = d;
        st->ended_trick = -1;
    }
    return 0;
}

/* Play deal ``d`` (tricks read, hands read) and peg it: 0, or -1 to decline the record. */
static int
record_play(const PitchRules *rules, RecordState *st, int d, Deal *deal, PyObject *hands_obj, PyObject *undealt_obj,
            int dealer)
{
    uint64_t hand[MAX_SEATS];
    int winners[MAX_TRICKS];
    int seats = rules->seats;
    if (read_hands(deal, hands_obj, undealt_obj, rules->hand_size, hand) < 0) {
        return -1;
    }
    int pitcher = (dealer + 1) % seats; /* the dealer's left */
    int trump = deal->tricks[0].ids[0] / 13; /* the suit of the pitcher's first lead is trump */
    uint64_t dealt[MAX_SEATS];
    memcpy(dealt, hand, sizeof dealt);
    if (play_tricks(deal, hand, pitcher, trump, &rules->trick, winners) < 0) {
        return -1;
    }
    if (d == 0 && rules->first_pitch >= 0) {
        /* The holder of the table's card pitches first: the first dealer is on their right. */
        int holder = -1;
        for (int s = 0; s < seats; s++) {
            if ((dealt[s] >> rules->first_pitch) & 1) {
                holder = s;
            }
        }
        if (holder < 0 || dealer != (holder + seats - 1) % seats) {
            return -1;
        }
    }
    int side = -1;
    long long start[2] = {st->totals[0], st->totals[1]};
    Py_ssize_t ended = peg_counters(rules, deal, deal->ntricks, winners, trump, st->totals, &side);
    if (ended >= 0) {
        if (ended + 1 < deal->ntricks) {
            return -1; /* tricks after the winning peg (PL305) */
        }
        st->winner = side;
        st->ended_deal = d;
        st->ended_trick = (int)ended;
        /* the game ends at this peg: no awards */
        return tell_deal(st, d, deal, winners, dealer, trump, start, ended, NULL);
    }
    if (deal->ntricks != rules->hand_size) {
        return -1; /* a deal cut short */
    }
    DealCards cards;
    deal_cards(rules, deal, winners, dealt, trump, &cards);
    if (tell_deal(st, d, deal, winners, dealer, trump, start, -1, &cards) < 0) {
        return -1;
    }
    return peg_awards(rules, st, d, &cards, pitcher);
}

/* One deal of the record: 0 if it is clean (the state moved on past it), -1 to decline the record (no
 * exception left set). */
static int
record_deal(const PitchRules *rules, RecordState *st, int d, PyObject *deal_obj, int *due)
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
    long dealer = dealer_obj == NULL ? -1 : small_int(dealer_obj, rules->seats);
    Py_XDECREF(dealer_obj);
    if (dealer < 0 || (*due >= 0 && dealer != *due)) {
        return -1; /* a wrong dealer (PL202), or one that is not a seat */
    }
    *due = (int)((dealer + 1) % rules->seats); /* the deal passes to the left */
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
    if (read_tricks(&deal, tricks_obj, rules->seats, rules->hand_size) < 0
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

static const char pitch_record_doc[] =
    "pitch_record(deals, tables, deals_out=None, tricks_out=None)\n"
    "--\n\n"
    "A whole record of the All Fours family, the clean common case only: (totals, winners, ended_at)\n"
    "as the Verdict keeps them; None for anything else. With deals_out and tricks_out (bytearrays), what\n"
    "was decided of each deal and trick is appended to them. See phatlog/_native/_trick.pyi.";

static PyObject *
pitch_record(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "pitch_record() takes 2 or 4 arguments");
        return NULL;
    }
    PyObject *told_deals = nargs == 4 ? args[2] : NULL, *told_tricks = nargs == 4 ? args[3] : NULL;
    if (told_deals != NULL && (!PyByteArray_CheckExact(told_deals) || !PyByteArray_CheckExact(told_tricks))) {
        PyErr_SetString(PyExc_TypeError, "pitch_record(): deals_out and tricks_out must be bytearrays");
        return NULL;
    }
    PitchRules rules;
    if (pitch_rules(args[1], &rules) < 0) {
        return NULL;
    }
    Py_ssize_t deals_at = told_deals ? PyByteArray_GET_SIZE(told_deals) : 0;
    Py_ssize_t tricks_at = told_deals ? PyByteArray_GET_SIZE(told_tricks) : 0;
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
    Py_ssize_t ndeals = 0;
    PyObject **deals = items_of(args[0], &ndeals);
    if (deals == NULL || ndeals < 1 || ndeals > INT_MAX / 2 || rules.nawards < 0 || rules.target < 0) {
        Py_RETURN_NONE; /* (awards no table says, or a target beyond this code's: the Python referee's) */
    }
    RecordState st = {{0, 0}, 0, -1, -1, -1, told_deals, told_tricks, 0};
    int due = -1;
    /* A reference to the list, so that nothing a getattr runs can free its items under us. */
    PyObject *held = Py_NewRef(args[0]);
    for (Py_ssize_t d = 0; d < ndeals; d++) {
        Py_ssize_t now = 0;
        deals = items_of(held, &now);
        if (st.ended_deal >= 0 || now != ndeals) {
            Py_DECREF(held);
            goto decline; /* a deal after the end of the game (PL308) */
        }
        PyObject *deal = Py_NewRef(deals[d]);
        int bad = record_deal(&rules, &st, (int)d, deal, &due);
        Py_DECREF(deal);
        if (bad) {
            Py_DECREF(held);
            goto decline;
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
decline:
    /* Nothing told of a record declined: the bytearrays as they were given. */
    if (told_deals != NULL) {
        if (st.no_memory) {
            PyErr_Clear();
        }
        if (PyByteArray_Resize(told_deals, deals_at) < 0 || PyByteArray_Resize(told_tricks, tricks_at) < 0) {
            return NULL;
        }
        if (st.no_memory) {
            return PyErr_NoMemory();
        }
    }
    Py_RETURN_NONE;
}


/* ------------------------------------------------------------------------ Oh Hell: a whole record
 *
 * oh_hell_record(deals, tables) referees every hand of an Oh Hell record in one call, for the clean,
 * common case only: no rulings, the dealer passing to the left, every hand of the table's schedule
 * played out with its tricks (the hands proper, the turned-up card undealt, every trick legal, as
 * oh_hell above), a turned-up card exactly where the hand has a trump, the bids within the hand's score
 * table and not the one its hook table forbids the dealer, the tricks taken (if recorded) as won, and
 * each hand's recorded points (the score table's) and running totals those. It returns (totals, judged):
 * the final totals and each hand's (bids, tricks taken), what OhHell.referee gathers; or None, declining,
 * the moment anything else is met (also junk of any kind in the deals): the Python referee then does the
 * whole record and words what it finds.
 */

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
/* One hand: 1 if it is clean (bid and taken filled in, the hand's points added to totals, and the recorded
 * points and running totals those), else 0: decline. Never an exception. */
static int
ohr_hand(PyObject *obj, const OhHellRules *rules, const OhHellHand *h, int dealer, long bid[MAX_SEATS],
         long taken[MAX_SEATS], long totals[MAX_SEATS])
{
    int seats = rules->seats;
    long size = h->size;
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
    if (!h->has_trump ? turnup != Py_None : (trump = card_id(turnup)) < 0) {
        goto done; /* a turned-up card where there should be none, or none (or junk) where there should be one */
    }
    trump = trump < 0 ? -1 : trump / 13;
    if (ohr_small_ints(bids, seats, size + 1, bid) < 0) {
        goto done; /* no bids, or one beyond the score table */
    }
    if (h->forbidden != NULL) {
        long others = 0;
        for (int s = 0; s < seats; s++) {
            others += s == dealer ? 0 : bid[s];
        }
        if (h->forbidden[others] == bid[dealer]) { /* (others <= (seats - 1) * size: within the table) */
            goto done;
        }
    }
    uint64_t held[MAX_SEATS];
    int winners[MAX_TRICKS];
    ohr_prefetch(hands, tricks);
    if (ohr_read_tricks(&deal, tricks, seats, size) < 0
        || read_hands(&deal, hands, h->has_trump ? turnup : Py_None, size, held) < 0
        || play_tricks(&deal, held, (dealer + 1) % seats, trump, &rules->trick, winners) < 0 || deal.ntricks != size) {
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
    for (int s = 0; s < seats; s++) {
        points[s] = h->score[bid[s] * (size + 1) + taken[s]];
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
ohr_deal(PyObject *deal, Py_ssize_t d, const OhHellRules *rules, int *dealer, long bid[MAX_SEATS],
         long taken[MAX_SEATS], long totals[MAX_SEATS])
{
    PyObject *found = ohr_get(deal, F_RULINGS);
    int none = found != NULL
               && (found == Py_None || (PyList_CheckExact(found) && PyList_GET_SIZE(found) == 0)
                   || (PyTuple_CheckExact(found) && PyTuple_GET_SIZE(found) == 0));
    Py_XDECREF(found);
    if (!none) {
        return 0; /* a ruling (or a misdeal): format 1.1's rulings are the Python referee's */
    }
    int seats = rules->seats;
    PyObject *dealer_obj = ohr_get(deal, F_DEALER);
    long seat = dealer_obj == NULL ? -1 : small_int(dealer_obj, seats);
    Py_XDECREF(dealer_obj);
    if (seat < 0 || (d > 0 && seat != (*dealer + 1) % seats)) {
        return 0; /* a seat beyond the table, or the deal not passed to the left */
    }
    *dealer = (int)seat;
    OhHellHand hand;
    oh_hell_hand(rules, (int)d, &hand);
    return ohr_hand(deal, rules, &hand, *dealer, bid, taken, totals);
}

static const char oh_hell_record_doc[] =
    "oh_hell_record(deals, tables)\n"
    "--\n\n"
    "A whole Oh Hell record in the clean, common case: (totals, [(bids, taken), ...]), or None to let\n"
    "the Python referee do it; see phatlog/_native/_trick.pyi.";

static PyObject *
oh_hell_record(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "oh_hell_record() takes 2 arguments");
        return NULL;
    }
    PyObject *deals_obj = args[0];
    OhHellRules rules;
    if (oh_hell_rules(args[1], &rules) < 0 || ohr_names() < 0) {
        return NULL;
    }
    if (!PyList_CheckExact(deals_obj) && !PyTuple_CheckExact(deals_obj)) {
        Py_RETURN_NONE;
    }
    int seats = rules.seats;
    Py_ssize_t ndeals = 0;
    PyObject **deals = items_of(deals_obj, &ndeals); /* NULL for an empty list: then ndeals is 0 */
    if (ndeals > rules.nhands) {
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
        int clean = ohr_deal(deal, d, &rules, &dealer, bid, taken, totals);
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

/* ------------------------------------------------------------------------ the module */

static PyMethodDef trick_methods[] = {
    {"play", (PyCFunction)(void (*)(void))play, METH_FASTCALL, play_doc},
    {"oh_hell", (PyCFunction)(void (*)(void))oh_hell, METH_FASTCALL, oh_hell_doc},
    {"pitch_record", (PyCFunction)(void (*)(void))pitch_record, METH_FASTCALL, pitch_record_doc},
    {"oh_hell_record", (PyCFunction)(void (*)(void))oh_hell_record, METH_FASTCALL, oh_hell_record_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef trick_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "phatlog._native._trick",
    .m_doc = "The trick kernel of every game, in C (optional): see phatlog/_native/_trick.pyi.",
    .m_size = -1,
    .m_methods = trick_methods,
};

PyMODINIT_FUNC
PyInit__trick(void)
{
    card_letters_init();
    str_leader = PyUnicode_InternFromString("leader");
    str_cards = PyUnicode_InternFromString("cards");
    str_winner = PyUnicode_InternFromString("winner");
    str_dealer = PyUnicode_InternFromString("dealer");
    str_hands = PyUnicode_InternFromString("hands");
    if (str_leader == NULL || str_cards == NULL || str_winner == NULL || str_dealer == NULL || str_hands == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&trick_module);
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
    if (PyModule_AddIntConstant(module, "DEAL_WORDS", TOLD_DEAL_WORDS) < 0
        || PyModule_AddIntConstant(module, "TRICK_WORDS", TOLD_TRICK_FIXED) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
