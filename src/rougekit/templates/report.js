// rougekit's report table: sorting, search, paging, and each row's texts.
// Every text goes into the page as textContent: none is parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("rk-data").textContent);
  var n = data.n, T = data.types.length, PAGE = 50;
  function unpack(b64) {
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Uint16Array(bytes.buffer);
  }
  var scores = data.scores.map(unpack);      // scores[s][item * 3T + 3k + measure]
  var compare = scores.length > 1;
  var details = new Map();
  data.details.forEach(function (d) { details.set(d.i, d); });
  var measure = 2, sortKey = null, sortDir = 1, page = 0;
  var order = null, view = null, open = new Set();
  var body = document.getElementById("rk-body");
  var heads = Array.prototype.slice.call(document.querySelectorAll("#rk-table th[data-sort]"));

  function value(i, key) {
    if (key === "item") return i;
    var parts = key.split(":"), at = i * 3 * T + 3 * Number(parts[0]) + measure;
    if (parts[1] === "d") return scores[1][at] - scores[0][at];
    return scores[Number(parts[1])][at];
  }
  function fmt(v, signed) {
    var x = (v / data.scale).toFixed(4);
    return signed && v > 0 ? "+" + x : x;
  }
  function identity() {
    var a = new Uint32Array(n);
    for (var i = 0; i < n; i++) a[i] = i;
    return a;
  }
  function sort() {
    order = identity();
    if (sortKey !== null) {
      var keys = new Float64Array(n);
      for (var i = 0; i < n; i++) keys[i] = value(i, sortKey);
      order.sort(function (x, y) { return sortDir * (keys[x] - keys[y]) || x - y; });
    }
    heads.forEach(function (th) {
      if (th.dataset.sort === sortKey) th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
    filter();
  }
  // The start of each candidate, or all the texts of an item the file holds.
  var lowered = new Map();
  function searchText(i) {
    var t = lowered.get(i);
    if (t === undefined) {
      var d = details.get(i);
      t = (d ? d.cands.concat(d.refs).join("\n") : data.search[i] || "").toLowerCase();
      lowered.set(i, t);
    }
    return t;
  }
  function filter() {
    var q = document.getElementById("rk-search").value.trim().toLowerCase();
    if (!q) view = order;
    else view = Array.prototype.filter.call(order, function (i) {
      return String(i) === q || searchText(i).indexOf(q) >= 0;
    });
    page = 0;
    render();
  }
  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }
  function render() {
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    page = Math.min(Math.max(page, 0), pages - 1);
    document.getElementById("rk-page").textContent = "page " + (page + 1).toLocaleString("en") + " of " + pages.toLocaleString("en") +
      " (" + view.length.toLocaleString("en") + " items)";
    body.textContent = "";
    for (var r = page * PAGE; r < Math.min(view.length, (page + 1) * PAGE); r++) {
      var i = view[r], tr = document.createElement("tr");
      tr.className = "rk-row";
      tr.dataset.item = i;
      cell(tr, String(i), "rk-num");
      for (var k = 0; k < T; k++) {
        cell(tr, fmt(value(i, k + ":0")), "rk-num");
        if (compare) {
          cell(tr, fmt(value(i, k + ":1")), "rk-num");
          var d = value(i, k + ":d");
          cell(tr, fmt(d, true), "rk-num " + (d > 0 ? "rk-pos" : d < 0 ? "rk-neg" : ""));
        }
      }
      cell(tr, data.search[i] || "", "rk-snippet");
      tr.addEventListener("click", toggle.bind(null, i, tr));
      body.appendChild(tr);
      if (open.has(i)) body.appendChild(detailRow(i));
    }
  }
  function toggle(i, tr) {
    var next = tr.nextSibling;
    if (next && next.classList && next.classList.contains("rk-detail")) {
      next.remove();
      open.delete(i);
    } else {
      open.add(i);
      tr.after(detailRow(i));
    }
  }
  function highlighted(text, spans) {
    var p = document.createElement("div"), at = 0;
    p.className = "rk-text";
    for (var j = 0; j < spans.length; j += 2) {
      p.appendChild(document.createTextNode(text.slice(at, spans[j])));
      var mark = document.createElement("mark");
      mark.className = "rk-hit";
      mark.textContent = text.slice(spans[j], spans[j + 1]);
      p.appendChild(mark);
      at = spans[j + 1];
    }
    p.appendChild(document.createTextNode(text.slice(at)));
    return p;
  }
  function heading(text) {
    var h = document.createElement("div");
    h.className = "rk-note";
    h.textContent = text;
    return h;
  }
  function detailRow(i) {
    var tr = document.createElement("tr"), td = document.createElement("td");
    tr.className = "rk-detail";
    tr.dataset.item = i;
    td.colSpan = heads.length + 1;
    tr.appendChild(td);
    var d = details.get(i);
    if (!d) {
      td.appendChild(heading(data.search.length ? "Item " + i + "'s texts are not in this report " +
        "(it is not among the worst, best or sampled items): rougekit explain shows its matches."
        : "The texts were not given to the report."));
      return tr;
    }
    if (d.note) td.appendChild(heading(d.note));
    if (!d.marks) {                  // not explained (rougekit.report's limits): plain texts
      d.refs.forEach(function (ref, r) {
        td.appendChild(heading(d.refs.length > 1 ? "reference " + (r + 1) : "reference"));
        td.appendChild(labelled(highlighted(ref, []), "target", 0, r));
      });
      d.cands.forEach(function (cand, s) {
        td.appendChild(heading(compare ? "candidate " + data.systems[s] : "the candidate"));
        td.appendChild(labelled(highlighted(cand, []), "prediction", s, 0));
      });
      return tr;
    }
    var bar = document.createElement("div"), content = document.createElement("div");
    bar.className = "rk-types";
    function show(k) {
      Array.prototype.forEach.call(bar.children, function (b, j) { b.classList.toggle("rk-on", j === k); });
      content.textContent = "";
      d.cands.forEach(function (cand, s) {
        d.refs.forEach(function (ref, r) {
          var m = d.marks[s][r][k], who = data.systems[s];
          var refName = d.refs.length > 1 ? "reference " + (r + 1) : "reference";
          content.appendChild(heading(data.types[k] + ": " + refName + ", the words " + who +
            " matched (P " + m[2][0].toFixed(4) + ", R " + m[2][1].toFixed(4) + ", F " +
            m[2][2].toFixed(4) + ")"));
          content.appendChild(labelled(highlighted(ref, m[0]), "target", s, r));
          content.appendChild(heading(compare ? "candidate " + who : "the candidate"));
          content.appendChild(labelled(highlighted(cand, m[1]), "prediction", s, r));
        });
      });
    }
    data.types.forEach(function (t, k) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = t;
      b.addEventListener("click", function (e) { e.stopPropagation(); show(k); });
      bar.appendChild(b);
    });
    td.appendChild(bar);
    td.appendChild(content);
    show(0);
    return tr;
  }
  function labelled(box, side, s, r) {
    box.dataset.side = side; box.dataset.system = s; box.dataset.ref = r;
    return box;
  }

  heads.forEach(function (th) {
    th.addEventListener("click", function () {
      if (sortKey === th.dataset.sort) sortDir = -sortDir;
      else { sortKey = th.dataset.sort; sortDir = 1; }
      sort();
    });
  });
  document.getElementById("rk-search").addEventListener("input", filter);
  document.getElementById("rk-measure").addEventListener("change", function (e) {
    measure = Number(e.target.value);
    if (sortKey !== null && sortKey !== "item") sort(); else render();
  });
  document.getElementById("rk-worst").addEventListener("click", function () {
    sortKey = compare ? "0:d" : "0:0";
    sortDir = 1;
    sort();
  });
  document.getElementById("rk-prev").addEventListener("click", function () { page--; render(); });
  document.getElementById("rk-next").addEventListener("click", function () { page++; render(); });
  sort();
})();
