// The timeline of a worldcook simulate run (--html): the map of cells
// coloured by state at the shown frame, the route so far and each source's
// circles and camera view, the cells the view shows missing (pop-in), a
// chart of bytes with a cursor, the hole and pop-in episodes and a cell's
// details. The data is the run's state changes; a frame is shown by
// applying (or undoing) the changes between it and the frame shown before.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('worldcook-data').textContent);
  var STATES = ['absent', 'loading', 'prepared', 'resident', 'unloading', 'hole'];
  var EVENTS = ['requested', 'published', 'unloaded', 'evicted', 'cancelled', 'dropped', 'failed'];
  var NS = 'http://www.w3.org/2000/svg';
  var N = D.frames;
  // The page counts frames from 1; it names them as the route does.
  function fname(f) { return f + D.firstFrame - 1; }
  var slider = document.getElementById('frame');
  var label = document.getElementById('frame-label');
  var playButton = document.getElementById('play');
  var speed = document.getElementById('speed');
  var follow = document.getElementById('follow'), following = false;
  var shown = 0; // the frame shown; 0 before the first
  var runs = D.runs.map(setup);
  // Charts side by side share the scale of resident bytes; each keeps its
  // own for requests, which a runtime without a budget makes in bursts
  // that would flatten a budgeted run's.
  var scale = { peak: 0 };
  runs.forEach(function (r) {
    for (var f = 1; f <= N; f++) scale.peak = Math.max(scale.peak, r.resident[f], r.prepared[f]);
    if (r.R.cap != null) scale.peak = Math.max(scale.peak, r.R.cap);
  });
  runs.forEach(drawChart);
  // Maps keyed by names users choose (cells, policies) have no prototype:
  // a cell named __proto__ or constructor is a name like any other.
  var byPolicy = Object.create(null);
  runs.forEach(function (r) { byPolicy[r.policy] = r; });

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function bytes(n) {
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0, v = n;
    while (Math.abs(v) >= 1024 && i < u.length - 1) { v /= 1024; i++; }
    return i === 0 ? n + ' B' : v.toFixed(1) + ' ' + u[i];
  }
  function num(x) { return Math.round(x * 100) / 100; }

  // decode lays out (frames since the last, count, codes...) groups as
  // per-frame ranges over flat arrays: first[f]..first[f+1] are frame f's.
  function decode(groups) {
    var total = 0, i;
    for (i = 0; i < groups.length; i += 2 + groups[i + 1]) total += groups[i + 1];
    var first = new Int32Array(N + 2), code = new Int32Array(total);
    var f = 0, k = 0, g;
    for (i = 0; i < groups.length;) {
      var nf = f + groups[i], c = groups[i + 1];
      for (g = f + 1; g <= nf; g++) first[g] = k;
      for (var j = 0; j < c; j++) code[k++] = groups[i + 2 + j];
      f = nf; i += 2 + c;
    }
    for (g = f + 1; g <= N + 1; g++) first[g] = k;
    return { first: first, code: code };
  }

  // series expands (frames since the last change, value) pairs into one
  // value a frame (index 0 is before the first frame).
  function series(pairs) {
    var out = new Float64Array(N + 1), f = 0, v = 0;
    for (var i = 0; i < pairs.length; i += 2) {
      var nf = f + pairs[i];
      for (var g = f; g < nf; g++) out[g] = v;
      v = pairs[i + 1]; f = nf;
    }
    for (g = f; g <= N; g++) out[g] = v;
    return out;
  }

  function setup(R) {
    var root = document.querySelector('[data-policy="' + R.policy + '"]');
    var r = { policy: R.policy, R: R, root: root, n: R.names.length, index: Object.create(null) };
    // Names and bounds: cook's usual name and the grid square unless the
    // data says otherwise.
    var cs = R.cellSize, i;
    r.names = new Array(r.n);
    r.bounds = new Float64Array(4 * r.n);
    for (i = 0; i < r.n; i++) {
      var gx = R.grid[2 * i], gz = R.grid[2 * i + 1];
      r.names[i] = R.names[i] || R.namePrefix + gx + '_' + gz;
      r.index[r.names[i]] = i;
      r.bounds[4 * i] = gx * cs; r.bounds[4 * i + 1] = gz * cs; r.bounds[4 * i + 2] = (gx + 1) * cs; r.bounds[4 * i + 3] = (gz + 1) * cs;
    }
    for (i = 0; i < R.grown.length; i += 5) {
      for (var j = 0; j < 4; j++) r.bounds[4 * R.grown[i] + j] = R.grown[i + 1 + j];
    }
    r.now = root.querySelector('.now');
    root.querySelector('h2').textContent = R.title;
    root.querySelector('.subtitle').textContent = R.subtitle;
    root.querySelector('.leftout').textContent = R.leftOut ? 'Left out: ' + R.leftOut : '';

    // State changes, each with the state it replaced, for stepping back.
    var ch = decode(R.changes);
    r.first = ch.first;
    r.cell = new Int32Array(ch.code.length);
    r.to = new Uint8Array(ch.code.length);
    r.from = new Uint8Array(ch.code.length);
    var st = new Uint8Array(r.n);
    for (var k = 0; k < ch.code.length; k++) {
      var c = ch.code[k] >> 3;
      r.cell[k] = c; r.to[k] = ch.code[k] & 7; r.from[k] = st[c]; st[c] = r.to[k];
    }
    r.state = new Uint8Array(r.n); // at the shown frame
    r.drawn = new Uint8Array(r.n); // as the elements show it
    r.events = decode(R.events);
    r.resident = series(R.resident);
    r.assets = series(R.residentAssets);
    r.prepared = series(R.prepared);
    r.requested = series(R.requested);
    r.holes = series(R.holes);
    r.popIn = decode(R.popIn);
    r.popInCount = series(R.popInCount);
    r.popped = []; // the cells marked popping in at the shown frame
    drawMap(r);
    listEpisodes(r);
    r.selected = -1;
    r.svg.addEventListener('click', function (e) {
      if (dragged) return; // the end of a drag, not a click
      var el = e.target.closest('[data-cell]');
      if (el) select(r, r.index[el.getAttribute('data-cell')]);
    });
    zoomable(r);
    return r;
  }

  function drawMap(r) {
    var R = r.R, v = R.view, w = R.world, cs = R.cellSize;
    var pad = cs * 0.25;
    var svg = r.svg = r.root.querySelector('svg.map'), over = r.over = r.root.querySelector('svg.overlay');
    // z grows upwards: the map draws at (x, -z).
    r.viewBox = [v[0] - pad, -v[3] - pad, v[2] - v[0] + 2 * pad, v[3] - v[1] + 2 * pad];
    svg.setAttribute('viewBox', r.viewBox.join(' '));
    over.setAttribute('viewBox', r.viewBox.join(' '));
    var id = 'grid-' + R.policy;
    var parts = ['<defs><pattern id="', id, '" patternUnits="userSpaceOnUse" x="0" y="0" width="', cs, '" height="', cs,
      '"><path d="M ', cs, ' 0 L 0 0 0 ', cs, '" fill="none" stroke="#ddd" stroke-width="0.5" vector-effect="non-scaling-stroke"/></pattern></defs>',
      '<rect class="grid" fill="url(#', id, ')" x="', w[0], '" y="', -w[3], '" width="', w[2] - w[0], '" height="', w[3] - w[1], '"/>',
      '<g class="cells">'];
    var b = r.bounds;
    for (var i = 0; i < r.n; i++) {
      parts.push('<rect class="cell" data-cell="', esc(r.names[i]), '" data-state="absent" x="', b[4 * i], '" y="', -b[4 * i + 3],
        '" width="', b[4 * i + 2] - b[4 * i], '" height="', b[4 * i + 3] - b[4 * i + 1], '"></rect>');
    }
    parts.push('</g>');
    svg.innerHTML = parts.join('');
    r.els = svg.querySelector('g.cells').children;
    over.innerHTML = '<g class="routes"></g><g class="sources"></g>';
    var routes = over.querySelector('g.routes'), sources = over.querySelector('g.sources');
    r.sources = R.sources.map(function (s) {
      var k = s.keys, d = [], len = [0], total = 0;
      for (var j = 0; j < k.length; j += 3) {
        d.push((j ? 'L' : 'M') + k[j + 1] + ' ' + (-k[j + 2]));
        if (j) { total += Math.hypot(k[j + 1] - k[j - 2], k[j + 2] - k[j - 1]); len.push(total); }
      }
      var all = document.createElementNS(NS, 'path');
      all.setAttribute('class', 'route-all'); all.setAttribute('d', d.join(''));
      var so = document.createElementNS(NS, 'path');
      so.setAttribute('class', 'route'); so.setAttribute('d', d.join(''));
      routes.appendChild(all); routes.appendChild(so);
      var g = document.createElementNS(NS, 'g');
      var view = '';
      if (s.view.length === 2) {
        view = '<rect class="view" x="' + (-s.view[0]) + '" y="' + (-s.view[1]) + '" width="' + 2 * s.view[0] + '" height="' + 2 * s.view[1] + '"><title>what ' + esc(s.name) + "'s camera shows</title></rect>";
      } else if (s.view.length === 1) {
        view = '<circle class="view" r="' + s.view[0] + '"><title>how far ' + esc(s.name) + "'s camera sees</title></circle>";
      }
      g.innerHTML = '<title>' + esc(s.name) + '</title>' + view + '<circle class="ring prefetch"></circle><circle class="ring unload"></circle>' +
        '<circle class="ring load"></circle><circle class="source"></circle>';
      sources.appendChild(g);
      var rings = g.querySelectorAll('circle:not(.view)');
      rings[0].setAttribute('r', s.prefetch); rings[1].setAttribute('r', s.unload); rings[2].setAttribute('r', s.load);
      return { s: s, len: len, total: total, so: so, g: g, rings: rings };
    });
    scaleMap(r);
  }

  // setView shows the box v (x, y, width, height in map units) on every
  // map: maps side by side stay in step.
  function setView(v) {
    runs.forEach(function (r) {
      r.viewBox = v.slice();
      r.svg.setAttribute('viewBox', v.join(' '));
      r.over.setAttribute('viewBox', v.join(' '));
      scaleMap(r);
    });
  }

  // zoomable lets the wheel zoom the map about the pointer, a drag pan it
  // and a double click frame it as it opened.
  var dragged = false;
  function zoomable(r) {
    var home = r.viewBox.slice(), drag = null;
    var toMap = function (e) {
      var box = r.svg.getBoundingClientRect(), v = r.viewBox;
      var k = Math.max(v[2] / box.width, v[3] / box.height);
      var cx = v[0] + v[2] / 2 + (e.clientX - box.left - box.width / 2) * k;
      var cy = v[1] + v[3] / 2 + (e.clientY - box.top - box.height / 2) * k;
      return [cx, cy, k];
    };
    r.svg.addEventListener('wheel', function (e) {
      e.preventDefault();
      var p = toMap(e), f = Math.exp(Math.max(-1, Math.min(1, e.deltaY * 0.002))), v = r.viewBox;
      setView([p[0] - (p[0] - v[0]) * f, p[1] - (p[1] - v[1]) * f, v[2] * f, v[3] * f]);
    }, { passive: false });
    r.svg.addEventListener('mousedown', function (e) {
      drag = { x: e.clientX, y: e.clientY, v: r.viewBox.slice(), k: toMap(e)[2] };
      dragged = false;
    });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!dragged && Math.hypot(dx, dy) < 4) return;
      dragged = true;
      setView([drag.v[0] - dx * drag.k, drag.v[1] - dy * drag.k, drag.v[2], drag.v[3]]);
    });
    window.addEventListener('mouseup', function () {
      drag = null;
      setTimeout(function () { dragged = false; }, 0);
    });
    r.svg.addEventListener('dblclick', function () { follow.checked = false; setView(home); });
  }

  // scaleMap sets what depends on the map's size on screen: the width of
  // a pixel in world units (--px), the source's dot, and whether cells are
  // large enough to outline.
  function scaleMap(r) {
    var box = r.svg.getBoundingClientRect();
    var px = Math.max(r.viewBox[2] / Math.max(box.width, 1), r.viewBox[3] / Math.max(box.height, 1));
    r.root.style.setProperty('--px', String(px));
    r.svg.classList.toggle('small-cells', r.R.cellSize / px < 5);
    r.sources.forEach(function (src) { src.rings[3].setAttribute('r', 4 * px); });
  }

  // where is a source at frame f: its position and the route's length so
  // far, between the key frames around f.
  function where(src, f) {
    var k = src.s.keys, n = k.length / 3;
    if (f <= k[0] || n === 1) return { x: k[1], z: k[2], len: 0 };
    var lo = 0, hi = n - 1;
    if (f >= k[3 * hi]) return { x: k[3 * hi + 1], z: k[3 * hi + 2], len: src.total };
    while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (k[3 * mid] <= f) lo = mid; else hi = mid; }
    var t = (f - k[3 * lo]) / (k[3 * hi] - k[3 * lo]);
    var x = k[3 * lo + 1] + (k[3 * hi + 1] - k[3 * lo + 1]) * t;
    var z = k[3 * lo + 2] + (k[3 * hi + 2] - k[3 * lo + 2]) * t;
    return { x: x, z: z, len: src.len[lo] + (src.len[hi] - src.len[lo]) * t };
  }

  function drawChart(r) {
    var R = r.R, svg = r.chart = r.root.querySelector('svg.chart');
    var W = 1000, H1 = 150, H2 = 80, top2 = 170, cols = Math.max(1, Math.min(N, W));
    var peak = scale.peak || 1, peakReq = R.budget || 0, f, own = 0;
    for (f = 1; f <= N; f++) { own = Math.max(own, r.resident[f]); peakReq = Math.max(peakReq, r.requested[f]); }
    peakReq = peakReq || 1;
    var colMax = function (arr, c) {
      var a = 1 + Math.floor(c * N / cols), b = Math.max(a, Math.floor((c + 1) * N / cols)), m = 0;
      for (var g = a; g <= b; g++) m = Math.max(m, arr[g]);
      return m;
    };
    var area = function (arr, scale, base, h) {
      var d = ['M0 ' + base];
      for (var c = 0; c < cols; c++) {
        var y = base - h * colMax(arr, c) / scale;
        d.push('L' + (c * W / cols) + ' ' + y + 'L' + ((c + 1) * W / cols) + ' ' + y);
      }
      d.push('L' + W + ' ' + base + 'Z');
      return d.join('');
    };
    var line = function (arr, scale, base, h) {
      var d = [];
      for (var c = 0; c < cols; c++) d.push((c ? 'L' : 'M') + ((c + 0.5) * W / cols) + ' ' + (base - h * colMax(arr, c) / scale));
      return d.join('');
    };
    var p = ['<line class="axis" x1="0" x2="1000" y1="' + (H1 + 5) + '" y2="' + (H1 + 5) + '"/>',
      '<path class="resident" d="' + area(r.resident, peak, H1 + 5, H1) + '"><title>resident bytes</title></path>',
      '<path class="assets" d="' + area(r.assets, peak, H1 + 5, H1) + '"><title>of which assets</title></path>'];
    var hasPrepared = false;
    for (f = 1; f <= N && !hasPrepared; f++) hasPrepared = r.prepared[f] > 0;
    if (hasPrepared) p.push('<path class="prepared" d="' + line(r.prepared, peak, H1 + 5, H1) + '"><title>prepared bytes</title></path>');
    if (R.cap != null) p.push('<line class="level" x1="0" x2="1000" y1="' + (H1 + 5 - H1 * R.cap / peak) + '" y2="' + (H1 + 5 - H1 * R.cap / peak) + '"><title>cap ' + bytes(R.cap) + '</title></line>');
    p.push('<line class="axis" x1="0" x2="1000" y1="' + (top2 + H2) + '" y2="' + (top2 + H2) + '"/>');
    p.push('<path class="requested" d="' + area(r.requested, peakReq, top2 + H2, H2) + '"><title>bytes requested</title></path>');
    if (R.budget != null) p.push('<line class="level" x1="0" x2="1000" y1="' + (top2 + H2 - H2 * R.budget / peakReq) + '" y2="' + (top2 + H2 - H2 * R.budget / peakReq) + '"><title>budget ' + bytes(R.budget) + '</title></line>');
    R.episodes.forEach(function (e) {
      var x = (e.first - 1) * W / N, w = Math.max((e.last - e.first + 1) * W / N, 1.5);
      p.push('<rect class="holeband" x="' + x + '" y="' + (H1 + 7) + '" width="' + w + '" height="6"><title>holes, frames ' + fname(e.first) + '–' + fname(e.last) + '</title></rect>');
    });
    R.popInEpisodes.forEach(function (e) {
      var x = (e.first - 1) * W / N, w = Math.max((e.last - e.first + 1) * W / N, 1.5);
      p.push('<rect class="popinband" x="' + x + '" y="' + (H1 + 13) + '" width="' + w + '" height="6"><title>pop-in, frames ' + fname(e.first) + '–' + fname(e.last) + '</title></rect>');
    });
    svg.innerHTML = p.join('');
    r.cursor = r.root.querySelector('.chartbox .cursor');
    var cap = document.createElement('div');
    cap.className = 'caption';
    cap.textContent = 'above: resident bytes (blue; assets in orange' + (hasPrepared ? '; prepared, teal line' : '') + ') against ' +
      (R.cap != null ? 'the cap ' + bytes(R.cap) : 'no cap') + ', peak ' + bytes(own) + ' · below: bytes requested per frame against ' +
      (R.budget != null ? 'the budget ' + bytes(R.budget) : 'no budget') + ' · red marks: hole episodes' +
      (R.hasView ? ', magenta marks: pop-in episodes' : '');
    svg.parentNode.insertAdjacentElement('afterend', cap);
    svg.addEventListener('click', function (e) {
      var box = svg.getBoundingClientRect();
      show(Math.round(1 + (e.clientX - box.left) / box.width * (N - 1)));
    });
  }

  function listEpisodes(r) {
    var R = r.R, el = r.root.querySelector('.episodes'), p = [];
    var list = function (eps, what) {
      if (!eps.length) { p.push('<p>No ', what, ' episodes.</p>'); return; }
      p.push('<p>', eps.length, ' ', what, ' episode', eps.length > 1 ? 's' : '', ':</p><ol>');
      eps.forEach(function (e) {
        p.push('<li><a href="#frame-', e.first, '" class="episode" data-frame="', e.first, '">frames ', fname(e.first),
          e.last > e.first ? '–' + fname(e.last) : '', '</a>: ', e.cells, ' cell', e.cells > 1 ? 's' : '', ' missing (at most ', e.maxHoles,
          ' at once), likely ', esc(e.cause), ' <span class="names">', esc(e.names.join(', ')), e.cells > e.names.length ? ', …' : '', '</span></li>');
      });
      p.push('</ol>');
    };
    list(R.episodes, 'hole');
    if (R.hasView) list(R.popInEpisodes, 'pop-in');
    else p.push('<p>Pop-in is not counted: no source has a view (no camera, no --view-size or --view-distance).</p>');
    el.innerHTML = p.join('');
  }

  // step moves r from the frame shown to frame f.
  function step(r, from, f) {
    var lo, hi, k;
    if (f > from) {
      lo = r.first[from + 1]; hi = r.first[f + 1];
      for (k = lo; k < hi; k++) r.state[r.cell[k]] = r.to[k];
    } else {
      lo = r.first[f + 1]; hi = r.first[from + 1];
      for (k = hi - 1; k >= lo; k--) r.state[r.cell[k]] = r.from[k];
    }
    for (k = lo; k < hi; k++) {
      var c = r.cell[k];
      if (r.drawn[c] !== r.state[c]) { r.drawn[c] = r.state[c]; r.els[c].setAttribute('data-state', STATES[r.state[c]]); }
    }
    r.popped.forEach(function (c) { r.els[c].removeAttribute('data-popin'); });
    r.popped = Array.prototype.slice.call(r.popIn.code, r.popIn.first[f], r.popIn.first[f + 1]);
    r.popped.forEach(function (c) { r.els[c].setAttribute('data-popin', ''); });
    r.sources.forEach(function (src) {
      var p = where(src, f);
      src.g.setAttribute('transform', 'translate(' + p.x + ' ' + (-p.z) + ')');
      src.so.setAttribute('stroke-dasharray', p.len + ' ' + (src.total + 1));
      src.at = p;
    });
    r.cursor.style.left = ((f - 0.5) * 100 / N) + '%';
    var R = r.R, txt = 'frame ' + fname(f) + ': resident ' + bytes(r.resident[f]);
    if (r.assets[f]) txt += ' (assets ' + bytes(r.assets[f]) + ')';
    txt += ' · requested ' + bytes(r.requested[f]);
    if (R.budget != null) txt += ' of ' + bytes(R.budget);
    txt += ' · ' + r.holes[f] + ' hole' + (r.holes[f] === 1 ? '' : 's');
    if (R.hasView) txt += ' · ' + r.popInCount[f] + ' popping in';
    r.now.textContent = txt;
    if (r.selected >= 0) details(r);
  }

  // show shows frame f in every run; following, the map keeps the first
  // source in its middle.
  function show(f) {
    f = Math.max(1, Math.min(N, Math.round(Number(f)) || 1));
    var from = shown;
    shown = f;
    runs.forEach(function (r) { step(r, from, f); });
    var lead = runs[0].sources[0];
    if (follow.checked && lead) {
      var v = runs[0].viewBox, w = v[2], h = v[3];
      if (!following) {
        // Frame the source's widest circle three times over.
        var reach = 3 * 2 * Math.max(lead.s.load, lead.s.unload, lead.s.prefetch, runs[0].R.cellSize);
        var k = reach / Math.min(w, h);
        w *= k; h *= k;
      }
      setView([lead.at.x - w / 2, -lead.at.z - h / 2, w, h]);
    }
    following = follow.checked;
    slider.value = f;
    label.textContent = 'frame ' + fname(f) + ' / ' + fname(N);
  }

  function select(r, i) {
    if (r.selected >= 0) r.els[r.selected].classList.remove('selected');
    r.selected = i;
    if (i >= 0) r.els[i].classList.add('selected');
    details(r);
  }

  // distance from (x, z) to cell i as the run measures it.
  function distance(r, i, x, z) {
    var R = r.R, b = r.bounds;
    if (R.center) {
      var cx = (R.grid[2 * i] + 0.5) * R.cellSize, cz = (R.grid[2 * i + 1] + 0.5) * R.cellSize;
      return Math.hypot(cx - x, cz - z);
    }
    var dx = Math.max(b[4 * i] - x, 0, x - b[4 * i + 2]), dz = Math.max(b[4 * i + 1] - z, 0, z - b[4 * i + 3]);
    return Math.hypot(dx, dz);
  }

  // why says which radius decides the state of cell i at the shown frame.
  function why(state, d, s) {
    if (!s) return 'no source asks for cells';
    var n = s.name, dd = num(d);
    switch (state) {
      case 'hole': return 'within a load radius (' + n + ' at ' + dd + ', load ' + s.load + ') and not resident: a hole';
      case 'resident':
        if (d <= s.load) return 'within ' + n + "'s load radius (" + dd + ' ≤ ' + s.load + '): in the world';
        if (d <= s.unload) return 'beyond the load radius but within ' + n + "'s unload radius (" + dd + ' ≤ ' + s.unload + '): kept';
        return 'beyond every unload radius (' + dd + ' > ' + s.unload + '): its unload is due';
      case 'unloading': return 'beyond every unload radius (' + dd + ' > ' + s.unload + '): being unloaded';
      case 'prepared': return 'within ' + n + "'s prefetch radius (" + dd + ' ≤ ' + s.prefetch + '), not its load radius: held, not in the world';
      case 'loading':
        if (d <= s.load) return 'within ' + n + "'s load radius (" + dd + ' ≤ ' + s.load + '): requested to enter the world';
        return 'within ' + n + "'s prefetch radius (" + dd + ' ≤ ' + s.prefetch + '): prefetching';
    }
    var reach = Math.max(s.prefetch, s.load);
    if (d > reach) return 'beyond every prefetch and load radius (' + dd + ' > ' + reach + '): not wanted';
    return 'within reach (' + dd + ' ≤ ' + reach + ') but not requested: waiting (budget, requests in flight or an eviction cooldown)';
  }

  function details(r) {
    var R = r.R, i = r.selected, el = r.root.querySelector('.details');
    if (i < 0) { el.innerHTML = '<p class="none">Click a cell to see why it is in its state.</p>'; return; }
    var state = STATES[r.state[i]], best = null, bd = Infinity;
    r.sources.forEach(function (src) {
      var p = src.at || where(src, shown), d = distance(r, i, p.x, p.z);
      if (d < bd) { bd = d; best = src.s; }
    });
    if (!r.cellEvents) r.cellEvents = {};
    var evs = r.cellEvents[i];
    if (!evs) {
      evs = r.cellEvents[i] = [];
      for (var f = 1; f <= N; f++) {
        for (var k = r.events.first[f]; k < r.events.first[f + 1]; k++) {
          if (r.events.code[k] >> 3 === i) evs.push([f, EVENTS[r.events.code[k] & 7]]);
        }
      }
    }
    var list = function (kinds) {
      var out = evs.filter(function (e) { return kinds.indexOf(e[1]) >= 0; });
      if (!out.length) return 'none';
      return out.length + ': ' + out.slice(0, 40).map(function (e) {
        return '<a href="#frame-' + e[0] + '" data-frame="' + e[0] + '">' + e[0] + '</a>' + (kinds.length > 1 ? ' ' + e[1] : '');
      }).join(', ') + (out.length > 40 ? ', …' : '');
    };
    var b = r.bounds;
    el.innerHTML = '<dl><dt>cell</dt><dd>' + esc(r.names[i]) + ' (grid ' + R.grid[2 * i] + ', ' + R.grid[2 * i + 1] + ')</dd>' +
      '<dt>state</dt><dd data-detail-state="' + state + '">' + state + ' at frame ' + fname(shown) + '</dd>' +
      '<dt>why</dt><dd class="why">' + esc(why(state, bd, best)) + '</dd>' +
      '<dt>nearest source</dt><dd>' + (best ? esc(best.name) + ' at ' + num(bd) + (R.center ? ' (to the grid centre)' : ' (to the bounds)') +
        '; radii load ' + best.load + ', unload ' + best.unload + ', prefetch ' + best.prefetch : 'none') + '</dd>' +
      '<dt>bytes</dt><dd>' + bytes(R.bytes[i]) + ' document' + (R.assets[i] ? ', ' + R.assets[i] + ' asset' + (R.assets[i] > 1 ? 's' : '') + ' of ' + bytes(R.assetBytes[i]) : ', no assets') + '</dd>' +
      '<dt>bounds</dt><dd>x ' + num(b[4 * i]) + '…' + num(b[4 * i + 2]) + ', ' + R.axisZ + ' ' + num(b[4 * i + 1]) + '…' + num(b[4 * i + 3]) + '</dd>' +
      '<dt>loads</dt><dd>' + list(['requested']) + '</dd>' +
      '<dt>unloads</dt><dd>' + list(['unloaded', 'evicted']) + '</dd>' +
      '<dt>other</dt><dd>' + list(['published', 'cancelled', 'dropped', 'failed']) + '</dd></dl>';
  }

  // Playing advances one frame per animation frame times the speed.
  var playing = false;
  function tick() {
    if (!playing) return;
    if (shown >= N) { pause(); return; }
    show(shown + Number(speed.value));
    requestAnimationFrame(tick);
  }
  function play() { if (shown >= N) show(1); playing = true; playButton.textContent = '❚❚'; requestAnimationFrame(tick); }
  function pause() { playing = false; playButton.textContent = '▶'; }
  playButton.addEventListener('click', function () { if (playing) pause(); else play(); });
  slider.max = N;
  follow.addEventListener('change', function () { show(shown); });
  slider.addEventListener('input', function () { show(slider.value); });
  document.addEventListener('click', function (e) {
    var a = e.target.closest('a[data-frame]');
    if (a) { e.preventDefault(); show(a.getAttribute('data-frame')); }
  });
  document.addEventListener('keydown', function (e) {
    if (e.target.tagName === 'SELECT') return;
    // A focused button plays on its own click.
    if (e.target.tagName === 'BUTTON' && e.key === ' ') return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      show(shown + (e.key === 'ArrowRight' ? 1 : -1));
    } else if (e.key === ' ' || e.code === 'Space') {
      e.preventDefault();
      if (playing) pause(); else play();
    }
  });

  window.worldcook = {
    frames: N,
    policies: runs.map(function (r) { return r.policy; }),
    // frame shows frame k (1 to frames) and returns the frame shown.
    frame: function (k) { show(k); return shown; },
    // shown is the frame shown.
    shown: function () { return shown; },
    // state is the shown state of a cell, under a policy (the first run's
    // when none is named); a cell the map does not draw reads absent, or
    // null when the map left cells out.
    state: function (cell, policy) {
      var r = policy ? byPolicy[policy] : runs[0];
      if (!r) return null;
      var i = r.index[cell];
      if (i === undefined) return r.R.leftOut ? null : 'absent';
      return STATES[r.state[i]];
    },
    // popIn says whether a drawn cell pops in at the shown frame: a view
    // shows it and it is not resident.
    popIn: function (cell, policy) {
      var r = policy ? byPolicy[policy] : runs[0];
      if (!r) return null;
      var i = r.index[cell];
      return i !== undefined && r.els[i].hasAttribute('data-popin');
    },
    // states is every drawn cell's shown state, by name.
    states: function (policy) {
      var r = policy ? byPolicy[policy] : runs[0], out = Object.create(null);
      if (!r) return null;
      for (var i = 0; i < r.n; i++) out[r.names[i]] = STATES[r.state[i]];
      return out;
    }
  };
  window.addEventListener('resize', function () { runs.forEach(scaleMap); });
  var start = /^#frame-(\d+)$/.exec(location.hash);
  show(start ? start[1] : 1);
}());
