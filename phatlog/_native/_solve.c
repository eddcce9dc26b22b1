/* The double-dummy solver's kernel in C (optional): phatlog/solver/search.py's PySearch, the same
 * search in the same order. Every rule comes in as tables built from the engine (position.py): the
 * trick strength, which suits may be played, counters, card points, leaf bits and the leaf values.
 *
 * One transposition table is kept between calls, keyed by relative ranks (use_rel below); its entries
 * carry the generation of their tables, so the entries of the last RECENT tables searched (a deal's
 * trumps, objectives, and their counters' games) stay usable while others never match; clear() forgets
 * them all. What is worked out from a set of tables is kept in a context (Ctx: the tables searched, MAIN,
 * and their counters' game, SUB; X the one in use), for the last PAIRS tables. Not thread-safe: the GIL is
 * held.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define INF (1 << 20)
#define MAX_SEATS 8
#define TT_BITS 21
/* A search starts with 2^TT_START_BITS entries (8 MB for four seats, 14 MB for five) and grows the table
 * fourfold once it has written new entries as many as a quarter of its places, up to 2^TT_BITS, or
 * 2^BIG_TT_BITS in a big position (tt_grow places the entries of the tables searched anew). A table the
 * kernel maps is zeroed by the system page by page as it is first written: a small search that had a
 * 224 MB table paid for zeroing much of it (Oh Hell 5 x 10, one seat's most tricks, 20 deals, side by
 * side: median 0.093 -> 0.073 s; the deals that grow it search some 8 % more positions). */
#define TT_START_BITS 18
/* A position of more than BIG_CARDS cards (Phat and Irish Don in their first tricks) lets the table grow
 * to 2^BIG_TT_BITS entries (256 MB for four seats: 32-byte entries): a whole 52-card deal overflows 2^21
 * entries many times over (Irish Don from the first lead: 0.48 G nodes with 2^22, 0.37 G with 2^23). */
#define BIG_CARDS 40
#define BIG_TT_BITS 23
#define BIG_TT_BYTES ((size_t)256 << 20) /* never more: five and six seats get 2^22 entries, seven and eight 2^21 */

typedef struct {
    int seats, trump, trick_g, gmax, trick_points;
    int strength[4 * 52];
    int allow[8];
    int counter[52], gpts[52], flag[52];
    int side[MAX_SEATS];
    int *leaf;
    int leaf_len;
} Tables;

static char *last_packed = NULL, *sub_packed = NULL;
static Py_ssize_t last_len = 0;

static uint64_t H[MAX_SEATS];
/* The cards of the trick in play: trick[0..ntrick). Each trick of the line searched has its place in
 * TRICKS (after_trick moves trick on by a trick, not copies it; room for 52 tricks of MAX_SEATS cards
 * and one more, as many as hands of 52 cards each could make), and LIVE is every card still in play,
 * the trick's included: kept as the tricks are played, not worked out at each node. */
static int TRICKS[53 * MAX_SEATS];
static int *trick = TRICKS;
static int ntrick;
static uint64_t LIVE;
static long long nodes;
/* Set when a signal handler raised (Ctrl-C, SIGTERM: phatlog.cli.entry): the search unwinds at once and the
   call returns NULL with that exception, so a long search can be stopped like any other command. */
static int interrupted;
/* A node budget (``search``'s ``limit``; 0: none): past it the search unwinds as for a signal, and the
 * call returns None (the claim audit's bound on what one claim may cost). */
static long long node_limit;
static int exhausted;
static int use_tt, use_eq, use_order, use_bound, use_rel;
/* The horizon (iterative deepening): 0 for the exact search; else a trick that starts with HORIZON or
 * fewer cards a hand is not searched but estimated (the middle of its bounds). Such a search only orders
 * moves and gives MTD(f) its first guess: its table entries carry the horizon (the generation word's high
 * half), an exact search takes only their best lead, and it never overwrites an exact entry. */
static int horizon;

/* Relative ranks (the key of the transposition table): two positions whose remaining cards, suit by
 * suit in rank order, have the same holders and the same value (counter, card points, leaf bit) are the
 * same position, whichever cards were played before. FIXED: the cards that keep their own rank in the key
 * (every card with a value, and every card when the strength table is not by rank within each suit);
 * the others, valueless, close up: CANON[suit][live cards of the suit] is where the live cards of the
 * suit go in the key, each run of valueless cards moved down to the lowest valueless ranks above the
 * valued card below it. A hand's key is pdep(pext(hand, live), canon): order kept, suits kept. */
/* A decided position (use_grange): one whose every count the cards still out can reach ends the deal the
 * same (Phat's muck won), so card points no longer matter. Its key closes up the cards that only carried
 * card points too (FIXED_D, CANON_D: the cards with a counter or a leaf bit stay), its touching cards
 * need not count the same, and its key says which run of counts it is decided in. */
/* RUN_START[g], RUN_END[g]: the run of counts around g whose leaf rows (4 values) are all the same. */
/* Ranges of counts (use_grange). When the leaf never falls as side 0's count g rises (every game's awards:
 * the game or muck goes to the greater count), neither does the value of a position: a lower bound found
 * at g holds at every greater count, an upper bound at every smaller one. Each search also reports how far
 * its bound reaches the other way: ret_dn, the counts below g where its lower bound still holds, and ret_up,
 * the counts above g where its upper bound does (both from the leaves reached: RUN_LO, RUN_HI are the run of
 * equal leaf values around each g * 4 + flags). The table's key then leaves the count out; an entry keeps
 * its lower bound with the least count it holds from (gL) and its upper bound with the greatest (gU), so a
 * position reached again with another count (another trick won by the other side, another card of game
 * points) finds it. Off (the count in the key, as before) where the leaf is not monotone: Oh Hell's exact
 * bid. */
static int b_lmin, b_lmax, b_dn, b_up; /* the last bounds' least and most leaf, and their reach */
static int key_reach; /* make_key's: what the cards still out can add to the count */
static int ret_dn, ret_up;
static int have_bmi2;
/* The top chain (sure cards in the bounds): CHAIN[0..n_chain) cards, highest first, each stronger than
 * every card below it in the chain and every card not in it, whatever suit is led (the trumps from the
 * top, where trumps beat every other card). Among the cards still out, the top of the chain held by
 * one side down to the first card of the other side cannot lose a trick to the other side: whatever
 * beats one of them is a higher one of the same run. Their counters, card points and leaf bits are that
 * side's for sure. */
/* CHAIN_MASK: the chain's cards; CHAIN_SUIT: the chain's suit where it is one suit's cards, highest rank
 * first (the trumps from the top), else -1. SUM_COUNTER, SUM_GPTS, OR_FLAG: the sums of the counters and
 * card points and the union of the leaf bits of each suit's cards, by which of its 13 cards are in the
 * set (bounds: a few lookups, not a pass over every card still out). Touching cards: SAME[suit][its cards
 * in play] marks each card whose next lower card in play of the suit has the same counter, card points and
 * leaf bits (the two are one move where both may be played); SAME_D the same without card points (a
 * decided position, see use_grange). ALLOWED[led][kind]: the allow table's suits as masks (legal_to);
 * TRUMP_MASK the trumps; MONOTONE: every strength row rises with the rank within each suit. */

/* The counters' game (use_split): the same deal without the end-of-deal awards (no card points, no leaf
 * bits, a leaf of 0: Irish Don's scoring for Phat). Whatever the play, the awards add between the least
 * and the most of the leaf over the counts and bits the cards still out can reach, so the value of a
 * position lies within that of its counters' game plus those two. At the start of a trick of
 * SPLIT_CARDS cards or more that the bounds and the table did not cut, the counters' game is searched
 * (null windows, in its own part of the table) and cuts the window where it can: far cheaper than the
 * whole game (no count, more cards alike), and where the awards are a small share of the points (Phat's
 * muck: 8 of 88) it decides most positions that are not close. */
#define SPLIT_CARDS 12

/* What the search keeps of one set of tables: the tables themselves and what is worked out from them.
 * Two are kept: the tables searched (MAIN) and their counters' game (SUB); X is the one in use. */
typedef struct {
    Tables t;
    uint64_t fixed, fixed_d;
    uint16_t canon[4][1 << 13], canon_d[4][1 << 13];
    int *run_start, *run_end, *run_lo, *run_hi;
    int chain[52], n_chain, chain_suit;
    uint64_t chain_mask, trump_mask, allowed[4][8];
    uint64_t strong[4]; /* the cards that can win a trick, each suit led (strength above 0) */
    int forced;         /* a player who holds the suit led must play it */
    int monotone;
    int sum_counter[4][1 << 13], sum_gpts[4][1 << 13];
    uint8_t or_flag[4][1 << 13];
    uint16_t same[4][1 << 13], same_d[4][1 << 13];
    /* what each suit's rows above were worked out from, so that the next tables in this place work out
     * only the suits that differ (a single-dummy analysis's layouts differ in a card's flag or two):
     * canon's and canon_d's fixed cards plus one (0: none yet), and the suit's counters, card points and
     * bits (rows_ok: worked out) */
    int canon_of[4], canon_d_of[4];
    int rows_of[4][3 * 13], rows_ok[4];
    int grange_ok, use_grange; /* ranges of counts: possible for these tables; on for this search */
    int split_ok;              /* the counters' game can cut: an award that depends on the play, counters */
    uint32_t gen;              /* the generation of the table's entries for these tables */
} Ctx;

/* The pairs of the last PAIRS tables searched, so that going back to tables searched a moment ago (the
 * first lead's trumps, probe after probe) does not work them out again. */
#define PAIRS 8
typedef struct {
    char *packed;
    Py_ssize_t len;
    unsigned long used;
    Ctx main, sub;
} Pair;
static Pair *pairs[PAIRS];
static unsigned long pair_clock;
static Ctx NONE = {.gen = 1}; /* before any tables */
static Ctx *M = &NONE, *S = &NONE, *X = &NONE;
#define MAIN (*M)
#define SUB (*S)
static int use_split;
static int split_cards; /* from how many cards in play (the techniques' bits 8 to 13; 0: SPLIT_CARDS) */

#define T (X->t)
#define FIXED (X->fixed)
#define FIXED_D (X->fixed_d)
#define CANON (X->canon)
#define CANON_D (X->canon_d)
#define RUN_START (X->run_start)
#define RUN_END (X->run_end)
#define RUN_LO (X->run_lo)
#define RUN_HI (X->run_hi)
#define CHAIN (X->chain)
#define n_chain (X->n_chain)
#define SUM_COUNTER (X->sum_counter)
#define SUM_GPTS (X->sum_gpts)
#define OR_FLAG (X->or_flag)
#define CHAIN_MASK (X->chain_mask)
#define CHAIN_SUIT (X->chain_suit)
#define SAME (X->same)
#define SAME_D (X->same_d)
#define ALLOWED (X->allowed)
#define TRUMP_MASK (X->trump_mask)
#define STRONG (X->strong)
#define FORCED (X->forced)
#define MONOTONE (X->monotone)
#define grange_ok (X->grange_ok)
#define use_grange (X->use_grange)
#define tt_gen (X->gen)

static uint64_t *tt = NULL;
static size_t tt_bytes = 0; /* the size of tt's block when it was mapped (table_alloc), else 0 */
static size_t tt_entries = 0;
static size_t tt_cap = 0;     /* the most entries the table may grow to in this search */
static size_t tt_evicted = 0; /* new entries written since the table last grew */
static int tt_stride = 0;
/* Four seats (Phat, the Dons): an entry of four words, two to a 64-byte line (see slot). */
static int tt_compact = 0;
static uint32_t next_gen = 1;

/* A zeroed block for the table: on Linux mapped and marked for huge pages (2 MB). The table is read at
 * random, far beyond the caches: with 4 kB pages nearly every probe missed the TLB as well (Irish Don
 * from the first lead: some 15 % less time). Elsewhere, or if the mapping fails, PyMem_Calloc. */
static uint64_t *
table_alloc(size_t words, size_t *bytes)
{
    *bytes = 0;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t size = words * sizeof(uint64_t);
    if (size >= ((size_t)1 << 21)) {
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            (void)madvise(p, size, MADV_HUGEPAGE); /* a hint: without it the table still works */
            *bytes = size;
            return p;
        }
    }
#endif
    return PyMem_Calloc(words, sizeof(uint64_t));
}

static void
table_free(uint64_t *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes) {
        munmap(p, bytes);
        return;
    }
#endif
    (void)bytes;
    PyMem_Free(p);
}

/* The generations of the last few tables searched: an entry holds the generation of its tables, so going
 * back to tables searched a moment ago (the first lead's candidates, one trump each) finds their entries
 * still there, while other tables' entries never match. */
#define RECENT 16
static struct {
    char *packed;
    Py_ssize_t len;
    uint32_t gen;
    unsigned long used;
} recent[RECENT];
static unsigned long recent_clock;

static void
forget_recent(void)
{
    for (int k = 0; k < RECENT; k++) {
        PyMem_Free(recent[k].packed);
        recent[k].packed = NULL;
        recent[k].len = 0;
    }
}

static void pk_forget(void);

/* A generation no entry of the table has: a fresh table for the tables in use. */
static uint32_t
new_gen(void)
{
    if (++next_gen == 0) {
        pk_forget(); /* the points kernel's entries carry generations too */
        if (tt) {
            memset(tt, 0, tt_entries * (size_t)tt_stride * sizeof(uint64_t));
        }
        forget_recent();
        next_gen = 1;
    }
    return next_gen;
}

/* The generation of the tables just configured (DATA): theirs if searched lately, else a new one. */
static int
gen_for(const char *data, Py_ssize_t len)
{
    for (int k = 0; k < RECENT; k++) {
        if (recent[k].packed && recent[k].len == len && memcmp(recent[k].packed, data, (size_t)len) == 0) {
            recent[k].used = ++recent_clock;
            tt_gen = recent[k].gen;
            return 0;
        }
    }
    int oldest = 0; /* an empty place, or the one used longest ago */
    for (int k = 0; k < RECENT; k++) {
        if (!recent[k].packed) {
            oldest = k;
            break;
        }
        if (recent[k].used < recent[oldest].used) {
            oldest = k;
        }
    }
    char *copy = PyMem_Realloc(recent[oldest].packed, (size_t)len);
    if (!copy) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(copy, data, (size_t)len);
    recent[oldest].packed = copy;
    recent[oldest].len = len;
    recent[oldest].used = ++recent_clock;
    tt_gen = new_gen();
    recent[oldest].gen = tt_gen;
    return 0;
}

/* Every entry forgotten (clear(), an interrupted search): new generations for all tables. */
static void
forget_all(void)
{
    forget_recent();
    tt_gen = new_gen();
    if (last_packed) {
        recent[0].packed = PyMem_Malloc((size_t)last_len);
        if (recent[0].packed) {
            memcpy(recent[0].packed, last_packed, (size_t)last_len);
            recent[0].len = last_len;
            recent[0].gen = tt_gen;
            recent[0].used = ++recent_clock;
        }
    }
}

static const uint64_t SUIT_MASK[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};
static const uint64_t FULL = (1ULL << 52) - 1;

static inline int
top_bit(uint64_t x)
{
    return 63 - __builtin_clzll(x);
}

static inline int
low_bit(uint64_t x)
{
    return __builtin_ctzll(x);
}

static uint64_t
soft_pext(uint64_t x, uint64_t m)
{
    uint64_t out = 0;
    int k = 0;
    for (; m; m &= m - 1, k++) {
        if (x & m & -m) {
            out |= 1ULL << k;
        }
    }
    return out;
}

static uint64_t
soft_pdep(uint64_t x, uint64_t m)
{
    uint64_t out = 0;
    for (; m; m &= m - 1, x >>= 1) {
        if (x & 1) {
            out |= m & -m;
        }
    }
    return out;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
__attribute__((target("bmi2"))) static void
remap_bmi2(const uint64_t *in, uint64_t *out, int n, uint64_t from, uint64_t to)
{
    for (int s = 0; s < n; s++) {
        out[s] = _pdep_u64(_pext_u64(in[s], from), to);
    }
}
/* The cards of ``live`` whose next lower card of ``live`` is in ``a`` (a within live). */
__attribute__((target("bmi2"))) static uint64_t
after_bmi2(uint64_t a, uint64_t live)
{
    return _pdep_u64(_pext_u64(a, live) << 1, live);
}
#define HAVE_BMI2_PATH 1
#endif

/* Each mask of in[] carried from the cards of ``from`` to those of ``to`` (as many), order kept. */
static void
remap(const uint64_t *in, uint64_t *out, int n, uint64_t from, uint64_t to)
{
    if (from == to) {
        memcpy(out, in, sizeof(uint64_t) * (size_t)n);
        return;
    }
#ifdef HAVE_BMI2_PATH
    if (have_bmi2) {
        remap_bmi2(in, out, n, from, to);
        return;
    }
#endif
    for (int s = 0; s < n; s++) {
        out[s] = soft_pdep(soft_pext(in[s], from), to);
    }
}

static inline uint64_t
mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The cards of HAND that may be played to a trick whose suit led is LED: ALLOWED[led][kind] (the allow
 * table's suits as masks, set by relative_tables). */

static inline uint64_t
legal_to(uint64_t hand, int led)
{
    int kind = (led == T.trump ? 4 : 0) + ((hand & SUIT_MASK[led]) ? 2 : 0) + ((hand & TRUMP_MASK) ? 1 : 0);
    return hand & ALLOWED[led][kind];
}

static uint64_t
legal(int seat)
{
    return ntrick == 0 ? H[seat] : legal_to(H[seat], trick[0] / 13);
}

/* What the cards LIVE can still add to side 0's count: their card points and each trick's own. */
static inline int
reach_of(uint64_t live)
{
    int reach = T.trick_g * (__builtin_popcountll(live) / T.seats);
    for (int s = 0; s < 4; s++) {
        reach += SUM_GPTS[s][(live >> (13 * s)) & 0x1FFF];
    }
    return reach;
}

/* Whether every count the cards LIVE can still bring side 0 ends the deal as count g does (use_grange). */
static inline int
decided(int g, uint64_t live)
{
    return g + reach_of(live) <= RUN_END[g];
}

static int
gen_moves(int seat, int g, int *out)
{
    uint64_t allowed = legal(seat);
    int n = 0;
    if (!use_eq) {
        for (uint64_t b = allowed; b; b &= b - 1) {
            out[n++] = low_bit(b);
        }
        return n;
    }
    uint64_t live = LIVE, same = 0;
    uint16_t(*touching)[1 << 13] = use_grange && decided(g, live) ? SAME_D : SAME; /* card points or not */
    for (int s = 0; s < 4; s++) {
        same |= (uint64_t)touching[s][(live >> (13 * s)) & 0x1FFF] << (13 * s);
    }
    /* the cards whose next lower card in play is the same and may be played too: not moves of their own */
    uint64_t cand = allowed & same, skip = 0;
    if (cand) {
#ifdef HAVE_BMI2_PATH
        if (have_bmi2) {
            skip = cand & after_bmi2(allowed, live);
        } else
#endif
        {
            for (uint64_t b = cand; b; b &= b - 1) {
                int c = low_bit(b);
                if ((allowed >> top_bit(live & ((1ULL << c) - 1) & SUIT_MASK[c / 13])) & 1) {
                    skip |= 1ULL << c;
                }
            }
        }
    }
    for (uint64_t b = allowed & ~skip; b; b &= b - 1) {
        out[n++] = low_bit(b);
    }
    return n;
}

static int
wants_tricks(int g)
{
    if (T.trick_points) {
        return T.trick_points > 0;
    }
    if (T.trick_g) {
        int up = g + 1 > T.gmax ? T.gmax : g + 1;
        return T.leaf[up * 4] > T.leaf[g * 4];
    }
    return 1;
}

/* The strength (ROW: a suit led's) of the strongest card of CARDS, -1 where none: by each suit's top
 * card where every row rises with the rank within each suit (MONOTONE). */
static inline int
strongest(const int *row, uint64_t cards)
{
    int m = -1;
    if (MONOTONE) {
        for (int s = 0; s < 4; s++) {
            uint64_t in = cards & SUIT_MASK[s];
            if (in && row[top_bit(in)] > m) {
                m = row[top_bit(in)];
            }
        }
        return m;
    }
    for (uint64_t b = cards; b; b &= b - 1) {
        if (row[low_bit(b)] > m) {
            m = row[low_bit(b)];
        }
    }
    return m;
}

/* The move ordering's scores SC of the moves MV (higher first; search.order_score, card by card): the
 * trick's winner so far, and the strongest card the other side may still play to it
 * (search.strongest_to_come), worked out once for all the moves. A trick won so far is not yet won: where
 * the other side can still beat it, a card it cannot beat comes first, else a low one (not a counter
 * thrown to the partner); a card that wins, first one the other side cannot beat after it; and a trick
 * lost so far is not yet lost: where a partner to come can beat every card of the other side (and this
 * one), the highest counter. */
static void
order_scores(const int *mv, int nm, int *sc, int seat, int leader, int want)
{
    if (ntrick == 0 && want) {
        /* search.lead_score: a lead the other side cannot beat, its counters first, then high; then one a
         * partner can win, a counter for it first, then low; then the rest, no counter first, then high.
         * By the strongest card each side may play to each suit led, found once a suit. */
        int over[4] = {-2, -2, -2, -2}, partner[4] = {-1, -1, -1, -1};
        for (int i = 0; i < nm; i++) {
            int c = mv[i], su = c / 13, rank = c % 13, value = T.counter[c] + T.gpts[c];
            const int *row = T.strength + su * 52;
            if (over[su] == -2) {
                over[su] = -1;
                for (int s = 0; s < T.seats; s++) {
                    int *top = T.side[s] != T.side[seat] ? &over[su] : s != seat ? &partner[su] : NULL;
                    if (top) {
                        int m = strongest(row, legal_to(H[s], su));
                        if (m > *top) {
                            *top = m;
                        }
                    }
                }
            }
            if (row[c] > over[su]) {
                sc[i] = 400 + value * 4 + rank;
            } else if (partner[su] > over[su]) {
                sc[i] = 200 + value * 4 - rank;
            } else {
                sc[i] = -value * 4 + rank;
            }
        }
        return;
    }
    if (ntrick == 0 || !want) {
        for (int i = 0; i < nm; i++) {
            int rank = mv[i] % 13;
            sc[i] = want ? rank : -rank;
        }
        return;
    }
    int led = trick[0] / 13;
    const int *row = T.strength + led * 52;
    int best = row[trick[0]], pos = 0;
    for (int i = 1; i < ntrick; i++) {
        if (row[trick[i]] > best) {
            best = row[trick[i]];
            pos = i;
        }
    }
    int winner_seat = leader + pos;
    if (winner_seat >= T.seats) {
        winner_seat -= T.seats;
    }
    int mine = T.side[winner_seat] == T.side[seat];
    int top = -1, ptop = -1; /* the strongest card a later player of the other side, of this side, may play */
    for (int k = ntrick + 1; k < T.seats; k++) {
        int s = leader + k;
        if (s >= T.seats) {
            s -= T.seats;
        }
        int *t = T.side[s] != T.side[seat] ? &top : &ptop, m = strongest(row, legal(s));
        if (m > *t) {
            *t = m;
        }
    }
    for (int i = 0; i < nm; i++) {
        int c = mv[i], rank = c % 13, value = T.counter[c] + T.gpts[c], wins = row[c] > best;
        if (mine && top > best) {
            /* ours so far, but the other side can still take it: a card it cannot beat, else low */
            sc[i] = row[c] > top ? 2000 - (row[c] - top) * 4 + value : -(value * 16) - rank;
        } else if (mine) {
            sc[i] = 1000 + value * 16 - (wins ? 512 : 0) + rank;
        } else if (ptop > best && ptop > top && ptop > row[c]) { /* (whether this card wins or not) */
            sc[i] = 1000 + value * 16 + rank; /* a partner to come can take the trick: a counter for it */
        } else if (wins) {
            sc[i] = (row[c] > top ? 2000 : 1500) - (row[c] - best) * 4 + value;
        } else {
            sc[i] = -(value * 16) - rank;
        }
    }
}

/* The hash of a key of `seats` hands K under the tables of generation `gen` (the same hands under other
 * tables, another trump, go to another place). */
static uint64_t
key_hash_of(const uint64_t *K, int seats, int leader, int g, int flags, uint32_t gen)
{
    uint64_t h = mix((uint64_t)leader | ((uint64_t)g << 8) | ((uint64_t)flags << 24) | ((uint64_t)gen << 32));
    for (int s = 0; s < seats; s++) {
        h ^= mix(K[s] + 0x632BE59BD9B4E019ULL * (uint64_t)(s + 1));
    }
    return h;
}

static uint64_t
key_hash(const uint64_t *K, int leader, int g, int flags)
{
    return key_hash_of(K, T.seats, leader, g, flags, tt_gen);
}

/* An entry's meta word: its lower bound lo (16 bits) and upper bound hi (16), the leader (4) and leaf
 * bits (2) of its position, its best lead (6; NO_CARD: none), and the counts its bounds reach, gL and gU
 * (8 each: see use_grange; without it both are the count of the position, which is then part of the key). */
#define META_LO(m) ((int)(int16_t)((m)&0xFFFF))
#define META_HI(m) ((int)(int16_t)(((m) >> 16) & 0xFFFF))
#define META_LEADER(m) ((int)(((m) >> 32) & 0xF))
#define META_FLAGS(m) ((int)(((m) >> 36) & 0x3))
#define META_BEST(m) ((int)(((m) >> 38) & 0x3F))
#define META_GL(m) ((int)(((m) >> 44) & 0xFF))
#define META_GU(m) ((int)(((m) >> 52) & 0xFF))
#define META_DECIDED(m) ((int)(((m) >> 60) & 1))
#define NO_CARD 63

/* An entry: the hands' keys (seats words), meta (above), and the generation
 * with the horizon (the high half). With four seats (tt_compact) the keys take three words instead, so
 * an entry is four words and a place's two entries share one cache line (the table is read at random,
 * far beyond the caches: one line a probe, not two or three): the cards still out, those of seats 1 and
 * 3, those of seats 2 and 3 (the hands are disjoint, so each comes back: seat 3 holds what both the
 * second and third words have), each in 52 bits; the generation (32 bits) and the horizon (4) in their
 * top 12 bits; then meta. */
static inline uint64_t *
slot(size_t i)
{
    return tt + i * (size_t)tt_stride;
}

static inline uint64_t
entry_meta(const uint64_t *e)
{
    return tt_compact ? e[3] : e[T.seats];
}

static inline uint32_t
entry_gen(const uint64_t *e)
{
    if (tt_compact) {
        return (uint32_t)((e[0] >> 52) | ((e[1] >> 52) << 12) | (((e[2] >> 52) & 0xFF) << 24));
    }
    return (uint32_t)e[T.seats + 1];
}

static inline int
entry_horizon(const uint64_t *e)
{
    return tt_compact ? (int)(e[2] >> 60) : (int)(e[T.seats + 1] >> 32);
}

/* The compact key words of the hands K, with the generation (and horizon hz) in their top bits. */
static inline void
compact_words(const uint64_t *K, uint32_t gen, int hz, uint64_t *w)
{
    w[0] = (K[0] | K[1] | K[2] | K[3]) | ((uint64_t)(gen & 0xFFF) << 52);
    w[1] = (K[1] | K[3]) | ((uint64_t)((gen >> 12) & 0xFFF) << 52);
    w[2] = (K[2] | K[3]) | ((uint64_t)((gen >> 24) & 0xFF) << 52) | ((uint64_t)hz << 60);
}

static inline int
matches(uint64_t *e, const uint64_t *K, int leader, int g, int flags)
{
    if (tt_compact) {
        uint64_t w[3];
        compact_words(K, tt_gen, 0, w);
        if (e[0] != w[0] || e[1] != w[1] || (e[2] & ~(0xFULL << 60)) != w[2]) {
            return 0;
        }
    } else if ((uint32_t)e[T.seats + 1] != tt_gen) {
        return 0;
    }
    uint64_t meta = entry_meta(e);
    if (META_LEADER(meta) != leader || META_FLAGS(meta) != flags) {
        return 0;
    }
    if (use_grange) {
        int dec = META_DECIDED(meta);
        if (dec != (g >= 0) || (dec && META_GL(meta) != g)) {
            return 0; /* g: -1, or the run a decided position is decided in (make_key) */
        }
    } else if (META_DECIDED(meta) || META_GL(meta) != g) {
        return 0; /* a decided entry's key closes up other cards */
    }
    if (!tt_compact) {
        for (int s = 0; s < T.seats; s++) {
            if (e[s] != K[s]) {
                return 0;
            }
        }
    }
    return 1;
}

/* The cards of the position an entry holds (to keep the larger one). */
static inline int
entry_cards(const uint64_t *e)
{
    if (tt_compact) {
        return __builtin_popcountll(e[0] & FULL);
    }
    int cards = 0;
    for (int s = 0; s < T.seats; s++) {
        cards += __builtin_popcountll(e[s]);
    }
    return cards;
}

/* The key of the position at the start of a trick: the hands (by relative ranks with use_rel), and the
 * count g, or the first count of its run when every count the cards still out can reach has the same
 * leaf row (the count can no longer change the end: Phat's muck decided). LIVE and CANON_ALL: the live
 * cards and where they go in the key. */
static int
make_key(int g, uint64_t *K, uint64_t *live_out, uint64_t *canon_out)
{
    uint64_t live = LIVE; /* at a trick's start: the hands */
    *live_out = live;
    /* decided: every count the cards still out can reach ends the deal as g does. use_grange: the count
       is not in the key (the entry's bounds say which counts they hold for), only whether the position is
       decided, and in which run: -1 if not, else the run's first count */
    key_reach = reach_of(live);
    int dec = g + key_reach <= RUN_END[g];
    int gk = use_grange ? (dec ? RUN_START[g] : -1) : g;
    if (!use_rel) {
        memcpy(K, H, sizeof(uint64_t) * (size_t)T.seats);
        *canon_out = live;
        return gk;
    }
    uint16_t(*table)[1 << 13] = use_grange && dec ? CANON_D : CANON;
    uint64_t canon = 0;
    for (int s = 0; s < 4; s++) {
        canon |= (uint64_t)table[s][(live >> (13 * s)) & 0x1FFF] << (13 * s);
    }
    *canon_out = canon;
    remap(H, K, T.seats, live, canon);
    if (use_grange) {
        return gk;
    }
    return dec ? RUN_START[g] : g; /* the count as the first of its run once decided */
}

/* The table made n entries large where it is (Linux: mremap, the pages moved, not copied; the new ones
 * zero), so that growing never holds two tables at once (the process's peak stays under 300 MB); 0, or
 * -1 where it cannot (the table is left as it was). */
static int
tt_enlarge(size_t n)
{
    size_t bytes = n * (size_t)tt_stride * sizeof(uint64_t), old = tt_entries * (size_t)tt_stride * sizeof(uint64_t);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (tt_bytes) { /* mapped by table_alloc */
#ifdef MREMAP_MAYMOVE
        void *p = mremap(tt, tt_bytes, bytes, MREMAP_MAYMOVE);
        if (p == MAP_FAILED) {
            return -1;
        }
        (void)madvise(p, bytes, MADV_HUGEPAGE);
        tt = p;
        tt_bytes = bytes;
        return 0;
#else
        return -1; /* no mremap: the table stays as it is */
#endif
    }
#endif
    uint64_t *p = PyMem_Realloc(tt, bytes); /* a small table (PyMem_Calloc'd) */
    if (!p) {
        return -1;
    }
    memset((char *)p + old, 0, bytes - old);
    tt = p;
    return 0;
}

/* The table four times as large (at most tt_cap), its entries of the tables searched and of their
 * counters' game moved to their places in it, the others' dropped (other tables, not searched now). An
 * entry at place pair b goes to pair b, b + n_old, b + 2 n_old or b + 3 n_old (its hash's next two bits):
 * the new pairs above n_old are empty and take only pair b's two entries, so the entries move in place. */
static void
tt_grow(void)
{
    size_t old_n = tt_entries, n = tt_entries * 4 > tt_cap ? tt_cap : tt_entries * 4;
    tt_evicted = 0;
    if (tt_enlarge(n) < 0) {
        tt_cap = tt_entries; /* no memory: the table stays as it is */
        return;
    }
    tt_entries = n;
    int seats = tt_compact ? 4 : tt_stride - 2;
    for (size_t i = 0; i < old_n; i++) {
        uint64_t *e = slot(i);
        uint32_t gen = entry_gen(e);
        if (!gen) {
            continue;
        }
        Ctx *c = gen == M->gen ? M : gen == S->gen ? S : NULL;
        if (!c) {
            memset(e, 0, sizeof(uint64_t) * (size_t)tt_stride);
            continue;
        }
        uint64_t K[MAX_SEATS], meta = entry_meta(e);
        if (tt_compact) {
            uint64_t all = e[0] & FULL, w13 = e[1] & FULL, w23 = e[2] & FULL;
            K[3] = w13 & w23;
            K[1] = w13 & ~K[3];
            K[2] = w23 & ~K[3];
            K[0] = all & ~(w13 | w23);
        } else {
            memcpy(K, e, sizeof(uint64_t) * (size_t)seats);
        }
        Ctx *keep = X;
        X = c; /* its use_grange */
        int gk = use_grange ? (META_DECIDED(meta) ? META_GL(meta) : -1) : META_GL(meta);
        X = keep;
        uint64_t h = key_hash_of(K, seats, META_LEADER(meta), gk + 1, META_FLAGS(meta), gen);
        size_t base = (size_t)(h & (n - 1)) & ~(size_t)1;
        if (base == (i & ~(size_t)1)) {
            continue; /* its place is where it is */
        }
        uint64_t *to = slot(base);
        if (entry_gen(to)) {
            to = slot(base + 1);
        }
        memcpy(to, e, sizeof(uint64_t) * (size_t)tt_stride);
        memset(e, 0, sizeof(uint64_t) * (size_t)tt_stride);
    }
}

static int search(int leader, int g, int flags, int alpha, int beta);

/* The claim "the value is the leaf at count g2 and bits f" holds, as a lower bound, down to RUN_LO and, as
 * an upper bound, up to RUN_HI (see use_grange). */
static inline void
leaf_range(int g2, int f)
{
    ret_dn = g2 - RUN_LO[g2 * 4 + f];
    ret_up = RUN_HI[g2 * 4 + f] - g2;
}

/* The least and the most the rest of the deal can be worth: every counter still out to one side or the
 * other, and the leaf over every count and bits the cards still out can reach; except the sure cards
 * (CHAIN): the top of the chain still out, held by one side, is that side's; and where tricks count (a
 * trick's points, or the count of tricks), so are the tricks they fall in: each takes the trick it is
 * played to, and one hand's cards fall in tricks of their own, so the side takes at least as many tricks
 * as the most of them one of its hands holds. And the leader's side takes at least the leader's cashed
 * tricks: the cards of the leader's that, led, are stronger than every card the others hold (winning
 * keeps the lead; the others' cards only go). */
static void
bounds(int g, int flags, int tricks, int leader, int *lo, int *hi)
{
    uint64_t live = LIVE; /* at a trick's start: the hands */
    int sure = 0, sure_g = 0, sure_f = 0; /* side 0's sure counters (side 1's negative), points, bits */
    uint64_t lost = 0;                    /* side 1's sure cards: their points and bits never side 0's */
    uint64_t run = 0;                     /* the sure cards */
    int who = -1;                         /* the side that holds them */
    if (live & CHAIN_MASK) {
        uint64_t mine = 0; /* side 0's cards */
        for (int s = 0; s < T.seats; s++) {
            if (!T.side[s]) {
                mine |= H[s];
            }
        }
        if (CHAIN_SUIT >= 0) {
            /* the chain is one suit's cards from the top (the trumps): the run by masks and lookups */
            uint64_t out = live & CHAIN_MASK;
            who = !(mine & (1ULL << top_bit(out)));
            uint64_t other = out & (who ? mine : ~mine); /* the other side's chain cards */
            run = other ? out & ~((2ULL << top_bit(other)) - 1) : out;
            int cs = CHAIN_SUIT, idx = (int)((run >> (13 * cs)) & 0x1FFF);
            if (who == 0) {
                sure = SUM_COUNTER[cs][idx];
                sure_g = SUM_GPTS[cs][idx];
                sure_f = OR_FLAG[cs][idx];
            } else {
                sure = -SUM_COUNTER[cs][idx];
                lost = run;
            }
        } else {
            for (int k = 0; k < n_chain; k++) {
                uint64_t bit = 1ULL << CHAIN[k];
                if (!(live & bit)) {
                    continue;
                }
                int sd = !(mine & bit);
                if (who < 0) {
                    who = sd;
                } else if (sd != who) {
                    break;
                }
                run |= bit;
                int c = CHAIN[k];
                if (sd == 0) {
                    sure += T.counter[c];
                    sure_g += T.gpts[c];
                    sure_f |= T.flag[c];
                } else {
                    sure -= T.counter[c];
                    lost |= bit;
                }
            }
        }
    }
    int taken = 0; /* the tricks the sure cards' side takes for sure */
    if (run && (T.trick_g || T.trick_points)) {
        for (int s = 0; s < T.seats; s++) {
            int n = __builtin_popcountll(run & H[s]);
            taken = n > taken ? n : taken;
        }
    }
    int k0 = who == 0 ? taken : 0, k1 = who == 1 ? taken : 0; /* tricks each side cannot help taking */
    int c0 = k0, c1 = k1; /* tricks each side can make sure of taking if it will */
    if (T.trick_g || T.trick_points) {
        int cash = 0;
        uint64_t others = live & ~H[leader];
        for (int led = 0; led < 4; led++) {
            const int *row = T.strength + led * 52;
            int most = 0; /* the strongest of the others' cards, this suit led */
            for (uint64_t b = others & STRONG[led]; b; b &= b - 1) {
                int v = row[low_bit(b)];
                most = v > most ? v : most;
            }
            int top = 0; /* the leader's cards of the suit that no card out beats */
            for (uint64_t b = H[leader] & SUIT_MASK[led]; b; b &= b - 1) {
                top += row[low_bit(b)] > most;
            }
            if (top && FORCED) {
                /* every other hand must follow: once it has played the suit as often, the rest of the
                 * leader's cards of it win too */
                int longest = 0;
                for (int p = 0; p < T.seats; p++) {
                    int n = p == leader ? 0 : __builtin_popcountll(H[p] & SUIT_MASK[led]);
                    longest = n > longest ? n : longest;
                }
                if (top >= longest) {
                    top = __builtin_popcountll(H[leader] & SUIT_MASK[led]);
                }
            }
            cash += top;
        }
        int *c = T.side[leader] ? &c1 : &c0;
        *c = cash > *c ? cash : *c;
    }
    int r = 0, gr = 0, fr = 0;
    uint64_t open = live & ~lost;
    for (int s = 0; s < 4; s++) {
        r += SUM_COUNTER[s][(live >> (13 * s)) & 0x1FFF];
        gr += SUM_GPTS[s][(open >> (13 * s)) & 0x1FFF];
        fr |= OR_FLAG[s][(open >> (13 * s)) & 0x1FFF];
    }
    r -= sure < 0 ? -sure : sure;
    int tp = T.trick_points < 0 ? -T.trick_points : T.trick_points;
    r += tp * tricks;
    /* Each sure trick moves a trick's points from one end of the range. The tricks a side cannot help
     * taking move it whatever they are worth to it; those it can take if it will, only where it wants
     * them: side 0's raise the least where a trick is worth points to its taker, side 1's lower the most
     * (where a trick costs its taker, side 1's forced tricks raise the least and side 0's lower the most). */
    int raise = 2 * tp * (T.trick_points > 0 ? c0 : k1), lower = 2 * tp * (T.trick_points > 0 ? c1 : k0);
    /* the leaf: the count reaches at least g + sure_g (side 0's sure points and tricks) and at most gtop
     * (all the rest but side 1's sure tricks); the least over the counts side 0 can hold it to, the most
     * over those side 1 can */
    int reach = g + gr + T.trick_g * (tricks - k1), reach_hi = g + gr + T.trick_g * (tricks - c1);
    int capped = reach > T.gmax, capped_hi = reach_hi > T.gmax; /* the cards still out could take it past gmax */
    int gtop = capped ? T.gmax : reach, gtop_hi = capped_hi ? T.gmax : reach_hi;
    int low0 = g + sure_g + T.trick_g * k0, low_lo = g + sure_g + T.trick_g * c0;
    int glow = low0 > gtop ? gtop : low0, glow_lo = low_lo > gtop ? gtop : low_lo;
    if (glow > gtop_hi) {
        /* never, as side 1's cashed tricks and side 0's sure cards are other tricks: kept so that the most
         * is never taken over no count at all */
        glow = gtop_hi;
    }
    int need = flags | sure_f;
    int lmin = INF, lmax = -INF, pmin = INF, pmax = -INF;
    for (int gg = glow < glow_lo ? glow : glow_lo; gg <= gtop; gg++) {
        for (int f = 0; f < 4; f++) {
            if ((f & need) != need || (f & ~(flags | fr))) {
                continue;
            }
            int v = T.leaf[gg * 4 + f];
            if (gg >= glow) {
                pmin = v < pmin ? v : pmin;
                pmax = v > pmax ? v : pmax;
                if (gg <= gtop_hi && v > lmax) {
                    lmax = v;
                }
            }
            if (gg >= glow_lo && v < lmin) {
                lmin = v;
            }
        }
    }
    *lo = lmin - r + sure + raise;
    *hi = lmax + r + sure - lower;
    b_lmin = pmin;
    b_lmax = pmax;
    if (use_grange) {
        /* The leaf is monotone: the least is at glow_lo, the most at gtop_hi. The lower bound holds while
         * every bit pattern's leaf at glow_lo keeps its run; the upper while gtop_hi's does, or always if
         * gtop_hi is gmax because the cards still out could take it further. */
        int dn = low_lo > gtop ? 0 : INF, up = INF;
        for (int f = 0; f < 4; f++) {
            if ((f & need) != need || (f & ~(flags | fr))) {
                continue;
            }
            if (glow_lo - RUN_LO[glow_lo * 4 + f] < dn) {
                dn = glow_lo - RUN_LO[glow_lo * 4 + f];
            }
            if (!capped_hi && RUN_HI[gtop_hi * 4 + f] - gtop_hi < up) {
                up = RUN_HI[gtop_hi * 4 + f] - gtop_hi;
            }
        }
        ret_dn = dn;
        ret_up = up;
    }
    b_dn = ret_dn;
    b_up = ret_up;
}

/* The horizon's estimate of the rest of the deal (see horizon): every card still out taken by its
 * holder's side (its counter, card points and leaf bit), except a counter that a card of the other side
 * beats in its own suit, counted for neither side. An estimate only: it orders moves and guesses. */
static int
estimate(int g, int flags)
{
    int v = 0, g2 = g, f2 = flags;
    uint64_t side_h[2] = {0, 0};
    for (int s = 0; s < T.seats; s++) {
        side_h[T.side[s] != 0] |= H[s];
    }
    for (int s = 0; s < T.seats; s++) {
        int mine = T.side[s] == 0;
        for (uint64_t b = H[s]; b; b &= b - 1) {
            int c = low_bit(b);
            if (T.counter[c]) {
                /* a counter the other side can beat in its own suit: as likely lost as won */
                const int *row = T.strength + (c / 13) * 52;
                int beaten = 0;
                for (uint64_t o = side_h[mine] & SUIT_MASK[c / 13]; o; o &= o - 1) {
                    if (row[low_bit(o)] > row[c]) {
                        beaten = 1;
                        break;
                    }
                }
                if (beaten) {
                    continue;
                }
            }
            if (mine) {
                v += T.counter[c];
                g2 += T.gpts[c];
                f2 |= T.flag[c];
            } else {
                v -= T.counter[c];
            }
        }
        if (mine && T.trick_g) {
            g2 += T.trick_g * __builtin_popcountll(H[s]);
        }
    }
    if (g2 > T.gmax) {
        g2 = T.gmax;
    }
    ret_dn = ret_up = 0; /* an estimate: its bounds hold at this count only */
    return v + T.leaf[g2 * 4 + f2];
}

static int
after_trick(int leader, int g, int flags, int alpha, int beta)
{
    int n = T.seats;
    const int *done = trick;
    int led = done[0] / 13;
    const int *row = T.strength + led * 52;
    int best = row[done[0]], pos = 0, points = T.trick_points, gsum = 0, f2 = flags;
    uint64_t played = 0;
    for (int i = 0; i < n; i++) {
        int c = done[i];
        if (i && row[c] > best) {
            best = row[c];
            pos = i;
        }
        points += T.counter[c];
        gsum += T.gpts[c];
        played |= 1ULL << c;
    }
    int winner = leader + pos;
    if (winner >= n) {
        winner -= n;
    }
    int v;
    trick += n; /* the next trick's place: this one's cards stay where they are */
    ntrick = 0;
    LIVE &= ~played;
    if (T.side[winner] == 0) {
        for (int i = 0; i < n; i++) {
            f2 |= T.flag[done[i]];
        }
        v = points + search(winner, g + T.trick_g + gsum, f2, alpha - points, beta - points);
    } else {
        v = -points + search(winner, g, flags, alpha + points, beta + points);
    }
    LIVE |= played;
    trick -= n;
    ntrick = n;
    return v;
}

/* The last trick (one card a hand): no choice is left, so it is played out at once. */
static int
last_trick(int leader, int g, int flags)
{
    int n = T.seats, led = low_bit(H[leader]) / 13, best = -1, pos = 0, points = T.trick_points, gsum = 0;
    const int *row = T.strength + led * 52;
    int f2 = flags;
    for (int i = 0; i < n; i++) {
        int c = low_bit(H[(leader + i) % n]);
        if (row[c] > best) {
            best = row[c];
            pos = i;
        }
        points += T.counter[c];
        gsum += T.gpts[c];
        f2 |= T.flag[c];
    }
    if (T.side[(leader + pos) % n] == 0) {
        leaf_range(g + T.trick_g + gsum, f2);
        return points + T.leaf[(g + T.trick_g + gsum) * 4 + f2];
    }
    leaf_range(g, flags);
    return -points + T.leaf[g * 4 + flags];
}

/* The counters' game cuts the window (alpha, beta) of a trick's start in MAIN (see use_split): 1, with
 * *value a bound outside it (and ret_dn, ret_up its reach), or 0. Uses the bounds just worked out there
 * (the least and the most leaf the cards still out can reach). */
static int
split(int leader, int alpha, int beta, int *value)
{
    int lmin = b_lmin, lmax = b_lmax, dn = b_dn, up = b_up, cut = 0;
    X = &SUB;
    if (beta < INF) { /* the value reaches beta if the counters' game reaches beta - lmin */
        int c = search(leader, 0, 0, beta - lmin - 1, beta - lmin);
        if (c >= beta - lmin) {
            cut = 1;
            *value = c + lmin;
        } else if (alpha > -INF && c + lmax <= alpha) {
            cut = -1;
            *value = c + lmax;
        }
    }
    if (!cut && !interrupted && alpha > -INF) { /* it stays at alpha if that game stays at alpha - lmax */
        int c = search(leader, 0, 0, alpha - lmax, alpha - lmax + 1);
        if (c <= alpha - lmax) {
            cut = -1;
            *value = c + lmax;
        }
    }
    X = &MAIN;
    ret_dn = cut > 0 ? dn : 0;
    ret_up = cut < 0 ? up : 0;
    return cut != 0;
}

static int
search(int leader, int g, int flags, int alpha, int beta)
{
    nodes++;
    ret_dn = ret_up = 0;
    if (interrupted || ((nodes & 0xFFFFF) == 0 && PyErr_CheckSignals() < 0)) {
        interrupted = 1; /* every node returns at once; the value is thrown away (py_search) */
        return 0;
    }
    if (node_limit && nodes > node_limit) {
        interrupted = exhausted = 1; /* unwinds as above; py_search returns None */
        return 0;
    }
    int tt_best = -1, gk = g;
    size_t base = 0;
    uint64_t K[MAX_SEATS], live = 0, canon = 0;
    /* the window as narrowed by the table, and how far the bounds that narrowed it reach (use_grange) */
    int raised = 0, lowered = 0, tt_dn = 0, tt_up = 0, alpha0 = alpha, beta0 = beta;
    if (ntrick == 0) {
        if (!H[leader]) {
            leaf_range(g, flags);
            return T.leaf[g * 4 + flags];
        }
        if (!(H[leader] & (H[leader] - 1))) {
            return last_trick(leader, g, flags);
        }
        if (horizon && __builtin_popcountll(H[leader]) <= horizon) {
            return estimate(g, flags);
        }
        if (use_bound) {
            int lo_b, hi_b;
            bounds(g, flags, __builtin_popcountll(H[leader]), leader, &lo_b, &hi_b);
            if (hi_b <= alpha) {
                return hi_b;
            }
            if (lo_b >= beta) {
                return lo_b;
            }
            ret_dn = ret_up = 0;
        }
        if (use_tt) {
            gk = make_key(g, K, &live, &canon);
            base = (size_t)(key_hash(K, leader, gk + 1, flags) & (tt_entries - 1)) & ~(size_t)1;
            uint64_t *found = NULL;
            for (size_t k = 0; k < 2; k++) {
                uint64_t *e = slot(base + k);
                if (matches(e, K, leader, gk, flags)) {
                    found = e;
                    break;
                }
            }
            if (found) {
                uint64_t meta = entry_meta(found);
                int lo = META_LO(meta), hi = META_HI(meta);
                tt_best = META_BEST(meta);
                if (tt_best == NO_CARD) {
                    tt_best = -1;
                } else if (canon != live) {
                    uint64_t back;
                    remap(&(uint64_t){1ULL << tt_best}, &back, 1, canon, live);
                    tt_best = back ? low_bit(back) : -1;
                }
                int eh = entry_horizon(found);
                if (eh == 0 || eh == horizon) { /* else an estimate of another horizon: its best lead only */
                    /* by monotony a lower bound holds from its count up, an upper bound from its count down */
                    int lo_ok = 1, hi_ok = 1, dn = 0, up = 0;
                    if (use_grange && gk >= 0) { /* decided: the same value at each count of its run */
                        dn = g - gk;
                        up = RUN_END[g] - g - key_reach;
                    } else if (use_grange) {
                        lo_ok = g >= META_GL(meta);
                        hi_ok = g <= META_GU(meta);
                        dn = g - META_GL(meta);
                        up = META_GU(meta) - g;
                    }
                    if (lo_ok && lo >= beta) {
                        ret_dn = dn;
                        return lo;
                    }
                    if (hi_ok && hi <= alpha) {
                        ret_up = up;
                        return hi;
                    }
                    if (lo_ok && hi_ok && lo == hi) {
                        ret_dn = dn;
                        ret_up = up;
                        return lo;
                    }
                    if (lo_ok && lo > alpha) {
                        alpha = lo;
                        raised = 1;
                        tt_dn = dn;
                    }
                    if (hi_ok && hi < beta) {
                        beta = hi;
                        lowered = 1;
                        tt_up = up;
                    }
                }
            }
        }
        if (use_split && X == &MAIN && use_bound && !horizon) {
            if (__builtin_popcountll(LIVE) >= split_cards) {
                int v, cut = split(leader, alpha0, beta0, &v);
                if (interrupted) {
                    return 0;
                }
                if (cut) {
                    return v;
                }
            }
        }
    }
    int seat = leader + ntrick;
    if (seat >= T.seats) {
        seat -= T.seats;
    }
    int mv[52], sc[52];
    int nm = gen_moves(seat, g, mv);
    if (use_order) {
        int want = wants_tricks(g);
        order_scores(mv, nm, sc, seat, leader, want);
        /* stable insertion sort, highest score first (Python's sort by -score) */
        for (int i = 1; i < nm; i++) {
            int m = mv[i], s = sc[i], j = i - 1;
            while (j >= 0 && sc[j] < s) {
                mv[j + 1] = mv[j];
                sc[j + 1] = sc[j];
                j--;
            }
            mv[j + 1] = m;
            sc[j + 1] = s;
        }
        if (tt_best >= 0) {
            for (int i = 0; i < nm; i++) {
                if (mv[i] == tt_best) {
                    memmove(mv + 1, mv, sizeof(int) * (size_t)i);
                    mv[0] = tt_best;
                    break;
                }
            }
        }
    }
    int maximise = T.side[seat] == 0;
    int best = maximise ? -INF : INF, best_card = -1;
    /* how far the bounds reach (use_grange): the best card's own bound, and the least of every card's
       bound the other way (each card searched is one of them) */
    int best_reach = 0, all_reach = INF;
    int a = alpha, b = beta;
    for (int i = 0; i < nm; i++) {
        int c = mv[i];
        int v;
        H[seat] &= ~(1ULL << c);
        trick[ntrick++] = c;
        if (ntrick == T.seats) {
            v = after_trick(leader, g, flags, a, b);
        } else {
            v = search(leader, g, flags, a, b);
        }
        ntrick--;
        H[seat] |= 1ULL << c;
        int mine = maximise ? ret_dn : ret_up, other = maximise ? ret_up : ret_dn;
        if (other < all_reach) {
            all_reach = other;
        }
        if (maximise) {
            if (v > best) {
                best = v;
                best_card = c;
                best_reach = mine;
                if (v > a) {
                    a = v;
                }
            }
        } else if (v < best) {
            best = v;
            best_card = c;
            best_reach = mine;
            if (v < b) {
                b = v;
            }
        }
        if (a >= b) {
            break;
        }
    }
    /* The bounds this result claims, and how far each reaches: a maximiser's lower bound is its best
       card's, its upper bound every card's (all were searched unless it cut off, and then it claims no
       upper bound); the reverse for a minimiser. A bound the window owes to the table (narrowed above) is
       the table's and reaches as far as its entry. */
    if (maximise) {
        ret_dn = best > alpha ? best_reach : (raised ? tt_dn : 0);
        ret_up = best < beta ? all_reach : (lowered ? tt_up : 0);
    } else {
        ret_up = best < beta ? best_reach : (lowered ? tt_up : 0);
        ret_dn = best > alpha ? all_reach : (raised ? tt_dn : 0);
    }
    if (ntrick == 0 && use_tt) {
        int res_dn = ret_dn, res_up = ret_up;
        uint64_t *e = NULL;
        for (size_t k = 0; k < 2 && !e; k++) {
            if (matches(slot(base + k), K, leader, gk, flags)) {
                e = slot(base + k); /* probed again: the slot found above may hold another position now */
            }
        }
        if (e && horizon && entry_horizon(e) == 0) {
            return best; /* an estimate never overwrites an exact entry */
        }
        int lo = -32000, hi = 32000, gl = 0, gu = T.gmax;
        if (e && entry_horizon(e) == horizon) {
            uint64_t meta = entry_meta(e);
            lo = META_LO(meta);
            hi = META_HI(meta);
            gl = META_GL(meta);
            gu = META_GU(meta);
        } else if (!e) {
            /* slot 0 keeps the larger position, slot 1 takes whatever comes */
            uint64_t *e0 = slot(base);
            int cards = __builtin_popcountll(LIVE);
            e = (entry_gen(e0) != tt_gen || cards >= entry_cards(e0)) ? e0 : slot(base + 1);
            tt_evicted++; /* a new entry (see TT_START_BITS) */
        } /* else an estimate of another horizon: its bounds do not hold here */
        if (!use_grange || gk >= 0) { /* the count is the key's, or decided: bounds of one value */
            gl = gu = gk;
            if (best <= alpha) {
                hi = best < hi ? best : hi;
            } else if (best >= beta) {
                lo = best > lo ? best : lo;
            } else {
                lo = hi = best;
            }
        } else {
            /* a bound found here replaces the entry's unless the entry's holds here and is no weaker */
            if (best > alpha) { /* a lower bound */
                int ngl = g - res_dn < 0 ? 0 : g - res_dn;
                if (!(lo >= best && gl <= g)) {
                    lo = best;
                    gl = ngl;
                } else if (lo == best && ngl < gl) {
                    gl = ngl;
                }
            }
            if (best < beta) { /* an upper bound */
                int ngu = g + res_up > T.gmax ? T.gmax : g + res_up;
                if (!(hi <= best && gu >= g)) {
                    hi = best;
                    gu = ngu;
                } else if (hi == best && ngu > gu) {
                    gu = ngu;
                }
            }
        }
        if (lo < -32000) {
            lo = -32000;
        }
        if (hi > 32000) {
            hi = 32000;
        }
        int stored = best_card;
        if (best_card >= 0 && canon != live) {
            uint64_t there;
            remap(&(uint64_t){1ULL << best_card}, &there, 1, live, canon);
            stored = low_bit(there);
        }
        uint64_t meta = (uint64_t)(uint16_t)(int16_t)lo | ((uint64_t)(uint16_t)(int16_t)hi << 16) |
                        ((uint64_t)leader << 32) | ((uint64_t)flags << 36) |
                        ((uint64_t)(stored < 0 ? NO_CARD : stored) << 38) | ((uint64_t)gl << 44) |
                        ((uint64_t)gu << 52) | ((uint64_t)(use_grange && gk >= 0) << 60);
        if (tt_compact) {
            compact_words(K, tt_gen, horizon, e);
            e[3] = meta;
        } else {
            for (int s = 0; s < T.seats; s++) {
                e[s] = K[s];
            }
            e[T.seats] = meta;
            e[T.seats + 1] = tt_gen | ((uint64_t)horizon << 32);
        }
        if (tt_evicted > tt_entries / 4 && tt_entries < tt_cap) {
            tt_grow(); /* the frames above store where their keys were: lost entries, nothing worse */
        }
        ret_dn = res_dn;
        ret_up = res_up;
    }
    return best;
}

/* Where each set of live cards of one suit goes in the key, the cards of FIXED (13 bits) keeping their rank
 * (see use_rel): the cards from the lowest up, a fixed card at its rank and any other at the lowest rank
 * not fixed above the last card placed. Built set by set from the set without its highest card (one
 * step each: the tables are worked out for every set of tables searched, a single-dummy analysis's
 * layouts one by one). */
static void
canon_suit(uint16_t *canon, int fixed)
{
    int free_from[14]; /* the lowest rank from n up that is not fixed (13: none) */
    free_from[13] = 13;
    for (int n = 12; n >= 0; n--) {
        free_from[n] = ((fixed >> n) & 1) ? free_from[n + 1] : n;
    }
    canon[0] = 0;
    for (int L = 1; L < (1 << 13); L++) {
        int r = 31 - __builtin_clz((unsigned)L), below = canon[L & ~(1 << r)];
        int next = below ? 32 - __builtin_clz((unsigned)below) : 0; /* one above the last card placed */
        canon[L] = (uint16_t)(below | (1 << (((fixed >> r) & 1) ? r : free_from[next])));
    }
}

/* FIXED, CANON, RUN_START and RUN_END for the tables just read (see use_rel). */
static int
relative_tables(void)
{
    FIXED = FIXED_D = 0;
    for (int c = 0; c < 52; c++) {
        if (T.counter[c] || T.gpts[c] || T.flag[c]) {
            FIXED |= 1ULL << c;
        }
        if (T.counter[c] || T.flag[c]) {
            FIXED_D |= 1ULL << c;
        }
    }
    TRUMP_MASK = T.trump >= 0 && T.trump < 4 ? SUIT_MASK[T.trump] : 0;
    for (int led = 0; led < 4; led++) {
        for (int kind = 0; kind < 8; kind++) {
            uint64_t led_mask = SUIT_MASK[led], allowed = 0;
            int bits = T.allow[kind];
            if (bits & 1) {
                allowed |= led_mask;
            }
            if (bits & 2) {
                allowed |= TRUMP_MASK;
            }
            if (bits & 4) {
                allowed |= FULL & ~(led_mask | TRUMP_MASK);
            }
            ALLOWED[led][kind] = allowed;
        }
    }
    for (int led = 0; led < 4; led++) {
        STRONG[led] = 0;
        for (int c = 0; c < 52; c++) {
            if (T.strength[led * 52 + c] > 0) {
                STRONG[led] |= 1ULL << c;
            }
        }
    }
    FORCED = 1;
    for (int led = 0; led < 4; led++) {
        for (int kind = 2; kind < 8; kind++) {
            /* a hand that holds the suit led (kind's bit 2), led a trump or not as kind's bit 4 says */
            if ((kind & 2) && !(kind & 4) == !(TRUMP_MASK & SUIT_MASK[led]) && (ALLOWED[led][kind] & ~SUIT_MASK[led])) {
                FORCED = 0;
            }
        }
    }
    MONOTONE = 1;
    for (int k = 0; k < 4 * 52; k++) {
        if (k % 13 && T.strength[k] < T.strength[k - 1]) {
            MONOTONE = 0;
        }
    }
    for (int s = 0; s < 4; s++) {
        /* the trick is won by rank within a suit, whatever is led: or no card of the suit closes up */
        int by_rank = 1;
        for (int led = 0; led < 4; led++) {
            const int *row = T.strength + led * 52 + s * 13;
            int same = 1, rising = 1;
            for (int r = 1; r < 13; r++) {
                same &= row[r] == row[0];
                rising &= row[r] > row[r - 1];
            }
            by_rank &= same || rising;
        }
        if (!by_rank) {
            FIXED |= SUIT_MASK[s];
            FIXED_D |= SUIT_MASK[s];
        }
        int fixed = (int)((FIXED >> (13 * s)) & 0x1FFF), fixed_d = (int)((FIXED_D >> (13 * s)) & 0x1FFF);
        if (X->canon_of[s] != fixed + 1) { /* 0 in a new place: never a match */
            canon_suit(CANON[s], fixed);
            X->canon_of[s] = fixed + 1;
        }
        if (X->canon_d_of[s] != fixed_d + 1) {
            canon_suit(CANON_D[s], fixed_d);
            X->canon_d_of[s] = fixed_d + 1;
        }
    }
    for (int s = 0; s < 4; s++) {
        int of[3 * 13];
        for (int r = 0; r < 13; r++) {
            of[r] = T.counter[13 * s + r];
            of[13 + r] = T.gpts[13 * s + r];
            of[26 + r] = T.flag[13 * s + r];
        }
        if (X->rows_ok[s] && memcmp(of, X->rows_of[s], sizeof of) == 0) {
            continue;
        }
        memcpy(X->rows_of[s], of, sizeof of);
        X->rows_ok[s] = 1;
        for (int L = 0; L < (1 << 13); L++) {
            int low = L ? __builtin_ctz((unsigned)L) : 0, rest = L & (L - 1), c = 13 * s + low;
            SUM_COUNTER[s][L] = L ? SUM_COUNTER[s][rest] + T.counter[c] : 0;
            SUM_GPTS[s][L] = L ? SUM_GPTS[s][rest] + T.gpts[c] : 0;
            OR_FLAG[s][L] = (uint8_t)(L ? OR_FLAG[s][rest] | T.flag[c] : 0);
            /* the cards of L but its lowest have the same next lower card as in `rest`; the second lowest
             * has the lowest */
            int same = L ? SAME[s][rest] : 0, same_d = L ? SAME_D[s][rest] : 0;
            if (rest) {
                int q = 13 * s + __builtin_ctz((unsigned)rest);
                if (T.counter[c] == T.counter[q] && T.flag[c] == T.flag[q]) {
                    same_d |= 1 << (q - 13 * s);
                    if (T.gpts[c] == T.gpts[q]) {
                        same |= 1 << (q - 13 * s);
                    }
                }
            }
            SAME[s][L] = (uint16_t)same;
            SAME_D[s][L] = (uint16_t)same_d;
        }
    }
    /* the top chain: greedily, a card stronger than every other card left, under every suit led */
    uint64_t rest = FULL;
    n_chain = 0;
    CHAIN_MASK = 0;
    for (;;) {
        int top = -1;
        for (uint64_t b = rest; b && top < 0; b &= b - 1) {
            int c = low_bit(b), beats = 1;
            for (uint64_t o = rest & ~(1ULL << c); o && beats; o &= o - 1) {
                for (int led = 0; led < 4; led++) {
                    if (T.strength[led * 52 + c] <= T.strength[led * 52 + low_bit(o)]) {
                        beats = 0;
                        break;
                    }
                }
            }
            if (beats) {
                top = c;
            }
        }
        if (top < 0) {
            break;
        }
        CHAIN[n_chain++] = top;
        CHAIN_MASK |= 1ULL << top;
        rest &= ~(1ULL << top);
    }
    CHAIN_SUIT = n_chain ? CHAIN[0] / 13 : -1;
    for (int k = 1; k < n_chain; k++) {
        if (CHAIN[k] / 13 != CHAIN_SUIT || CHAIN[k] >= CHAIN[k - 1]) {
            CHAIN_SUIT = -1;
        }
    }
    int rows = T.gmax + 1;
    int *start = PyMem_Realloc(RUN_START, sizeof(int) * (size_t)rows);
    if (!start) {
        PyErr_NoMemory();
        return -1;
    }
    RUN_START = start;
    int *end = PyMem_Realloc(RUN_END, sizeof(int) * (size_t)rows);
    if (!end) {
        PyErr_NoMemory();
        return -1;
    }
    RUN_END = end;
    for (int g = 0; g < rows; g++) {
        int same = g > 0 && memcmp(T.leaf + g * 4, T.leaf + (g - 1) * 4, 4 * sizeof(int)) == 0;
        RUN_START[g] = same ? RUN_START[g - 1] : g;
    }
    for (int g = rows - 1; g >= 0; g--) {
        int same = g < rows - 1 && memcmp(T.leaf + g * 4, T.leaf + (g + 1) * 4, 4 * sizeof(int)) == 0;
        RUN_END[g] = same ? RUN_END[g + 1] : g;
    }
    int *run_lo = PyMem_Realloc(RUN_LO, sizeof(int) * (size_t)rows * 4);
    if (!run_lo) {
        PyErr_NoMemory();
        return -1;
    }
    RUN_LO = run_lo;
    int *run_hi = PyMem_Realloc(RUN_HI, sizeof(int) * (size_t)rows * 4);
    if (!run_hi) {
        PyErr_NoMemory();
        return -1;
    }
    RUN_HI = run_hi;
    int monotone = 1;
    for (int f = 0; f < 4; f++) {
        for (int g = 0; g < rows; g++) {
            int same = g > 0 && T.leaf[g * 4 + f] == T.leaf[(g - 1) * 4 + f];
            RUN_LO[g * 4 + f] = same ? RUN_LO[(g - 1) * 4 + f] : g;
            monotone &= g == 0 || T.leaf[g * 4 + f] >= T.leaf[(g - 1) * 4 + f];
        }
        for (int g = rows - 1; g >= 0; g--) {
            int same = g < rows - 1 && T.leaf[g * 4 + f] == T.leaf[(g + 1) * 4 + f];
            RUN_HI[g * 4 + f] = same ? RUN_HI[(g + 1) * 4 + f] : g;
        }
    }
    grange_ok = monotone && T.gmax > 0;
    return 0;
}

/* SUB, the counters' game of the tables in MAIN (see use_split), and whether it can cut: where the leaf
 * varies (an award depends on the play), counters are pegged, and no trick is worth points of its own. */
static int
split_tables(void)
{
    int *leaf = PyMem_Realloc(SUB.t.leaf, sizeof(int) * 4);
    if (!leaf) {
        PyErr_NoMemory();
        return -1;
    }
    int *keep = leaf;
    SUB.t = MAIN.t;
    SUB.t.leaf = keep;
    SUB.t.leaf_len = 4;
    SUB.t.gmax = 0;
    SUB.t.trick_g = 0;
    memset(SUB.t.leaf, 0, sizeof(int) * 4);
    memset(SUB.t.gpts, 0, sizeof SUB.t.gpts);
    memset(SUB.t.flag, 0, sizeof SUB.t.flag);
    int counters = 0, lmin = INF, lmax = -INF;
    for (int c = 0; c < 52; c++) {
        counters |= MAIN.t.counter[c] != 0;
    }
    for (int k = 0; k < MAIN.t.leaf_len; k++) {
        lmin = MAIN.t.leaf[k] < lmin ? MAIN.t.leaf[k] : lmin;
        lmax = MAIN.t.leaf[k] > lmax ? MAIN.t.leaf[k] : lmax;
    }
    MAIN.split_ok = counters && lmin < lmax && MAIN.t.trick_points == 0;
    SUB.split_ok = 0;
    X = &SUB;
    int ok = relative_tables();
    X = &MAIN;
    return ok;
}

/* The tables packed in V (COUNT words, checked to fit by configure) into X's. */
static int
read_tables(const int32_t *v, Py_ssize_t count)
{
    Py_ssize_t i = 5;
    T.seats = v[0];
    T.trump = v[1];
    T.trick_g = v[2];
    T.gmax = v[3];
    T.trick_points = v[4];
    for (int k = 0; k < 208; k++) {
        T.strength[k] = v[i++];
    }
    for (int k = 0; k < 8; k++) {
        T.allow[k] = v[i++];
    }
    for (int k = 0; k < 52; k++) {
        T.counter[k] = v[i++];
    }
    for (int k = 0; k < 52; k++) {
        T.gpts[k] = v[i++];
    }
    for (int k = 0; k < 52; k++) {
        T.flag[k] = v[i++];
    }
    for (int k = 0; k < MAX_SEATS; k++) {
        T.side[k] = v[i++];
    }
    int leaf_len = (int)(count - i);
    int *leaf = PyMem_Realloc(T.leaf, sizeof(int) * (size_t)leaf_len);
    if (!leaf) {
        PyErr_NoMemory();
        return -1;
    }
    T.leaf = leaf;
    T.leaf_len = leaf_len;
    for (int k = 0; k < leaf_len; k++) {
        T.leaf[k] = v[i++];
    }
    return 0;
}

static int
configure(const char *data, Py_ssize_t len)
{
    if (last_packed && len == last_len && memcmp(data, last_packed, (size_t)len) == 0) {
        return 0;
    }
    const int32_t *v = (const int32_t *)data;
    Py_ssize_t count = len / 4;
    Py_ssize_t fixed = 5 + 208 + 8 + 52 * 3 + MAX_SEATS;
    if (count < fixed) {
        PyErr_SetString(PyExc_ValueError, "the tables are too short");
        return -1;
    }
    int seats = v[0];
    if (seats < 2 || seats > 7 || v[3] < 0 || v[3] > 255 || count != fixed + 4 * (v[3] + 1)) {
        PyErr_SetString(PyExc_ValueError, "the tables do not fit together");
        return -1;
    }
    Pair *pair = NULL;
    int free_slot = -1, oldest = 0;
    for (int k = 0; k < PAIRS; k++) {
        if (!pairs[k] || !pairs[k]->packed) {
            free_slot = free_slot < 0 ? k : free_slot;
        } else if (pairs[k]->len == len && memcmp(pairs[k]->packed, data, (size_t)len) == 0) {
            pair = pairs[k];
            break;
        } else if (pairs[oldest] && pairs[oldest]->packed && pairs[k]->used < pairs[oldest]->used) {
            oldest = k;
        }
    }
    if (!pair) {
        int k = free_slot >= 0 ? free_slot : oldest;
        if (!pairs[k]) {
            pairs[k] = PyMem_Calloc(1, sizeof(Pair));
            if (!pairs[k]) {
                PyErr_NoMemory();
                return -1;
            }
        }
        pair = pairs[k];
        PyMem_Free(pair->packed);
        pair->packed = NULL; /* not a match until worked out whole */
        M = &pair->main;
        S = &pair->sub;
        X = M;
        if (read_tables(v, count) < 0 || relative_tables() < 0 || split_tables() < 0) {
            return -1;
        }
        pair->packed = PyMem_Malloc((size_t)len);
        if (!pair->packed) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(pair->packed, data, (size_t)len);
        pair->len = len;
    }
    pair->used = ++pair_clock;
    M = &pair->main;
    S = &pair->sub;
    X = M;
    char *copy = PyMem_Realloc(last_packed, (size_t)len);
    if (!copy) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(copy, data, (size_t)len);
    last_packed = copy;
    last_len = len;
    char *sub = PyMem_Realloc(sub_packed, (size_t)len + 1);
    if (!sub) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(sub, data, (size_t)len);
    sub[len] = 1; /* the counters' game of these tables: its own key among the tables searched */
    sub_packed = sub;
    if (tt_stride != (seats == 4 ? 4 : seats + 2) || tt_compact != (seats == 4)) {
        forget_recent(); /* the new table is empty */
        table_free(tt, tt_bytes);
        tt_entries = (size_t)1 << TT_START_BITS; /* small again until a search fills it */
        tt_evicted = 0;
        tt_compact = seats == 4;
        tt_stride = tt_compact ? 4 : seats + 2;
        tt = table_alloc(tt_entries * (size_t)tt_stride, &tt_bytes);
        if (!tt) {
            tt_stride = 0;
            PyErr_NoMemory();
            return -1;
        }
    }
    return gen_for(data, len);
}

PyDoc_STRVAR(search_doc,
             "search(tables, hands, trick, leader, g, flags, alpha, beta, techniques, horizon=0, limit=0, /)\n"
             "-> (value, nodes), or None where ``limit`` (> 0) nodes did not finish the search\n\n"
             "Side 0's value from the position (see phatlog/_native/_solve.pyi).");

static PyObject *
py_search(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 9 || nargs > 11) {
        PyErr_SetString(PyExc_TypeError, "search takes 9 to 11 arguments");
        return NULL;
    }
    char *data;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(args[0], &data, &len) < 0) {
        return NULL;
    }
    if (configure(data, len) < 0) {
        return NULL;
    }
    PyObject *hands = args[1], *cards = args[2];
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != T.seats || !PyTuple_Check(cards) ||
        PyTuple_GET_SIZE(cards) >= T.seats) {
        PyErr_SetString(PyExc_ValueError, "hands: a tuple of one mask a seat; trick: a tuple of fewer cards");
        return NULL;
    }
    for (int s = 0; s < T.seats; s++) {
        H[s] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, s));
        if (PyErr_Occurred()) {
            return NULL;
        }
        if (H[s] & ~FULL) {
            PyErr_SetString(PyExc_ValueError, "a hand is a mask of 52 bits");
            return NULL;
        }
    }
    trick = TRICKS;
    ntrick = (int)PyTuple_GET_SIZE(cards);
    for (int i = 0; i < ntrick; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(cards, i));
        if (c < 0 || c > 51) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "a card is 0..51");
            }
            return NULL;
        }
        trick[i] = (int)c;
    }
    LIVE = 0;
    for (int s = 0; s < T.seats; s++) {
        LIVE |= H[s];
    }
    for (int i = 0; i < ntrick; i++) {
        LIVE |= 1ULL << trick[i];
    }
    long leader = PyLong_AsLong(args[3]), g = PyLong_AsLong(args[4]), flags = PyLong_AsLong(args[5]);
    long alpha = PyLong_AsLong(args[6]), beta = PyLong_AsLong(args[7]), bits = PyLong_AsLong(args[8]);
    long hz = nargs >= 10 ? PyLong_AsLong(args[9]) : 0;
    long long limit = nargs == 11 ? PyLong_AsLongLong(args[10]) : 0;
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (limit < 0) {
        PyErr_SetString(PyExc_ValueError, "limit below 0");
        return NULL;
    }
    node_limit = limit;
    if (hz < 0 || hz > 13) {
        PyErr_SetString(PyExc_ValueError, "horizon out of range (0..13)");
        return NULL;
    }
    horizon = (int)hz;
    if (leader < 0 || leader >= T.seats || g < 0 || g > T.gmax || flags < 0 || flags > 3) {
        PyErr_SetString(PyExc_ValueError, "leader, g or flags out of range");
        return NULL;
    }
    if (alpha < -INF) {
        alpha = -INF;
    }
    if (beta > INF) {
        beta = INF;
    }
    use_tt = (int)(bits & 1);
    use_eq = (int)((bits >> 1) & 1);
    use_order = (int)((bits >> 2) & 1);
    use_bound = (int)((bits >> 3) & 1);
    use_rel = (int)((bits >> 4) & 1);
    use_grange = grange_ok && ((bits >> 5) & 1);
    use_split = MAIN.split_ok && ((bits >> 6) & 1);
    split_cards = (int)((bits >> 8) & 0x3F) ? (int)((bits >> 8) & 0x3F) : SPLIT_CARDS;
    if (use_split) { /* the counters' game's generation: its entries kept as the main tables' are */
        X = &SUB;
        int failed = gen_for(sub_packed, last_len + 1) < 0;
        X = &MAIN;
        if (failed) {
            return NULL;
        }
    }
    int in_play = ntrick;
    for (int s = 0; s < T.seats; s++) {
        in_play += __builtin_popcountll(H[s]);
    }
    size_t big_entries = (size_t)1 << BIG_TT_BITS;
    while (big_entries > ((size_t)1 << TT_BITS) && big_entries * (size_t)tt_stride * sizeof(uint64_t) > BIG_TT_BYTES) {
        big_entries >>= 1; /* wider entries (more seats): fewer of them */
    }
    tt_cap = in_play > BIG_CARDS ? big_entries : (size_t)1 << TT_BITS;
    nodes = 0;
    interrupted = exhausted = 0;
    int value = search((int)leader, (int)g, (int)flags, (int)alpha, (int)beta);
    if (interrupted) {
        interrupted = 0;
        /* The table may hold values of the unfinished search: forget it, as clear() does. */
        forget_all();
        if (exhausted && !PyErr_Occurred()) {
            exhausted = 0;
            Py_RETURN_NONE; /* the budget spent */
        }
        exhausted = 0;
        return NULL; /* the signal handler's exception */
    }
    return Py_BuildValue("(iL)", value, nodes);
}

/* ---------------------------------------------------------------- the tricks kernel
 *
 * Four seats in two partnerships (seats 0 and 2 against 1 and 3), a trump suit or none, every player
 * bound to follow suit: a bridge double-dummy problem, and the claim audit's tricks objective in every
 * game that plays so. Each trick is worth one to the side that takes it and nothing else counts, so the
 * search is a target search: "can side A (seats 0 and 2) take at least `need` of the tricks left?",
 * answered yes or no (a null window), and the value found by asking it of a few targets.
 *
 * - Hands are kept suit by suit (13 bits a seat and suit), so legal cards and sequences are masks.
 * - At each trick's start the answer is bounded before any card is tried: the leader's quick tricks
 *   (cards it can cash from the top: its trumps above every other trump, then in each other suit its
 *   cards above every other card of the suit, as many as every opponent that still holds a trump must
 *   follow to), and for each side its sure trumps (in one hand, trumps above every trump of the other
 *   side: each wins a trick whenever it is played).
 * - A transposition table at trick starts keyed by relative ranks: each suit as the owners of its cards
 *   still out, from the top (a card's rank matters only against the cards still out), and the leader.
 *   An entry holds a lower and an upper bound on side A's tricks from there and the best lead (as a suit
 *   and a place from the top). Its memory is taken for one solve and given back at its end.
 * - Moves: one card of each run of touching cards (next in rank among the cards still out, the trick's
 *   included) in one hand; ordered by DDS's weights (Bo Haglund and Soren Hein's double-dummy solver,
 *   Moves.cpp), by the seat's place in the trick, trumps or none, following suit or void; a lead that cut
 *   the search off with as many cards left, and the table's best lead, weigh more. After a card fails
 *   below every winning rank of its suit, no lower run of the suit is tried (DDS's lowest win).
 * - Also DDS's later tricks (the side on lead needing every trick, or all but one, against the other
 *   side's top cards) at a trick's start, and its second-hand quick trick.
 */

#define TK_SEATS 4
/* popcount of a suit's 13 bits by a table (the kernel is built for any x86-64, without POPCNT) */
static uint8_t TK_PC[1 << 13];
static int tk_pc_ready;

static inline int
tk_pc(unsigned m)
{
    return TK_PC[m & 0x1FFF];
}

static void
tk_pc_init(void)
{
    for (unsigned m = 1; m < (1u << 13); m++) {
        TK_PC[m] = (uint8_t)(TK_PC[m >> 1] + (m & 1));
    }
    tk_pc_ready = 1;
}
#define TK_WAYS 32
/* An entry: the suit lengths of every hand and the leader (lens), and for each suit the owners of its
 * top cards that decided the bounds (its winning ranks: pat, 30 bits a suit: the owners, 2 bits each from
 * the top, and how many, 4 bits); lb and ub bound side A's tricks from there, best is the best lead. */
typedef struct {
    uint64_t lens;
    uint64_t pat0, pat1;
    int8_t lb, ub;
    uint8_t best, depth, used;
    uint32_t stamp; /* when last stored or cut with: the least recent makes way */
} TkEnt;
static uint32_t tk_clock;

static TkEnt *tk_tt = NULL;
static size_t tk_mask = 0;
static uint16_t TH[4][4]; /* [seat][suit]: bit r is rank r (0: the two ... 12: the ace) */
static uint8_t TK_OWN[52]; /* the seat dealt each card (cards never change hands) */
static int tk_trump;      /* 0..3, or 4: no trump */
static long long tk_nodes, tk_limit;
static int tk_stop;

static inline int
tk_top(unsigned x)
{
    return 31 - __builtin_clz(x);
}

static inline unsigned
tk_union(int s)
{
    return (unsigned)(TH[0][s] | TH[1][s] | TH[2][s] | TH[3][s]);
}

static inline int
tk_count(int seat)
{
    return tk_pc(TH[seat][0]) + tk_pc(TH[seat][1]) + tk_pc(TH[seat][2]) +
           tk_pc(TH[seat][3]);
}

/* Whether card c (suit * 13 + rank) beats the trick's winning card w. */
static inline int
tk_beats(int c, int w)
{
    int cs = c / 13, ws = w / 13;
    if (cs == ws) {
        return c > w;
    }
    return cs == tk_trump;
}

/* The owners of each suit's cards still out, from the top (2 bits each: seat 0..3), and how many. */
static void
tk_owners(uint32_t code[4], int n[4])
{
    for (int s = 0; s < 4; s++) {
        unsigned u = tk_union(s);
        const uint8_t *own = TK_OWN + 13 * s;
        uint32_t k = 0;
        int m = 0;
        while (u) {
            int r = tk_top(u);
            u &= ~(1u << r);
            k = (k << 2) | own[r];
            m++;
        }
        code[s] = k;
        n[s] = m;
    }
}

static uint64_t
tk_lens(int leader)
{
    uint64_t k = (uint64_t)leader;
    for (int seat = 0; seat < 4; seat++) {
        for (int s = 0; s < 4; s++) {
            k = (k << 4) | (uint64_t)tk_pc(TH[seat][s]);
        }
    }
    return k; /* 2 + 64 bits: the leader's high bits are shifted out, so it is hashed apart below */
}

static inline TkEnt *
tk_bucket(uint64_t lens, int leader)
{
    uint64_t h = (lens ^ ((uint64_t)leader << 7)) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
    h *= 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return &tk_tt[(size_t)(h & tk_mask) & ~(size_t)(TK_WAYS - 1)];
}

static inline uint32_t
tk_pat_suit(const TkEnt *e, int s)
{
    return (uint32_t)(((s < 2 ? e->pat0 : e->pat1) >> (30 * (s & 1))) & 0x3FFFFFFF);
}

/* Whether the entry's winning ranks agree with the position (owners code[], counts n[]). */
static inline int
tk_matches(const TkEnt *e, const uint32_t code[4], const int n[4])
{
    for (int s = 0; s < 4; s++) {
        uint32_t p = tk_pat_suit(e, s);
        int d = (int)(p >> 26);
        if (d && (code[s] >> (2 * (n[s] - d))) != (p & 0x3FFFFFF)) {
            return 0;
        }
    }
    return 1;
}

/* The top d cards still out of suit s, as a mask of ranks. */
static inline unsigned
tk_top_cards(int s, int d)
{
    unsigned u = tk_union(s), out = 0;
    while (d-- > 0 && u) {
        int r = tk_top(u);
        out |= 1u << r;
        u &= ~(1u << r);
    }
    return out;
}

/* The winning ranks as an entry's pattern: in each suit every card still out from the top down to the
 * lowest relevant one. */
static void
tk_pattern(const unsigned rel[4], const uint32_t code[4], const int n[4], uint64_t *p0, uint64_t *p1)
{
    uint64_t part[4];
    for (int s = 0; s < 4; s++) {
        int d = 0;
        if (rel[s]) {
            int low = __builtin_ctz(rel[s]);
            d = tk_pc(tk_union(s) >> low);
        }
        part[s] = d ? (((uint64_t)d << 26) | (uint64_t)(code[s] >> (2 * (n[s] - d)))) : 0;
    }
    *p0 = part[0] | (part[1] << 30);
    *p1 = part[2] | (part[3] << 30);
}

/* The table grows (four times the entries, up to tk_max_mask + 1) once half as many entries as it holds
 * were pushed out: a small search touches little memory, a long one still keeps what it found. */
static size_t tk_max_mask, tk_evicted;

/* A growing table's next size: four times `entries`, never past `max_mask` + 1 (both kernels' tables). */
static inline size_t
grown_entries(size_t entries, size_t max_mask)
{
    return entries << 2 > max_mask + 1 ? max_mask + 1 : entries << 2;
}

static void
tk_grow(void)
{
    size_t old_n = tk_mask + 1, new_n = grown_entries(old_n, tk_max_mask);
    TkEnt *grown = calloc(new_n, sizeof(TkEnt)), *old = tk_tt;
    tk_evicted = 0;
    if (!grown) {
        tk_max_mask = tk_mask; /* no memory for more: keep this one */
        return;
    }
    tk_tt = grown;
    tk_mask = new_n - 1;
    for (size_t i = 0; i < old_n; i++) {
        const TkEnt *e = &old[i];
        if (!e->used) {
            continue;
        }
        TkEnt *b = tk_bucket(e->lens, e->used - 1), *victim = NULL;
        for (int k = 0; k < TK_WAYS; k++) {
            if (!b[k].used) {
                victim = &b[k];
                break;
            }
            if (!victim || b[k].stamp < victim->stamp) {
                victim = &b[k];
            }
        }
        if (!victim->used || victim->stamp < e->stamp) {
            *victim = *e;
        }
    }
    free(old);
}

static void
tk_store(int leader, int left, uint64_t lens, const unsigned rel[4], const uint32_t code[4], const int n[4], int lb,
         int ub, int best)
{
    uint64_t p0, p1;
    tk_pattern(rel, code, n, &p0, &p1);
    TkEnt *b = tk_bucket(lens, leader), *victim = NULL;
    for (int i = 0; i < TK_WAYS; i++) {
        TkEnt *e = &b[i];
        if (e->used && e->lens == lens && e->pat0 == p0 && e->pat1 == p1 && e->used == leader + 1) {
            victim = e;
            break;
        }
        if (!victim || (!e->used && victim->used) || (e->used && victim->used && e->stamp < victim->stamp)) {
            victim = e;
        }
    }
    victim->stamp = ++tk_clock;
    if (!(victim->used && victim->lens == lens && victim->pat0 == p0 && victim->pat1 == p1 &&
          victim->used == leader + 1)) {
        if (victim->used && ++tk_evicted > (tk_mask + 1) / 2 && tk_mask < tk_max_mask) {
            tk_grow(); /* victim's bucket is gone: store in the grown table */
            tk_store(leader, left, lens, rel, code, n, lb, ub, best);
            return;
        }
        victim->lens = lens;
        victim->pat0 = p0;
        victim->pat1 = p1;
        victim->used = (uint8_t)(leader + 1);
        victim->lb = 0;
        victim->ub = (int8_t)left;
        victim->depth = (uint8_t)left;
        victim->best = 0xFF;
    }
    if (lb > victim->lb) {
        victim->lb = (int8_t)lb;
    }
    if (ub < victim->ub) {
        victim->ub = (int8_t)ub;
    }
    if (best >= 0) {
        victim->best = (uint8_t)best;
    }
}

/* The leader's quick tricks: cashed from its own hand, the lead kept throughout (see above). */
static int
tk_quick(int leader, unsigned rel[4])
{
    int lho = (leader + 1) & 3, rho = (leader + 3) & 3, pd = (leader + 2) & 3;
    int n = 0, t = tk_trump;
    int opp_trumps[2] = {0, 0};
    int drawn = 0;
    unsigned cashed[4] = {0, 0, 0, 0}; /* the leader's winners counted in each side suit */
    if (t < 4) {
        unsigned others = (unsigned)(TH[lho][t] | TH[rho][t] | TH[pd][t]);
        unsigned mine = TH[leader][t];
        while (mine && (!others || tk_top(mine) > tk_top(others))) {
            rel[t] |= 1u << tk_top(mine);
            mine &= ~(1u << tk_top(mine));
            drawn++;
        }
        n += drawn;
        if (drawn && mine && tk_pc(TH[lho][t]) <= drawn && tk_pc(TH[rho][t]) <= drawn && tk_pc(TH[pd][t]) <= drawn) {
            n += tk_pc(mine); /* the others have no trump left: the rest of the leader's trumps win too */
        }
        opp_trumps[0] = tk_pc(TH[lho][t]) - drawn;
        opp_trumps[1] = tk_pc(TH[rho][t]) - drawn;
    }
    for (int s = 0; s < 4; s++) {
        if (s == t) {
            continue;
        }
        unsigned others = (unsigned)(TH[lho][s] | TH[rho][s] | TH[pd][s]);
        unsigned mine = TH[leader][s];
        int w = 0;
        unsigned won = 0;
        while (mine && (!others || tk_top(mine) > tk_top(others))) {
            won |= 1u << tk_top(mine);
            mine &= ~(1u << tk_top(mine));
            w++;
        }
        if (!w) {
            continue;
        }
        int top_w = w;
        if (mine && opp_trumps[0] <= 0 && opp_trumps[1] <= 0 && tk_pc(TH[lho][s]) <= w && tk_pc(TH[rho][s]) <= w &&
            tk_pc(TH[pd][s]) <= w) {
            w += tk_pc(mine); /* the others are void of it after the winners: the leader's rest are winners too */
        }
        if (opp_trumps[0] > 0 && tk_pc(TH[lho][s]) < w) {
            w = tk_pc(TH[lho][s]);
        }
        if (opp_trumps[1] > 0 && tk_pc(TH[rho][s]) < w) {
            w = tk_pc(TH[rho][s]);
        }
        for (int k = 0; k < w && k < top_w; k++) { /* the w highest of them decided it */
            int r = tk_top(won);
            rel[s] |= 1u << r;
            cashed[s] |= 1u << r;
            won &= ~(1u << r);
        }
        n += w;
    }
    /* then a lead to the partner's winners in a suit where the leader has none but a card to lead: the
     * partner takes them from the top (the lead passing to it, so one such suit, the last); the own
     * cashes come first only where the partner has enough other cards to follow or discard on them */
    int extra = 0, extra_suit = -1;
    unsigned extra_won = 0;
    for (int s = 0; s < 4; s++) {
        /* the leader's own winners of the suit cashed first (as DDS crosses on Ax opposite Kx) */
        unsigned rest = (unsigned)TH[leader][s] & ~cashed[s];
        int lw = tk_pc(cashed[s]);
        unsigned others = (unsigned)(TH[lho][s] | TH[rho][s]) | rest;
        unsigned mine = TH[pd][s];
        if (!rest || !mine) {
            continue;
        }
        int w = 0;
        unsigned won = 0;
        while (mine && (!others || tk_top(mine) > tk_top(others))) {
            won |= 1u << tk_top(mine);
            mine &= ~(1u << tk_top(mine));
            w++;
        }
        if (tk_pc(TH[pd][s]) - w < lw) {
            continue; /* the partner would have to play a winner to the leader's */
        }
        if (s != t && t < 4) {
            if (opp_trumps[0] > 0 && tk_pc(TH[lho][s]) - lw < w) {
                w = tk_pc(TH[lho][s]) - lw;
            }
            if (opp_trumps[1] > 0 && tk_pc(TH[rho][s]) - lw < w) {
                w = tk_pc(TH[rho][s]) - lw;
            }
        }
        if (s == t && drawn) {
            continue; /* trumps already cashed from the leader's hand */
        }
        int partner_other = tk_count(pd) - tk_pc(TH[pd][s]);
        if (partner_other < n - lw || w <= 0) {
            continue;
        }
        if (w > extra) {
            extra = w;
            extra_suit = s;
            extra_won = won;
        }
    }
    if (extra_suit >= 0) {
        for (int k = 0; k < extra; k++) {
            int r = tk_top(extra_won);
            rel[extra_suit] |= 1u << r;
            extra_won &= ~(1u << r);
        }
        n += extra;
    }
    return n;
}

/* DDS's quick tricks' last case: no trump out, and the other side holds the top card of every suit the
 * leader holds, so it takes the trick led now (`rel` gets those top cards). */
static int
tk_loses_lead(int leader, unsigned rel[4])
{
    int t = tk_trump;
    if (t < 4 && tk_union(t)) {
        return 0;
    }
    for (int s = 0; s < 4; s++) {
        if (TH[leader][s] && ((TK_OWN[13 * s + tk_top(tk_union(s))] ^ leader) & 1) == 0) {
            return 0;
        }
    }
    for (int s = 0; s < 4; s++) {
        if (TH[leader][s]) {
            rel[s] |= 1u << tk_top(tk_union(s));
        }
    }
    return 1;
}

/* A side's sure trumps: in the one hand of the side that has the most, its trumps above every trump of
 * the other side (each wins a trick for the side whenever it is played). */
static int
tk_sure(int side, unsigned rel[4])
{
    int t = tk_trump;
    if (t >= 4) {
        return 0;
    }
    unsigned theirs = (unsigned)(TH[side ^ 1][t] | TH[side ^ 3][t]);
    int best = 0;
    unsigned decided = 0;
    for (int seat = side; seat < 4; seat += 2) {
        unsigned mine = TH[seat][t];
        unsigned above = theirs ? mine & ~((2u << tk_top(theirs)) - 1) : mine;
        int w = tk_pc(above);
        if (w > best) {
            best = w;
            decided = above;
        }
    }
    rel[t] |= decided;
    return best;
}


/* The seat holding card rank r of suit s (still out). */
static inline int
tk_owner(int s, int r)
{
    return TK_OWN[13 * s + r];
}

/* DDS's later tricks: whether the side on lead, needing `need_l` of the `left` tricks (all of them, or all
 * but one), surely falls short, by the top cards the other side holds. `rel` gets the ranks it depended
 * on (only when it does). */
static int
tk_later(int leader, int need_l, int left, unsigned rel[4])
{
    int side = leader & 1, pd = (leader + 2) & 3, o1 = (leader + 1) & 3, o2 = (leader + 3) & 3;
    int t = tk_trump;
    if (need_l < left - 1) {
        return 0;
    }
    if (t >= 4 || !tk_union(t)) {
        /* no trumps: the leader's side must win every trick, so lead only suits it holds the top of, each
         * at most as often as its longer hand holds it; one such suit short and it falls short */
        if (need_l < left) {
            return 0;
        }
        int sum = 0;
        for (int q = 0; q < 4; q++) {
            unsigned u = tk_union(q);
            if (u && (tk_owner(q, tk_top(u)) & 1) == side) {
                int a = tk_pc(TH[leader][q]), b = tk_pc(TH[pd][q]);
                sum += a > b ? a : b;
            }
        }
        if (sum == 0 || sum >= left) {
            return 0;
        }
        for (int q = 0; q < 4; q++) {
            unsigned u = tk_union(q);
            rel[q] = 0;
            if (u) {
                int top = tk_top(u), w = tk_owner(q, top);
                if ((w & 1) != side && (u & ~(unsigned)TH[w][q])) {
                    rel[q] = 1u << top; /* the other side's top card, with another hand holding the suit */
                }
            }
        }
        return 1;
    }
    unsigned u = tk_union(t);
    int top = tk_top(u), w = tk_owner(t, top);
    unsigned rest = u & ~(1u << top);
    int second = rest ? tk_top(rest) : -1, hh = second >= 0 ? tk_owner(t, second) : -1;
    rel[0] = rel[1] = rel[2] = rel[3] = 0;
    if ((w & 1) != side) {
        if (!TH[leader][t] && !TH[pd][t]) {
            /* no trump on the leader's side: every trump of the other side's longer hand wins a trick */
            int a = tk_pc(TH[o1][t]), b = tk_pc(TH[o2][t]);
            return left - (a > b ? a : b) < need_l;
        }
        if (need_l == left) {
            rel[t] = 1u << top; /* the other side's top trump */
            return 1;
        }
        if (hh >= 0 && (hh & 1) != side &&
            (tk_pc(TH[hh][t]) > 1 || tk_pc(TH[hh ^ 2][t]) > 1)) {
            rel[t] = 1u << second; /* the other side's two top trumps, not to fall together */
            return 1;
        }
        return 0;
    }
    if (need_l < left || hh < 0 || (hh & 1) == side || tk_pc(TH[hh][t]) <= 1) {
        return 0;
    }
    if (w == ((hh + 3) & 3)) {
        rel[t] = 1u << second; /* a guarded second trump over the top one */
        return 1;
    }
    unsigned rest2 = rest & ~(1u << second);
    if (rest2) {
        int third = tk_top(rest2);
        if ((tk_owner(t, third) & 1) != side) {
            rel[t] = 1u << third; /* the second and third trumps with the other side, the second guarded */
            return 1;
        }
    }
    return 0;
}

static unsigned tk_table[4]; /* the cards of the trick in progress, suit by suit */
static int tk_led;           /* the suit led to it */

/* The top of the run of touching cards that r (in `mine`, suit mask `all` of the cards still out) is in. */
static inline int
tk_run_top(unsigned mine, unsigned all, int r)
{
    for (;;) {
        unsigned up = all >> (r + 1);
        if (!up) {
            return r;
        }
        int nx = r + 1 + __builtin_ctz(up);
        if (!((mine >> nx) & 1)) {
            return r;
        }
        r = nx;
    }
}

/* ---- move ordering after DDS's (Moves.cpp: WeightAlloc*, by the seat's place in the trick, trumps or
 * none, following suit or void). Its ranks are DDS's (2 to 14); a move is a run of touching cards, named
 * by its top card (`rank`), `seq` when the run has more than one card. */

static int tk_trick[4];       /* the cards of the trick in progress, in the order played */
static int tk_killer[53];     /* by the cards still in the hands: the lead that last cut the search off */

typedef struct {
    int win_hand[4], win_rank[4], sec_hand[4], sec_rank[4], third_hand[4];
} TkTops; /* by suit: the holders of the top three cards at the trick's start, and the top two's ranks */


static inline int
tk_hi(unsigned m)
{
    return m ? tk_top(m) + 2 : 0;
}

static inline int
tk_lo(unsigned m)
{
    return m ? __builtin_ctz(m) + 2 : 0;
}

/* The place of rank r among the cards `aggr` from the top (1: the highest). */
static inline int
tk_rrank(unsigned aggr, int r)
{
    return tk_pc(aggr >> r);
}

static void
tk_tops(TkTops *I, unsigned suits)
{
    for (int s = 0; s < 4; s++) {
        if (!((suits >> s) & 1)) {
            continue;
        }
        unsigned u = tk_union(s) | tk_table[s];
        int *hand[3] = {&I->win_hand[s], &I->sec_hand[s], &I->third_hand[s]};
        int rank[2] = {0, 0};
        for (int k = 0; k < 3; k++) {
            *hand[k] = -1;
            if (!u) {
                continue;
            }
            int r = tk_top(u);
            u &= ~(1u << r);
            *hand[k] = TK_OWN[13 * s + r];
            if (k < 2) {
                rank[k] = r + 2;
            }
        }
        I->win_rank[s] = rank[0];
        I->sec_rank[s] = rank[1];
    }
}

/* A lead in a trump game (WeightAllocTrump0). */
static int
tk_w_trump0(int lead, int s, int rank, int seq, const TkTops *I, int R, int killer)
{
    int lho = (lead + 1) & 3, rho = (lead + 3) & 3, pd = (lead + 2) & 3, t = tk_trump;
    unsigned aggr = tk_union(s);
    int suitCount = tk_pc(TH[lead][s]), cLH = tk_pc(TH[lho][s]), cRH = tk_pc(TH[rho][s]);
    int countLH = (cLH == 0 ? R : cLH) << 2, countRH = (cRH == 0 ? R : cRH) << 2;
    int suitWeightD = -(((countLH + countRH) << 5) / 13);
    int suitBonus = 0, winMove = 0, w;
    int rRank = tk_rrank(aggr, rank - 2);
    if (s != t && ((!TH[lho][s] && TH[lho][t]) || (!TH[rho][s] && TH[rho][t]))) {
        suitBonus = -12; /* an opponent ruffs */
    }
    if (s != t && !TH[pd][s] && TH[pd][t] && cRH > 0) {
        suitBonus += 17; /* the partner ruffs */
    }
    if (I->win_hand[s] == rho || I->sec_hand[s] == rho) {
        if (cRH != 1) {
            suitBonus += -12;
        }
    } else if (I->win_hand[s] == lho && I->sec_hand[s] == pd) {
        if (tk_pc(TH[pd][s]) != 1) {
            suitBonus += 27;
        }
    }
    if (s != t && suitCount == 1 && TH[lead][t] && tk_pc(TH[pd][s]) > 1 && I->win_hand[s] == pd) {
        suitBonus += 19; /* the partner wins and returns the suit for a ruff */
    }
    int d = suitBonus + suitWeightD;
    if (I->win_rank[s] == rank) {
        if (s != t) {
            if (TH[pd][s] || !TH[pd][t]) {
                if ((TH[lho][s] || !TH[lho][t]) && (TH[rho][s] || !TH[rho][t])) {
                    winMove = 1;
                }
            } else if ((TH[lho][s] || TH[pd][t] > TH[lho][t]) && (TH[rho][s] || TH[pd][t] > TH[rho][t])) {
                winMove = 1;
            }
        } else {
            winMove = 1;
        }
    } else if (TH[pd][s] > (TH[lho][s] | TH[rho][s])) {
        if (s != t) {
            if ((TH[lho][s] || !TH[lho][t]) && (TH[rho][s] || !TH[rho][t])) {
                winMove = 1;
            }
        } else {
            winMove = 1;
        }
    } else if (s != t && !TH[pd][s] && TH[pd][t]) {
        int lv = !TH[lho][s] && TH[lho][t], rv = !TH[rho][s] && TH[rho][t];
        if (lv && rv) {
            winMove = TH[pd][t] > (TH[lho][t] | TH[rho][t]);
        } else if (lv) {
            winMove = TH[pd][t] > TH[lho][t];
        } else if (rv) {
            winMove = TH[pd][t] > TH[rho][t];
        } else {
            winMove = 1;
        }
    }
    int is_killer = killer >= 0 && killer / 13 == s && killer % 13 + 2 == rank;
    if (winMove) {
        if ((cLH == 1 && I->win_hand[s] == lho) || (cRH == 1 && I->win_hand[s] == rho)) {
            w = d + 35 + rRank;
        } else if (I->win_hand[s] == lead) {
            if (I->sec_hand[s] == pd) {
                w = d + 48 + rRank;
            } else if (I->win_rank[s] == rank) {
                w = d + 31;
            } else {
                w = d - 3 + rRank;
            }
        } else if (I->win_hand[s] == pd) {
            w = I->sec_hand[s] == lead ? d + 42 + rRank : d + 28 + rRank;
        } else if (seq && rank == I->sec_rank[s]) {
            w = d + 40;
        } else if (seq) {
            w = d + 22 + rRank;
        } else {
            w = d + 11 + rRank;
        }
        if (is_killer) {
            w += 55;
        }
    } else {
        int third = I->third_hand[s];
        if (I->sec_hand[s] == pd && pd == third) {
            d += 20;
        } else if ((I->sec_hand[s] == lead && pd == third && tk_pc(TH[pd][s]) > 1) ||
                   (I->sec_hand[s] == pd && lead == third && tk_pc(TH[pd][s]) > 1)) {
            d += 13;
        }
        if ((cLH == 1 && I->win_hand[s] == lho) || (cRH == 1 && I->win_hand[s] == rho)) {
            w = d + rRank + 2;
        } else if (I->win_hand[s] == lead) {
            if (I->sec_hand[s] == pd) {
                w = d + 33 + rRank;
            } else if (I->win_rank[s] == rank) {
                w = d + 38;
            } else {
                w = d - 14 + rRank;
            }
        } else if (I->win_hand[s] == pd) {
            w = d + 34 + rRank;
        } else if (seq && rank == I->sec_rank[s]) {
            w = d + 35;
        } else {
            w = d + 17 - rank;
        }
        if (is_killer) {
            w += 18;
        }
    }
    return w;
}

/* A lead without trumps (WeightAllocNT0). */
static int
tk_w_nt0(int lead, int s, int rank, int seq, const TkTops *I, int R, int killer)
{
    int lho = (lead + 1) & 3, rho = (lead + 3) & 3, pd = (lead + 2) & 3;
    unsigned aggr = tk_union(s);
    int cLH = tk_pc(TH[lho][s]), cRH = tk_pc(TH[rho][s]);
    int countLH = (cLH == 0 ? R : cLH) << 2, countRH = (cRH == 0 ? R : cRH) << 2;
    int d = -(((countLH + countRH) << 5) / 19), w;
    if (!TH[pd][s]) {
        d += -9;
    }
    int rRank = tk_rrank(aggr, rank - 2);
    int is_killer = killer >= 0 && killer / 13 == s && killer % 13 + 2 == rank;
    if (I->win_rank[s] == rank || TH[pd][s] > (TH[lho][s] | TH[rho][s])) {
        if (I->sec_hand[s] == rho) {
            if (cRH != 1) {
                d += -1;
            }
        } else if (I->sec_hand[s] == lho) {
            d += cLH != 1 ? 22 : 16;
        }
        if ((I->sec_hand[s] != lho || cLH == 1) && (I->sec_hand[s] != rho || cRH == 1)) {
            w = d + 45 + rRank;
        } else {
            w = d + 18 + rRank;
        }
        if (is_killer) {
            w += 126;
        }
    } else {
        if (I->win_hand[s] == rho || I->sec_hand[s] == rho) {
            if (cRH != 1) {
                d += -10;
            }
        } else if (I->win_hand[s] == lho && I->sec_hand[s] == pd) {
            if (tk_pc(TH[pd][s]) != 1) {
                d += 31;
            }
        }
        int third = I->third_hand[s];
        if (I->sec_hand[s] == pd && pd == third) {
            d += 35;
        } else if ((I->sec_hand[s] == lead && pd == third && tk_pc(TH[pd][s]) > 1) ||
                   (I->sec_hand[s] == pd && lead == third && tk_pc(TH[pd][s]) > 1)) {
            d += 25;
        }
        if ((cLH == 1 && I->win_hand[s] == lho) || (cRH == 1 && I->win_hand[s] == rho)) {
            w = d + 28 + rRank;
        } else if (I->win_hand[s] == lead) {
            w = d - 17 + rRank;
        } else if (!seq) {
            w = d + 12 + rRank;
        } else if (rank == I->sec_rank[s]) {
            w = d + 48;
        } else {
            w = d + 29 - rRank;
        }
        if (is_killer) {
            w += 47;
        }
    }
    return w;
}

/* The lowest card of the run of touching cards (in `mine`, among `all`) that r is in. */
static inline int
tk_run_bottom(unsigned mine, unsigned all, int r)
{
    for (;;) {
        unsigned down = all & ((1u << r) - 1);
        if (!down) {
            return r;
        }
        int nx = tk_top(down);
        if (!((mine >> nx) & 1)) {
            return r;
        }
        r = nx;
    }
}

/* The points kernel (pk_search, below) splits runs where the value changes: touching cards are one move
 * only where they are worth the same. PK_VC: each card's value class (0: worth nothing; cards of one class
 * carry the same counter, card points and leaf bits). */
/* What the points kernel works out from a set of tables (pk_ctx_setup): the value classes, each suit's
 * cards of value by rank, the cards of value, the range of values, ranges of counts, the generation. Two:
 * the tables searched and their counters' game (see use_split). */
typedef struct {
    uint8_t vc[52];
    uint16_t vs[4];
    uint64_t valued;
    int cap, grange;
    uint32_t gen;
    uint16_t cs[4]; /* each suit's counters (counter > 0), by rank */
    int quick;      /* quick tricks bound the value (pk_quick): no counter below 0, trick_points 0 or more */
} PkCtx;
static PkCtx pk_main, pk_sub, pk_dec, *pkx = &pk_main;
static uint8_t PK_SIDE[4]; /* the side of each seat: 0 (side A, the maximiser's) or 1 */
static int pk_tricks_only; /* no counter and one leaf: only the tricks move the value (Oh Hell's most, fewest) */
static int pk_misere_only; /* each trick costs its taker and nothing else counts (Oh Hell's fewest) */
#define PK_VC (pkx->vc)

static inline int
pk_run_bottom(int s, unsigned mine, unsigned all, int r)
{
    const uint8_t *vc = PK_VC + 13 * s;
    for (;;) {
        unsigned down = all & ((1u << r) - 1);
        if (!down) {
            return r;
        }
        int nx = tk_top(down);
        if (!((mine >> nx) & 1) || vc[nx] != vc[r]) {
            return r;
        }
        r = nx;
    }
}

static inline int
pk_run_top(int s, unsigned mine, unsigned all, int r)
{
    const uint8_t *vc = PK_VC + 13 * s;
    for (;;) {
        unsigned up = all >> (r + 1);
        if (!up) {
            return r;
        }
        int nx = r + 1 + __builtin_ctz(up);
        if (!((mine >> nx) & 1) || vc[nx] != vc[r]) {
            return r;
        }
        r = nx;
    }
}

/* The points kernel's weights on top of DDS's (which weigh tricks only): a card that takes the trick for
 * its side, the more the trick is worth; a counter given to a trick the side wins so far, and kept back
 * from one the other side wins. */
static const int pk_weight = 2, pk_gdiv = 2; /* counters count twice, card points half (measured) */

static void
pk_weigh(int leader, int pos, int win_seat, int win_card, const int *card, int n, int *w)
{
    if (pos == 0) {
        return;
    }
    int seat = (leader + pos) & 3, in = 0;
    for (int i = 0; i < pos; i++) {
        in += T.counter[tk_trick[i]] + T.gpts[tk_trick[i]] / pk_gdiv;
    }
    int ours = PK_SIDE[win_seat] == PK_SIDE[seat];
    for (int k = 0; k < n; k++) {
        int c = card[k], v = T.counter[c] + T.gpts[c] / pk_gdiv;
        if (tk_beats(c, win_card)) {
            w[k] += pk_weight * (in + v) / 2;
        } else if (ours) {
            w[k] += pk_weight * v;
        } else {
            w[k] -= pk_weight * v;
        }
    }
}

/* The points kernel's order where each trick costs the side that takes it (trick_points < 0: Oh Hell's
 * fewest, both sides trying to lose tricks), in place of DDS's weights (built for sides that want to win
 * them). Leading: first a card some opponent holding the suit must beat (an exit), the highest such; a
 * card that surely wins last. Following or discarding: a card that leaves the opponents winning (a duck),
 * the highest (the low cards are kept for later exits); where the trick is the side's whatever it plays,
 * the highest; forced to take the lead in the trick with opponents still to play, the lowest (so that
 * they may have to beat it). `card`: each run's lowest card, `tops` its top's rank + 2. */
static void
pk_misere(int leader, int pos, int win_seat, int win_card, const int *card, const int *tops, int n, int *w,
          int killer)
{
    int seat = (leader + pos) & 3, side = PK_SIDE[seat], t = tk_trump;
    if (pos == 0) {
        for (int k = 0; k < n; k++) {
            int s = card[k] / 13, r = card[k] % 13, exit = 0, above = 0, ruff = 0;
            for (int st = 0; st < 4; st++) {
                unsigned h = TH[st][s];
                if (PK_SIDE[st] == side) {
                    continue;
                }
                if (h) {
                    exit |= tk_lo(h) - 2 > r;
                    above |= (h >> r) != 0;
                } else if (t < 4 && s != t && TH[st][t]) {
                    ruff = 1;
                }
            }
            w[k] = exit ? 60 + tops[k] : above || ruff ? 30 - tops[k] : tops[k] - 20;
            if (killer >= 0 && killer / 13 == s && killer % 13 + 2 == tops[k]) {
                w[k] += 20;
            }
        }
        return;
    }
    int opp_later = 0;
    for (int i = pos + 1; i < 4; i++) {
        opp_later |= PK_SIDE[(leader + i) & 3] != side;
    }
    int ours = PK_SIDE[win_seat] == side;
    for (int k = 0; k < n; k++) {
        if (!opp_later && ours) {
            w[k] = tops[k]; /* the trick is the side's whatever it plays: shed the highest */
        } else if (!tk_beats(card[k], win_card)) {
            w[k] = 100 + tops[k]; /* a duck, or under the side's card: shed the highest */
        } else if (opp_later) {
            w[k] = 50 - tops[k]; /* the lead in the trick, opponents to come: the lowest */
        } else {
            w[k] = tops[k]; /* takes the trick whatever: the highest */
        }
    }
}

/* DDS's RankForcesAce: the index (into the seat's runs, highest first, by their tops `tops`) of the run
 * to play to force out the 4th hand's top, or -1. `win_rank` and `second_wins` describe the trick so far
 * (the rank winning it and whether the 2nd hand is winning it). */
static int
tk_forces_ace(unsigned cards4th, unsigned all, const int *tops, int n, int win_rank, int second_wins)
{
    if (!cards4th) {
        return -1;
    }
    int bottom = tk_run_bottom(cards4th, all, tk_top(cards4th));
    unsigned below = cards4th & ((1u << bottom) - 1);
    if (!below) {
        return -1;
    }
    int secondRHO = tk_top(below) + 2;
    int k = 0;
    if (secondRHO > win_rank) {
        while (k < n && tops[k] > secondRHO) {
            k++;
        }
        return k ? k - 1 : -1;
    }
    if (second_wins) {
        while (k < n && tops[k] > win_rank) {
            k++;
        }
        return k ? k - 1 : -1;
    }
    return -1;
}

/* The seat's distinct legal cards (the lowest of each run of touching cards), best first, by DDS's
 * weights; `first` is the table's best lead, `killer` the lead that last cut the search off with as many
 * cards left. `points`: the points kernel's (runs split where the value changes, the trick's worth
 * weighed in), a constant of each caller so that the tricks kernel's copy carries none of it. */
static inline __attribute__((always_inline)) int
moves_of(int leader, int pos, int win_seat, int win_card, int *out, int first, int killer, const int points)
{
    int seat = (leader + pos) & 3, t = tk_trump, ls = tk_led;
    int lo_suit = 0, hi_suit = 3, follow = pos && TH[seat][ls];
    if (follow) {
        lo_suit = hi_suit = ls;
    }
    TkTops I;
    int R = tk_count(leader) + (pos > 0); /* the tricks left, this one's included */
    int n = 0, card[13], tops[13], seqs[13], w[13];
    unsigned suits = 0; /* the suits whose top cards the weights read */
    for (int s = hi_suit; s >= lo_suit; s--) { /* DDS's order: spades first, each suit from the top */
        unsigned mine = TH[seat][s], all = tk_union(s) | tk_table[s];
        unsigned m = mine;
        while (m) {
            int top = tk_top(m);
            int bottom = points ? pk_run_bottom(s, mine, all, top) : tk_run_bottom(mine, all, top);
            card[n] = s * 13 + bottom;
            tops[n] = top + 2;
            seqs[n] = top > bottom;
            n++;
            m &= (1u << bottom) - 1;
        }
        suits |= mine ? 1u << s : 0;
    }
    if (n == 1) {
        out[0] = card[0];
        return 1;
    }
    if (points && T.trick_points < 0) {
        pk_misere(leader, pos, win_seat, win_card, card, tops, n, w, killer);
        goto order;
    }
    if (follow) {
        suits = pos == 2 ? 1u << ls : 0;
    } else if (pos) {
        suits |= 1u << ls;
    }
    tk_tops(&I, suits);
    int p2 = (leader + 2) & 3, p3 = (leader + 3) & 3;
    int m0 = pos ? tk_trick[0] % 13 + 2 : 0;
    int wrank = win_card % 13 + 2, wsuit = win_card / 13;
    int ftest = t < 4 && (tk_union(t) | tk_table[t]);
    if (pos == 0) {
        for (int k = 0; k < n; k++) {
            int s = card[k] / 13;
            w[k] = ftest ? tk_w_trump0(seat, s, tops[k], seqs[k], &I, R, killer)
                         : tk_w_nt0(seat, s, tops[k], seqs[k], &I, R, killer);
        }
    } else if (pos == 1 && follow) {
        int max3rd = tk_hi(TH[p2][ls]), maxpd = tk_hi(TH[p3][ls]);
        int min3rd = tk_lo(TH[p2][ls]), minpd = tk_lo(TH[p3][ls]);
        unsigned aggr = tk_union(ls);
        for (int k = 0; k < n; k++) {
            int rank = tops[k], seq = seqs[k], rRank = tk_rrank(aggr, rank - 2);
            if (!ftest) {
                if (maxpd > m0 && maxpd > max3rd) {
                    w[k] = -rank; /* the partner beats both opponents */
                } else if (rank > m0 && rank > max3rd) {
                    w[k] = 81 - rank;
                } else if (min3rd > rank || minpd > rank) {
                    w[k] = -3 + rRank;
                } else if (rank < m0) {
                    w[k] = -11 + rRank;
                } else if (seq) {
                    w[k] = 10 + rRank;
                } else {
                    w[k] = 13 - rank;
                }
                continue;
            }
            int win = 0;
            if (ls == t) {
                win = (maxpd > m0 && maxpd > max3rd) || (rank > m0 && rank > max3rd);
            } else if (rank > m0 && rank > max3rd) {
                win = max3rd != 0 || !TH[p2][t] || (maxpd == 0 && TH[p3][t] && TH[p3][t] > TH[p2][t]);
            } else if (maxpd > m0 && maxpd > max3rd) {
                win = max3rd != 0 || !TH[p2][t];
            } else if (m0 > maxpd && m0 > max3rd && m0 > rank) {
                if (maxpd == 0 && TH[p3][t]) {
                    win = max3rd != 0 || !TH[p2][t] || TH[p3][t] > TH[p2][t];
                }
            } else if (maxpd == 0 && TH[p3][t]) {
                win = 1;
            }
            if (win) {
                if (min3rd > rank) {
                    w[k] = 40 + rRank;
                } else if (maxpd > m0 && TH[leader][ls] > TH[p3][ls]) {
                    w[k] = 41 + rRank;
                } else if (rank > m0) {
                    w[k] = rank < maxpd ? 78 - rank : rank > max3rd ? 73 - rank : seq ? 62 - rank : 49 - rank;
                } else {
                    w[k] = maxpd > 0 ? 47 - rank : 40 - rank;
                }
            } else if (rank < min3rd || rank < minpd) {
                w[k] = -9 + rRank;
            } else if (rank < m0) {
                w[k] = -16 + rRank;
            } else {
                w[k] = seq ? 22 - rank : 10 - rank;
            }
        }
    } else if (pos == 1) {
        unsigned leadbit = 1u << (m0 - 2);
        for (int k = 0; k < n; k++) {
            int s = card[k] / 13, rank = tops[k], sc = tk_pc(TH[seat][s]), add;
            int kx = sc == 2 && I.sec_hand[s] == seat;
            if (!ftest) {
                if (TH[p3][ls] > (TH[p2][ls] | leadbit)) {
                    add = (sc << 6) / 23 - (kx ? 2 : (sc == 1 && I.win_hand[s] == seat) ? 3 : 0);
                } else {
                    add = (sc << 6) / 33 - (kx ? 6 : (sc == 1 && I.win_hand[s] == seat) ? 8 : 0);
                }
                w[k] = -rank + add;
            } else if (ls == t) {
                if (TH[p3][ls] > (TH[p2][ls] | leadbit)) {
                    add = (sc << 6) / 44;
                } else {
                    add = (sc << 6) / 36 - (kx ? 4 : 0);
                }
                w[k] = -rank + add;
            } else if (s != t) {
                int good;
                if (TH[p2][ls]) {
                    good = TH[p3][ls] > (TH[p2][ls] | leadbit) || (!TH[p3][ls] && TH[p3][t]);
                } else {
                    good = (!TH[p3][ls] && TH[p3][t] > TH[p2][t]) || (!TH[p2][t] && TH[p3][ls] > leadbit);
                }
                add = good ? 60 + (sc << 6) / 44 : -2 + (sc << 6) / 36 - (kx ? 4 : 0);
                w[k] = -rank + add;
            } else if (TH[p2][ls] || (!TH[p3][ls] && TH[p3][t] && TH[p3][t] > TH[p2][t])) {
                w[k] = 24 - rank + (sc << 6) / 44;
            } else if ((1u << (rank - 2)) > TH[p2][t]) {
                w[k] = 24 - rank + (sc << 6) / 44;
            } else {
                w[k] = 15 - rank + (sc << 6) / 36 - (kx ? 4 : 0);
            }
        }
    } else if (pos == 2 && follow) {
        unsigned cards4th = TH[p3][ls], all = tk_union(ls) | tk_table[ls];
        int max4th = tk_hi(cards4th), min4th = tk_lo(cards4th), max3rd = tops[0];
        int high1 = win_seat != leader;
        int kBonus = -1, mode; /* mode 0: all low; 1: 58 over max4th (and the winner); 2: 60 over both */
        if (ftest && ls == t) {
            if ((!high1 && m0 > max4th) || max3rd < min4th || max3rd < wrank) {
                mode = 0;
            } else if (max3rd > max4th) {
                mode = 1;
            } else {
                mode = 0;
                kBonus = tk_forces_ace(cards4th, all, tops, n, wrank, high1);
            }
        } else if (ftest && wsuit == t) {
            mode = 0; /* the 2nd hand ruffed */
        } else if (ftest && !high1) {
            if (max4th == 0 || m0 > max4th || max3rd < min4th || max3rd < wrank) {
                mode = 0;
            } else if (max3rd > max4th) {
                mode = 3; /* 58 over max4th */
            } else {
                mode = 2;
                kBonus = tk_forces_ace(cards4th, all, tops, n, wrank, high1);
            }
        } else if (ftest) {
            if (max4th == 0) {
                mode = 4; /* 20 over the winner */
            } else if (max3rd < min4th || max3rd < wrank) {
                mode = 0;
            } else if (max3rd > max4th) {
                mode = 1;
            } else {
                mode = 2;
                kBonus = tk_forces_ace(cards4th, all, tops, n, wrank, high1);
            }
        } else if (!high1 && m0 > max4th) {
            mode = 0;
            if (!TH[leader][ls] && I.win_hand[ls] == seat) {
                /* the partner led a singleton and we hold the top: overtake to run the suit */
                int oppLen = tk_pc(cards4th) - 1, lhoLen = tk_pc(TH[(leader + 1) & 3][ls]);
                if (lhoLen > oppLen) {
                    oppLen = lhoLen;
                }
                int mno = 0;
                while (mno < n - 1 && tops[1 + mno] > m0) {
                    mno++;
                }
                unsigned mine = TH[seat][ls], all2 = all & ~(1u << (m0 - 2));
                int bottom = tk_run_bottom(mine, all2, tk_top(mine));
                int topNumber = tk_pc(mine >> bottom) - 1;
                if (oppLen <= topNumber) {
                    kBonus = mno;
                }
            }
        } else if (max3rd < min4th || max3rd < wrank) {
            mode = 0;
        } else {
            mode = 2;
            if (max4th > max3rd && max4th > wrank) {
                kBonus = tk_forces_ace(cards4th, all, tops, n, wrank, high1);
            }
        }
        for (int k = 0; k < n; k++) {
            int rank = tops[k];
            switch (mode) {
            case 1:
                w[k] = rank > max4th && rank > wrank ? 58 - rank : -rank;
                break;
            case 2:
                w[k] = rank > wrank && rank > max4th ? 60 - rank : -rank;
                break;
            case 3:
                w[k] = rank > max4th ? 58 - rank : -rank;
                break;
            case 4:
                w[k] = rank > wrank ? 20 - rank : -rank;
                break;
            default:
                w[k] = -rank;
            }
        }
        if (kBonus >= 0) {
            w[kBonus] += 20;
        }
    } else if (pos == 2) {
        int max4th = tk_hi(TH[p3][ls]), high1 = win_seat != leader;
        for (int k = 0; k < n; k++) {
            int s = card[k] / 13, rank = tops[k], sc = tk_pc(TH[seat][s]);
            if (!ftest) {
                int add = (sc << 6) / 24;
                if ((sc == 2 && I.sec_hand[s] == seat) || (sc == 1 && I.win_hand[s] == seat)) {
                    add -= 4;
                }
                w[k] = -rank + add;
            } else if (ls == t || s != t) {
                w[k] = -rank + (sc << 6) / 40; /* discard small from a long suit */
            } else if (!high1 && m0 > max4th && (max4th != 0 || !TH[p3][t])) {
                w[k] = -rank - 50; /* no ruff of the partner's sure winner */
            } else if (wsuit == t && rank < wrank) {
                w[k] = -32 + tk_rrank(tk_union(s), rank - 2) + (sc << 6) / 40; /* no underruff */
            } else if (!high1) {
                if (max4th != 0) {
                    w[k] = (I.sec_hand[ls] == leader ? 36 : 48) - rank + (sc << 6) / 50;
                } else if ((1u << (rank - 2)) > TH[p3][t]) {
                    w[k] = 48 - rank + (sc << 6) / 50;
                } else {
                    w[k] = -12 - rank + (sc << 6) / 50;
                }
            } else if (max4th != 0) {
                w[k] = 72 - rank + (sc << 6) / 50;
            } else if ((1u << (rank - 2)) > TH[p3][t]) {
                w[k] = 48 - rank + (sc << 6) / 50;
            } else {
                w[k] = 36 - rank + (sc << 6) / 50;
            }
        }
    } else if (follow) {
        int high2 = win_seat == ((leader + 1) & 3);
        for (int k = 0; k < n; k++) {
            int rank = tops[k];
            if (high2 || (ls != t && wsuit == t)) {
                w[k] = -rank; /* the partner wins, or they ruffed: play low */
            } else {
                w[k] = rank > wrank ? 30 - rank : -rank; /* win as cheaply as we can */
            }
        }
    } else {
        int high2 = win_seat == ((leader + 1) & 3);
        for (int k = 0; k < n; k++) {
            int s = card[k] / 13, rank = tops[k], mylen = tk_pc(TH[seat][s]);
            if (!ftest) {
                int val = (mylen << 6) / 27;
                if (mylen == 2 && I.sec_hand[s] == seat) {
                    val -= 6;
                } else if (mylen == 1 && I.win_hand[s] == seat) {
                    val -= 8;
                }
                w[k] = -rank + val;
                continue;
            }
            int val = (mylen << 6) / 24 - ((mylen == 2 && I.sec_hand[s] == seat) ? 2 : 0);
            if (ls == t) {
                w[k] = -rank + val;
            } else if (high2) {
                w[k] = (s == t ? 2 : 25) - rank + val;
            } else if (wsuit == t) {
                w[k] = s == t ? (rank > wrank ? 33 : -13) + tk_rrank(tk_union(s), rank - 2) : 14 - rank + val;
            } else if (s == t) {
                w[k] = 33 + tk_rrank(tk_union(s), rank - 2);
            } else {
                w[k] = 14 - rank + val;
            }
        }
    }
    if (points) {
        pk_weigh(leader, pos, win_seat, win_card, card, n, w);
    }
order:;
    /* best first; the table's best lead for the position a little up (as DDS weighs its table's) */
    int order[13];
    for (int k = 0; k < n; k++) {
        if (first >= 0 && first / 13 == card[k] / 13 && first % 13 >= card[k] % 13 && first % 13 + 2 <= tops[k]) {
            w[k] += 20;
        }
        int j = k - 1;
        while (j >= 0 && w[order[j]] < w[k]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = k;
    }
    for (int k = 0; k < n; k++) {
        out[k] = card[order[k]];
    }
    return n;
}

static int
tk_moves(int leader, int pos, int win_seat, int win_card, int *out, int first, int killer)
{
    return moves_of(leader, pos, win_seat, win_card, out, first, killer, 0);
}

static int
pk_moves(int leader, int pos, int win_seat, int win_card, int *out, int first, int killer)
{
    return moves_of(leader, pos, win_seat, win_card, out, first, killer, 1);
}

/* The k-th card (from the top) of suit s among the cards still out, as a card; -1 if none. */
static int
tk_card_at(int s, int k)
{
    unsigned u = tk_union(s);
    while (u) {
        int r = tk_top(u);
        if (k-- == 0) {
            return s * 13 + r;
        }
        u &= ~(1u << r);
    }
    return -1;
}

static int
tk_place(int c)
{
    int s = c / 13, r = c % 13;
    return tk_pc(tk_union(s) >> (r + 1));
}

/* The last trick (one card a hand) played out from `leader`: its winner, its cards (in CARDS, in the order
 * played); `rel` gets the winner's rank where another card of its suit was played (it decided the trick). */
static int
tk_last(int leader, int cards[4], unsigned rel[4])
{
    int w = leader, wc = -1, same = 0;
    for (int i = 0; i < 4; i++) {
        int st = (leader + i) & 3, cd = -1;
        for (int s = 0; s < 4; s++) {
            if (TH[st][s]) {
                cd = s * 13 + __builtin_ctz(TH[st][s]);
            }
        }
        cards[i] = cd;
        if (i == 0) {
            w = st;
            wc = cd;
            continue;
        }
        if (cd / 13 == wc / 13 || cd / 13 == tk_trump) {
            same = 1;
        }
        if (tk_beats(cd, wc)) {
            w = st;
            wc = cd;
        }
    }
    int others_same = 0;
    for (int st = 0; st < 4; st++) {
        if (st != w && TH[st][wc / 13]) {
            others_same = 1;
        }
    }
    if (same && others_same) {
        rel[wc / 13] |= 1u << (wc % 13);
    }
    return w;
}

/* Can side A (seats 0 and 2) take at least `need` of the tricks left, the trick in progress included?
 * `pos` cards of it are played (led by `leader`; `win_seat` with `win_card` winning it so far). `rel`
 * gets, suit by suit, the ranks the answer depended on (its winning ranks). */
static int
tk_search(int leader, int pos, int win_seat, int win_card, int need, unsigned rel[4])
{
    rel[0] = rel[1] = rel[2] = rel[3] = 0;
    if ((++tk_nodes & 0xFFFFF) == 0 && PyErr_CheckSignals() < 0) {
        tk_stop = 2; /* a signal's exception (KeyboardInterrupt, a timer) */
        return 0;
    }
    if (tk_limit && tk_nodes > tk_limit) {
        tk_stop = 1;
        return 0;
    }
    int seat = (leader + pos) & 3;
    int maxer = !(seat & 1);
    int first = -1, left = 0;
    uint32_t code[4];
    int n_out[4];
    uint64_t lens = 0;
    if (pos == 1) {
        /* DDS's second-hand quick trick: where the second player's side needs only this trick and surely
         * takes it (a ruff the third player cannot overruff, or the side's top card of the suit led
         * above the third player's and the lead), it has made its tricks */
        int left1 = tk_count(seat);
        int need_own = maxer ? need : left1 - need + 1;
        if (need_own <= 1) {
            int third = (leader + 2) & 3, fourth = (leader + 3) & 3, t = tk_trump, ss = tk_led;
            int third_ruffs = t < 4 && ss != t && !TH[third][ss] && TH[third][t];
            unsigned ours = (unsigned)(TH[seat][ss] | TH[fourth][ss]);
            unsigned above = (unsigned)TH[third][ss] | (1u << (win_card % 13));
            if (t < 4 && ss != t && ((!TH[seat][ss] && TH[seat][t]) || (!TH[fourth][ss] && TH[fourth][t]))) {
                if (!third_ruffs) {
                    return maxer; /* a ruff: only the lengths decided it */
                }
            } else if (ours && tk_top(ours) > tk_top(above) && !third_ruffs) {
                rel[ss] = 1u << tk_top(ours);
                return maxer;
            }
        }
    }
    if (pos == 0) {
        left = tk_count(leader);
        if (need <= 0) {
            return 1;
        }
        if (need > left) {
            return 0;
        }
        if (left == 1) { /* the last trick, played out */
            int cards[4];
            return !(tk_last(leader, cards, rel) & 1);
        }
        unsigned brel[4] = {0, 0, 0, 0};
        int lo = 0, hi = left;
        int qt = tk_quick(leader, brel);
        if (leader & 1) {
            hi = left - qt;
        } else {
            lo = qt;
        }
        if (qt == 0 && tk_loses_lead(leader, brel)) {
            if (leader & 1) {
                lo = 1;
            } else {
                hi = left - 1;
            }
        }
        int sa = tk_sure(0, brel), sb = tk_sure(1, brel);
        if (sa > lo) {
            lo = sa;
        }
        if (left - sb < hi) {
            hi = left - sb;
        }
        if (lo >= need || hi < need) {
            memcpy(rel, brel, sizeof brel);
            return lo >= need;
        }
        if (tk_later(leader, (leader & 1) ? left - need + 1 : need, left, rel)) {
            return leader & 1; /* the side on lead falls short */
        }
        tk_owners(code, n_out);
        lens = tk_lens(leader);
        TkEnt *b = tk_bucket(lens, leader);
        for (int i = 0; i < TK_WAYS; i++) {
            TkEnt *e = &b[i];
            if (e->used != leader + 1 || e->lens != lens || !tk_matches(e, code, n_out)) {
                continue;
            }
            if (e->lb >= need || e->ub < need) {
                e->stamp = ++tk_clock;
                for (int s = 0; s < 4; s++) {
                    rel[s] = tk_top_cards(s, (int)(tk_pat_suit(e, s) >> 26));
                }
                return e->lb >= need;
            }
            if (e->best != 0xFF && first < 0) {
                first = tk_card_at(e->best >> 4, e->best & 15);
            }
        }
        tk_led = -1;
    }
    int moves[13];
    int led_before = tk_led;
    int depth = pos == 0 ? 4 * left : 0;
    int n = tk_moves(leader, pos, win_seat, win_card, moves, first, pos == 0 ? tk_killer[depth] : -1);
    int result = !maxer, best = -1;
    unsigned crel[4];
    int skip_below[4] = {0, 0, 0, 0}; /* a suit's cards below this rank are not tried (0: none) */
    for (int i = 0; i < n; i++) {
        int c = moves[i], s = c / 13, r = c % 13;
        int top = tk_run_top(TH[seat][s], tk_union(s) | tk_table[s], r); /* c stands for its run up to top */
        if (top < skip_below[s]) {
            continue; /* its run below every winning rank of its suit where a card below them failed */
        }
        int place = pos == 0 ? tk_place(c) : 0;
        TH[seat][s] &= (uint16_t) ~(1u << r);
        tk_table[s] |= 1u << r;
        tk_trick[pos] = c;
        int ws = win_seat, wc = win_card;
        if (pos == 0) {
            tk_led = s;
            ws = seat;
            wc = c;
        } else if (tk_beats(c, wc)) {
            ws = seat;
            wc = c;
        }
        int got;
        if (pos == 3) {
            unsigned saved[4];
            int saved_trick[4];
            memcpy(saved, tk_table, sizeof saved);
            memcpy(saved_trick, tk_trick, sizeof saved_trick);
            memset(tk_table, 0, sizeof tk_table);
            got = tk_search(ws, 0, -1, -1, need - !(ws & 1), crel);
            memcpy(tk_table, saved, sizeof saved);
            memcpy(tk_trick, saved_trick, sizeof saved_trick); /* the tricks below wrote theirs */
            /* the winner's rank decided the trick where another card of its suit was in it */
            if (tk_pc(tk_table[wc / 13]) > 1) {
                crel[wc / 13] |= 1u << (wc % 13);
            }
        } else {
            got = tk_search(leader, pos + 1, ws, wc, need, crel);
        }
        tk_led = pos == 0 ? -1 : led_before;
        tk_table[s] &= ~(1u << r);
        TH[seat][s] |= (uint16_t)(1u << r);
        if (tk_stop) {
            return 0;
        }
        if (top > r && crel[s]) {
            /* c, the lowest of its run, stood for every card of the run (the seat's cards from c to top):
             * where the answer depended on a card k of the run that the seat kept but on no lower card,
             * playing another card of the run keeps the one below k instead, so that one decided it too */
            int low = __builtin_ctz(crel[s]);
            if (low > r && low <= top) {
                crel[s] |= 1u << tk_top(TH[seat][s] & ((1u << low) - 1) & ~((1u << r) - 1));
            }
        }
        if (got == maxer) {
            if (pos == 0) {
                tk_killer[depth] = s * 13 + top;
            }
            memcpy(rel, crel, sizeof crel);
            result = got;
            best = pos == 0 ? (s << 4) | place : -1;
            break;
        }
        for (int k = 0; k < 4; k++) {
            rel[k] |= crel[k];
        }
        if (!skip_below[s]) {
            /* the first card of its suit to fail below every winning rank of the suit so far: any other
             * run of the seat's cards of the suit below them fails alike (the positions differ only below
             * the ranks that decided), so none is tried (a run reaching up to them is) */
            int low = rel[s] ? __builtin_ctz(rel[s]) : 13;
            if (r < low) {
                skip_below[s] = low;
            }
        }
    }
    if (pos == 0) {
        tk_led = -1;
        if (result) {
            tk_store(leader, left, lens, rel, code, n_out, need, left, best);
        } else {
            tk_store(leader, left, lens, rel, code, n_out, 0, need - 1, best);
        }
    }
    return result;
}

/* Side A's tricks from the position (inside [lo, hi]), by target searches: the first at `guess`, then
 * bisecting what is left. */
static int
tk_value(int leader, int pos, int ws, int wc, int lo, int hi, int guess)
{
    while (lo < hi && !tk_stop) {
        int t = guess;
        if (t <= lo) {
            t = lo + 1;
        }
        if (t > hi) {
            t = hi;
        }
        unsigned rel[4];
        for (int i = 0; i < 53; i++) {
            tk_killer[i] = -1; /* DDS's best moves, forgotten at each target */
        }
        if (tk_search(leader, pos, ws, wc, t, rel)) {
            lo = t;
        } else {
            hi = t - 1;
        }
        guess = (lo + hi + 1) / 2;
    }
    return lo;
}

/* Side A's tricks from the root after the player to act plays c (the trick's state given). */
static int
tk_after(int leader, int pos, int ws, int wc, int c, int left, int lo, int hi, int guess)
{
    int seat = (leader + pos) & 3, s = c / 13, r = c % 13;
    int led_before = tk_led;
    TH[seat][s] &= (uint16_t) ~(1u << r);
    tk_table[s] |= 1u << r;
    tk_trick[pos] = c;
    if (pos == 0) {
        tk_led = s;
        ws = seat;
        wc = c;
    } else if (tk_beats(c, wc)) {
        ws = seat;
        wc = c;
    }
    int v;
    if (pos == 3) {
        unsigned saved[4];
        int saved_trick[4];
        memcpy(saved, tk_table, sizeof saved);
        memcpy(saved_trick, tk_trick, sizeof saved_trick);
        memset(tk_table, 0, sizeof tk_table);
        int won = !(ws & 1);
        tk_led = -1;
        int lo1 = lo - won < 0 ? 0 : lo - won, hi1 = hi - won > left - 1 ? left - 1 : hi - won;
        v = won + tk_value(ws, 0, -1, -1, lo1, hi1, guess - won);
        memcpy(tk_table, saved, sizeof saved);
        memcpy(tk_trick, saved_trick, sizeof saved_trick);
    } else {
        v = tk_value(leader, pos + 1, ws, wc, lo, hi, guess);
    }
    tk_led = led_before;
    tk_table[s] &= ~(1u << r);
    TH[seat][s] |= (uint16_t)(1u << r);
    return v;
}

/* The position of a call (hands: four masks; cards: the trick so far) read and checked into H, CARDS, *POS:
 * 0, or -1 with an exception. */
static int
tk_read(PyObject *hands, PyObject *cards, uint64_t h[TK_SEATS], int trick_cards[3], int *pos)
{
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != TK_SEATS || !PyTuple_Check(cards) ||
        PyTuple_GET_SIZE(cards) >= TK_SEATS) {
        PyErr_SetString(PyExc_ValueError, "hands: a tuple of 4 masks; trick: a tuple of at most 3 cards");
        return -1;
    }
    uint64_t seen = 0;
    for (int s = 0; s < TK_SEATS; s++) {
        h[s] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, s));
        if (PyErr_Occurred()) {
            return -1;
        }
        if ((h[s] & ~FULL) || (h[s] & seen)) {
            PyErr_SetString(PyExc_ValueError, "a hand is a mask of 52 bits, no card in two hands");
            return -1;
        }
        seen |= h[s];
    }
    *pos = (int)PyTuple_GET_SIZE(cards);
    for (int i = 0; i < *pos; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(cards, i));
        if (PyErr_Occurred()) {
            return -1;
        }
        if (c < 0 || c > 51 || ((seen >> c) & 1)) {
            PyErr_SetString(PyExc_ValueError, "a trick's card is 0..51, in no hand and not twice");
            return -1;
        }
        seen |= 1ULL << c;
        trick_cards[i] = (int)c;
    }
    return 0;
}

/* The cards the player to act holds, once the hands are checked to hold as many each (less one for a seat
 * that played to the trick); -1 with an exception where not. */
static int
tk_left(const uint64_t h[TK_SEATS], int leader, int pos)
{
    int left = __builtin_popcountll(h[(leader + pos) & 3]);
    for (int i = 0; i < TK_SEATS; i++) {
        if (__builtin_popcountll(h[(leader + i) & 3]) != left - (i < pos)) {
            PyErr_SetString(PyExc_ValueError, "the hands must hold as many cards each, less one for a seat "
                                              "that played to the trick");
            return -1;
        }
    }
    return left;
}

/* The kernels' hands, owners and trick in progress from a checked position; *ws, *wc the trick's winner so
 * far (-1: none). */
static void
tk_load(const uint64_t h[TK_SEATS], const int *trick_cards, int pos, int leader, int *ws, int *wc)
{
    for (int st = 0; st < TK_SEATS; st++) {
        for (int s = 0; s < 4; s++) {
            TH[st][s] = (uint16_t)((h[st] >> (13 * s)) & 0x1FFF);
        }
        for (int c = 0; c < 52; c++) {
            if ((h[st] >> c) & 1) {
                TK_OWN[c] = (uint8_t)st;
            }
        }
    }
    memset(tk_table, 0, sizeof tk_table);
    tk_led = -1;
    *ws = *wc = -1;
    for (int i = 0; i < pos; i++) {
        int c = trick_cards[i];
        TK_OWN[c] = (uint8_t)((leader + i) & 3);
        tk_table[c / 13] |= 1u << (c % 13);
        tk_trick[i] = c;
        if (i == 0) {
            tk_led = c / 13;
        }
        if (i == 0 || tk_beats(c, *wc)) {
            *ws = (leader + i) & 3;
            *wc = c;
        }
    }
}

PyDoc_STRVAR(tricks_doc,
             "tricks(hands, trick, leader, trump, every, limit, /) -> (value, cards, nodes) | None\n\n"
             "The tricks kernel: see _solve.pyi.");

static PyObject *
py_tricks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "tricks takes 6 arguments");
        return NULL;
    }
    uint64_t h[TK_SEATS];
    int pos, trick_cards[3];
    if (tk_read(args[0], args[1], h, trick_cards, &pos) < 0) {
        return NULL;
    }
    long leader = PyLong_AsLong(args[2]), trump = PyLong_AsLong(args[3]);
    int every = PyObject_IsTrue(args[4]);
    long long limit = PyLong_AsLongLong(args[5]);
    if (PyErr_Occurred() || every < 0) {
        return NULL;
    }
    if (leader < 0 || leader > 3 || trump < 0 || trump > 4 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "leader 0..3, trump 0..4 (4: none), limit 0 or more");
        return NULL;
    }
    int seat = (int)((leader + pos) & 3);
    int left = tk_left(h, (int)leader, pos);
    if (left < 0) {
        return NULL;
    }
    if (left == 0) {
        return Py_BuildValue("(i()L)", 0, 0LL);
    }
    if (!tk_pc_ready) {
        tk_pc_init();
    }
    int total = 4 * left - pos;
    int bits = total > 32 ? 17 : total > 20 ? 16 : 14, most = total > 32 ? 21 : total > 20 ? 18 : 14;
    tk_tt = calloc((size_t)1 << bits, sizeof(TkEnt));
    if (!tk_tt) {
        return PyErr_NoMemory();
    }
    tk_mask = ((size_t)1 << bits) - 1;
    tk_max_mask = ((size_t)1 << most) - 1;
    tk_evicted = 0;
    tk_trump = (int)trump;
    int ws, wc;
    tk_load(h, trick_cards, pos, (int)leader, &ws, &wc);
    tk_nodes = 0;
    tk_limit = limit;
    tk_stop = 0;
    int a = tk_value((int)leader, pos, ws, wc, 0, left, (left + 1) / 2);
    PyObject *out = NULL, *list = NULL;
    if (!tk_stop && every) {
        list = PyList_New(0);
        if (list) {
            int lo_suit = 0, hi_suit = 3;
            if (pos && TH[seat][tk_led]) {
                lo_suit = hi_suit = tk_led;
            }
            for (int s = lo_suit; s <= hi_suit && !tk_stop; s++) {
                unsigned mine = TH[seat][s], all = tk_union(s) | tk_table[s];
                int run_value = -1;
                for (int r = 0; r < 13 && !tk_stop; r++) {
                    if (!((mine >> r) & 1)) {
                        continue;
                    }
                    unsigned below = all & ((1u << r) - 1);
                    int v;
                    if (run_value >= 0 && below && ((mine >> tk_top(below)) & 1)) {
                        v = run_value; /* a touching card: the value of the one below it */
                    } else {
                        /* no card does better for the seat than its best: side A's value a bounds each */
                        v = tk_after((int)leader, pos, ws, wc, s * 13 + r, left, (seat & 1) ? a : 0,
                                     (seat & 1) ? left : a, a);
                    }
                    run_value = v;
                    int mine_v = (seat & 1) ? left - v : v;
                    PyObject *pair = Py_BuildValue("(ii)", s * 13 + r, mine_v);
                    if (!pair || PyList_Append(list, pair) < 0) {
                        Py_XDECREF(pair);
                        Py_CLEAR(list);
                        break;
                    }
                    Py_DECREF(pair);
                }
                if (!list) {
                    break;
                }
            }
        }
    }
    free(tk_tt);
    tk_tt = NULL;
    if (tk_stop == 2) {
        Py_XDECREF(list);
        return NULL;
    }
    if (tk_stop == 1) {
        Py_XDECREF(list);
        Py_RETURN_NONE; /* the limit reached */
    }
    if (every && !list) {
        return NULL;
    }
    int value = (seat & 1) ? left - a : a;
    if (list) {
        PyObject *tuple = PyList_AsTuple(list);
        Py_DECREF(list);
        if (!tuple) {
            return NULL;
        }
        out = Py_BuildValue("(iNL)", value, tuple, tk_nodes);
    } else {
        out = Py_BuildValue("(i()L)", value, tk_nodes);
    }
    return out;
}

/* ---------------------------------------------------------------- the points kernel
 *
 * The point objective of Phat and the Dons (and Oh Hell's for four players) by the tricks kernel's search:
 * four seats, must follow suit, a trump suit or none. "Can side A (the seats of side 0: two partners, or
 * Oh Hell's one seat) make at least `need` points over side B from here?"; the value found by bisecting on `need`. What a position is worth from a
 * trick's start: the counters of the tricks still to come (+ to side A, - to side B, and `trick_points`
 * a trick), then the end-of-deal award, the leaf at side A's count `g` and bits `flags` at the end.
 *
 * Everything the tricks kernel does holds, with what points change:
 * - Touching cards are one move only where they are worth the same (PK_VC); a card that fails below every
 *   winning rank of its suit rules out the other runs below them only where both are worth nothing.
 * - The table's key is the tricks kernel's (the suit lengths, and each suit's owners from the top down to
 *   the lowest winning rank), with what the points need besides: which of those top cards carry a value
 *   (vpat), the cards of value still out and who holds each (exactly: vout, v13, v23), the count g (or
 *   the first count of its run once no count the cards still out can reach changes the award) and the
 *   bits. Two positions that agree on all that have the same value: a card's rank matters only against
 *   the cards still out, and only where it decided a trick; a card's worth is always in the key.
 * - Bounds at a trick's start: every counter still out to either side, the award over every count and bits
 *   the cards still out can reach; except the top trumps still out, held by one side, which are that
 *   side's (their counters, card points and bits). Then (past the table) the quick tricks of the side on
 *   lead with the counters that must fall into them (pk_quick).
 * - DDS's move ordering, with the trick's worth weighed in (pk_weigh).
 * The table is kept across calls (probes of MTD(f), the candidates of a first lead under each trump) and
 * given back by clear(); an entry carries the generation of its tables.
 */

#define PK_WAYS 8
typedef struct {
    uint64_t lens, pat0, pat1, vpat, vout, v13, v23;
    uint32_t gen;
    int16_t lb, ub;
    uint8_t gk, flags, used, best;
    uint8_t gl, gu; /* ranges of counts (pk_grange): the lower bound holds from count gl up, the upper to gu */
} PkEnt;
/* Each entry's tag, apart from the entries: 32 bits of its key's hash (0: the place is empty) and when it
 * was last stored or cut with (the least recent makes way). A bucket's eight tags are one cache line: a
 * look-up fetches that line, then only the entries whose tag matches, not the bucket's 576 bytes (the
 * table is read at random far beyond the caches, and fetching a whole bucket was a third of a node's
 * time). */
typedef struct {
    uint32_t fp, stamp;
} PkTag;

static PkEnt *pk_tt = NULL;
static PkTag *pk_tags = NULL;
static size_t pk_mask, pk_max_mask, pk_evicted;
static uint32_t pk_clock;
#define PK_VS (pkx->vs)         /* each suit's cards of value, by rank */
#define PK_VALUED (pkx->valued) /* the cards of value */
#define pk_cap (pkx->cap)       /* the most points the cards of a deal can move (for the bisection's range) */
#define pk_gen (pkx->gen)
/* Ranges of counts, as the general search's (use_grange): where the award never falls as side A's count
 * rises, neither does a position's value, so a lower bound found at count g holds at every greater count
 * and an upper bound at every smaller one. The key then leaves the count out (PK_ANY_G) unless the
 * position is decided, and an entry keeps with each bound the count it was found at. */
#define pk_grange (pkx->grange)
#define PK_ANY_G 255
/* The counters' game (as the general search's use_split): at a trick's start of pk_split_cards cards or
 * more that the bounds and the table did not decide, the same deal without its awards is searched (its
 * own context, SUB; pk_sub), and the value lies within its value plus the least and the most award the
 * cards still out can reach. */
static int pk_split, pk_split_cards = SPLIT_CARDS;
static const int pk_above = 4; /* probes from above before bisecting (misère: every probe, see pk_value) */
#define PK_START_BITS 15 /* growing four times a step: 2^17, 2^19, then 2^21 from a 42 MB table */

static void *pk_block = NULL; /* the table's memory: its tags, then its entries */

static void
pk_forget(void)
{
    free(pk_block);
    pk_block = NULL;
    pk_tt = NULL;
    pk_tags = NULL;
}

/* A table of n entries and their tags in one zeroed block (*block, to free; calloc: a large block comes
 * mapped, its pages zeroed only when first touched), the tags first, each bucket's on one cache line: 0,
 * or -1 with nothing allocated. */
static int
pk_alloc(size_t n, void **block, PkEnt **tt, PkTag **tags)
{
    void *raw = calloc(1, n * (sizeof(PkTag) + sizeof(PkEnt)) + 64);
    if (!raw) {
        return -1;
    }
    PkTag *t = (PkTag *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    *block = raw;
    *tags = t;
    *tt = (PkEnt *)(t + n);
    return 0;
}
#define PK_MAX_BITS 21 /* 2^21 entries of 80 bytes: 168 MB at most (and the old 42 MB while it grows) */

/* The hash of a key (the generation `gen` of its tables included): its bucket's first place
 * (pk_place) and its tag (pk_fp) are read from it. */
static inline uint64_t
pk_hash(uint64_t lens, int leader, uint64_t vout, uint64_t v13, uint64_t v23, int gk, int flags, uint32_t gen)
{
    uint64_t h = (lens ^ ((uint64_t)leader << 7) ^ ((uint64_t)gen << 40)) * 0x9E3779B97F4A7C15ULL;
    h ^= (vout + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h ^= (v13 * 0xD6E8FEB86659FD93ULL) ^ (v23 * 0xFF51AFD7ED558CCDULL) ^ ((uint64_t)(gk * 4 + flags) << 17);
    h *= 0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
    return h;
}

static inline size_t
pk_place(uint64_t h)
{
    return (size_t)(h & pk_mask) & ~(size_t)(PK_WAYS - 1);
}

static inline uint32_t
pk_fp(uint64_t h)
{
    return (uint32_t)(h >> 32) | 1u; /* never 0, the empty place's */
}

/* The owners of each suit's cards still out from the top (code, n: as tk_owners) and which of them carry a
 * value (vp: one bit a card, the top card highest). */
static void
pk_owners(uint32_t code[4], int n[4], uint32_t vp[4])
{
    for (int s = 0; s < 4; s++) {
        unsigned u = tk_union(s), vs = PK_VS[s];
        const uint8_t *own = TK_OWN + 13 * s;
        uint32_t k = 0, v = 0;
        int m = 0;
        while (u) {
            int r = tk_top(u);
            u &= ~(1u << r);
            k = (k << 2) | own[r];
            v = (v << 1) | ((vs >> r) & 1);
            m++;
        }
        code[s] = k;
        vp[s] = v;
        n[s] = m;
    }
}

/* The cards of value still out, and those held by seats 1 or 3, and by seats 2 or 3 (so each card's holder). */
static inline void
pk_valued(uint64_t *vout, uint64_t *v13, uint64_t *v23)
{
    uint64_t h[4];
    for (int st = 0; st < 4; st++) {
        h[st] = ((uint64_t)TH[st][0] | ((uint64_t)TH[st][1] << 13) | ((uint64_t)TH[st][2] << 26) |
                 ((uint64_t)TH[st][3] << 39)) &
                PK_VALUED;
    }
    *vout = h[0] | h[1] | h[2] | h[3];
    *v13 = h[1] | h[3];
    *v23 = h[2] | h[3];
}

static inline uint32_t
pk_pat_suit(const PkEnt *e, int s)
{
    return (uint32_t)(((s < 2 ? e->pat0 : e->pat1) >> (30 * (s & 1))) & 0x3FFFFFFF);
}

/* Whether the entry's top cards agree with the position's: their owners and which carry a value. */
static inline int
pk_matches(const PkEnt *e, const uint32_t code[4], const int n[4], const uint32_t vp[4])
{
    for (int s = 0; s < 4; s++) {
        uint32_t p = pk_pat_suit(e, s);
        int d = (int)(p >> 26);
        if (d && ((code[s] >> (2 * (n[s] - d))) != (p & 0x3FFFFFF) ||
                  (vp[s] >> (n[s] - d)) != ((e->vpat >> (13 * s)) & 0x1FFF))) {
            return 0;
        }
    }
    return 1;
}

static void
pk_grow(void)
{
    size_t old_n = pk_mask + 1, new_n = grown_entries(old_n, pk_max_mask);
    PkEnt *old = pk_tt;
    PkTag *old_tags = pk_tags;
    void *old_block = pk_block;
    pk_evicted = 0;
    if (pk_alloc(new_n, &pk_block, &pk_tt, &pk_tags) < 0) {
        pk_max_mask = pk_mask; /* no memory for more: keep this one */
        return;
    }
    pk_mask = new_n - 1;
    for (size_t i = 0; i < old_n; i++) {
        const PkEnt *e = &old[i];
        if (!old_tags[i].fp) {
            continue;
        }
        uint64_t h = pk_hash(e->lens, e->used - 1, e->vout, e->v13, e->v23, e->gk, e->flags, e->gen);
        size_t at = pk_place(h), victim = at;
        for (size_t k = at; k < at + PK_WAYS; k++) {
            if (!pk_tags[k].fp) {
                victim = k;
                break;
            }
            if (pk_tags[k].stamp < pk_tags[victim].stamp) {
                victim = k;
            }
        }
        if (!pk_tags[victim].fp || pk_tags[victim].stamp < old_tags[i].stamp) {
            pk_tt[victim] = *e;
            pk_tags[victim] = (PkTag){pk_fp(h), old_tags[i].stamp};
        }
    }
    free(old_block);
}

typedef struct {
    uint64_t lens, vout, v13, v23;
    uint32_t code[4], vp[4];
    int n[4], gk, flags, leader;
} PkKey;

static void
pk_store(const PkKey *k, int left, const unsigned rel[4], int lb, int ub, int best, int g)
{
    uint64_t p0, p1, vpat = 0;
    tk_pattern(rel, k->code, k->n, &p0, &p1);
    for (int s = 0; s < 4; s++) {
        int d = (int)(((s < 2 ? p0 : p1) >> (30 * (s & 1) + 26)) & 0xF);
        if (d) {
            vpat |= (uint64_t)(k->vp[s] >> (k->n[s] - d)) << (13 * s);
        }
    }
    uint64_t h = pk_hash(k->lens, k->leader, k->vout, k->v13, k->v23, k->gk, k->flags, pk_gen);
    size_t at = pk_place(h), place = at;
    uint32_t fp = pk_fp(h);
    PkEnt *victim = NULL;
    int same = 0; /* the victim holds this very key */
    for (size_t i = at; i < at + PK_WAYS; i++) {
        PkEnt *e = &pk_tt[i];
        if (pk_tags[i].fp == fp && e->used == k->leader + 1 && e->lens == k->lens && e->pat0 == p0 &&
            e->pat1 == p1 && e->vpat == vpat && e->vout == k->vout && e->v13 == k->v13 && e->v23 == k->v23 &&
            e->gk == k->gk && e->flags == k->flags && e->gen == pk_gen) {
            victim = e;
            place = i;
            same = 1;
            break;
        }
        if (!victim || (!pk_tags[i].fp && pk_tags[place].fp) ||
            (pk_tags[i].fp && pk_tags[place].fp && pk_tags[i].stamp < pk_tags[place].stamp)) {
            victim = e;
            place = i;
        }
    }
    pk_tags[place].stamp = ++pk_clock;
    if (!same) {
        if (pk_tags[place].fp && ++pk_evicted > (pk_mask + 1) / 2 && pk_mask < pk_max_mask) {
            pk_grow(); /* victim's bucket is gone: store in the grown table */
            pk_store(k, left, rel, lb, ub, best, g);
            return;
        }
        pk_tags[place].fp = fp;
        victim->lens = k->lens;
        victim->pat0 = p0;
        victim->pat1 = p1;
        victim->vpat = vpat;
        victim->vout = k->vout;
        victim->v13 = k->v13;
        victim->v23 = k->v23;
        victim->gk = (uint8_t)k->gk;
        victim->flags = (uint8_t)k->flags;
        victim->gen = pk_gen;
        victim->used = (uint8_t)(k->leader + 1);
        victim->lb = -32000;
        victim->ub = 32000;
        victim->gl = 0;
        victim->gu = PK_ANY_G;
        victim->best = 0xFF;
    }
    if (k->gk != PK_ANY_G) {
        g = k->gk; /* the count is the key's: its bounds hold there */
    }
    /* a bound replaces the entry's unless the entry's holds here and is no weaker */
    if (lb > -32000 && !(victim->lb >= lb && victim->gl <= g)) {
        victim->lb = (int16_t)lb;
        victim->gl = (uint8_t)g;
    }
    if (ub < 32000 && !(victim->ub <= ub && victim->gu >= g)) {
        victim->ub = (int16_t)ub;
        victim->gu = (uint8_t)g;
    }
    if (best >= 0) {
        victim->best = (uint8_t)best;
    }
}

/* The count of the table's key at a trick's start where side A's count is g and the cards still out can
 * add `reach` to it: g, or the first count of its run once no reachable count changes the award (*dec). */
static inline int
pk_key_count(int g, int reach, int *dec)
{
    *dec = g + reach <= RUN_END[g];
    return *dec ? RUN_START[g] : pk_grange ? PK_ANY_G : g;
}

/* What the cards still out can add to side A's count from a trick's start, `left` tricks to play: their
 * card points and the tricks' own. */
static inline int
pk_reach(int left)
{
    int reach = T.trick_g * left;
    for (int s = 0; s < 4; s++) {
        reach += SUM_GPTS[s][tk_union(s)];
    }
    return reach;
}

/* What each side (0, 1) holds of each suit. */
static void
pk_held(unsigned held[2][4])
{
    memset(held, 0, 2 * 4 * sizeof(unsigned));
    for (int st = 0; st < 4; st++) {
        for (int s = 0; s < 4; s++) {
            held[PK_SIDE[st]][s] |= TH[st][s];
        }
    }
}

/* The side that takes every trick left (0 or 1; -1: neither shown): a side that holds the top of every
 * suit both sides hold (its lowest card beats the other side's highest there) and against which no trump
 * can ruff takes every trick it leads, and leads again. So it takes every trick left where it is on lead;
 * and in a misère of tricks only (pk_misere_only: each trick costs its taker, and nothing else counts), as
 * well where the other side leads and its leader holds a suit the side holds: leading that gives it the
 * trick and so the rest, the best the other side can do. `rel` gets each such suit's highest card of the
 * other side (the owners of the cards above it, with the seats' lengths, make the same true). */
static int
pk_sweeper(int leader, const unsigned held[2][4], unsigned rel[4])
{
    for (int side = 0; side < 2; side++) {
        const unsigned *mine = held[side], *theirs = held[!side];
        if (tk_trump < 4 && theirs[tk_trump]) {
            continue;
        }
        int tops = 1, entry = PK_SIDE[leader] == side;
        for (int s = 0; s < 4 && tops; s++) {
            tops = !(mine[s] && theirs[s]) || __builtin_ctz(mine[s]) > tk_top(theirs[s]);
            entry |= pk_misere_only && mine[s] && TH[leader][s];
        }
        if (!tops || !entry) {
            continue;
        }
        for (int s = 0; s < 4; s++) {
            rel[s] |= mine[s] && theirs[s] ? 1u << tk_top(theirs[s]) : 0u;
        }
        return side;
    }
    return -1;
}

/* Which side surely takes the trick `leader` is to lead, whatever anyone plays: 0 or 1, or -1. The
 * leader's: every card it holds beats the other side's of its suit, and no seat of theirs without the
 * suit holds a trump. The other side's: in every suit the leader holds, one of its seats holds only cards
 * above the leader's side's, and no seat of the leader's side without the suit holds a trump. `rel` gets
 * the cards the answer read. */
static int
pk_trick_taker(int leader, const unsigned held[2][4], unsigned rel[4])
{
    int side = PK_SIDE[leader], t = tk_trump;
    const unsigned *mine = held[side], *theirs = held[!side];
    unsigned r[4] = {0, 0, 0, 0};
    int ruff[2] = {0, 0}; /* by side (1: the leader's), the suits a seat of the side could ruff */
    for (int st = 0; st < 4; st++) {
        int sd = PK_SIDE[st] == side;
        for (int s = 0; s < 4; s++) {
            if (t < 4 && s != t && !TH[st][s] && TH[st][t] && st != leader) {
                ruff[sd] |= 1 << s;
            }
        }
    }
    int ours = 1, others = 1;
    for (int s = 0; s < 4; s++) {
        unsigned h = TH[leader][s];
        if (!h) {
            continue;
        }
        if (ours) {
            ours = !((ruff[0] >> s) & 1) && (!theirs[s] || __builtin_ctz(h) > tk_top(theirs[s]));
            r[s] = theirs[s] ? 1u << tk_top(theirs[s]) : 0;
        }
        if (others) {
            int forced = 0;
            for (int st = 0; st < 4 && !forced; st++) {
                unsigned y = TH[st][s];
                forced = PK_SIDE[st] != side && y && __builtin_ctz(y) > tk_top(mine[s]);
            }
            others = forced && !((ruff[1] >> s) & 1);
        }
    }
    if (ours) {
        for (int s = 0; s < 4; s++) {
            rel[s] |= r[s];
        }
        return side;
    }
    if (others) {
        for (int s = 0; s < 4; s++) {
            rel[s] |= TH[leader][s] ? 1u << tk_top(mine[s]) : 0;
        }
        return !side;
    }
    return -1;
}

/* The least and the most leaf over the counts glow to gtop and the bits that hold every bit of `need` and
 * none outside `allowed` (INF and -INF where none). */
static inline void
pk_leaf_range(int glow, int gtop, int need, int allowed, int *lmin, int *lmax)
{
    *lmin = INF;
    *lmax = -INF;
    for (int gg = glow; gg <= gtop; gg++) {
        for (int f = 0; f < 4; f++) {
            if ((f & need) != need || (f & ~allowed)) {
                continue;
            }
            int v = T.leaf[gg * 4 + f];
            *lmin = v < *lmin ? v : *lmin;
            *lmax = v > *lmax ? v : *lmax;
        }
    }
}

/* What side A makes from a trick's start at most and at least (see above), and the award's least and most
 * over what the cards still out can reach; `rel` gets the top trumps the bounds counted. */
static void
pk_bounds(int g, int flags, int left, int *lo, int *hi, int *lmin_out, int *lmax_out, unsigned rel[4])
{
    unsigned u[4];
    int counters = 0, sure = 0, sure_g = 0, sure_f = 0, t = tk_trump;
    unsigned lost = 0; /* side B's sure trumps: their card points and bits never side A's */
    for (int s = 0; s < 4; s++) {
        u[s] = tk_union(s);
        counters += SUM_COUNTER[s][u[s]];
    }
    if (t < 4 && u[t]) {
        int who = PK_SIDE[TK_OWN[13 * t + tk_top(u[t])]];
        unsigned side = 0;
        for (int st = 0; st < 4; st++) {
            side |= PK_SIDE[st] == who ? TH[st][t] : 0u;
        }
        unsigned other = u[t] & ~side;
        unsigned run = other ? u[t] & ~((2u << tk_top(other)) - 1) : u[t];
        rel[t] |= run;
        if (who == 0) {
            sure = SUM_COUNTER[t][run];
            sure_g = SUM_GPTS[t][run];
            sure_f = OR_FLAG[t][run];
        } else {
            sure = -SUM_COUNTER[t][run];
            lost = run;
        }
    }
    int gr = T.trick_g * left, fr = 0;
    for (int s = 0; s < 4; s++) {
        unsigned open = s == t ? u[s] & ~lost : u[s];
        gr += SUM_GPTS[s][open];
        fr |= OR_FLAG[s][open];
    }
    int r = counters - (sure < 0 ? -sure : sure) + (T.trick_points < 0 ? -T.trick_points : T.trick_points) * left;
    int gtop = g + gr > T.gmax ? T.gmax : g + gr;
    int glow = g + sure_g > gtop ? gtop : g + sure_g;
    int lmin, lmax;
    pk_leaf_range(glow, gtop, flags | sure_f, flags | fr, &lmin, &lmax);
    *lo = lmin - r + sure;
    *hi = lmax + r + sure;
    *lmin_out = lmin;
    *lmax_out = lmax;
}

/* The n counters among `cm` (suit s's counters, as ranks) worth least (most: worth most), as ranks. */
static unsigned
pk_pick(int s, unsigned cm, int n, int most)
{
    unsigned out = 0;
    for (; n > 0 && cm; n--) {
        int best = -1, bv = 0;
        for (unsigned m = cm; m; m &= m - 1) {
            int r = __builtin_ctz(m), v = T.counter[13 * s + r];
            if (best < 0 || (most ? v > bv : v < bv)) {
                best = r;
                bv = v;
            }
        }
        out |= 1u << best;
        cm &= ~(1u << best);
    }
    return out;
}

/* The counters (as ranks, into won[]) that `p`, an opponent of the side on lead, must play to n rounds of
 * suit s led, holding h there: the counters among his n cards worth least. */
static inline void
pk_forced(int s, unsigned h, int n, unsigned won[4])
{
    unsigned cm = h & pkx->cs[s];
    int z = tk_pc(h & ~cm);
    if (n > z) {
        won[s] |= tk_pc(h) <= n ? cm : pk_pick(s, cm, n - z, 0);
    }
}

/* The least card points among n of the cards h (suit s's ranks): the card points of all where n covers them. */
static int
pk_least_g(int s, unsigned h, int n)
{
    if (tk_pc(h) <= n) {
        return SUM_GPTS[s][h];
    }
    int sum = 0;
    for (; n > 0; n--) {
        int best = -1, bv = 0;
        for (unsigned m = h; m; m &= m - 1) {
            int r = __builtin_ctz(m), v = T.gpts[13 * s + r];
            if (best < 0 || v < bv) {
                best = r;
                bv = v;
            }
        }
        sum += bv;
        h &= ~(1u << best);
    }
    return sum;
}

/* Whether every seat but the leader holds no more than n cards of suit s (so all are void of it after n rounds). */
static inline int
pk_drawn(int leader, int s, int n)
{
    for (int i = 1; i < 4; i++) {
        if (tk_pc(TH[(leader + i) & 3][s]) > n) {
            return 0;
        }
    }
    return 1;
}

/* Quick tricks at a trick's start: what the side on lead surely makes by cashing its top cards first. The
 * leader leads his top trumps from the top (k rounds: nobody can beat them), then in each other suit his top
 * cards from the top while every opponent still holding a trump must follow (j rounds). Every such trick is
 * the side's, with the cards that must fall into it: an opponent's (the least he can give out of the cards he
 * must play: his trumps to the trump rounds; while he has followed every round, his cards of a suit to its
 * rounds), a partner's (his counters worth most that he may play: he never takes the lead over) and the
 * side's top trumps still out (sure: every one wins its trick). After that, everything still out either way.
 * So whatever is played the side's counters are at least those (its card points at least theirs, its tricks
 * at least the rounds), and the value is bound below (side A on lead) or above. It rests on the table's key
 * (lengths, the cards of value and their holders) and on the top cards it cashed and the sure trumps: those
 * go to `rel`. 1 with the bound in *v where it decides `need`, else 0; lmin and lmax: pk_bounds' award range. */
static __attribute__((noinline)) int
pk_quick(int leader, int left, int need, int g, int flags, int lmin, int lmax, int *v, unsigned rel[4])
{
    int t = tk_trump, side = PK_SIDE[leader], k = 0, q = 0, c = 0, gf = 0, reach = T.trick_g * left;
    unsigned won[4] = {0, 0, 0, 0}, got[4] = {0, 0, 0, 0}, u[4], run = 0, lost = 0;
    int intact[4] = {1, 1, 1, 1}, trumps[4] = {0, 0, 0, 0}, tops = 0;
    for (int s = 0; s < 4; s++) {
        u[s] = tk_union(s);
        tops |= u[s] && ((TH[leader][s] >> tk_top(u[s])) & 1);
    }
    if (!tops) {
        return 0; /* no top card to cash: no more than pk_bounds' */
    }
    for (int s = 0; s < 4; s++) {
        c += SUM_COUNTER[s][u[s]];
        reach += SUM_GPTS[s][u[s]];
    }
    if (t < 4 && u[t]) {
        unsigned ut = u[t], own = 0, top = 0;
        int who = PK_SIDE[TK_OWN[13 * t + tk_top(ut)]];
        for (int st = 0; st < 4; st++) {
            own |= PK_SIDE[st] == who ? TH[st][t] : 0u;
        }
        for (unsigned m = ut; m && ((own >> tk_top(m)) & 1); m &= ~(1u << tk_top(m))) {
            top |= 1u << tk_top(m); /* the top trumps still out, held by one side (sure) */
        }
        if (who == side) {
            run = top;
        } else {
            lost = top;
        }
        rel[t] |= top;
        while (ut && ((TH[leader][t] >> tk_top(ut)) & 1)) {
            ut &= ~(1u << tk_top(ut));
            k++;
        }
        got[t] = run;
        if (k && pk_drawn(leader, t, k)) {
            /* the others hold no more trumps than his top ones: every trump of his wins in turn */
            k = tk_pc(TH[leader][t]);
            got[t] |= TH[leader][t];
        }
        for (int i = 1; i < 4; i++) {
            int p = (leader + i) & 3;
            unsigned h = TH[p][t];
            int m = tk_pc(h);
            trumps[p] = m > k;
            if (!k) {
                continue;
            }
            if (PK_SIDE[p] != side) {
                pk_forced(t, h, k, won);
                gf += pk_least_g(t, h, k);
                intact[p] = m >= k;
            } else if (m >= k) {
                got[t] |= pk_pick(t, h & pkx->cs[t] & ~got[t], k, 1);
            } else {
                got[t] |= h;
                for (int n = k - m; n > 0; n--) {
                    /* the partner's discards: his counters worth most */
                    int bs = -1, br = 0, bv = 0;
                    for (int s = 0; s < 4; s++) {
                        for (unsigned cm = s == t ? 0 : TH[p][s] & pkx->cs[s] & ~got[s]; cm; cm &= cm - 1) {
                            int r = __builtin_ctz(cm), cv = T.counter[13 * s + r];
                            if (cv > bv) {
                                bs = s;
                                br = r;
                                bv = cv;
                            }
                        }
                    }
                    if (bs < 0) {
                        break;
                    }
                    got[bs] |= 1u << br;
                }
            }
        }
        q = k;
    }
    for (int s = 0; s < 4; s++) {
        if (s == t) {
            continue;
        }
        int j = 0;
        for (unsigned us = u[s]; us && ((TH[leader][s] >> tk_top(us)) & 1); us &= ~(1u << tk_top(us))) {
            j++;
        }
        for (int i = 1; i < 4 && j; i++) {
            int p = (leader + i) & 3;
            if (trumps[p] && PK_SIDE[p] != side && tk_pc(TH[p][s]) < j) {
                j = tk_pc(TH[p][s]); /* he could ruff the next */
            }
        }
        if (!j) {
            continue;
        }
        unsigned top = tk_top_cards(s, j);
        rel[s] |= top;
        got[s] |= top;
        int ruff = 0;
        for (int i = 1; i < 4; i++) {
            ruff |= trumps[(leader + i) & 3] && PK_SIDE[(leader + i) & 3] != side;
        }
        if (!ruff && pk_drawn(leader, s, j)) {
            /* the others void of the suit after his top cards, nobody against him to ruff: the rest of his
             * cards of it win too (quick tricks in length) */
            j = tk_pc(TH[leader][s]);
            got[s] |= TH[leader][s];
        }
        for (int i = 1; i < 4; i++) {
            int p = (leader + i) & 3;
            if (PK_SIDE[p] == side) {
                if (p != leader) {
                    got[s] |= pk_pick(s, TH[p][s] & pkx->cs[s] & ~got[s], j, 1);
                }
            } else if (intact[p]) {
                pk_forced(s, TH[p][s], j, won);
                gf += pk_least_g(s, TH[p][s], j);
                intact[p] = tk_pc(TH[p][s]) >= j;
            }
        }
        q += j;
    }
    int f = 0, gs = gf + T.trick_g * q;
    for (int s = 0; s < 4; s++) {
        f += SUM_COUNTER[s][won[s] | got[s]];
        gs += SUM_GPTS[s][got[s]];
    }
    int tp = T.trick_points * (2 * q - left);
    if (side == 0 ? lmax + 2 * f - c + tp < need : lmin + c - 2 * f - tp >= need) {
        return 0; /* no award in pk_bounds' range would do: the range below is within it */
    }
    if (gs > (t < 4 ? SUM_GPTS[t][run] : 0)) {
        /* the award over the counts and bits left: the side on lead's card points at least gs */
        unsigned a = side ? lost : run, b = side ? run : lost; /* side A's and side B's sure trumps */
        int ga = t < 4 ? SUM_GPTS[t][a] : 0, gb = t < 4 ? SUM_GPTS[t][b] : 0;
        int need_f = flags | (t < 4 ? OR_FLAG[t][a] : 0), fr = flags;
        for (int s = 0; s < 4; s++) {
            fr |= OR_FLAG[s][s == t ? u[s] & ~b : u[s]];
        }
        if (side == 0) {
            ga = gs;
        } else {
            gb = gs;
        }
        int gtop = g + reach - gb > T.gmax ? T.gmax : g + reach - gb;
        int glow = g + ga > gtop ? gtop : g + ga;
        pk_leaf_range(glow, gtop, need_f, fr, &lmin, &lmax);
    }
    if (side == 0) {
        *v = lmin + 2 * f - c + tp;
        return *v >= need;
    }
    *v = lmax + c - 2 * f - tp;
    return *v < need;
}

/* The last trick (one card a hand), played out: side A's value. */
static int
pk_last(int leader, int g, int flags, unsigned rel[4])
{
    int cards[4], w = tk_last(leader, cards, rel), points = T.trick_points, gsum = 0, f2 = flags;
    for (int i = 0; i < 4; i++) {
        points += T.counter[cards[i]];
        gsum += T.gpts[cards[i]];
        f2 |= T.flag[cards[i]];
    }
    if (PK_SIDE[w] == 0) {
        int g2 = g + T.trick_g + gsum > T.gmax ? T.gmax : g + T.trick_g + gsum;
        return points + T.leaf[g2 * 4 + f2];
    }
    return -points + T.leaf[g * 4 + flags];
}

/* Can side A make at least `need` from here (`pos` cards of the trick led by `leader` played, `ws` with
 * `wc` winning it so far; side A's count g and bits flags)? The answer as a bound, fail-soft: at least
 * `need`, a lower bound on the value; else an upper bound. `rel` as tk_search's. */

static int
pk_search(int leader, int pos, int ws, int wc, int need, int g, int flags, unsigned rel[4])
{
    rel[0] = rel[1] = rel[2] = rel[3] = 0;
    if ((++tk_nodes & 0xFFFFF) == 0 && PyErr_CheckSignals() < 0) {
        tk_stop = 2;
        return 0;
    }
    if (tk_limit && tk_nodes > tk_limit) {
        tk_stop = 1;
        return 0;
    }
    int seat = (leader + pos) & 3;
    int maxer = PK_SIDE[seat] == 0;
    int first = -1, left = 0;
    PkKey key;
    if (pos == 0) {
        left = tk_count(leader);
        if (left == 0) {
            return T.leaf[g * 4 + flags];
        }
        if (left == 1) {
            return pk_last(leader, g, flags, rel);
        }
        /* the table's bucket first: its lines (a miss far out in memory, most of a node's time) are
         * fetched while the bounds are worked out */
        int dec;
        key.gk = pk_key_count(g, pk_reach(left), &dec);
        key.lens = tk_lens(leader);
        pk_valued(&key.vout, &key.v13, &key.v23);
        uint64_t h = pk_hash(key.lens, leader, key.vout, key.v13, key.v23, key.gk, flags, pk_gen);
        size_t at = pk_place(h);
        uint32_t fp = pk_fp(h);
        __builtin_prefetch(&pk_tags[at]);
        unsigned brel[4] = {0, 0, 0, 0};
        int lo, hi, lmin, lmax;
        pk_bounds(g, flags, left, &lo, &hi, &lmin, &lmax, brel);
        if (lo >= need || hi < need) {
            memcpy(rel, brel, sizeof brel);
            return lo >= need ? lo : hi;
        }
        /* misère (each trick costs its taker): tricks a side surely takes, every trick left (pk_sweeper) or
         * this one (pk_trick_taker); each moves the trick points' share of the range (2 * |tp| * left) by
         * 2 * |tp|. Asked only where the bounds above do not decide (their cards would be winning ranks
         * for nothing); not for the most tricks (measured: more nodes there) */
        unsigned wrel[4] = {0, 0, 0, 0}, held[2][4];
        int sweeper = -1, k = left;
        if (T.trick_points < 0) {
            pk_held(held);
            sweeper = pk_sweeper(leader, held, wrel);
            if (sweeper < 0) {
                sweeper = pk_trick_taker(leader, held, wrel);
                k = 1;
            }
        }
        if (sweeper >= 0) {
            /* the tricks cost their taker: side A taking them lowers the value, side B raises it */
            if (sweeper == 0) {
                hi += 2 * T.trick_points * k;
            } else {
                lo -= 2 * T.trick_points * k;
            }
            if (lo >= need || hi < need) {
                for (int s = 0; s < 4; s++) {
                    rel[s] = brel[s] | wrel[s];
                }
                return lo >= need ? lo : hi;
            }
        }
        if (dec && pkx == &pk_main && pk_dec.valued != pk_main.valued) {
            /* decided: card points are worth nothing from here on (pk_dec) */
            pkx = &pk_dec;
            int v = pk_search(leader, 0, ws, wc, need, g, flags, rel);
            pkx = &pk_main;
            return v;
        }
        /* the entries whose tag matches, fetched while the owners are worked out */
        unsigned match = 0;
        for (int i = 0; i < PK_WAYS; i++) {
            if (pk_tags[at + i].fp == fp) {
                match |= 1u << i;
                __builtin_prefetch(&pk_tt[at + i]);
                __builtin_prefetch((const char *)&pk_tt[at + i] + sizeof(PkEnt) - 1);
            }
        }
        pk_owners(key.code, key.n, key.vp);
        key.flags = flags;
        key.leader = leader;
        for (; match; match &= match - 1) {
            size_t i = at + (size_t)__builtin_ctz(match);
            PkEnt *e = &pk_tt[i];
            if (e->used != leader + 1 || e->lens != key.lens || e->vout != key.vout || e->v13 != key.v13 ||
                e->v23 != key.v23 || e->gk != key.gk || e->flags != flags || e->gen != pk_gen ||
                !pk_matches(e, key.code, key.n, key.vp)) {
                continue;
            }
            int lb_ok = e->lb >= need && (key.gk != PK_ANY_G || g >= e->gl);
            if (lb_ok || (e->ub < need && (key.gk != PK_ANY_G || g <= e->gu))) {
                pk_tags[i].stamp = ++pk_clock;
                for (int s = 0; s < 4; s++) {
                    rel[s] = tk_top_cards(s, (int)(pk_pat_suit(e, s) >> 26));
                }
                return lb_ok ? e->lb : e->ub;
            }
            if (e->best != 0xFF && first < 0) {
                first = tk_card_at(e->best >> 4, e->best & 15);
            }
        }
        if (pkx->quick) {
            unsigned qrel[4] = {0, 0, 0, 0};
            int v;
            if (pk_quick(leader, left, need, g, flags, lmin, lmax, &v, qrel)) {
                for (int s = 0; s < 4; s++) {
                    rel[s] = brel[s] | qrel[s];
                }
                return v;
            }
        }
        tk_led = -1;
        if (pk_split && pkx == &pk_main && lmin < lmax && 4 * left >= pk_split_cards) {
            /* the counters' game: the value is within its value plus lmin and lmax */
            unsigned srel[4];
            int cut = 0, v;
            X = &SUB;
            pkx = &pk_sub;
            v = pk_search(leader, 0, -1, -1, need - lmin, 0, 0, srel);
            if (v >= need - lmin) {
                cut = 1;
                v += lmin;
            } else if (v + lmax < need) {
                cut = 1;
                v += lmax;
            } else if (!tk_stop) {
                v = pk_search(leader, 0, -1, -1, need - lmax, 0, 0, srel);
                if (v < need - lmax) {
                    cut = 1;
                    v += lmax;
                }
            }
            X = &MAIN;
            pkx = &pk_main;
            if (tk_stop) {
                return 0;
            }
            if (cut) {
                for (int s = 0; s < 4; s++) {
                    rel[s] = brel[s] | srel[s];
                }
                return v;
            }
        }
    }
    int moves[13];
    int led_before = tk_led;
    int depth = pos == 0 ? 4 * left : 0;
    int n = pk_moves(leader, pos, ws, wc, moves, first, pos == 0 ? tk_killer[depth] : -1);
    int result = !maxer, best = -1, value = maxer ? -INF : INF;
    unsigned crel[4];
    int skip_below[4] = {0, 0, 0, 0}; /* a suit's worthless cards below this rank are not tried (0: none) */
    for (int i = 0; i < n; i++) {
        int c = moves[i], s = c / 13, r = c % 13, worthless = PK_VC[c] == 0;
        int top = pk_run_top(s, TH[seat][s], tk_union(s) | tk_table[s], r); /* c stands for its run up to top */
        if (worthless && top < skip_below[s]) {
            continue; /* worthless, below every winning rank of its suit where a worthless card there failed */
        }
        int place = pos == 0 ? tk_place(c) : 0;
        TH[seat][s] &= (uint16_t) ~(1u << r);
        tk_table[s] |= 1u << r;
        tk_trick[pos] = c;
        int ws2 = ws, wc2 = wc;
        if (pos == 0) {
            tk_led = s;
            ws2 = seat;
            wc2 = c;
        } else if (tk_beats(c, wc)) {
            ws2 = seat;
            wc2 = c;
        }
        int v;
        if (pos == 3) {
            unsigned saved[4];
            int saved_trick[4];
            memcpy(saved, tk_table, sizeof saved);
            memcpy(saved_trick, tk_trick, sizeof saved_trick);
            memset(tk_table, 0, sizeof tk_table);
            int points = T.trick_points, gsum = 0, f2 = flags;
            for (int k = 0; k < 4; k++) {
                points += T.counter[saved_trick[k]];
                gsum += T.gpts[saved_trick[k]];
                f2 |= T.flag[saved_trick[k]];
            }
            if (PK_SIDE[ws2] == 0) {
                int g2 = g + T.trick_g + gsum > T.gmax ? T.gmax : g + T.trick_g + gsum;
                v = points + pk_search(ws2, 0, -1, -1, need - points, g2, f2, crel);
            } else {
                v = -points + pk_search(ws2, 0, -1, -1, need + points, g, flags, crel);
            }
            memcpy(tk_table, saved, sizeof saved);
            memcpy(tk_trick, saved_trick, sizeof saved_trick);
            if (tk_pc(tk_table[wc2 / 13]) > 1) {
                crel[wc2 / 13] |= 1u << (wc2 % 13);
            }
        } else {
            v = pk_search(leader, pos + 1, ws2, wc2, need, g, flags, crel);
        }
        int got = v >= need;
        tk_led = pos == 0 ? -1 : led_before;
        tk_table[s] &= ~(1u << r);
        TH[seat][s] |= (uint16_t)(1u << r);
        if (tk_stop) {
            return 0;
        }
        if (top > r && crel[s]) {
            /* c stood for its run (as in tk_search) */
            int low = __builtin_ctz(crel[s]);
            if (low > r && low <= top) {
                crel[s] |= 1u << tk_top(TH[seat][s] & ((1u << low) - 1) & ~((1u << r) - 1));
            }
        }
        if (got == maxer) {
            if (pos == 0) {
                tk_killer[depth] = s * 13 + top;
            }
            memcpy(rel, crel, sizeof crel);
            result = got;
            value = v;
            best = pos == 0 ? (s << 4) | place : -1;
            break;
        }
        value = maxer ? (v > value ? v : value) : (v < value ? v : value);
        for (int k = 0; k < 4; k++) {
            rel[k] |= crel[k];
        }
        if (worthless && !skip_below[s]) {
            int low = rel[s] ? __builtin_ctz(rel[s]) : 13;
            if (r < low) {
                skip_below[s] = low;
            }
        }
    }
    if (pos == 0) {
        tk_led = -1;
        if (result) {
            pk_store(&key, left, rel, value, 32000, best, g);
        } else {
            pk_store(&key, left, rel, -32000, value, best, g);
        }
    }
    return value;
}

/* Side A's value from the position, exact inside (alpha, beta), else a bound outside it: target searches,
 * bisecting what is left. `par`: the parity every value has (-1: none known), so that no target falls
 * between two values (a search for at least t is one for at least t + 1 where no value is t). */
static int
pk_value(int leader, int pos, int ws, int wc, int g, int flags, int alpha, int beta, int par)
{
    int lo = -pk_cap, hi = pk_cap, probes = 0;
    /* misère (each trick costs its taker): the upper bounds come down two at a time, and the probes that
     * fail stay cheap to the value's (measured: fewer nodes than bisecting after four) */
    int misere = T.trick_points < 0;
    if (par >= 0) {
        lo += (lo & 1) != par;
        hi -= (hi & 1) != par;
    }
    while (lo < hi && lo < beta && hi > alpha && !tk_stop) {
        /* from above while the upper bounds come down fast (a probe that fails is the cheaper), then
         * bisecting */
        int t = beta == alpha + 1 ? beta : probes++ < pk_above || misere ? hi : lo + (hi - lo + 1) / 2;
        if (t <= lo) {
            t = lo + 1;
        }
        if (par >= 0 && (t & 1) != par) {
            t++;
        }
        if (t > hi) {
            t = hi;
        }
        unsigned rel[4];
        for (int i = 0; i < 53; i++) {
            tk_killer[i] = -1;
        }
        int v = pk_search(leader, pos, ws, wc, t, g, flags, rel);
        if (v >= t) {
            lo = v;
        } else {
            hi = v;
        }
    }
    return lo >= beta ? lo : hi <= alpha ? hi : lo;
}

/* What the points kernel works out from the tables in X (see PkCtx), into pkx; `decided`: for a position
 * whose every count the cards still out can reach ends the deal alike, where card points are worth
 * nothing (pk_dec: cards that only carry card points are worth nothing, and its entries are apart). */
static int
pk_ctx_setup(int decided)
{
    int kinds[52][3], nk = 0, cap = 13 * (T.trick_points < 0 ? -T.trick_points : T.trick_points), most = 0;
    PK_VALUED = 0;
    pkx->quick = T.trick_points >= 0;
    for (int s = 0; s < 4; s++) {
        PK_VS[s] = 0;
        pkx->cs[s] = 0;
    }
    for (int c = 0; c < 52; c++) {
        int k = -1;
        int gp = decided ? 0 : T.gpts[c];
        if (T.counter[c] < 0) {
            pkx->quick = 0;
        } else if (T.counter[c] > 0) {
            pkx->cs[c / 13] |= (uint16_t)(1u << (c % 13));
        }
        cap += T.counter[c] < 0 ? -T.counter[c] : T.counter[c];
        if (!T.counter[c] && !gp && !T.flag[c]) {
            PK_VC[c] = 0;
            continue;
        }
        for (int j = 0; j < nk; j++) {
            if (kinds[j][0] == T.counter[c] && kinds[j][1] == gp && kinds[j][2] == T.flag[c]) {
                k = j;
            }
        }
        if (k < 0) {
            k = nk++;
            kinds[k][0] = T.counter[c];
            kinds[k][1] = gp;
            kinds[k][2] = T.flag[c];
        }
        PK_VC[c] = (uint8_t)(k + 1);
        PK_VS[c / 13] |= (uint16_t)(1u << (c % 13));
        PK_VALUED |= 1ULL << c;
    }
    for (int k = 0; k < T.leaf_len; k++) {
        int v = T.leaf[k] < 0 ? -T.leaf[k] : T.leaf[k];
        most = v > most ? v : most;
    }
    if (cap + most > 30000) {
        PyErr_SetString(PyExc_ValueError, "the points kernel's values are 16 bits");
        return -1;
    }
    pk_cap = cap + most + 1;
    pk_grange = grange_ok;
    pk_gen = decided ? tt_gen ^ 0x80000000u : tt_gen;
    return 0;
}

/* Set the points kernel up for the tables just configured (MAIN, and SUB where the counters' game can
 * cut): 0, or -1 with an exception where they are not the kernel's (four seats in partnerships). */
static int
pk_setup(void)
{
    if (T.seats != 4 || T.gmax >= PK_ANY_G) {
        PyErr_SetString(PyExc_ValueError, "the points kernel is for four seats");
        return -1;
    }
    for (int st = 0; st < 4; st++) {
        PK_SIDE[st] = T.side[st] != 0;
    }
    pk_tricks_only = 1;
    for (int c = 0; c < 52 && pk_tricks_only; c++) {
        pk_tricks_only = T.counter[c] == 0;
    }
    for (int k = 1; k < T.leaf_len && pk_tricks_only; k++) {
        pk_tricks_only = T.leaf[k] == T.leaf[0];
    }
    pk_misere_only = pk_tricks_only && T.trick_points < 0;
    pkx = &pk_dec;
    if (pk_ctx_setup(1) < 0) {
        return -1;
    }
    pkx = &pk_main;
    if (pk_ctx_setup(0) < 0) {
        return -1;
    }
    pk_split = MAIN.split_ok;
    if (pk_split) {
        X = &SUB;
        pkx = &pk_sub;
        int failed = gen_for(sub_packed, last_len + 1) < 0 || pk_ctx_setup(0) < 0;
        X = &MAIN;
        pkx = &pk_main;
        if (failed) {
            return -1;
        }
    }
    tk_trump = T.trump;
    return 0;
}

PyDoc_STRVAR(points_doc,
             "points(tables, hands, trick, leader, g, flags, alpha, beta, limit, /) -> (value, nodes) | None\n\n"
             "The points kernel: see _solve.pyi.");

static PyObject *
py_points(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "points takes 9 arguments");
        return NULL;
    }
    char *data;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(args[0], &data, &len) < 0 || configure(data, len) < 0 || pk_setup() < 0) {
        return NULL;
    }
    uint64_t h[TK_SEATS];
    int pos, trick_cards[3];
    if (tk_read(args[1], args[2], h, trick_cards, &pos) < 0) {
        return NULL;
    }
    long leader = PyLong_AsLong(args[3]), g = PyLong_AsLong(args[4]), flags = PyLong_AsLong(args[5]);
    long alpha = PyLong_AsLong(args[6]), beta = PyLong_AsLong(args[7]);
    long long limit = PyLong_AsLongLong(args[8]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (leader < 0 || leader > 3 || g < 0 || g > T.gmax || flags < 0 || flags > 3 || limit < 0 || alpha >= beta) {
        PyErr_SetString(PyExc_ValueError, "leader 0..3, g 0..gmax, flags 0..3, limit 0 or more, alpha below beta");
        return NULL;
    }
    int left = tk_left(h, (int)leader, pos);
    if (left < 0) {
        return NULL;
    }
    if (!tk_pc_ready) {
        tk_pc_init();
    }
    if (!pk_tt) {
        if (pk_alloc((size_t)1 << PK_START_BITS, &pk_block, &pk_tt, &pk_tags) < 0) {
            return PyErr_NoMemory();
        }
        pk_mask = ((size_t)1 << PK_START_BITS) - 1;
        pk_max_mask = ((size_t)1 << PK_MAX_BITS) - 1;
        pk_evicted = 0;
    }
    int ws, wc;
    tk_load(h, trick_cards, pos, (int)leader, &ws, &wc);
    if (alpha < -pk_cap) {
        alpha = -pk_cap;
    }
    if (beta > pk_cap) {
        beta = pk_cap;
    }
    tk_nodes = 0;
    tk_limit = limit;
    tk_stop = 0;
    int v;
    if (left == 0) {
        v = T.leaf[g * 4 + flags];
    } else {
        /* where every trick is worth an odd amount and nothing else moves the value, it has one parity */
        int par = pk_tricks_only && (T.trick_points & 1) ? (T.leaf[0] + left) & 1 : -1;
        v = pk_value((int)leader, pos, ws, wc, (int)g, (int)flags, (int)alpha, (int)beta, par);
    }
    if (tk_stop == 2) {
        return NULL;
    }
    if (tk_stop == 1) {
        Py_RETURN_NONE; /* the limit reached */
    }
    return Py_BuildValue("(iL)", v, tk_nodes);
}

PyDoc_STRVAR(clear_doc,
             "clear(/) -> None\n\nForget the transposition table and every table searched, give the table's "
             "memory back, and number the generations from the start again: a search after clear() visits the "
             "same nodes whatever was searched before it in the process (analyse's deals in worker processes, "
             "--jobs), and starts from a fresh (lazily zeroed) table.");

static PyObject *
py_clear(PyObject *self, PyObject *unused)
{
    if (tt) {
        table_free(tt, tt_bytes);
    }
    tt = NULL;
    tt_bytes = 0;
    tt_entries = 0;
    tt_stride = 0; /* the next configure() maps a small table again */
    PyMem_Free(last_packed);
    last_packed = NULL; /* so that the next search configures (and maps) whatever its tables */
    last_len = 0;
    forget_recent();
    next_gen = 0;
    recent_clock = 0;
    pk_forget();
    Py_RETURN_NONE;
}

PyDoc_STRVAR(table_bytes_doc, "table_bytes(/) -> int\n\nThe bytes the transposition table holds now (0: none).");

static PyObject *
py_table_bytes(PyObject *self, PyObject *unused)
{
    size_t bytes = tt ? tt_entries * (size_t)tt_stride * sizeof(uint64_t) : 0;
    return PyLong_FromSize_t(bytes + (pk_tt ? (pk_mask + 1) * (sizeof(PkEnt) + sizeof(PkTag)) : 0));
}

static PyMethodDef solve_methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_FASTCALL, search_doc},
    {"clear", py_clear, METH_NOARGS, clear_doc},
    {"table_bytes", py_table_bytes, METH_NOARGS, table_bytes_doc},
    {"tricks", (PyCFunction)(void (*)(void))py_tricks, METH_FASTCALL, tricks_doc},
    {"points", (PyCFunction)(void (*)(void))py_points, METH_FASTCALL, points_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef solve_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "phatlog._native._solve",
    .m_doc = "The double-dummy solver's kernel in C (optional): see phatlog/_native/_solve.pyi.",
    .m_size = -1,
    .m_methods = solve_methods,
};

PyMODINIT_FUNC
PyInit__solve(void)
{
#ifdef HAVE_BMI2_PATH
    __builtin_cpu_init();
    /* PHATLOG_SOLVE_NO_BMI2=1: the portable path, as on a machine without BMI2 (for the tests) */
    const char *no_bmi2 = getenv("PHATLOG_SOLVE_NO_BMI2");
    have_bmi2 = __builtin_cpu_supports("bmi2") && !(no_bmi2 && *no_bmi2 && strcmp(no_bmi2, "0") != 0);
#endif
    return PyModule_Create(&solve_module);
}
