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
  // The page counts frames from 1 (the slider, frame(k)); it names them as
  // the route does, and so does the address: #frame-N is the frame the
  // labels call N.
  function fname(f) { return f + D.firstFrame - 1; }
  function pageOf(name) { return Number(name) - D.firstFrame + 1; }
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
  // Side by side, the maps start at one height whatever the summaries
  // hold.
  if (runs.length > 1) {
    var tallest = 0;
    runs.forEach(function (r) { tallest = Math.max(tallest, r.root.querySelector('.summary').offsetHeight); });
    runs.forEach(function (r) { r.root.querySelector('.summary').style.minHeight = tallest + 'px'; });
  }
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
  // byteStep is a round number of bytes (1, 2 or 5 times a power of ten
  // of B, KiB, MiB…) at least d; roundBytes writes such a number.
  function byteStep(d) {
    var unit = 1;
    while (d >= 1024 * unit && unit < Math.pow(1024, 4)) unit *= 1024;
    return niceStep(Math.max(d / unit, unit === 1 ? 1 : 0.1)) * unit;
  }
  function roundBytes(n) { return bytes(n).replace(/\.0 /, ' '); }

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
    root.querySelector('.sampling').textContent = R.sampling;
    summarise(r);
    r.hasAssets = R.assetBytes.some(function (b) { return b > 0; });
    r.now.title = 'resident: the documents of the resident cells' + (r.hasAssets ? ' and the resident assets, which a cell holds from its load (or preparation) on, prepared or resident, as the persistent world holds its own' : '') +
      '; prepared: cells held, not in the world (their assets count in resident)';

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
    r.residentCells = series(R.residentCells);
    r.preparedCells = series(R.preparedCells);
    r.popIn = decode(R.popIn);
    r.popInCount = series(R.popInCount);
    r.popped = []; // the cells marked popping in at the shown frame
    drawMap(r);
    listEpisodes(r);
    r.selected = -1;
    r.svg.addEventListener('click', function (e) {
      if (dragged) return; // the end of a drag, not a click
      var el = e.target.closest('[data-cell]');
      if (!el) return;
      // Grown bounds overlap: the details list every cell under the
      // pointer, each a link to its own.
      var p = toWorld(r, e);
      r.here = cellsAt(r, p[0], p[1]);
      select(r, r.index[el.getAttribute('data-cell')]);
    });
    hoverable(r);
    zoomable(r);
    return r;
  }

  // summarise writes the run's summary: its figures as the text summary
  // names them, each pointing at its frame a link.
  function summarise(r) {
    var p = [];
    r.R.figures.forEach(function (f) {
      var v = esc(f.value);
      if (f.frame > 0) v = '<a href="#frame-' + fname(f.frame) + '" data-frame="' + f.frame + '">' + v + '</a>';
      p.push('<div class="figure" title="', esc(f.label + ': ' + f.value), '"><span class="label">', esc(f.label), '</span> ', v, '</div>');
    });
    r.root.querySelector('.summary').innerHTML = p.join('');
  }

  // toWorld is where the pointer of event e is on r's map, in world units
  // (x, and z or y: the map draws the world at (x, -z)).
  function toWorld(r, e) {
    var box = r.svg.getBoundingClientRect(), v = r.viewBox;
    var k = Math.max(v[2] / box.width, v[3] / box.height);
    var x = v[0] + v[2] / 2 + (e.clientX - box.left - box.width / 2) * k;
    var y = v[1] + v[3] / 2 + (e.clientY - box.top - box.height / 2) * k;
    return [x, -y, k];
  }

  // cellsAt are the drawn cells whose bounds hold the point (x, z), the
  // one drawn on top first.
  function cellsAt(r, x, z) {
    var b = r.bounds, out = [];
    for (var i = r.n - 1; i >= 0; i--) {
      if (x >= b[4 * i] && x <= b[4 * i + 2] && z >= b[4 * i + 1] && z <= b[4 * i + 3]) out.push(i);
    }
    return out;
  }

  // hoverable names the cells under the pointer in a tip beside it, and
  // outlines the one a click would show (CSS :hover).
  function hoverable(r) {
    var tip = r.root.querySelector('.tip'), pending = null;
    var hide = function () { tip.style.display = 'none'; };
    r.svg.addEventListener('mousemove', function (e) {
      if (pending) { pending = e; return; }
      pending = e;
      requestAnimationFrame(function () {
        var ev = pending;
        pending = null;
        var p = toWorld(r, ev), here = cellsAt(r, p[0], p[1]);
        if (!here.length) { hide(); return; }
        var lines = here.slice(0, 6).map(function (i) { return esc(r.names[i]) + ' <span class="st">' + STATES[r.state[i]] + '</span>'; });
        if (here.length > 6) lines.push('and ' + (here.length - 6) + ' more');
        if (here.length > 1) lines.push('<span class="hint">' + here.length + ' cells\' bounds overlap here: click to list them</span>');
        tip.innerHTML = '<div class="at">' + point(r, p[0], p[1]) + '</div>' + lines.join('<br>');
        var box = r.svg.getBoundingClientRect();
        tip.style.display = 'block';
        var left = ev.clientX - box.left + 14, top = ev.clientY - box.top + 14;
        if (left + tip.offsetWidth > box.width) left = ev.clientX - box.left - tip.offsetWidth - 10;
        if (top + tip.offsetHeight > box.height) top = ev.clientY - box.top - tip.offsetHeight - 10;
        tip.style.transform = 'translate(' + left + 'px,' + top + 'px)';
      });
    });
    r.svg.addEventListener('mouseleave', hide);
  }

  // point writes a point of r's map with its axes' names.
  function point(r, x, z) { return 'x ' + Math.round(x) + ', ' + r.R.axisZ + ' ' + Math.round(z); }

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
    parts.push('</g><g class="labels"></g>');
    svg.innerHTML = parts.join('');
    r.els = svg.querySelector('g.cells').children;
    r.labels = svg.querySelector('g.labels');
    r.axes = r.root.querySelector('svg.axes');
    over.innerHTML = '<g class="routes"></g><g class="sources"></g>';
    var routes = over.querySelector('g.routes'), sources = over.querySelector('g.sources');
    var path = function (k) {
      var d = [], len = [0], total = 0;
      for (var j = 0; j < k.length; j += 3) {
        d.push((j ? 'L' : 'M') + k[j + 1] + ' ' + (-k[j + 2]));
        if (j) { total += Math.hypot(k[j + 1] - k[j - 2], k[j + 2] - k[j - 1]); len.push(total); }
      }
      return { d: d.join(''), len: len, total: total };
    };
    r.sources = R.sources.map(function (s) {
      var pa = path(s.keys);
      var all = document.createElementNS(NS, 'path');
      all.setAttribute('class', 'route-all'); all.setAttribute('d', pa.d);
      var so = document.createElementNS(NS, 'path');
      so.setAttribute('class', 'route'); so.setAttribute('d', pa.d);
      routes.appendChild(all); routes.appendChild(so);
      var g = document.createElementNS(NS, 'g');
      var view = '';
      if (s.view.length >= 2) {
        // A turned camera's rectangle: counter-clockwise on the world's
        // plane is clockwise on the page, whose y points down.
        var turn = s.view.length === 3 ? ' transform="rotate(' + (-s.view[2]) + ')"' : '';
        view = '<rect class="view"' + turn + ' x="' + (-s.view[0]) + '" y="' + (-s.view[1]) + '" width="' + 2 * s.view[0] + '" height="' + 2 * s.view[1] + '"><title>what ' + esc(s.name) + "'s camera shows</title></rect>";
      } else if (s.view.length === 1) {
        view = '<circle class="view" r="' + s.view[0] + '"><title>how far ' + esc(s.name) + "'s camera sees</title></circle>";
      }
      // The circles go where the scheduler measures from: where the
      // source stands, or where Estella's runtime samples it when that
      // differs (then in a group of their own, with a hollow dot).
      var rings = '<circle class="ring prefetch"></circle><circle class="ring unload"></circle><circle class="ring load"></circle>';
      var sampled = s.sampled.length > 0;
      g.innerHTML = '<title>' + esc(s.name) + '</title>' + view + (sampled ? '' : rings) + '<circle class="source"></circle>';
      var at = g, link = null, sg = null;
      if (sampled) {
        sg = document.createElementNS(NS, 'g');
        sg.setAttribute('class', 'sampled');
        sg.innerHTML = '<title>where Estella\'s runtime samples ' + esc(s.name) + ': (x, z), not where it stands</title>' + rings + '<circle class="source sampled"></circle>';
        link = document.createElementNS(NS, 'line');
        link.setAttribute('class', 'sampled-link');
        sources.appendChild(link);
        sources.appendChild(sg);
        at = sg;
      }
      sources.appendChild(g);
      var ringEls = at.querySelectorAll('circle.ring');
      ringEls[0].setAttribute('r', s.prefetch); ringEls[1].setAttribute('r', s.unload); ringEls[2].setAttribute('r', s.load);
      var dots = [g.querySelector('circle.source')];
      if (sg) dots.push(sg.querySelector('circle.source'));
      var src = { s: s, len: pa.len, total: pa.total, so: so, g: g, dots: dots, sg: sg, link: link };
      if (sampled) src.samp = { s: { keys: s.sampled }, len: path(s.sampled).len, total: 0 };
      return src;
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
  // a pixel in world units (--px), the sources' dots, whether cells are
  // large enough to outline, the axes and the cells' names.
  function scaleMap(r) {
    var box = r.svg.getBoundingClientRect();
    var px = Math.max(r.viewBox[2] / Math.max(box.width, 1), r.viewBox[3] / Math.max(box.height, 1));
    r.root.style.setProperty('--px', String(px));
    r.svg.classList.toggle('small-cells', r.R.cellSize / px < 5);
    r.sources.forEach(function (src) { src.dots.forEach(function (d) { d.setAttribute('r', 4 * px); }); });
    // The world box shown: the view box, widened to the map's shape.
    var v = r.viewBox, cx = v[0] + v[2] / 2, cy = v[1] + v[3] / 2, w = box.width * px, h = box.height * px;
    var shown = { x0: cx - w / 2, x1: cx + w / 2, y0: cy - h / 2, y1: cy + h / 2, px: px, w: box.width, h: box.height };
    drawAxes(r, shown);
    drawLabels(r, shown);
  }

  // niceStep is the round length (1, 2 or 5 times a power of ten) at
  // least d.
  function niceStep(d) {
    var p = Math.pow(10, Math.floor(Math.log10(d))), m = d / p;
    return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
  }
  function round(x, step) { var k = Math.max(0, -Math.floor(Math.log10(step) + 1e-9)); return (Math.round(x / step) * step).toFixed(k); }

  // drawAxes draws, in the map's pixels, the world coordinates along its
  // bottom (x) and left (z or y) edges and a scale bar.
  function drawAxes(r, sh) {
    if (!sh.w || !sh.h) return;
    var step = niceStep(90 * sh.px), p = [], v, X, Y;
    for (v = Math.ceil(sh.x0 / step) * step; v <= sh.x1; v += step) {
      X = (v - sh.x0) / sh.px;
      if (X < 40 || X > sh.w - 20) continue; // the z labels, the edge
      p.push('<line class="tick" x1="', X, '" x2="', X, '" y1="', sh.h - 6, '" y2="', sh.h, '"/><text class="tick" x="', X, '" y="', sh.h - 9, '" text-anchor="middle">', round(v, step), '</text>');
    }
    // The map draws z (or y) growing upwards.
    for (v = Math.ceil(-sh.y1 / step) * step; v <= -sh.y0; v += step) {
      Y = (-v - sh.y0) / sh.px;
      if (Y < 26 || Y > sh.h - 56) continue; // the axis' name, the scale bar and the x labels
      p.push('<line class="tick" x1="0" x2="6" y1="', Y, '" y2="', Y, '"/><text class="tick" x="9" y="', Y + 4, '">', round(v, step), '</text>');
    }
    p.push('<text class="axis-name" x="', sh.w - 8, '" y="', sh.h - 22, '" text-anchor="end">x →</text>',
      '<text class="axis-name" x="9" y="16">↑ ', esc(r.R.axisZ), '</text>');
    // The scale bar: a round length about 120 pixels long, with the cell
    // size beside it.
    var len = niceStep(120 * sh.px), bar = len / sh.px, cs = r.R.cellSize;
    var cells = len / cs, what = num(len) + ' units';
    if (Math.abs(cells - Math.round(cells)) < 1e-9 && cells >= 1) what += ' (' + Math.round(cells) + ' cell' + (cells === 1 ? '' : 's') + ')';
    else what += ' · a cell is ' + num(cs);
    var bx = 16, by = sh.h - 36;
    p.push('<g class="scalebar"><rect x="', bx - 4, '" y="', by - 14, '" width="', Math.max(bar, 60) + 8 + what.length * 6.2, '" height="22" rx="3"/>',
      '<path d="M', bx, ' ', by - 4, 'V', by + 2, 'H', bx + bar, 'V', by - 4, '"/>',
      '<text x="', bx + bar + 6, '" y="', by + 2, '">', esc(what), '</text></g>');
    r.axes.setAttribute('viewBox', '0 0 ' + sh.w + ' ' + sh.h);
    r.axes.innerHTML = p.join('');
  }

  // drawLabels names the cells large enough on screen to hold a name, at
  // the top left of their grid square (grown bounds overlap; squares do
  // not), when few enough are in view.
  function drawLabels(r, sh) {
    var R = r.R, cs = R.cellSize, wide = cs / sh.px, p = [];
    if (wide >= 44) {
      var vis = [];
      for (var i = 0; i < r.n && vis.length <= 400; i++) {
        var x = R.grid[2 * i] * cs, z = R.grid[2 * i + 1] * cs;
        if (x + cs >= sh.x0 && x <= sh.x1 && -(z + cs) <= sh.y1 && -z >= sh.y0) vis.push(i);
      }
      if (vis.length <= 400) {
        var fs = 11 * sh.px;
        vis.forEach(function (i) {
          var name = r.names[i], text = name;
          if (wide < name.length * 6.6 + 10) text = R.grid[2 * i] + ', ' + R.grid[2 * i + 1];
          p.push('<text x="', R.grid[2 * i] * cs + 4 * sh.px, '" y="', -(R.grid[2 * i + 1] + 1) * cs + 14 * sh.px, '" font-size="', fs, '">', esc(text), '</text>');
        });
      }
    }
    r.labels.innerHTML = p.join('');
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
    var reqEmpty = !peakReq;
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
    // The y axes: round values, as grid lines in the chart and labels
    // beside it (text in the stretched chart would be stretched too).
    // A panel with nothing in it (empty) gets its 0 alone.
    var ticks = [], tick = function (base, h, scale, most, empty) {
      var step = empty ? Infinity : byteStep(scale / most);
      for (var v = 0; v <= scale * 1.0001; v += step) {
        var y = base - h * v / scale;
        if (v > 0) p.push('<line class="grid" x1="0" x2="1000" y1="' + y + '" y2="' + y + '"/>');
        // The upper panel's 0 would sit on the lower's top label.
        if (v > 0 || base > H1 + 5) ticks.push('<span style="top:' + (y / 260 * 100) + '%">' + roundBytes(v) + '</span>');
      }
    };
    tick(H1 + 5, H1, peak, 4, !scale.peak);
    tick(top2 + H2, H2, peakReq, 2, reqEmpty);
    svg.innerHTML = p.join('');
    r.root.querySelector('.chartbox .yaxis').innerHTML = ticks.join('');
    // Each panel says what it counts: the two scales differ.
    svg.insertAdjacentHTML('afterend', '<span class="panel" style="top:0">resident</span><span class="panel" style="top:' + (top2 / 260 * 100) + '%">requested per frame</span>');
    r.cursor = r.root.querySelector('.chartbox .cursor');
    var cap = document.createElement('div');
    cap.className = 'caption';
    cap.innerHTML = 'above: resident bytes, <span class="swatch resident"></span>cell documents' + (r.hasAssets ? ' and <span class="swatch assets"></span>assets' : '') +
      (hasPrepared ? ', <span class="swatch prepared"></span>prepared (held, not in the world)' : '') + ', against ' +
      (R.cap != null ? 'the cap ' + bytes(R.cap) : 'no cap') + ', peak ' + bytes(own) + ' · below: <span class="swatch requested"></span>bytes requested per frame against ' +
      (R.budget != null ? 'the budget ' + bytes(R.budget) : 'no budget') + ' · <span class="swatch holeband"></span>hole episodes' +
      (R.hasView ? ', <span class="swatch popinband"></span>pop-in episodes' : '');
    svg.closest('.chartbox').insertAdjacentElement('afterend', cap);
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
        p.push('<li><a href="#frame-', fname(e.first), '" class="episode" data-frame="', e.first, '">frames ', fname(e.first),
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
      if (src.samp) {
        var q = where(src.samp, f);
        src.sg.setAttribute('transform', 'translate(' + q.x + ' ' + (-q.z) + ')');
        src.link.setAttribute('x1', p.x); src.link.setAttribute('y1', -p.z);
        src.link.setAttribute('x2', q.x); src.link.setAttribute('y2', -q.z);
        src.sat = q;
      }
    });
    r.cursor.style.left = ((f - 0.5) * 100 / N) + '%';
    r.now.textContent = now(r, f);
    if (r.selected >= 0) details(r);
  }

  // now says what frame f holds, each figure saying what it counts:
  // resident bytes are the resident cells' documents and the resident
  // assets, which prepared cells hold too (and the persistent world).
  function now(r, f) {
    var R = r.R, cells = r.residentCells[f], prep = r.preparedCells[f];
    var txt = 'frame ' + fname(f) + ': resident ' + bytes(r.resident[f]) + ': ' + cells + ' cell' + (cells === 1 ? '' : 's') + ' (' + bytes(r.resident[f] - r.assets[f]) + ')';
    if (r.hasAssets) txt += ' and assets ' + bytes(r.assets[f]);
    if (prep || r.prepared[f]) txt += ' · prepared ' + prep + ' cell' + (prep === 1 ? '' : 's') + ' ' + bytes(r.prepared[f]) + ' (held, not in the world)';
    txt += ' · requested ' + bytes(r.requested[f]);
    if (R.budget != null) txt += ' of ' + bytes(R.budget);
    txt += ' · ' + r.holes[f] + ' hole' + (r.holes[f] === 1 ? '' : 's');
    if (R.hasView) txt += ' · ' + r.popInCount[f] + ' popping in';
    return txt;
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
    clearTimeout(addressed);
    addressed = setTimeout(function () {
      if (location.hash !== '#frame-' + fname(shown)) history.replaceState(null, '', '#frame-' + fname(shown));
    }, 400);
  }
  var addressed = 0;

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
      // The scheduler measures from where it sees the source.
      var p = src.samp ? (src.sat || where(src.samp, shown)) : (src.at || where(src, shown)), d = distance(r, i, p.x, p.z);
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
        return '<a href="#frame-' + fname(e[0]) + '" data-frame="' + e[0] + '">' + fname(e[0]) + '</a>' + (kinds.length > 1 ? ' ' + e[1] : '');
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
      '<dt>requests</dt><dd>' + list(['requested']) + '</dd>' +
      '<dt>unloads</dt><dd>' + list(['unloaded', 'evicted']) + '</dd>' +
      '<dt>other</dt><dd>' + list(['published', 'cancelled', 'dropped', 'failed']) + '</dd>' + overlap(r, i) + '</dl>';
  }

  // overlap lists the cells whose bounds hold the point clicked, when
  // there are several, each a link that selects it.
  function overlap(r, i) {
    var here = r.here || [];
    if (here.length < 2 || here.indexOf(i) < 0) return '';
    return '<dt>here</dt><dd class="here">' + here.length + ' cells\' bounds hold the point clicked: ' + here.map(function (c) {
      return c === i ? '<b>' + esc(r.names[c]) + '</b>' : '<a href="#" data-select="' + esc(r.names[c]) + '">' + esc(r.names[c]) + '</a>';
    }).join(', ') + '</dd>';
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
    if (a) { e.preventDefault(); show(a.getAttribute('data-frame')); return; }
    var c = e.target.closest('a[data-select]');
    if (c) {
      e.preventDefault();
      var r = byPolicy[c.closest('[data-policy]').getAttribute('data-policy')];
      select(r, r.index[c.getAttribute('data-select')]);
    }
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
  // The page opens where the run says something (D.open), or at the frame
  // its address names: #frame-N, N as the labels name frames. The address
  // follows the frame shown once it rests, so that it can be shared.
  var hashFrame = function () {
    var m = /^#frame-(-?\d+)$/.exec(location.hash);
    return m ? pageOf(m[1]) : 0;
  };
  window.addEventListener('hashchange', function () { var k = hashFrame(); if (k) show(k); });
  var asked = hashFrame(), opened = document.getElementById('opened');
  var openLink = '<a href="#frame-' + fname(D.open) + '" data-frame="' + D.open + '">frame ' + fname(D.open) + '</a>';
  opened.innerHTML = asked ? 'Showing the frame the address names; the run says most at ' + openLink + ': ' + esc(D.openWhy) + '.'
    : 'Opened at ' + openLink + ': ' + esc(D.openWhy) + '.';
  show(asked || D.open);
}());
