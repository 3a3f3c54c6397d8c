// The page's messages in its language: the catalog (engine.i18n.catalog_json) rendered into
// the page as JSON (the element "i18n"); a message's id is its English text.
var I18N = (function () {
  "use strict";
  var node = document.getElementById("i18n");
  var data = node ? JSON.parse(node.textContent) : { lang: "en", plural: "n != 1", messages: {} };
  var plural = null;
  // A team's word hangs on its seats (engine.i18n.team_context): a message said of a team
  // has its own entry for two (dupla) and one in a context for one seat and for more.
  var teamContext = null;
  function form(n) {  // the plural form's index, by the catalog's expression (C syntax)
    if (!plural) { plural = new Function("n", "return Number(" + data.plural + ");"); }
    return plural(n);
  }
  return {
    lang: data.lang,
    // the seats of each team, from a variant's team_of: [0, 1, 0, 1] is two
    teamSeats: function (teamOf) {
      var n = teamOf.filter(function (t) { return t === teamOf[0]; }).length;
      teamContext = n === 1 ? "one seat a team" : n > 2 ? "three or more seats a team" : null;
    },
    gettext: function (id) {
      var c = teamContext && data.messages[teamContext + "\u0004" + id];
      if (typeof c === "string" && c) { return c; }
      var t = data.messages[id];
      return typeof t === "string" && t ? t : id;
    },
    ngettext: function (one, many, n) {
      var t = data.messages[one];
      if (t && typeof t !== "string") { return t[Math.min(form(n), t.length - 1)] || (n === 1 ? one : many); }
      return n === 1 ? one : many;
    },
    // a number as toFixed() writes it ("0.244") with the decimal sign of the page's language
    // (the browser's Intl data: "0,244" in pt-BR); English and the test locale as it is
    decimal: function (text) {
      if (data.lang === "en" || data.lang === "qps" || typeof Intl === "undefined") { return text; }
      var sign = new Intl.NumberFormat(data.lang).formatToParts(0.5).filter(function (p) {
        return p.type === "decimal";
      });
      return sign.length ? String(text).replace(/(\d)\.(\d)/g, "$1" + sign[0].value + "$2") : text;
    },
    // "{who} plays" with {who: "Ana"}: the fields of a message filled in
    format: function (text, fields) {
      return text.replace(/\{(\w+)\}/g, function (all, key) {
        return Object.prototype.hasOwnProperty.call(fields, key) ? String(fields[key]) : all;
      });
    }
  };
})();
function _(id, fields) { return fields ? I18N.format(I18N.gettext(id), fields) : I18N.gettext(id); }
function ngettext(one, many, n, fields) {
  return I18N.format(I18N.ngettext(one, many, n), fields || { n: n });
}
// The switch to another language keeps what the address's fragment holds (a seat's token)
document.querySelectorAll("nav.lang a").forEach(function (a) {
  a.addEventListener("click", function () { a.href = a.getAttribute("href").split("#")[0] + location.hash; });
});
