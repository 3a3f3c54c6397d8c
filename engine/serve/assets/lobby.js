// truco serve: the form that creates a table (POST /api/tables) and shows its invite links.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("lobby-data").textContent);
  var house = null; // {name, text} of the chosen file
  var layout = null; // {players, team_of} of the chosen variant
  function byId(id) { return document.getElementById(id); }
  function el(tag, text) { var e = document.createElement(tag); if (text) { e.textContent = text; } return e; }
  function source() { return document.querySelector("input[name=source]:checked").value; }

  DATA.variants.forEach(function (v) {
    var o = el("option", _("{title} ({name}, {n} players)", { title: v.title, name: v.name, n: v.players }));
    o.value = v.name;
    byId("variant").appendChild(o);
  });
  byId("variant").value = "paulista";

  function seats() {
    var box = byId("seats");
    box.textContent = "";
    if (!layout) { return; }
    for (var s = 0; s < layout.players; s++) {
      var label = el("label", _("Seat {seat} (team {team}): ", { seat: s, team: layout.team_of[s] }));
      var sel = el("select");
      sel.id = "seat-" + s;
      sel.setAttribute("aria-label", _("seat {seat}", { seat: s }));
      DATA.players.forEach(function (p) {
        var o = el("option", DATA.labels[p] || p);
        o.value = p; sel.appendChild(o);
      });
      sel.value = s < 2 ? "human" : "medium";
      label.appendChild(sel);
      var name = el("input");
      name.id = "name-" + s; name.maxLength = 24; name.placeholder = _("name (optional)");
      name.setAttribute("aria-label", _("seat {seat}'s name", { seat: s }));
      label.appendChild(name);
      box.appendChild(label);
      box.appendChild(el("br"));
    }
  }
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) }).then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); });
  }
  function body() {
    return source() === "house" && house ? { upload: house } : { variant: byId("variant").value };
  }
  function check() {
    byId("problems").textContent = "";
    return post("/api/check", body()).then(function (res) {
      if (res[0] !== 200) { layout = null; byId("problems").textContent = res[1].problems.join("\n"); }
      else { layout = res[1]; I18N.teamSeats(layout.team_of); }
      seats();
    });
  }
  byId("variant").addEventListener("change", function () {
    document.querySelector("input[value=shipped]").checked = true; check();
  });
  byId("house").addEventListener("change", function (ev) {
    var file = ev.target.files[0];
    if (!file) { return; }
    file.text().then(function (text) {
      house = { name: file.name, text: text };
      document.querySelector("input[value=house]").checked = true;
      check();
    });
  });
  document.querySelectorAll("input[name=source]").forEach(function (r) { r.addEventListener("change", check); });
  byId("new-table").addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (!layout) { return; }
    var b = body();
    b.seats = [];
    var names = [];
    for (var s = 0; s < layout.players; s++) {
      b.seats.push(byId("seat-" + s).value);
      names.push(byId("name-" + s).value.trim() || null);
    }
    if (names.some(function (n) { return n !== null; })) { b.names = names; }
    var seed = byId("seed").value;
    if (seed !== "") { b.seed = Number(seed); }
    post("/api/tables", b).then(function (res) {
      if (res[0] !== 201) { byId("problems").textContent = res[1].problems.join("\n"); return; }
      var links = byId("links");
      links.textContent = "";
      byId("result-title").textContent = _("{title}: table {table}", { title: res[1].title, table: res[1].table });
      function add(label, path, id) {
        var li = el("li", label + ": ");
        var a = el("a", location.origin + path);
        a.href = path; a.id = id; a.target = "_blank";
        li.appendChild(a); links.appendChild(li);
      }
      res[1].seats.forEach(function (s) { add(_("Seat {seat}", { seat: s.seat }), s.link, "link-" + s.seat); });
      add(_("Spectators"), res[1].spectator, "link-spectator");
      byId("result").hidden = false;
    });
  });
  check();
})();
