package report

import "html/template"

// pageTemplate is a game's page. The board's grid is inline SVG; the
// script draws the game's stones up to the move shown (numbered, unless
// the toggle is off), the last move (a red dot), the move to be played
// next (a red ring), the engine's best move (a green square) and its
// principal variation (blue dashed rings with blue numbers, apart from the
// game's stones), the winning five at the end (a line through it), and
// moves the graph's cursor. It reads the game from the JSON in #data and
// needs nothing from the network. #move=N in the address shows the
// position before move N.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 16px; color: #222; background: #fff; }
h1 { font-size: 18px; margin: 0 0 4px 0; }
#main { display: flex; gap: 20px; align-items: flex-start; flex-wrap: wrap; }
#controls button { font-size: 16px; min-width: 40px; margin-right: 4px; }
#info { font-size: 14px; line-height: 1.5; max-width: 660px; }
.blunder { color: #d11; } .mistake { color: #e67e00; } .inaccuracy { color: #b08d00; } .forbidden { color: #7a1fa2; }
.best, .good { color: #2a7d2a; }
table.sides td, table.sides th { padding: 2px 10px; text-align: left; }
#graph { cursor: pointer; margin-top: 10px; }
#line { font-family: monospace; }
#mistakes { padding-left: 20px; margin: 4px 0; }
#mistakes a { text-decoration: none; }
.muted { color: #777; }
.key { display: inline-block; margin-right: 14px; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<div id="players">{{if or (index .Game.Players 0) (index .Game.Players 1)}}black: <b>{{index .Game.Players 0}}</b> · white: <b>{{index .Game.Players 1}}</b>{{end}}{{if .Game.Event}} · {{.Game.Event}}{{end}}{{if .Game.Date}} · {{.Game.Date}}{{end}}</div>
<div class="muted">{{.Game.Rule}} {{.Game.Size}}×{{.Game.Size}}, {{len .Game.Plies}} moves, result {{if .Game.Result}}{{.Game.Result}}{{else}}unknown{{end}}{{.Decided}}</div>
<div id="main">
<div>
{{.Board}}
<div id="controls">
<button id="first" title="Home">«</button><button id="prev" title="←">‹</button><button id="next" title="→">›</button><button id="last" title="End">»</button>
<span>after move <span id="ply">0</span> of <span id="plies">0</span></span>
<label><input type="checkbox" id="numbers" checked> move numbers</label>
</div>
<div class="muted" id="boardkey"><span class="key">● <b>3</b> the game's moves</span><span class="key" style="color:#1f5fbf">◌ <b>1</b> the engine's line</span><span class="key" style="color:#1a8f1a">□ its best move</span><span class="key" style="color:#d22">○ the move played</span></div>
</div>
<div id="info">
<table class="sides"><tr><th></th><th>accuracy</th><th>mistakes</th></tr>
<tr><td>black</td><td>{{index .Accuracy 0}}</td><td>{{index .Classes 0}}</td></tr>
<tr><td>white</td><td>{{index .Accuracy 1}}</td><td>{{index .Classes 1}}</td></tr></table>
<p id="move">the start</p>
<p id="eval"></p>
<p id="best"></p>
<p id="line"></p>
{{.Graph}}
<div><b>Mistakes</b>{{if not .Mistakes}} <span class="muted">none</span>{{end}}
<ol id="mistakes">{{range .Mistakes}}<li><a class="{{.Class}}" href="#move={{.Move}}" data-move="{{.Move}}">{{.Text}}</a></li>{{end}}</ol></div>
<p class="muted">← → step, Home End jump; a click on the graph or on a mistake shows the position before that move, with the engine's line from it.</p>
</div>
</div>
<script id="data" type="application/json">{{.Data}}</script>
<script>
(function () {
  "use strict";
  var game = JSON.parse(document.getElementById("data").textContent);
  var n = game.size, plies = game.plies;
  var stones = document.getElementById("stones"), marks = document.getElementById("marks");
  var numbers = document.getElementById("numbers");
  var NS = "http://www.w3.org/2000/svg";
  var cell = 30, margin = 30;
  var shown = 0;
  function cx(x) { return margin + x * cell; }
  function cy(y) { return margin + (n - 1 - y) * cell; }
  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (text !== undefined) { e.textContent = text; }
    parent.appendChild(e);
    return e;
  }
  function stone(p, black, label) {
    el("circle", {cx: cx(p[0]), cy: cy(p[1]), r: 13.5, fill: black ? "#111" : "#fafafa", stroke: "#333",
      "stroke-width": 1.2, "class": "stone"}, stones);
    if (label !== "") {
      el("text", {x: cx(p[0]), y: cy(p[1]) + 4, "font-size": 11, "text-anchor": "middle",
        fill: black ? "#fff" : "#111", "class": "stone-number"}, stones, label);
    }
  }
  // a move of the engine's line: a blue dashed ring with a blue number,
  // never mistaken for a stone of the game
  function pvMark(p, label) {
    el("circle", {cx: cx(p[0]), cy: cy(p[1]), r: 11, fill: "#fff", "fill-opacity": 0.85, stroke: "#1f5fbf",
      "stroke-width": 2, "stroke-dasharray": "4 2", "class": "pv"}, marks);
    el("text", {x: cx(p[0]), y: cy(p[1]) + 4, "font-size": 12, "font-weight": "bold", "text-anchor": "middle",
      fill: "#1f5fbf", "class": "pv-label"}, marks, label);
  }
  function text(id, s) { document.getElementById(id).textContent = s; }
  function show(k) {
    k = Math.max(0, Math.min(plies.length, k));
    shown = k;
    while (stones.firstChild) { stones.removeChild(stones.firstChild); }
    while (marks.firstChild) { marks.removeChild(marks.firstChild); }
    for (var i = 0; i < k; i++) { stone(plies[i].move, plies[i].black, numbers.checked ? String(i + 1) : ""); }
    text("ply", String(k));
    if (k > 0) {
      var last = plies[k - 1].move;
      el("circle", {cx: cx(last[0]) + 9, cy: cy(last[1]) - 9, r: 3.5, fill: "#d22", "class": "lastmove"}, marks);
    }
    if (k === plies.length && game.five && game.five.length >= 5) {
      var a = game.five[0], b = game.five[game.five.length - 1];
      el("line", {x1: cx(a[0]), y1: cy(a[1]), x2: cx(b[0]), y2: cy(b[1]), stroke: "#d22", "stroke-width": 5,
        "stroke-linecap": "round", "stroke-opacity": 0.75, "class": "five"}, marks);
    }
    var p = plies[k];
    if (!p) {
      text("move", k === 0 ? "the start" : "the end: " + plies[k - 1].text + (game.five ? ", a five" : ""));
      document.getElementById("move").className = "";
      text("eval", ""); text("best", ""); text("line", "");
    } else {
      var m = "to play: " + p.text;
      if (p.class) { m += " — " + p.class + (p.loss !== undefined ? " (win rate lost " + p.loss.toFixed(2) + ")" : ""); }
      text("move", m);
      document.getElementById("move").className = p.class || "";
      text("eval", p.value !== undefined ? (p.black ? "black" : "white") + " to move, win rate " + p.value.toFixed(2) : "");
      text("best", p.bestText ? "engine's line: " + p.bestText : "");
      text("line", p.win ? "forced win (" + p.win + "): " + p.lineText : (p.note || ""));
      el("circle", {cx: cx(p.move[0]), cy: cy(p.move[1]), r: 12, fill: "none", stroke: "#d22", "stroke-width": 2, "class": "played"}, marks);
      var pv = p.pv || [];
      for (var j = 0; j < pv.length && j < 9; j++) { pvMark(pv[j], String(j + 1)); }
      if (p.best) {
        el("rect", {x: cx(p.best[0]) - 13, y: cy(p.best[1]) - 13, width: 26, height: 26, fill: "none", stroke: "#1a8f1a",
          "stroke-width": 2.5, "class": "best"}, marks);
      }
    }
    var cursor = document.getElementById("cursor");
    var hits = document.querySelectorAll("#graph .plyhit");
    if (cursor && hits.length) {
      var h = hits[Math.min(k, hits.length - 1)];
      var x = parseFloat(h.getAttribute("x")) + parseFloat(h.getAttribute("width")) / 2;
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    }
  }
  // #move=N: the position before move N
  function fromHash() {
    var m = /move=(\d+)/.exec(location.hash);
    if (m) { show(parseInt(m[1], 10) - 1); return true; }
    return false;
  }
  text("plies", String(plies.length));
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(shown - 1); };
  document.getElementById("next").onclick = function () { show(shown + 1); };
  document.getElementById("last").onclick = function () { show(plies.length); };
  numbers.onchange = function () { show(shown); };
  document.addEventListener("keydown", function (e) {
    switch (e.key) {
    case "ArrowLeft": show(shown - 1); break;
    case "ArrowRight": show(shown + 1); break;
    case "Home": show(0); break;
    case "End": show(plies.length); break;
    default: return;
    }
    e.preventDefault();
  });
  // a click on the graph shows the position before the move clicked
  var targets = document.querySelectorAll("#graph [data-ply]");
  for (var i = 0; i < targets.length; i++) {
    targets[i].addEventListener("click", function (e) { show(parseInt(this.getAttribute("data-ply"), 10)); e.stopPropagation(); });
  }
  window.addEventListener("hashchange", fromHash);
  if (!fromHash()) { show(0); }
  window.gomokuReport = { show: show, shown: function () { return shown; } };
})();
</script>
</body>
</html>
`))

// indexTemplate is the batch's index page.
var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 16px; color: #222; }
td, th { padding: 3px 12px; text-align: left; }
tr:nth-child(even) { background: #f4f2ec; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<table>
<tr><th>game</th><th>players</th><th>result</th><th>moves</th><th>black accuracy</th><th>white accuracy</th><th>blunders (black, white)</th></tr>
{{range .Games}}<tr><td><a href="{{.File}}">{{.Title}}</a></td><td>{{.Players}}</td><td>{{.Result}}</td><td>{{.Moves}}</td><td>{{printf "%.1f" (index .Accuracy 0)}}</td><td>{{printf "%.1f" (index .Accuracy 1)}}</td><td>{{index .Blunders 0}}, {{index .Blunders 1}}</td></tr>
{{end}}</table>
</body>
</html>
`))
