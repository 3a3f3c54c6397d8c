// truco serve: a championship's pages for people (register, team, organise) on its JSON API.
// The page's key is in the URL's fragment (#key=...), so it never reaches the server's logs;
// every name is shown as text (textContent), never as HTML.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("champ-data").textContent);
  var API = "/api/championships/" + DATA.championship;
  var KEY = new URLSearchParams(location.hash.slice(1)).get("key") || "";
  var EVERY = 3000; // ms between two looks at the championship
  function byId(id) { return document.getElementById(id); }
  function el(tag, text) { var e = document.createElement(tag); if (text) { e.textContent = text; } return e; }
  function answer(r) { return r.json().then(function (j) { return [r.status, j]; }); }
  function post(path, body) {
    return fetch(API + path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) }).then(answer);
  }
  function told(res) { // an API refusal's message shown; whether the request went through
    var ok = res[0] >= 200 && res[0] < 300;
    byId("error").textContent = ok ? "" : res[1].message || _("the server refused");
    return ok;
  }
  function lost() { byId("error").textContent = _("the server did not answer"); }
  function link(path, id) {
    var a = el("a", location.origin + path);
    a.href = path; if (id) { a.id = id; }
    return a;
  }
  function option(select, value, text) { var o = el("option", text); o.value = value; select.appendChild(o); }
  function fill(select, items) { // [value, text] pairs, the choice kept when it still is one
    var was = select.value;
    select.textContent = "";
    items.forEach(function (i) { option(select, i[0], i[1]); });
    if (items.some(function (i) { return i[0] === was; })) { select.value = was; }
  }
  var LEVELS = { easy: _("easy"), medium: _("medium"), hard: _("hard") };

  function register() {
    for (var k = 0; k < DATA.seats; k++) {
      var input = el("input");
      input.id = "player-" + k; input.maxLength = 40;
      input.placeholder = _("player {n}", { n: k + 1 });
      input.setAttribute("aria-label", _("player {n}", { n: k + 1 }));
      byId("players").appendChild(input); byId("players").appendChild(el("br"));
    }
    option(byId("bot"), "", _("none: a person at every seat"));
    Object.keys(LEVELS).forEach(function (l) { option(byId("bot"), l, LEVELS[l]); });
    byId("register-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var body = { key: KEY, name: byId("name").value, players: [] };
      for (var k = 0; k < DATA.seats; k++) {
        var name = byId("player-" + k).value.trim();
        if (name) { body.players.push(name); }
      }
      if (byId("bot").value) { body.bot = byId("bot").value; }
      post("/teams", body).then(function (res) {
        if (!told(res)) { return; }
        var a = link("/c/" + DATA.championship + "/team" + location.search + "#key=" +
                     encodeURIComponent(res[1].team_key), "team-link");
        byId("team-link").replaceWith(a);
        byId("registered-name").textContent = res[1].team;
        byId("register-form").hidden = true;
        byId("registered").hidden = false;
      }, lost);
    });
  }

  function team() {
    post("/team", { key: KEY }).then(function (res) {
      if (!told(res)) { return; }
      byId("team-name").textContent = res[1].team;
      var list = byId("tables");
      list.textContent = "";
      if (!res[1].tables.length) { list.appendChild(el("li", _("no table for your team now"))); }
      res[1].tables.forEach(function (t) {
        var li = el("li", _("Round {round}, game {game}, against {team}",
                            { round: t.round, game: t.game, team: t.opponent }));
        li.dataset.table = t.table;
        t.seats.forEach(function (s) {
          li.appendChild(el("br"));
          li.appendChild(document.createTextNode(s.player + ": "));
          var a = link(s.link);
          a.className = "seat-link"; a.target = "_blank";
          li.appendChild(a);
        });
        list.appendChild(li);
      });
      setTimeout(team, EVERY);
    }, function () { lost(); setTimeout(team, EVERY); });
  }

  var STATES = { registration: _("registration open"), closed: _("registration closed"),
    playing: _("playing"), over: _("over") };
  var playing = {}; // the organiser's view: table id -> its pairing's teams
  function show(view) {
    byId("state").textContent = STATES[view.state] || view.state;
    byId("teams").textContent = "";
    view.teams.forEach(function (t) {
      var players = t.players.length ? " (" + t.players.join(", ") + ")" : "";
      byId("teams").appendChild(el("li", t.name + players));
    });
    var list = byId("round-tables");
    list.textContent = "";
    playing = {};
    var last = view.round_data[view.round_data.length - 1];
    var late = view.late_start ? " (" + _("late: from {score} × {score}",
      { score: view.late_start.start_score }) + ")" : ""; // a game at the time rule's score
    byId("round-title").textContent = last ? _("Round {n}", { n: last.round }) : _("Tables");
    (last ? last.pairings : []).forEach(function (p) {
      var li = el("li", p.teams.join(" × ") + (p.bye ? ": " + _("bye") : ""));
      (p.games || []).forEach(function (g) {
        li.appendChild(el("br"));
        li.appendChild(document.createTextNode(g.table + ": " + (g.said || g.winner || _("drawn")) +
                                               (g.late ? late : "")));
      });
      (p.playing || []).forEach(function (t) {
        playing[t.table] = p.teams;
        li.appendChild(el("br"));
        li.appendChild(document.createTextNode(t.table + ": " + (t.preparing ? _("being prepared") : _("playing")) +
                                               (t.late ? late : "") + " "));
        if (t.watch) { li.appendChild(link(t.watch)); }
      });
      list.appendChild(li);
    });
    fill(byId("outcome-table"), Object.keys(playing).map(function (t) { return [t, t]; }));
    teams();
  }
  function teams() { // the outcome's team: one of the chosen table's
    var teams = playing[byId("outcome-table").value] || [];
    var none = byId("outcome-result").value === "abandoned";
    fill(byId("outcome-team"), none ? [["", "—"]] : teams.map(function (t) { return [t, t]; }));
  }
  function look() {
    return fetch(API).then(answer).then(function (res) { // an earlier refusal stays shown
      if (res[0] === 200) { show(res[1]); } else { told(res); }
    }, lost);
  }
  function organise() {
    fill(byId("outcome-result"), [["walkover", _("walkover (the team that came wins)")],
      ["forfeit", _("forfeit (the team that gave up)")], ["abandoned", _("abandoned")]]);
    ["close", "round"].forEach(function (action) {
      byId(action).addEventListener("click", function () {
        post("/" + action, { key: KEY }).then(function (res) {
          if (told(res)) { look(); }
        }, lost);
      });
    });
    byId("outcome-table").addEventListener("change", teams);
    byId("outcome-result").addEventListener("change", teams);
    byId("outcome").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var body = { key: KEY, table: byId("outcome-table").value, result: byId("outcome-result").value };
      if (byId("outcome-team").value) { body.team = byId("outcome-team").value; }
      post("/outcome", body).then(function (res) { if (told(res)) { look(); } }, lost);
    });
    (function again() { look().then(function () { setTimeout(again, EVERY); }); })();
  }

  byId(DATA.page).hidden = false;
  ({ register: register, team: team, organise: organise })[DATA.page]();
})();
