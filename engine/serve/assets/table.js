// truco serve: the live table. It decides nothing: the server sends this seat's view (its
// observation, its legal moves) and takes back one of those moves.
(function () {
  "use strict";
  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var TABLE = document.body.dataset.table;
  var KEYS = "1234567890abcdefghijklmnopqrstuvwxyz";
  var token = (location.hash.match(/k=([A-Za-z0-9_-]+)/) || [])[1] || "";
  var hello = null, state = null, ws = null, retry = 0, closed = false;
  // Provably fair deals (docs/serve.md): the commitment as first received, and this seat's
  // entropy (kept for the tab, sent with every join: the first before the deal counts).
  var committed = null, fairDone = false, entropy = myEntropy();

  function myEntropy() {
    var key = "truco-entropy-" + TABLE + "-" + token, kept = null;
    try { kept = sessionStorage.getItem(key); } catch (e) { kept = null; }
    if (kept) { return kept; }
    var bytes = new Uint8Array(32), hex = "";
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    bytes.forEach(function (b) { hex += (b < 16 ? "0" : "") + b.toString(16); });
    try { sessionStorage.setItem(key, hex); } catch (e) { /* not kept: a fresh one */ }
    return hex;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = text; }
    return e;
  }
  function byId(id) { return document.getElementById(id); }
  function name(seat) { return seat === hello.seat ? _("{name} (you)", { name: hello.names[seat] }) : hello.names[seat]; }
  // A seat's name: the one given, or the table's own ("Player 0", "Bot 1 (heuristic)") in
  // the page's language
  function seatName(s, i) {
    if (s.player === "human" && s.name === "Player " + i) { return _("Player {seat}", { seat: i }); }
    if (s.name === "Bot " + i + " (" + s.player + ")") {  // a shipped bot's kind translated
      var kind = s.player.split(":"), known = ["random", "heuristic", "search"];
      kind[0] = known.indexOf(kind[0]) >= 0 ? _(kind[0]) : kind[0];
      return _("Bot {seat} ({kind})", { seat: i, kind: kind.join(":") });
    }
    return s.name;
  }

  function cardFace(code, obs, extra) {
    var d = el("div", "card face" + (extra ? " " + extra : ""));
    d.dataset.card = code;
    var rank, suit;
    if (code.charAt(0) === "X") {
      rank = "\u2605"; suit = code.slice(1); d.classList.add("joker");
    } else {
      rank = code.charAt(0) === "T" ? "10" : code.charAt(0);
      suit = SUITS[code.charAt(1)];
      if (code.charAt(1) === "h" || code.charAt(1) === "d") { d.classList.add("red"); }
    }
    d.appendChild(el("span", "rank", rank));
    d.appendChild(el("span", "suit", suit));
    var manilha = obs && obs.manilhas && obs.manilhas.indexOf(code) >= 0;
    if (manilha) { d.classList.add("manilha"); d.appendChild(el("span", "mark", "M")); }
    var called = hello.card_names[code];
    if (called && (manilha || code.charAt(0) === "X")) { d.appendChild(el("span", "called", called)); }
    d.title = rank + suit + (called ? " " + called : "");
    return d;
  }
  function cardBack(extra) {
    var d = el("div", "card back" + (extra ? " " + extra : ""));
    d.title = _("face down");
    return d;
  }

  function position(seat) {
    var n = hello.players, bottom = hello.seat === null ? 0 : hello.seat;
    var k = ((seat - bottom) % n + n) % n, angle = 2 * Math.PI * k / n;
    return { x: 50 + 38 * Math.sin(angle), y: 50 + 38 * Math.cos(angle) };
  }

  function send(msg) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(msg)); }
  }
  function move(m) { byId("error").textContent = ""; send({ type: "move", move: m.move }); }

  // The play of a card of the hand: face up where the rules allow it (face down with Shift,
  // where covering is allowed); null when the card may not be played now.
  function playOf(card, down) {
    var found = null;
    state.legal.forEach(function (m) {
      if (m.kind === "play" && m.card === card &&
          (!found || (found.covered !== down && m.covered === down))) {
        found = m;
      }
    });
    return found;
  }

  function drawTable() {
    var obs = state.obs, table = byId("table"), n = hello.players;
    table.textContent = "";
    var round = obs.round;
    for (var seat = 0; seat < n; seat++) {
      var pos = position(seat), info = state.seats[seat];
      var box = el("div", "seat team" + info.team);
      box.dataset.seat = seat;
      box.style.left = pos.x + "%"; box.style.top = pos.y + "%";
      if (obs.turn === seat) { box.classList.add("turn"); }
      if (seat === hello.seat) { box.classList.add("me"); }
      var head = el("div", "who");
      head.appendChild(el("span", "name", name(seat)));
      head.appendChild(el("span", "team", _("team {team}", { team: info.team })));
      if (obs.dealer === seat) { head.appendChild(el("span", "badge dealer", _("dealer"))); }
      if (obs.mao === seat) { head.appendChild(el("span", "badge mao", "m\u00e3o")); }
      if (obs.turn === seat) { head.appendChild(el("span", "badge turn", _("to play"))); }
      if (!info.online) { head.appendChild(el("span", "offline", _("away"))); }
      if (info.standin) { head.appendChild(el("span", "offline", _("a bot stands in"))); }
      box.appendChild(head);
      var hand = el("div", "hand");
      if (seat === hello.seat && obs.hand) {
        obs.hand.forEach(function (c) {
          var face = cardFace(c, obs), m = playOf(c, false);
          if (m) {
            face.classList.add("playable");
            face.dataset.move = m.move;
            face.addEventListener("click", function (ev) { move(playOf(c, ev.shiftKey) || m); });
          }
          hand.appendChild(face);
        });
      } else if (obs.partner_hands && obs.partner_hands[seat]) {
        obs.partner_hands[seat].forEach(function (c) { hand.appendChild(cardFace(c, obs)); });
      } else {
        var played = obs.played.filter(function (p) { return p.seat === seat; }).length;
        var left = seat === hello.seat ? obs.hand_size : hello.cards - played;
        for (var i = 0; i < left; i++) { hand.appendChild(cardBack()); }
      }
      if (!hand.childNodes.length) { hand.appendChild(el("span", "empty", _("no cards"))); }
      box.appendChild(hand);
      table.appendChild(box);
      var front = el("div", "front");
      front.dataset.seat = seat;
      front.style.left = (50 + (pos.x - 50) * 0.58) + "%";
      front.style.top = (50 + (pos.y - 50) * 0.56) + "%";
      obs.played.forEach(function (p) {
        if (p.round !== round || p.seat !== seat) { return; }
        front.appendChild(p.card ? cardFace(p.card, obs, p.covered ? "covered" : "")
          : cardBack("covered"));
        if (p.covered) { front.appendChild(el("div", "note", "coberta")); }
      });
      table.appendChild(front);
    }
    var mid = el("div", "middle");
    if (obs.vira) {
      var vira = el("div", "vira");
      vira.appendChild(el("div", "label", "vira"));
      vira.appendChild(cardFace(obs.vira, null));
      mid.appendChild(vira);
    }
    var rounds = el("div", "rounds");
    obs.rounds.forEach(function (w, i) {
      rounds.appendChild(el("span", "round" + (w === null ? " tied" : " won" + w),
        w === null ? _("round {n}: tied", { n: i + 1 }) : _("round {n}: team {team}", { n: i + 1, team: w })));
    });
    mid.appendChild(rounds);
    table.appendChild(mid);
  }

  function drawMenu() {
    var menu = byId("menu");
    menu.textContent = "";
    state.legal.forEach(function (m, i) {
      var b = el("button");
      b.type = "button";
      b.dataset.move = m.move;
      b.dataset.kind = m.kind;
      if (i < KEYS.length) { b.dataset.key = KEYS.charAt(i); b.appendChild(el("kbd", null, KEYS.charAt(i))); }
      b.appendChild(document.createTextNode(m.label));
      b.addEventListener("click", function () { move(m); });
      menu.appendChild(b);
    });
  }

  function drawBoard() {
    var obs = state.obs, score = byId("score");
    score.textContent = "";
    obs.score.forEach(function (pts, team) {
      var row = el("div", "team-score team" + team);
      var seats = [];
      state.seats.forEach(function (s, i) { if (s.team === team) { seats.push(name(i)); } });
      row.appendChild(el("span", "label", _("Team {team} ({seats})", { team: team, seats: seats.join(", ") })));
      row.appendChild(el("span", "points", pts + "/" + hello.target));
      row.appendChild(el("span", "games", _("games {n}", { n: obs.games[team] })));
      score.appendChild(row);
    });
    byId("hand-no").textContent = _("hand {n}", { n: obs.hand_number });
    byId("value").textContent = obs.value;
    var p = obs.pending_raise;
    byId("pending").textContent = p ? (p.seat === hello.seat ? _("you ask {raise} ({value})", { raise: p.name, value: p.value })
    : _("{who} asks {raise} ({value})", { who: name(p.seat), raise: p.name, value: p.value })) : _("none");
    byId("special").textContent = obs.special ? obs.special.name : _("none");
    var manilhas = byId("manilhas");
    manilhas.textContent = (obs.manilhas || []).length ? "" : _("none");
    (obs.manilhas || []).forEach(function (c) { manilhas.appendChild(cardFace(c, obs, "small")); });
    var shown = byId("shown");
    shown.textContent = "";
    obs.shown.forEach(function (s) {
      var row = el("span", "shown-card", (s.seat === hello.seat ? _("you showed") : _("{who} showed", { who: name(s.seat) })) + " ");
      row.appendChild(cardFace(s.card, obs, "small"));
      shown.appendChild(row);
    });
    var bets = obs.side_bets || [];
    byId("bets-panel").hidden = !bets.length;
    var box = byId("bets");
    box.textContent = "";
    bets.forEach(function (b) {
      var words = b.calls.join(", ") || _("not called");
      if (b.pending) { words += " " + _("(waiting for an answer)"); }
      if (b.settled) { words += "; " + (b.accepted ? _("team {team} wins {points}", { team: b.winner, points: b.points }) : _("settled, {points}", { points: b.points })); }
      b.declared.forEach(function (d) { words += "; " + name(d.seat) + ": " + (d.points === null ? "s\u00e3o boas" : d.points); });
      var row = el("div", "bet");
      row.appendChild(el("span", "bet-name", b.bet));
      row.appendChild(el("span", "bet-state", words + (b.my_points !== null && b.my_points !== undefined ? " " + _("(yours: {points})", { points: b.my_points }) : "")));
      box.appendChild(row);
    });
    var list = byId("moves");
    list.textContent = "";
    state.recent.forEach(function (r, i) {
      if (i > 0 && r.hand !== state.recent[i - 1].hand) { list.appendChild(el("li", "hand-sep", _("hand {n}", { n: r.hand }))); }
      list.appendChild(el("li", "move", hello.names[r.seat] + ": " + r.text));
    });
  }

  function showOver() {  // the log, its replay, and an upload's variant file to keep beside it
    byId("over").hidden = false;
    byId("log-link").href = "/t/" + TABLE + "/log";
    byId("replay-link").href = "/t/" + TABLE + "/replay";
    if (hello && hello.variant === "variant.yaml") {
      byId("variant-file").hidden = false;
      byId("variant-link").href = "/t/" + TABLE + "/variant.yaml";
    }
  }

  function drawStatus() {
    var status = byId("status"), obs = state.obs;
    status.className = "";
    if (state.over) {
      status.textContent = _("The match is over: team {team} won.", { team: state.winner });
      showOver();
    } else if (state.legal.some(function (m) { return m.kind === "pass"; })) {
      status.textContent = _("You may raise before {who}'s card, or let it play.", { who: name(obs.turn) });
      status.className = "mine";
    } else if (state.legal.length) {
      status.textContent = obs.pending_raise && obs.phase === "answer" ? _("Your answer.") : _("Your move.");
      status.className = "mine";
    } else if (obs.phase === "play" && obs.turn !== null) {
      status.textContent = _("Waiting for {who}.", { who: name(obs.turn) });
    } else {
      status.textContent = _("Waiting for the other players.");
    }
  }

  function drawName() {  // a person seat the lobby left unnamed may be named by its person
    var mine = hello.seat === null ? null : state.seats[hello.seat];
    byId("name-form").hidden = !(mine && mine.player === "human" && mine.name === "Player " + hello.seat);
  }
  byId("name-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var value = byId("name-input").value.trim();
    if (value) { send({ type: "name", name: value }); }
  });

  function drawFair() {
    var box = byId("fair"), log = "truco-" + TABLE + ".jsonl";
    if (hello.fixed_seed) {
      box.textContent = _("This table deals from a fixed seed chosen when it was created " +
        "(a table of bots, or a test server): whoever chose it knows every hand.");
      return;
    }
    var reveal = state && state.reveal;
    if (!reveal) {
      box.textContent = _("Fair deals: the server committed to its secret seed before the " +
        "first card (SHA-256 {hash}…); it reveals it at the end.", { hash: committed.slice(0, 16) });
      return;
    }
    if (fairDone) { return; }
    fairDone = true;
    var how = " " + _("Check it yourself: download the log and run “truco verify {log}”: " +
      "it checks the reveal against the commitment and that every deal follows from the seed.",
      { log: log });
    var mine = hello.seat !== null && reveal.entropy[hello.seat] === entropy ?
      " " + _("Your entropy was mixed in.") : "";
    var subtle = window.crypto && window.crypto.subtle;
    if (!subtle) {
      box.textContent = _("The seed is revealed; this browser cannot hash it here (it needs " +
        "https or localhost).") + mine + how;
      return;
    }
    var text = new TextEncoder().encode(reveal.seed + ":" + reveal.nonce);
    subtle.digest("SHA-256", text).then(function (d) {
      var hex = Array.prototype.map.call(new Uint8Array(d), function (b) {
        return (b < 16 ? "0" : "") + b.toString(16);
      }).join("");
      var ok = hex === committed && reveal.seed_commitment === committed;
      document.body.dataset.fair = ok ? "verified" : "mismatch";
      box.textContent = ok ? _("Deals verified: the revealed seed matches the commitment " +
        "sent before the first card.") + mine + how :
        _("Deals NOT verified: the revealed seed does not match the commitment sent before " +
        "the first card.") + how;
      box.className = ok ? "ok" : "bad";
    });
  }

  function draw() {
    hello.names = state.seats.map(seatName);
    drawName();
    document.body.dataset.moves = state.moves;
    document.body.dataset.phase = state.obs.phase;
    document.body.dataset.over = state.over ? "1" : "0";
    document.body.dataset.mine = state.legal.length ? "1" : "0";
    drawTable(); drawMenu(); drawBoard(); drawStatus(); drawFair();
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/t/" + TABLE + "/ws?lang=" + I18N.lang);
    ws.onopen = function () {
      retry = 0; send({ type: "join", token: token, entropy: entropy });
    };
    ws.onmessage = function (ev) {
      var msg = JSON.parse(ev.data);
      if (msg.type === "hello") {
        hello = msg;
        I18N.teamSeats(msg.team_of);
        committed = committed || msg.seed_commitment;
        byId("title").textContent = msg.title;
        byId("who").textContent = msg.seat === null ? _("spectator") : _("you are seat {seat}", { seat: msg.seat });
        byId("conn").textContent = _("connected");
        document.body.dataset.seat = msg.seat === null ? "spectator" : msg.seat;
      } else if (msg.type === "state") {
        state = msg; draw();
      } else if (msg.type === "error") {
        byId("error").textContent = msg.message;
        if (msg.code === "bad_token") { token = ""; }
        if (msg.code === "closed") { closed = true; }
      }
    };
    ws.onclose = function () {
      byId("conn").textContent = _("disconnected: reconnecting…");
      document.body.dataset.connected = "0";
      if (closed) {  // the match is over and the table left the server's memory: no retry
        byId("conn").textContent = _("the table has closed");
        showOver();
        return;
      }
      if (!token) { byId("conn").textContent = _("this link opens no seat"); return; }
      retry = Math.min(retry + 1, 10);
      setTimeout(connect, 300 * retry);
    };
    document.body.dataset.connected = "1";
  }

  document.addEventListener("keydown", function (ev) {
    if (!state || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var i = KEYS.indexOf(ev.key.toLowerCase());
    if (i >= 0 && i < state.legal.length) { ev.preventDefault(); move(state.legal[i]); }
  });
  connect();
})();
