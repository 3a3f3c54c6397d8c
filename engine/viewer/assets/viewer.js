// truco replay viewer: reads the steps embedded in the page (engine/viewer/steps.py) and draws
// the table at one step. It decides nothing about the game: every card a seat may not see is
// hidden because the engine's observation says so (the "ov" of each step).
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("truco-data").textContent);
  var INFO = DATA.info;
  var OWN = DATA.own;
  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var N = INFO.players;
  I18N.teamSeats(INFO.team_of);

  // Every step whole: each carries what the one before had, unless it says otherwise.
  var states = [];
  var carried = {};
  DATA.steps.forEach(function (step) {
    var state = {};
    Object.keys(carried).forEach(function (k) { state[k] = carried[k]; });
    OWN.forEach(function (k) { delete state[k]; });
    Object.keys(step).forEach(function (k) { state[k] = step[k]; });
    states.push(state);
    carried = state;
  });
  var handStarts = [];
  states.forEach(function (s, i) { if (s.k === "deal") { handStarts.push(i); } });

  var current = 0;
  var eye = "all"; // "all" or a seat number

  // -- truco analyze's annotations (--analysis): by the log line of each decision's move ---
  // [seat, team, played move's chance to win, best move's, loss, mark, played, best move,
  //  hindsight's best move, hindsight's loss] (engine/viewer/annotations.py)
  var AN = DATA.an || null;
  var GLYPH = { inaccuracy: "?!", mistake: "?", blunder: "??" };
  var MARK = { inaccuracy: _("inaccuracy"), mistake: _("mistake"), blunder: _("blunder") };
  function markName(mark) { return MARK[mark] || mark; }
  function note(state) {
    var a = AN && state.k === "move" ? AN.by_line[String(state.ln)] : null;
    // one seat's eyes: its own decisions only (another's was made from cards it cannot see)
    return a && a[2] !== null && (eye === "all" || a[0] === eye) ? a : null;
  }
  // team 0's chance from a decision: its own, or with two teams 1 less the other's (with
  // three teams or more, only team 0's decisions tell it)
  function tells(a) { return a && (AN.teams === 2 || a[1] === 0); }
  function forTeam0(a, win) { return a[1] === 0 ? win : 1 - win; }
  var evals = [];
  function evaluate() {  // each step's chance to win the match, for team 0, after the step
    evals = [];
    var first = null;
    states.forEach(function (s) { var a = note(s); if (tells(a) && !first) { first = a; } });
    var last = first ? forTeam0(first, first[3]) : 0.5;
    states.forEach(function (s) {
      var a = note(s);
      if (tells(a)) { last = forTeam0(a, a[2]); }
      evals.push(last);
    });
  }
  function pct(x) { return Math.round(100 * x) + "%"; }
  function teamNames(team) {
    return INFO.names.filter(function (n, s) { return teamOf(s) === team; }).join(" & ");
  }
  function drawEval() {
    if (!AN) { return; }
    var v = evals[current];
    byId("evalfill").style.width = (100 * v).toFixed(1) + "%";
    byId("evaltext").textContent = _("{chances} to win the match", { chances: AN.teams === 2 ?
      teamNames(0) + " " + pct(v) + " \u00b7 " + teamNames(1) + " " + pct(1 - v) :
      teamNames(0) + " " + pct(v) });
    var svg = byId("evalgraph");
    var ns = svg.namespaceURI;  // the SVG namespace, named by no address in the page
    svg.textContent = "";
    var n = Math.max(1, states.length - 1);
    function x(i) { return (1000 * i / n).toFixed(1); }
    function y(p) { return (76 - 72 * p).toFixed(1); }
    function add(tag, attrs) {
      var e = document.createElementNS(ns, tag);
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      svg.appendChild(e);
      return e;
    }
    add("line", { x1: 0, x2: 1000, y1: y(0.5), y2: y(0.5), "class": "half" });
    add("polyline", { "class": "curve", points: evals.map(function (p, i) {
      return x(i) + "," + y(p); }).join(" ") });
    states.forEach(function (s, i) {
      var a = note(s);
      if (a && a[5]) {
        add("rect", { x: x(i) - 5, y: y(evals[i]) - 5, width: 10, height: 10,
                      "class": a[5] }).appendChild(document.createElementNS(ns, "title"))
          .textContent = _("{mark}: {played}, better {best}", { mark: markName(a[5]), played: a[6], best: a[7] });
      }
    });
    add("line", { x1: x(current), x2: x(current), y1: 0, y2: 80, "class": "now" });
  }
  function markText(a) {
    var text = a[5] ? _("{mark} (\u2212{loss}): better {best}", { mark: markName(a[5]), loss: I18N.decimal(a[4].toFixed(3)), best: a[7] })
      : a[4] > 0 ? _("chance to win {chance}, best {best} {best_chance}", { chance: pct(a[2]), best: a[7], best_chance: pct(a[3]) })
        : _("chance to win {chance}, the best move", { chance: pct(a[2]) });
    if (a[8] !== null) { text += " \u00b7 " + _("in hindsight: {best}", { best: a[8] }); }
    return text;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function byId(id) { return document.getElementById(id); }
  function name(seat) { return INFO.names[seat] === "you" ? _("you") : INFO.names[seat]; }
  function teamOf(seat) { return INFO.team_of[seat]; }
  function teamLabel(team, inSentence) {
    var seats = [];
    for (var s = 0; s < N; s++) { if (teamOf(s) === team) { seats.push(name(s)); } }
    var fields = { team: team, seats: seats.join(", ") };
    return inSentence ? _("team {team} ({seats})", fields) : _("Team {team} ({seats})", fields);
  }

  // -- cards ----------------------------------------------------------------------------------
  function cardFace(code, state, extra) {
    var d = el("div", "card face" + (extra ? " " + extra : ""));
    d.dataset.card = code;
    var rank, suit = "";
    if (code.charAt(0) === "X") {
      rank = "\u2605"; // a joker: the star, its number below it
      suit = code.slice(1);
      d.classList.add("joker");
    } else {
      rank = code.charAt(0) === "T" ? "10" : code.charAt(0);
      suit = SUITS[code.charAt(1)];
      if (code.charAt(1) === "h" || code.charAt(1) === "d") { d.classList.add("red"); }
    }
    d.appendChild(el("span", "rank", rank));
    d.appendChild(el("span", "suit", suit));
    var title = code.charAt(0) === "X" ? _("joker {card}", { card: code }) : rank + suit;
    if (state && state.ma && state.ma.indexOf(code) >= 0) {
      d.classList.add("manilha");
      d.appendChild(el("span", "mark", "M"));
      title += " (manilha)";
    }
    // a card's name (the variant's card_names): a manilha's in a hand where it is one (a
    // vira names them), an extra card's (a joker: X1 coringa) always
    var called = INFO.card_names[code];
    var manilha = state && state.ma && state.ma.indexOf(code) >= 0;
    if (called && (manilha || code.charAt(0) === "X")) {
      d.appendChild(el("span", "called", called));
      title += " " + called;
    }
    d.title = title;
    return d;
  }
  function cardBack(extra) {
    var d = el("div", "card back" + (extra ? " " + extra : ""));
    d.title = _("face down");
    return d;
  }

  // What the eye sees: every card ("all"), or one seat's view from the engine's observation.
  function view(state, seat) { return state.ov ? state.ov[seat] : [1, [], [], 0, 1, null]; }
  function seesHand(state, owner) {
    if (eye === "all") { return true; }
    var v = view(state, eye);
    return (owner === eye && v[0] === 1) || v[1].indexOf(owner) >= 0;
  }
  function seesPlayed(state, index) {
    return eye === "all" || view(state, eye)[2].indexOf(index) < 0;
  }

  // Who must act outside the play of a card (a raise's answer, a decision, a song), as the
  // eye may know it (steps.py: who must sing a flor only the singer knows before he sings).
  var ACTS = { answer: _("to answer"), bet_answer: _("to answer"), decide: _("to decide"),
               sing: _("to sing") };
  function acting(state) {
    var seats = eye === "all" ? state.ac : view(state, eye)[5];
    return seats || [];
  }
  function names(seats) { return seats.map(name).join(" " + _("or") + " "); }

  // -- the table ------------------------------------------------------------------------------
  function seatPosition(seat) {
    var bottom = eye === "all" ? 0 : eye;
    var k = ((seat - bottom) % N + N) % N;
    var angle = 2 * Math.PI * k / N; // counter-clockwise from the bottom: the next seat is right
    return { x: 50 + 38 * Math.sin(angle), y: 50 + 38 * Math.cos(angle), k: k };
  }

  function currentRound(state) {
    var r = 0;
    (state.pl || []).forEach(function (p) { if (p[0] > r) { r = p[0]; } });
    return r;
  }

  function drawTable(state) {
    var table = byId("table");
    table.textContent = "";
    var round = currentRound(state);
    for (var seat = 0; seat < N; seat++) {
      var pos = seatPosition(seat);
      var box = el("div", "seat team" + teamOf(seat));
      box.dataset.seat = seat;
      box.style.left = pos.x + "%";
      box.style.top = pos.y + "%";
      if (state.t === seat) { box.classList.add("turn"); }
      var acts = acting(state).indexOf(seat) >= 0;
      if (acts) { box.classList.add("acts"); }
      if (eye !== "all" && eye === seat) { box.classList.add("me"); }
      var head = el("div", "who");
      head.appendChild(el("span", "name", name(seat)));
      head.appendChild(el("span", "team", _("team {team}", { team: teamOf(seat) })));
      if (state.d === seat) { head.appendChild(el("span", "badge dealer", _("dealer"))); }
      if (state.mao === seat) { head.appendChild(el("span", "badge mao", "m\u00e3o")); }
      if (state.t === seat) { head.appendChild(el("span", "badge turn", _("to play"))); }
      if (acts) { head.appendChild(el("span", "badge acts", ACTS[state.ph] || _("to act"))); }
      box.appendChild(head);
      var hand = el("div", "hand");
      var cards = (state.hs && state.hs[seat]) || [];
      var open = seesHand(state, seat);
      if (cards.length > 3) { hand.classList.add("many"); }
      cards.forEach(function (c) { hand.appendChild(open ? cardFace(c, state) : cardBack()); });
      if (!cards.length) { hand.appendChild(el("span", "empty", _("no cards"))); }
      box.appendChild(hand);
      table.appendChild(box);
      // the seat's card of the latest round, in front of it (towards the middle)
      var front = el("div", "front");
      front.dataset.seat = seat;
      front.style.left = (50 + (pos.x - 50) * 0.58) + "%";
      front.style.top = (50 + (pos.y - 50) * 0.56) + "%";
      (state.pl || []).forEach(function (p, i) {
        if (p[0] !== round || p[1] !== seat) { return; }
        var covered = p[3] === 1;
        if (seesPlayed(state, i)) {
          front.appendChild(cardFace(p[2], state, covered ? "covered" : ""));
        } else {
          front.appendChild(cardBack("covered"));
        }
        if (covered) { front.appendChild(el("div", "note", "coberta")); }
      });
      table.appendChild(front);
    }
    table.appendChild(drawMiddle(state, round));
  }

  function drawMiddle(state, round) {
    var mid = el("div", "middle");
    var vira = el("div", "vira");
    if (state.vi) {
      vira.appendChild(el("div", "label", "vira"));
      vira.appendChild(cardFace(state.vi, null));
    }
    mid.appendChild(vira);
    if (state.ma && state.ma.length) {
      var ma = el("div", "manilhas");
      ma.appendChild(el("span", "label", _("manilhas, strongest first")));
      state.ma.forEach(function (c) {
        var called = INFO.card_names[c];
        ma.appendChild(el("span", "mini" + (/[hd]$/.test(c) ? " red" : ""),
          pretty(c) + (called ? " (" + called + ")" : "")));
      });
      mid.appendChild(ma);
    }
    var rounds = el("div", "rounds");
    rounds.id = "rounds";
    (state.rr || []).forEach(function (w, i) {
      rounds.appendChild(el("span", "round" + (w === null ? " tied" : " won" + w),
        w === null ? _("round {n}: tied", { n: i + 1 }) : _("round {n}: team {team}", { n: i + 1, team: w })));
    });
    if (round > (state.rr || []).length) {
      rounds.appendChild(el("span", "round open", _("round {n} in play", { n: round })));
    }
    mid.appendChild(rounds);
    return mid;
  }

  function pretty(code) {
    if (code.charAt(0) === "X") { return code; }
    return (code.charAt(0) === "T" ? "10" : code.charAt(0)) + SUITS[code.charAt(1)];
  }

  function drawBoard(state) {
    var score = byId("score");
    score.textContent = "";
    for (var t = 0; t < INFO.teams; t++) {
      var row = el("div", "team-score team" + t);
      row.dataset.team = t;
      row.appendChild(el("span", "label", teamLabel(t)));
      row.appendChild(el("span", "points", String(state.sc ? state.sc[t] : 0)));
      row.appendChild(el("span", "games", _("games {n}", { n: state.g ? state.g[t] : 0 })));
      score.appendChild(row);
    }
    byId("hand-no").textContent = state.n ? _("Hand {n}", { n: state.n }) : "";
    byId("value").textContent = state.v === undefined ? "" : String(state.v);
    var pending = byId("pending");
    pending.textContent = "";
    if (state.pr) {
      var p = state.pr;
      var text = INFO.names[p[0]] === "you" ? _("you ask {raise} ({value})", { raise: p[2] || "", value: p[1] })
        : _("{who} asks {raise} ({value})", { who: name(p[0]), raise: p[2] || "", value: p[1] });
      pending.appendChild(el("span", "ask", text));
      if (p[3]) {
        if (eye === "all" || view(state, eye)[3] === 1) {
          pending.appendChild(el("span", "with", " " + _("with") + " "));
          pending.appendChild(cardFace(p[3], state, "small"));
        } else {
          pending.appendChild(el("span", "with", " " + _("with a card")));
        }
      }
      pending.classList.add("on");
    } else {
      pending.textContent = _("none");
      pending.classList.remove("on");
    }
    var special = byId("special");
    if (state.sp) {
      special.textContent = state.sp[0] + (state.sp[1] === null || state.sp[1] === undefined
        ? "" : " " + _("for team {team}", { team: state.sp[1] })) + (state.bl ? " " + _("(blind)") : "");
      special.classList.add("on");
    } else {
      special.textContent = _("normal hand");
      special.classList.remove("on");
    }
    var shown = byId("shown");
    shown.textContent = "";
    (state.sh || []).forEach(function (x) {
      shown.appendChild(el("span", "shown-card", INFO.names[x[0]] === "you" ?
        _("you showed {card} with a raise", { card: pretty(x[1]) }) :
        _("{who} showed {card} with a raise", { who: name(x[0]), card: pretty(x[1]) })));
    });
    drawBets(state);
  }

  // -- side bets (envido, flor: G22-G41) ------------------------------------------------------
  function calls(bet) { return bet[1].join(" - "); }
  function wins(bet) {
    return bet[4] === null || bet[4] === undefined ? "" : ": " + ngettext(
      "{team} wins {n} point", "{team} wins {n} points", bet[5], { team: teamLabel(bet[4], true), n: bet[5] });
  }
  function betLine(bet) {
    var word = bet[3];
    if (word === "") { return _("not called"); }
    var who = bet[2] === null || bet[2] === undefined ? "" : name(bet[2]) + ": ";
    if (word === "killed") { return who + calls(bet) + " \u00b7 " + _("annulled"); }
    if (word === "waits") { return who + calls(bet) + " \u00b7 " + _("waits for an answer"); }
    var sung = bet[7].length ? " \u00b7 " + _("sung by {who}", { who: bet[7].map(name).join(", ") }) : "";
    if (word === "called") { return calls(bet) + sung; }
    if (word === "sung") { return _("sung by {who}", { who: bet[7].map(name).join(", ") }) + wins(bet); }
    var said = bet[6].map(function (d) {
      return name(d[0]) + " " + (d[1] === null ? "\u201cs\u00e3o boas\u201d" : d[1]);
    }).join(", ");
    var told = { accepted: _("accepted"), refused: _("refused"), conceded: _("conceded") }[word];
    return who + calls(bet) + " \u00b7 " + (told || word) + (said ? " (" + said + ")" : "") + wins(bet);
  }
  function drawBets(state) {
    var on = !!state.sb;
    document.querySelectorAll(".side").forEach(function (e) { e.hidden = !on; });
    if (!on) { return; }
    var pending = byId("side-pending");
    var waiting = state.sb.filter(function (b) { return b[3] === "waits"; });
    pending.textContent = waiting.length ? waiting.map(function (b) {
      var who = acting(state);
      return _("{who}'s {call} waits for {whom}", { call: b[1][b[1].length - 1], who: name(b[2]),
        whom: who.length ? names(who) : _("an answer") });
    }).join("; ") : (state.ph === "sing" ? _("a flor is sung") : _("none"));
    pending.classList.toggle("on", waiting.length > 0 || state.ph === "sing");
    var bets = byId("bets");
    bets.textContent = "";
    state.sb.forEach(function (b) {
      var row = el("div", "bet " + (b[3] || "none"));
      row.dataset.bet = b[0];
      row.appendChild(el("span", "bet-name", b[0]));
      row.appendChild(el("span", "bet-state", betLine(b)));
      bets.appendChild(row);
    });
    (state.ss || []).forEach(function (x) {
      var row = el("div", "bet show");
      row.appendChild(el("span", "bet-name", INFO.names[x[0]] === "you" ? _("you show") : _("{who} shows", { who: name(x[0]) })));
      var cards = el("span", "bet-state");
      x[1].forEach(function (c) { cards.appendChild(cardFace(c, state, "small")); });
      if (x[2]) { cards.appendChild(el("span", "for", " (" + x[2] + ")")); }
      row.appendChild(cards);
      bets.appendChild(row);
    });
    if (eye !== "all") {
      var mine = view(state, eye)[6];
      if (mine) {
        bets.appendChild(el("div", "bet mine", _("your points: {points}", { points: state.sb.map(function (b, i) {
          return b[0] + " " + (mine[i] === null ? _("none") : mine[i]);
        }).join(" \u00b7 ") })));
      }
    }
  }

  function moveText(state) {
    if (state.tm && eye !== "all" && view(state, eye)[4] === 0) { return state.tm; }
    return state.tx || "";
  }

  function drawNow(state) {
    var now = byId("now");
    now.textContent = "";
    now.className = state.k === "error" ? "error" : "";
    var line = el("div", "what", moveText(state));
    now.appendChild(line);
    (state.cp || []).forEach(function (c) { now.appendChild(el("div", "checkpoint", c)); });
    var a = note(state);
    if (a) { now.appendChild(el("div", "better " + (a[5] ? "mark-" + a[5] : ""), markText(a))); }
    if (state.ln) { now.appendChild(el("div", "line", _("log line {n}", { n: state.ln }))); }
  }

  function buildList() {
    var list = byId("moves");
    list.textContent = "";
    evaluate();
    states.forEach(function (s, i) {
      var li = el("li", "step " + s.k);
      li.dataset.step = i;
      li.appendChild(el("span", "no", String(i)));
      li.appendChild(el("span", "text", moveText(s)));
      var a = note(s);
      if (a && a[5]) {
        li.classList.add("mark-" + a[5]);
        li.appendChild(el("span", "glyph", GLYPH[a[5]]));
        li.appendChild(el("div", "better", markText(a)));
      }
      (s.cp || []).forEach(function (c) { li.appendChild(el("div", "checkpoint", c)); });
      li.addEventListener("click", function () { go(i); });
      list.appendChild(li);
    });
  }

  function draw() {
    var state = states[current];
    document.body.dataset.step = current;
    document.body.dataset.eye = eye;
    drawTable(state);
    drawBoard(state);
    drawNow(state);
    drawEval();
    byId("counter").textContent = _("step {n} of {last}", { n: current, last: states.length - 1 });
    var items = byId("moves").children;
    for (var i = 0; i < items.length; i++) { items[i].classList.remove("current"); }
    var item = items[current];
    if (item) {
      item.classList.add("current");
      var list = byId("moves");
      var top = item.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      }
    }
    var hash = "#m=" + current + (eye === "all" ? "" : "&seat=" + eye);
    if (location.hash !== hash) { history.replaceState(null, "", hash); }
  }

  function go(i) {
    current = Math.max(0, Math.min(states.length - 1, i));
    draw();
  }
  function hand(delta) {
    var at = 0;
    for (var h = 0; h < handStarts.length; h++) { if (handStarts[h] <= current) { at = h; } }
    if (delta < 0) {
      go(handStarts.length && handStarts[at] < current ? handStarts[at]
        : (at > 0 ? handStarts[at - 1] : 0));
    } else {
      go(at + 1 < handStarts.length ? handStarts[at + 1] : states.length - 1);
    }
  }

  function readHash() {
    var m = /m=(\d+)/.exec(location.hash);
    var s = /seat=(\d+)/.exec(location.hash);
    eye = s && Number(s[1]) < N ? Number(s[1]) : "all";
    if (m) { current = Math.min(states.length - 1, Number(m[1])); }
    byId("eye").value = String(eye);
  }

  function setup() {
    var select = byId("eye");
    select.appendChild(new Option(_("All cards"), "all"));
    for (var s = 0; s < N; s++) { select.appendChild(new Option(INFO.names[s] === "you" ? _("your view") : _("{who}'s view", { who: name(s) }), String(s))); }
    select.addEventListener("change", function () {
      eye = select.value === "all" ? "all" : Number(select.value);
      select.blur(); // the arrow keys step through the game again
      buildList();
      draw();
    });
    byId("first").addEventListener("click", function () { go(0); });
    byId("prev-hand").addEventListener("click", function () { hand(-1); });
    byId("prev").addEventListener("click", function () { go(current - 1); });
    byId("next").addEventListener("click", function () { go(current + 1); });
    byId("next-hand").addEventListener("click", function () { hand(1); });
    byId("last").addEventListener("click", function () { go(states.length - 1); });
    document.addEventListener("keydown", function (e) {
      if (e.target && e.target.tagName === "SELECT") { return; }
      var keys = {
        ArrowLeft: function () { go(current - 1); }, ArrowRight: function () { go(current + 1); },
        ArrowUp: function () { hand(-1); }, PageUp: function () { hand(-1); },
        ArrowDown: function () { hand(1); }, PageDown: function () { hand(1); },
        Home: function () { go(0); }, End: function () { go(states.length - 1); }
      };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
    window.addEventListener("hashchange", function () { readHash(); buildList(); draw(); });
    byId("rules").textContent = (INFO.lines || [])[1] || "";
    if (AN) {
      byId("analysis").hidden = false;
      byId("evalgraph").addEventListener("click", function (e) {
        var box = byId("evalgraph").getBoundingClientRect();
        go(Math.round((e.clientX - box.left) / box.width * (states.length - 1)));
      });
    }
    readHash();
    buildList();
    draw();
  }
  setup();
})();
