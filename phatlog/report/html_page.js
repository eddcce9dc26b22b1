/* phatlog replay page: draws the record held in #phatlog-data. Text goes into the page as text only
   (textContent, createTextNode): nothing from the record is ever parsed as markup. No network. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var DATA = JSON.parse(document.getElementById("phatlog-data").textContent);
  var S = DATA.summary, W = DATA.words;
  var PITCH = S.game !== "oh_hell";
  var NSEATS = (S.players || []).length;
  var NAMES = W.players || [];
  var SIDES = W.sides || [];
  var RANK = { T: "10" };
  var SUITN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var ORDER = "SHDC", RANKS = "23456789TJQKA";
  var COLOURS = ["#1f5fbf", "#c8102e", "#1a7f37", "#8a4baf", "#b35c00", "#0f7c8c", "#5b5b5b"];
  var deals = S.deals || [];
  var state = { d: 0, s: 0, seat: -1 };
  var app = document.getElementById("app");
  var parts = {};
  var FIGS = {};  /* "deal:trick" (trick 0: the deal as dealt) to its diagram (a figure element) */

  function el(tag, cls, kids) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    add(e, kids);
    return e;
  }
  function add(e, kids) {
    if (kids === undefined || kids === null) return e;
    if (!Array.isArray(kids)) kids = [kids];
    kids.forEach(function (k) {
      if (k === null || k === undefined || k === false) return;
      e.appendChild(typeof k === "string" || typeof k === "number" ? document.createTextNode(String(k)) : k);
    });
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    return e;
  }
  function red(c) { return c[1] === "H" || c[1] === "D"; }
  function useSuit(s, x, y, w) { return svg("use", { href: "#suit-" + s, x: x, y: y, width: w, height: w }); }

  /* A card face (or its back) as an inline SVG. */
  function cardEl(c, opts) {
    opts = opts || {};
    var box = el("span", "card" + (opts.big ? " big" : "") + (opts.win ? " win" : "") + (opts.flag ? " flag" : "") +
      (opts.cost ? " costly" : "") + (c ? "" : " back"));
    var s = svg("svg", { viewBox: "0 0 50 70", role: "img" });
    s.appendChild(svg("rect", { "class": "face", x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fff", stroke: "#8d897d",
      "stroke-width": 1.2 }));
    if (c) {
      s.setAttribute("aria-label", (RANK[c[0]] || c[0]) + " of " + SUITN[c[1]]);
      var t = svg("text", { x: 5, y: 18, "font-size": 17, "font-weight": "bold", fill: red(c) ? "#c8102e" : "#111",
        "font-family": "DejaVu Sans, Arial, sans-serif" });
      t.textContent = RANK[c[0]] || c[0];
      s.appendChild(t);
      s.appendChild(useSuit(c[1], 5, 22, 12));
      s.appendChild(useSuit(c[1], 18, 31, 27));
      box.setAttribute("data-card", c);
    } else {
      s.setAttribute("aria-label", "a card");
    }
    box.appendChild(s);
    if (opts.flag) add(box, el("span", "mark", opts.mark || "!"));
    if (opts.cost) add(box, el("span", "cost", "\u2212" + opts.cost));
    return box;
  }
  /* A card in running text: "A" and a small suit symbol. */
  function cardText(c) {
    var span = el("span", "cs", RANK[c[0]] || c[0]);
    var s = svg("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": SUITN[c[1]] });
    s.appendChild(useSuit(c[1], 0, 0, 100));
    span.appendChild(s);
    return span;
  }
  function sortHand(cards) {
    return cards.slice().sort(function (a, b) {
      return ORDER.indexOf(a[1]) - ORDER.indexOf(b[1]) || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]);
    });
  }
  function name(seat) { return seat === null || seat === undefined ? "—" : (NAMES[seat] || "seat " + seat); }

  /* ------------------------------------------------------------------ steps */
  /* A deal's steps: its start, each card of each trick, its end (bonuses and score). */
  function stepsOf(deal) {
    if (deal._steps) return deal._steps;
    var out = [{ t: -1, c: 0 }];
    deal.tricks.forEach(function (tr, i) {
      for (var c = 1; c <= tr.plays.length; c++) out.push({ t: i, c: c });
    });
    out.push({ t: deal.tricks.length, c: 0 });
    deal._steps = out;
    return out;
  }
  function stepOf(di, t, c) {
    var st = stepsOf(deals[di]);
    for (var i = 0; i < st.length; i++) if (st[i].t === t && st[i].c === c) return i;
    return 0;
  }
  function completeStep(di, t) {
    var tr = deals[di].tricks[t];
    return tr ? stepOf(di, t, tr.plays.length) : stepsOf(deals[di]).length - 1;
  }
  function go(d, s) {
    if (!deals.length) return;
    d = Math.max(0, Math.min(deals.length - 1, d));
    var n = stepsOf(deals[d]).length;
    state.d = d;
    state.s = Math.max(0, Math.min(n - 1, s));
    draw();
  }
  function nextCard() {
    var n = stepsOf(deals[state.d]).length;
    if (state.s < n - 1) go(state.d, state.s + 1);
    else if (state.d < deals.length - 1) go(state.d + 1, 0);
  }
  function prevCard() {
    if (state.s > 0) go(state.d, state.s - 1);
    else if (state.d > 0) go(state.d - 1, stepsOf(deals[state.d - 1]).length - 1);
  }
  function nextTrick() {
    var deal = deals[state.d], st = stepsOf(deal)[state.s];
    if (st.t === deal.tricks.length) { if (state.d < deals.length - 1) go(state.d + 1, 0); return; }
    var full = st.t >= 0 && st.c === deal.tricks[st.t].plays.length;
    go(state.d, completeStep(state.d, full ? st.t + 1 : Math.max(0, st.t)));
  }
  function prevTrick() {
    var deal = deals[state.d], st = stepsOf(deal)[state.s];
    if (st.t <= 0) { if (state.s > 0) go(state.d, 0); else if (state.d > 0) go(state.d - 1, stepsOf(deals[state.d - 1]).length - 1); return; }
    go(state.d, completeStep(state.d, Math.min(st.t, deal.tricks.length) - 1));
  }

  /* What stands at the current step. */
  function position() {
    var deal = deals[state.d], st = stepsOf(deal)[state.s];
    var played = {}, done = -1, cur = null, curCards = 0;
    deal.tricks.forEach(function (tr, i) {
      var upto = i < st.t ? tr.plays.length : (i === st.t ? st.c : 0);
      for (var k = 0; k < upto; k++) played[tr.plays[k].card] = true;
      if (upto === tr.plays.length && upto > 0) done = i;
    });
    if (st.t >= 0 && st.t < deal.tricks.length) { cur = deal.tricks[st.t]; curCards = st.c; }
    var next = null;
    if (cur && curCards < cur.plays.length) next = cur.plays[curCards].seat;
    else if (st.t + 1 < deal.tricks.length) next = deal.tricks[st.t + 1].leader;
    return { deal: deal, st: st, played: played, done: done, cur: cur, n: curCards, next: next,
      end: st.t === deal.tricks.length };
  }
  function before(di) {
    for (var i = di - 1; i >= 0; i--) if (deals[i].totals) return deals[i].totals;
    return null;
  }
  function scoreNow(p) {
    var deal = p.deal;
    if (p.end && deal.totals) return deal.totals;
    for (var i = p.done; i >= 0; i--) if (deal.tricks[i].total) return deal.tricks[i].total;
    return before(state.d);
  }

  /* ------------------------------------------------------------------ the page */
  function build() {
    document.title = W.title;
    add(app, el("h1", null, W.title));
    if (DATA.index) {
      var a = el("a", null, "← all games");
      a.href = DATA.index;
      add(app, el("p", null, a));
    }
    var meta = el("ul", "meta");
    W.header.forEach(function (p) { add(meta, el("li", null, [el("b", null, p[0] + ": "), p[1]])); });
    add(app, meta);
    if (S.status !== "replayed" || !deals.length) {
      var ul = el("ul", "problems");
      W.problems.forEach(function (t) { add(ul, el("li", "prob", t)); });
      add(app, ul);
      W.end.forEach(function (p) { add(app, el("div", null, [el("b", null, p[0] + ": "), p[1]])); });
      var bad = el("div", "verdict" + (S.clean ? "" : " bad"), W.verdict);
      bad.id = "verdict";
      add(app, bad);
      return;
    }
    var bar = el("div", "bar");
    bar.setAttribute("role", "toolbar");
    function btn(label, title, fn, id) {
      var b = el("button", null, label);
      b.type = "button"; b.title = title; b.setAttribute("aria-label", title); b.id = id;
      b.addEventListener("click", fn);
      add(bar, b);
      return b;
    }
    var sel = el("select");
    sel.id = "deal-select";
    sel.setAttribute("aria-label", W.deal_word);
    W.deals.forEach(function (wd, i) {
      var o = el("option", null, wd.heading);
      o.value = String(i);
      add(sel, o);
    });
    sel.addEventListener("change", function () { go(+sel.value, 0); });
    add(bar, sel);
    parts.sel = sel;
    parts.first = btn("|◀", "Start of the " + W.deal_word.toLowerCase() + " (Home)", function () { go(state.d, 0); }, "b-home");
    parts.pt = btn("◀◀", "Previous trick (↑)", prevTrick, "b-ptrick");
    parts.pc = btn("◀", "Previous card (←)", prevCard, "b-pcard");
    parts.nc = btn("▶", "Next card (→)", nextCard, "b-ncard");
    parts.nt = btn("▶▶", "Next trick (↓)", nextTrick, "b-ntrick");
    parts.last = btn("▶|", "End of the " + W.deal_word.toLowerCase() + " (End)", function () {
      go(state.d, stepsOf(deals[state.d]).length - 1);
    }, "b-end");
    parts.pos = el("span", "pos");
    parts.pos.id = "pos";
    add(bar, parts.pos);
    var view = el("select");
    view.id = "seat-view";
    view.setAttribute("aria-label", "Whose view");
    var o0 = el("option", null, "All hands");
    o0.value = "-1";
    add(view, o0);
    NAMES.forEach(function (n, i) {
      var o = el("option", null, n + "'s view");
      o.value = String(i);
      add(view, o);
    });
    view.addEventListener("change", function () { state.seat = +view.value; draw(); });
    var lab = el("label", null, ["View ", view]);
    add(bar, lab);
    add(app, bar);
    add(app, el("p", "keys", "Keys: ← → a card, ↑ ↓ a trick, Home / End the start or end of the " +
      W.deal_word.toLowerCase() + ", Page Up / Page Down the previous or next " + W.deal_word.toLowerCase() + "."));
    parts.deal = el("section", "deal");
    parts.deal.id = "deal";
    add(app, parts.deal);
    var holder = document.getElementById("diagrams");  /* the table diagrams, drawn by phatlog as SVG */
    if (holder && holder.content) {
      Array.prototype.forEach.call(holder.content.querySelectorAll("figure.diagram"), function (f) {
        FIGS[f.getAttribute("data-deal") + ":" + f.getAttribute("data-trick")] = f;
      });
      parts.diagram = el("section", "diagram-box");
      parts.diagram.id = "diagram";
      add(parts.diagram, el("h2", null, "Table diagram"));
      parts.slot = el("div", "slot");
      add(parts.diagram, parts.slot);
      add(app, parts.diagram);
    }
    add(app, el("h2", null, "Score race"));
    parts.chart = el("div", "chart");
    parts.chart.id = "chart";
    add(app, parts.chart);
    buildChart();
    add(app, el("h2", null, "Problems"));
    add(app, problemList());
    if (W.end.length) {
      add(app, el("h2", null, "Result"));
      W.end.forEach(function (p) { add(app, el("div", "line", [el("b", null, p[0] + ": "), p[1]])); });
    }
    var v = el("div", "verdict" + (S.clean ? "" : " bad"), W.verdict);
    v.id = "verdict";
    add(app, v);
    document.addEventListener("keydown", onKey);
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    var k = e.key, done = true;
    if (k === "ArrowRight") { if (e.shiftKey) nextTrick(); else nextCard(); }
    else if (k === "ArrowLeft") { if (e.shiftKey) prevTrick(); else prevCard(); }
    else if (k === "ArrowDown") nextTrick();
    else if (k === "ArrowUp") prevTrick();
    else if (k === "Home") go(state.d, 0);
    else if (k === "End") go(state.d, stepsOf(deals[state.d]).length - 1);
    else if (k === "PageDown") go(state.d + 1, 0);
    else if (k === "PageUp") go(state.d - 1, 0);
    else done = false;
    if (done) e.preventDefault();
  }

  /* ------------------------------------------------------------------ one step of one deal */
  function draw() {
    var p = position(), deal = p.deal, wd = W.deals[state.d];
    var last = stepsOf(deal).length - 1;
    parts.sel.value = String(state.d);
    parts.first.disabled = parts.pt.disabled = parts.pc.disabled = state.d === 0 && state.s === 0;
    parts.nc.disabled = parts.nt.disabled = parts.last.disabled = state.d === deals.length - 1 && state.s === last;
    var where = p.end ? "end" : (p.st.t < 0 ? "start" : "trick " + (p.st.t + 1) + ", card " + p.n);
    parts.pos.textContent = W.deal_word + " " + deal.deal + " of " + deals.length + " · " + where;
    var box = parts.deal;
    while (box.firstChild) box.removeChild(box.firstChild);
    add(box, el("div", "dealhead", wd.heading));
    var lines = el("div", "dlines");
    // A pitched trump is a card the pitcher has not played yet at the deal's start: a player's view
    // (another seat's) names only who pitches until the first card is led.
    var unpitched = !p.end && p.st.t < 0 && state.seat >= 0 && deal.trump && deal.trump.how === "pitch" &&
      deal.trump.seat !== state.seat;
    wd.lines.forEach(function (l) {
      var text = l[0] === "Trump" && unpitched ? "set by " + name(deal.trump.seat) + "'s first lead" : l[1];
      var row = el("div", null, [el("b", null, l[0] + ": "), text]);
      if (l[0] === "Trump" && deal.trump && deal.trump.card && (deal.trump.how === "turnup" || state.seat < 0)) {
        add(row, [" ", cardText(deal.trump.card)]);
      }
      add(lines, row);
    });
    add(box, lines);
    add(box, tableEl(p));
    add(box, infoEl(p));
    if (wd.tricks) add(box, el("div", "scroll", tricksTable(p)));
    if (wd.best && state.seat < 0) add(box, bestEl(wd.best));  /* best play sees every hand: not in a seat's view */
    if (p.end) {
      if (wd.score) add(box, el("div", "scroll", plainTable(wd.score)));
      wd.notes.forEach(function (n) { add(box, el("div", "note", n)); });
    }
    showDiagram(p);
    markChart();
    if (history.replaceState) {
      var st = p.st, h = "#d" + deal.deal + (st.t >= 0 && !p.end ? "-t" + (st.t + 1) + "-c" + st.c : (p.end ? "-end" : ""));
      try { history.replaceState(null, "", h); } catch (err) { /* a file: page may refuse: no matter */ }
    }
  }

  /* The table diagram of the trick shown (or of the deal as dealt); none in a player's view, since it
     shows every hand. The figure is moved out of the page's template, never copied or parsed here: it is
     phatlog's own escaped SVG. */
  function showDiagram(p) {
    if (!parts.diagram) return;
    var deal = p.deal, at = p.end ? deal.tricks.length - 1 : p.st.t;
    var key = at >= 0 && deal.tricks[at] ? deal.tricks[at].trick : 0;
    var f = state.seat < 0 ? FIGS[state.d + ":" + key] || FIGS[state.d + ":0"] || null : null;
    parts.diagram.hidden = !f;
    if (f && parts.slot.firstChild !== f) {
      if (f.ownerDocument !== document) f = document.adoptNode(f);  /* out of the template, once */
      FIGS[state.d + ":" + f.getAttribute("data-trick")] = f;
      while (parts.slot.firstChild) parts.slot.removeChild(parts.slot.firstChild);
      parts.slot.appendChild(f);
    }
  }

  /* The table: the seats round it, each with its hand as it stands, and the trick in the middle. */
  function tableEl(p) {
    var deal = p.deal, four = NSEATS === 4;
    var t = el("div", "table " + (four ? "n4" : "ring"));
    t.id = "table";
    var top = Math.ceil(NSEATS / 2);
    if (!four) t.style.setProperty("--cols", String(top));
    for (var seat = 0; seat < NSEATS; seat++) {
      var sb = el("div", "seat" + (p.next === seat ? " turn" : ""));
      sb.setAttribute("data-seat", String(seat));
      if (four) sb.style.gridArea = "s" + seat;
      else if (seat < top) { sb.style.gridRow = "1"; sb.style.gridColumn = String(seat + 1); }
      else { sb.style.gridRow = "3"; sb.style.gridColumn = String(top - (seat - top)); }
      var who = el("div", "who", el("b", null, name(seat)));
      if (seat === deal.dealer) add(who, el("span", "badge", "dealer"));
      if (p.next === seat) add(who, el("span", "badge lead", p.cur && p.n > 0 && p.n < p.cur.plays.length ? "to play" : "leads"));
      if (deal.bids) add(who, el("span", "badge", "bid " + (deal.bids[seat] === undefined ? "—" : deal.bids[seat])));
      if (!PITCH && deal.tricks.length) {
        var tk = p.done >= 0 && deal.tricks[p.done].taken ? deal.tricks[p.done].taken[seat] : 0;
        add(who, el("span", "badge", "took " + tk));
      }
      add(sb, who);
      var hand = el("div", "hand");
      hand.setAttribute("data-seat", String(seat));
      if (!deal.hands) add(hand, el("span", "none", deal.kind === "score_sheet" ? "no cards recorded" : "hand not known"));
      else {
        var left = sortHand(deal.hands[seat].filter(function (c) { return !p.played[c]; }));
        var open = state.seat < 0 || state.seat === seat;
        if (!left.length) add(hand, el("span", "none", "no cards left"));
        left.forEach(function (c) { add(hand, cardEl(open ? c : null)); });
      }
      add(sb, hand);
      add(t, sb);
    }
    var tb = el("div", "trickbox");
    tb.id = "trick";
    if (!four) { tb.style.gridRow = "2"; }
    var title;
    if (p.end) title = "End of " + W.deal_word.toLowerCase() + " " + deal.deal;
    else if (!p.cur) title = deal.tricks.length ? "Before the first trick: " + name(deal.tricks[0].leader) + " leads" : "No tricks recorded";
    else title = "Trick " + p.cur.trick + " of " + deal.tricks.length + ": " + name(p.cur.leader) + " leads";
    add(tb, el("div", "title", title));
    if (p.cur) {
      tb.setAttribute("data-trick", String(p.cur.trick));
      var pl = el("div", "played");
      for (var k = 0; k < p.n; k++) {
        var play = p.cur.plays[k];
        var complete = p.n === p.cur.plays.length;
        var probs = play.flagged ? codesFor(p.cur, k) : "";
        add(pl, el("div", "pl", [cardEl(play.card, { big: true, win: complete && p.cur.replayed && play.card === p.cur.winning_card,
          flag: play.flagged, mark: "!", cost: play.cost }), el("span", null, name(play.seat)), probs ? el("b", "code", probs) : null]));
      }
      add(tb, pl);
    } else {
      tb.setAttribute("data-trick", "0");
      if (!p.end && deal.trump && deal.trump.how === "turnup" && deal.trump.card) {
        add(tb, el("div", "played", el("div", "pl", [cardEl(deal.trump.card, { big: true }), el("span", null, "turn-up")])));
      }
    }
    add(t, tb);
    return t;
  }
  /* With replay --analyse: what a card cost against best play, in the step's words. */
  function costLine(x) {
    var m = W.marks, cost = x.cost || 0;
    var parts = [name(x.seat) + " played ", cardText(x.card), ": it cost " + cost + " " +
      m.unit[cost === 1 ? 0 : 1] + " " + m.against];
    if (x.sd_cost !== undefined) {  /* --single-dummy: the cost on what the player knew, beside it */
      parts.push(" with every hand seen, " + x.sd_cost.toFixed(1) + " \u00b1 " + x.sd_ci.toFixed(1) +
        " on what " + name(x.seat) + " knew");
    }
    if (x.best && x.best.length) {  /* which cards were best, and what each was worth */
      parts.push(" (worth " + x.value + " " + m.worth + "; best: ");
      cardsOr(parts, x.best);
      parts.push(", worth " + x.best_value + ")");
    }
    if (x.sd_best && x.sd_best.indexOf(x.card) < 0) {
      parts.push(" (best on what " + name(x.seat) + " knew: "); cardsOr(parts, x.sd_best); parts.push(")");
    }
    return el("div", "line costline", parts);
  }
  function cardsOr(parts, cards) {
    cards.forEach(function (c, i) { if (i) parts.push(i === cards.length - 1 ? " or " : ", "); parts.push(cardText(c)); });
  }
  /* A card clearly worse on what its player knew: its expected cost above 0 beyond its interval. */
  function sdWorse(x) { return x.sd_cost !== undefined && x.sd_cost - x.sd_ci > 1e-9; }
  function codesFor(trick, k) {
    var ptr = "/cards/" + k;
    var codes = trick.diagnostics.filter(function (d) { return d.pointer && d.pointer.slice(-ptr.length) === ptr; })
      .map(function (d) { return d.code; });
    return codes.length ? codes.join(" ") : "!";
  }

  /* Under the table: what happened at this step, in the text replay's words. */
  function infoEl(p) {
    var deal = p.deal, wd = W.deals[state.d], box = el("div", "info");
    box.id = "info";
    var totals = scoreNow(p);
    if (p.cur) {
      var row = wd.tricks.rows[p.st.t], cells = row.cells;
      var complete = p.n === p.cur.plays.length;
      var flaggedShown = p.cur.plays.slice(0, p.n).some(function (x) { return x.flagged; });
      if (complete) {
        var whyIdx = 2 + NSEATS + 1;
        var won = p.cur.winner === null ? "Not replayed" : "Won by " + name(p.cur.winner) + ": " + cells[whyIdx][0];
        add(box, el("div", "line", won));
        if (PITCH) {
          var pegs = cells[whyIdx + 1][0];
          if (pegs) add(box, el("div", "line", "Pegs: " + pegs));
        } else if (p.cur.taken) {
          add(box, el("div", "line", "Taken so far: " + p.cur.taken.map(function (n, s) { return name(s) + " " + n; }).join(", ")));
        }
        if (p.cur.game_won && W.end.length) add(box, el("div", "line", el("b", null, W.end[0][1])));
        row.notes.forEach(function (n) { add(box, el("div", "note", n)); });
      } else {
        add(box, el("div", "line", p.next === null ? "" : name(p.next) + " to play"));
      }
      if (complete || flaggedShown) row.problems.forEach(function (pr) { add(box, el("div", "prob sev-" + pr[0], pr[1])); });
      if (W.marks) p.cur.plays.slice(0, p.n).forEach(function (x) { if (x.cost || sdWorse(x)) add(box, costLine(x)); });
    } else if (p.end) {
      var rows = wd.tricks ? wd.tricks.rows.filter(function (r) { return r.kind === "bonus"; }) : [];
      rows.forEach(function (r) {
        var c = r.cells;
        var who = c[2 + NSEATS][0], pts = c[4 + NSEATS][0];
        add(box, el("div", "line", c[3 + NSEATS][0] + (who !== "—" && pts && pts !== "—" ? " — " + who + " peg " + pts : "")));
        r.notes.forEach(function (n) { add(box, el("div", "note", n)); });
      });
      wd.problems.forEach(function (t, i) {
        add(box, el("div", "prob sev-" + deal.diagnostics[i].severity, t));
      });
      if (state.d === deals.length - 1 && W.end.length) add(box, el("div", "line", el("b", null, W.end[0][1])));
    } else {
      add(box, el("div", "line", deal.tricks.length ? name(deal.tricks[0].leader) + " leads the first trick" : "No tricks recorded: a score sheet"));
    }
    if (totals) {
      add(box, el("div", "score", (PITCH ? "Score: " : "Totals: ") + SIDES.map(function (n, s) { return n + " " + totals[s]; }).join(", ")));
    }
    if (state.seat >= 0) add(box, seenEl(p));
    return box;
  }

  /* A player's view: the cards seen so far, trick by trick. */
  function seenEl(p) {
    var deal = p.deal, box = el("div", "seen");
    box.id = "seen";
    add(box, el("b", null, "Seen so far by " + name(state.seat)));
    if (deal.trump && deal.trump.how === "turnup" && deal.trump.card) {
      add(box, el("div", "row", ["turn-up ", cardEl(deal.trump.card)]));
    }
    deal.tricks.forEach(function (tr, i) {
      var upto = i < p.st.t || p.end ? tr.plays.length : (i === p.st.t ? p.n : 0);
      if (!upto) return;
      var row = el("div", "row", "trick " + tr.trick + ": ");
      for (var k = 0; k < upto; k++) add(row, cardEl(tr.plays[k].card));
      add(box, row);
    });
    return box;
  }

  /* The deal's tricks as the text replay lays them out; the current trick marked, each row a link. */
  /* The table is made again only when the rows shown change (another deal, view, or a trick more in a
     player's view); otherwise only the current row's mark moves. */
  var tableCache = { key: null, el: null };
  function tricksTable(p) {
    var deal = p.deal, shown = [];
    for (var i = 0; i < W.deals[state.d].tricks.rows.length; i++) {
      var isTrick = i < deal.tricks.length;
      if (state.seat < 0 || (isTrick ? i < p.st.t || p.end || (i === p.st.t && p.n === deal.tricks[i].plays.length) : p.end)) {
        shown.push(i);
      }
    }
    var key = state.d + ":" + state.seat + ":" + shown.length;
    if (tableCache.key !== key) tableCache = { key: key, el: makeTricksTable(p, shown) };
    var rows = tableCache.el.querySelectorAll("tr[data-i]");
    for (var k = 0; k < rows.length; k++) {
      var ri = +rows[k].getAttribute("data-i");
      var cur = ri < deal.tricks.length ? (p.cur && ri === p.st.t) : p.end;
      rows[k].classList.toggle("cur", !!cur);
    }
    return tableCache.el;
  }
  function makeTricksTable(p, shown) {
    var wd = W.deals[state.d], t = wd.tricks, deal = p.deal;
    var tb = el("table", "t tricks");
    tb.id = "tricks";
    var hr = el("tr");
    t.headers.forEach(function (h, i) { add(hr, el("th", t.right[i] ? "r" : null, h)); });
    add(tb, el("thead", null, hr));
    var body = el("tbody");
    var cards = {};
    t.cards.forEach(function (i) { cards[i] = true; });
    shown.forEach(function (i) {
      var r = t.rows[i], isTrick = i < deal.tricks.length;
      var dim = r.cells.length && r.cells[0][1] && r.cells[0][1].indexOf("d") >= 0;
      var tr = el("tr", (isTrick ? "click" : "") + (dim ? " dim" : ""));
      tr.setAttribute("data-i", String(i));
      r.cells.forEach(function (c, j) {
        var f = c[1] || "";
        var td = el("td", (t.right[j] ? "r " : "") + (f.indexOf("w") >= 0 ? "w " : "") + (f.indexOf("f") >= 0 ? "f" : ""));
        if (cards[j] && isTrick) {
          var play = deal.tricks[i].plays.filter(function (x) { return x.seat === j - 2; })[0];
          if (play) add(td, cardText(play.card));
          if (play && play.cost) add(td, el("span", "costmark", " (\u2212" + play.cost + ")"));
        } else add(td, c[0]);
        add(tr, td);
      });
      if (isTrick) tr.addEventListener("click", function () { go(state.d, completeStep(state.d, i)); });
      add(body, tr);
      r.notes.concat(r.problems.map(function (x) { return x[1]; })).forEach(function (n, k) {
        var td = el("td", k < r.notes.length ? "note" : "prob", n);
        td.colSpan = t.headers.length - 1;
        add(body, el("tr", "sub", [el("td"), td]));
      });
    });
    add(tb, body);
    return tb;
  }
  /* replay --analyse --line/--pitch: the pitch table and the best line, in words. */
  function bestEl(best) {
    var box = el("div", "info best");
    box.id = "best";
    if (best.pitch) {
      add(box, el("div", "line", el("b", null, best.pitch.title)));
      var tb = el("table", "t pitch"), hr = el("tr");
      best.pitch.headers.forEach(function (h) { add(hr, el("th", null, h)); });
      add(tb, el("thead", null, hr));
      var body = el("tbody");
      best.pitch.rows.forEach(function (r) { add(body, el("tr", null, r.map(function (c) { return el("td", null, c); }))); });
      add(tb, body);
      add(box, el("div", "scroll", tb));
    }
    if (best.line) {
      add(box, el("div", "line", el("b", null, best.line.title)));
      best.line.lines.forEach(function (l) { add(box, el("div", "line", l)); });
    }
    return box;
  }
  function plainTable(t) {
    var tb = el("table", "t score");
    var hr = el("tr");
    t.headers.forEach(function (h, i) { add(hr, el("th", t.right[i] ? "r" : null, h)); });
    add(tb, el("thead", null, hr));
    var body = el("tbody");
    t.rows.forEach(function (r) {
      var tr = el("tr");
      r.cells.forEach(function (c, j) {
        add(tr, el("td", (t.right[j] ? "r " : "") + ((c[1] || "").indexOf("f") >= 0 ? "f" : ""), c[0]));
      });
      add(body, tr);
    });
    add(tb, body);
    return tb;
  }

  /* ------------------------------------------------------------------ problems */
  function problemList() {
    var ul = el("ul", "problems");
    ul.id = "problems";
    var any = false;
    function item(sev, text, d, s) {
      any = true;
      var li = el("li", "prob sev-" + sev);
      if (d === null) add(li, text);
      else {
        var a = el("a", null, W.deal_word + " " + deals[d].deal + ": " + text);
        a.href = "#";
        a.addEventListener("click", function (e) {
          e.preventDefault();
          go(d, s);
          if (parts.deal.scrollIntoView) parts.deal.scrollIntoView();
        });
        add(li, a);
      }
      add(ul, li);
    }
    deals.forEach(function (deal, d) {
      var wd = W.deals[d];
      deal.tricks.forEach(function (tr, t) {
        tr.diagnostics.forEach(function (diag, k) {
          var at = -1;
          tr.plays.forEach(function (x, i) { if (at < 0 && x.flagged) at = i; });
          var s = at >= 0 ? stepOf(d, t, at + 1) : completeStep(d, t);
          item(diag.severity, "trick " + tr.trick + ": " + wd.tricks.rows[t].problems[k][1], d, s);
        });
      });
      deal.diagnostics.forEach(function (diag, k) { item(diag.severity, wd.problems[k], d, stepsOf(deal).length - 1); });
    });
    S.diagnostics.forEach(function (diag, k) { item(diag.severity, W.problems[k], null, 0); });
    if (!any) add(ul, el("li", null, "None: verify finds nothing to report."));
    return ul;
  }

  /* ------------------------------------------------------------------ the score race */
  var chartPts = [], chartX = null;
  function buildChart() {
    var nsides = SIDES.length;
    var pts = [{ d: 0, s: 0, v: zeros(nsides) }];
    deals.forEach(function (deal, d) {
      var endS = stepsOf(deal).length - 1;
      if (PITCH) {
        deal.tricks.forEach(function (tr, t) {
          if (tr.total) pts.push({ d: d, s: completeStep(d, t), v: tr.total, trick: tr.trick });
        });
        deal.bonuses.forEach(function (b) { if (b.totals) pts.push({ d: d, s: endS, v: b.totals, bonus: b.label }); });
      }
      (deal.rulings || []).forEach(function (r) {  /* format 1.1: a penalty or an adjustment, its own step */
        if (r.totals) pts.push({ d: d, s: endS, v: r.totals, ruling: r.text });
      });
      if (deal.totals) pts.push({ d: d, s: endS, v: deal.totals, end: true });
    });
    chartPts = pts;
    var Wd = Math.max(360, Math.min(1000, (app.clientWidth || 1000) - 24)), H = Wd < 600 ? 240 : 280, L = 44, R = 12, T = 14, B = 30;
    var lo = 0, hi = 1;
    pts.forEach(function (pt) { pt.v.forEach(function (v) { lo = Math.min(lo, v); hi = Math.max(hi, v); }); });
    var target = S.rules && typeof S.rules.target === "number" ? S.rules.target : null;
    if (target !== null) hi = Math.max(hi, target);
    hi = hi + (hi - lo) * 0.05;
    var n = Math.max(1, pts.length - 1);
    function x(i) { return L + (Wd - L - R) * i / n; }
    function y(v) { return T + (H - T - B) * (hi - v) / (hi - lo); }
    chartX = x;
    var g = svg("svg", { viewBox: "0 0 " + Wd + " " + H, role: "img", "aria-label": "Score race: running totals of every side" });
    g.appendChild(svg("rect", { x: L, y: T, width: Wd - L - R, height: H - T - B, fill: "#fcfcfa", stroke: "#ccc" }));
    var step = niceStep((hi - lo) / 5);
    for (var v = Math.ceil(lo / step) * step; v <= hi; v += step) {
      g.appendChild(svg("line", { x1: L, x2: Wd - R, y1: y(v), y2: y(v), stroke: "#eee" }));
      var tl = svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 12, fill: "#666" });
      tl.textContent = String(v);
      g.appendChild(tl);
    }
    /* deal boundaries, and a label every few deals */
    var every = Math.max(1, Math.ceil(deals.length / 12));
    var firstOf = {};
    pts.forEach(function (pt, i) { if (i && firstOf[pt.d] === undefined) firstOf[pt.d] = i; });
    deals.forEach(function (deal, d) {
      if (firstOf[d] === undefined) return;
      var xi = x(firstOf[d] - 1);
      if (deals.length <= 60) g.appendChild(svg("line", { x1: xi, x2: xi, y1: T, y2: H - B, stroke: "#e4e1d8" }));
      if (d % every === 0) {
        var lab = svg("text", { x: xi + 2, y: H - B + 16, "font-size": 12, fill: "#666" });
        lab.textContent = (d === 0 ? W.deal_word.toLowerCase() + " " : "") + deal.deal;
        g.appendChild(lab);
      }
    });
    if (target !== null) {
      g.appendChild(svg("line", { "class": "target", x1: L, x2: Wd - R, y1: y(target), y2: y(target), stroke: "#444",
        "stroke-dasharray": "6 4" }));
      var tt = svg("text", { x: L + 6, y: y(target) - 5, "font-size": 12, fill: "#444" });
      tt.textContent = "target " + target;
      g.appendChild(tt);
    }
    var dots = pts.length <= 1500;
    for (var side = 0; side < nsides; side++) {
      var colour = COLOURS[side % COLOURS.length];
      var d = pts.map(function (pt, i) { return x(i).toFixed(1) + "," + y(pt.v[side]).toFixed(1); }).join(" ");
      var line = svg("polyline", { "class": "race-line", "data-side": side, points: d, fill: "none", stroke: colour,
        "stroke-width": 2.2, "stroke-linejoin": "round" });
      var ttl = svg("title", {});
      ttl.textContent = SIDES[side];
      line.appendChild(ttl);
      g.appendChild(line);
      if (dots) {
        pts.forEach(function (pt, i) {
          if (i && pt.v[side] !== pts[i - 1].v[side]) {
            g.appendChild(svg("circle", { "class": "peg", cx: x(i).toFixed(1), cy: y(pt.v[side]).toFixed(1), r: 2.6, fill: colour }));
          }
        });
      }
    }
    var e = S.end;
    var wonWith = null;
    if (e && e.winners && e.winners.length && e.deal) {
      var wi = -1;
      pts.forEach(function (pt, i) {
        if (deals[pt.d].deal !== e.deal) return;
        if (e.how === "trick" ? pt.trick === e.trick : e.how === "bonus" ? pt.bonus === e.bonus && wi < 0 : pt.end) {
          if (wi < 0 || e.how !== "bonus") wi = i;
        }
      });
      if (wi >= 0) {
        var ws = e.winners[0];
        g.appendChild(svg("circle", { "class": "winning-peg", cx: x(wi), cy: y(pts[wi].v[ws]), r: 7, fill: "none",
          stroke: "#111", "stroke-width": 2.5 }));
        /* the words go under the chart, beside the legend, where no line can cross them; the ring marks the peg */
        wonWith = SIDES[ws] + " win" + (S.sides[ws] && S.sides[ws].seats.length === 1 ? "s" : "") + " with " + pts[wi].v[ws];
      }
    }
    var cursor = svg("line", { id: "cursor", x1: L, x2: L, y1: T, y2: H - B, stroke: "#d4a000", "stroke-width": 2 });
    g.appendChild(cursor);
    parts.cursor = cursor;
    g.addEventListener("click", function (ev) {
      var r = g.getBoundingClientRect();
      var xv = (ev.clientX - r.left) * Wd / r.width;
      var i = Math.round((xv - L) / (Wd - L - R) * n);
      i = Math.max(0, Math.min(pts.length - 1, i));
      go(pts[i].d, pts[i].s);
    });
    add(parts.chart, g);
    var legend = el("div", "legend");
    SIDES.forEach(function (nm, s) {
      var i = el("i");
      i.style.background = COLOURS[s % COLOURS.length];
      add(legend, el("span", null, [i, nm]));
    });
    if (wonWith) add(legend, el("b", "won", ["\u25ef ", wonWith]));
    add(parts.chart, legend);
  }
  function zeros(n) { var a = []; for (var i = 0; i < n; i++) a.push(0); return a; }
  function niceStep(raw) {
    var p = Math.pow(10, Math.floor(Math.log(Math.max(raw, 1)) / Math.LN10));
    var m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function markChart() {
    if (!parts.cursor || !chartX) return;
    var at = 0;
    for (var i = 0; i < chartPts.length; i++) {
      var pt = chartPts[i];
      if (pt.d < state.d || (pt.d === state.d && pt.s <= state.s)) at = i;
    }
    parts.cursor.setAttribute("x1", chartX(at));
    parts.cursor.setAttribute("x2", chartX(at));
  }

  /* ------------------------------------------------------------------ start */
  build();
  if (deals.length) {
    var m = /^#d(\d+)(?:-t(\d+)(?:-c(\d+))?|-(end))?$/.exec(location.hash || "");
    var d0 = 0, s0 = 0;
    if (!m && DATA.trick) {
      deals[0].tricks.forEach(function (tr, i) { if (tr.trick === DATA.trick) s0 = completeStep(0, i); });
    }
    if (m) {
      deals.forEach(function (deal, i) { if (deal.deal === +m[1]) d0 = i; });
      if (m[4]) s0 = stepsOf(deals[d0]).length - 1;
      else if (m[2]) s0 = stepOf(d0, +m[2] - 1, m[3] ? +m[3] : (deals[d0].tricks[+m[2] - 1] || { plays: [] }).plays.length);
    }
    go(d0, s0);
  }
})();
