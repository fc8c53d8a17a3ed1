/* The lab's page (docs/http.md): the login, the topology drawn from the
 * server's JSON, a console per switch (xterm.js over a WebSocket: the
 * server runs the same line discipline as telnet) and live plots of the
 * lab's time series pushed by the server. No library but xterm.js. */
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const PLOT_POINTS = 300;
const consoles = {};   /* by switch index: {term, ws} */
const plots = {};      /* by group name: {canvas, lines: {label: [values]}, samples} */
let live = null;

/* For tests and the curious: the text a console shows. */
window.mdsim = {
  consoles,
  text(sw) {
    const c = consoles[sw];
    if (!c) return '';
    const b = c.term.buffer.active, out = [];
    for (let i = 0; i < b.length; i++) out.push(b.getLine(i).translateToString(true));
    return out.join('\n');
  },
};

function el(tag, attrs, text) {
  const e = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/* ---- login ---- */

async function api(path, opts) {
  const r = await fetch(path, Object.assign({credentials: 'same-origin'}, opts || {}));
  let body = {};
  try { body = await r.json(); } catch (e) { /* empty */ }
  return {ok: r.ok, status: r.status, body};
}

function showLogin(message) {
  $('lab').hidden = true;
  $('logout').hidden = true;
  $('who').textContent = '';
  $('login').hidden = false;
  $('login-error').textContent = message || '';
  $('user').focus();
}

$('login').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  $('login-button').disabled = true;
  $('login-error').textContent = '';
  const form = new URLSearchParams({user: $('user').value, password: $('password').value});
  const r = await api('/api/login', {method: 'POST', body: form});
  $('password').value = '';
  $('login-button').disabled = false;
  if (r.ok) showLab(r.body);
  else showLogin(r.body.error || ('HTTP ' + r.status));
});

$('logout').addEventListener('click', async () => {
  await api('/api/logout', {method: 'POST'});
  location.reload();
});

function showLab(who) {
  $('login').hidden = true;
  $('lab').hidden = false;
  $('logout').hidden = false;
  $('who').textContent = who.user;
  const bar = $('switch-buttons');
  bar.textContent = '';
  for (const s of who.switches) {
    const b = el('button', {type: 'button', id: 'open-' + s.index, 'data-switch': s.name}, 'Console ' + s.name);
    b.title = s.role;
    b.addEventListener('click', () => openConsole(s));
    bar.appendChild(b);
  }
  connectLive();
}

/* ---- consoles ---- */

function openConsole(s) {
  if (consoles[s.index]) { consoles[s.index].term.focus(); return; }
  const box = el('div', {class: 'console', id: 'console-' + s.index});
  const title = el('h3', {}, s.name);
  const status = el('span', {class: 'status'}, 'connecting');
  title.appendChild(status);
  const screen = el('div', {class: 'screen'});
  box.append(title, screen);
  $('consoles').appendChild(box);
  const term = new Terminal({rows: 24, cols: 80, scrollback: 2000, fontSize: 13, convertEol: false});
  term.open(screen);
  const url = 'ws://' + location.host + '/ws/console?sw=' + s.index + '&rows=24&cols=80';
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  const enc = new TextEncoder();
  consoles[s.index] = {term, ws};
  ws.onopen = () => { status.textContent = 'connected'; term.focus(); };
  ws.onmessage = (m) => term.write(new Uint8Array(m.data));
  ws.onclose = () => {
    status.textContent = 'closed';
    term.write('\r\n[connection closed]\r\n');
    delete consoles[s.index];
  };
  term.onData((d) => { if (ws.readyState === WebSocket.OPEN) ws.send(enc.encode(d)); });
  term.onResize(({rows, cols}) => { if (ws.readyState === WebSocket.OPEN) ws.send('size ' + rows + ' ' + cols); });
}

/* ---- topology ---- */

const W = 260, GAP = 90, TOP = 30;

function drawTopology(t) {
  const svg = $('topology');
  svg.textContent = '';
  const pos = {}, portPos = {};
  const height = 60 + 18 * Math.max(1, ...t.switches.map((s) => s.ports.length));
  t.switches.forEach((s, i) => {
    const x = 10 + i * (W + GAP), g = el('svg:g', {class: 'switch', 'data-switch': s.name});
    g.append(el('svg:rect', {x, y: TOP, width: W, height, rx: 6}),
             el('svg:text', {x: x + 10, y: TOP + 20, class: 'name'}, s.name + (s.hostname !== s.name ? ' (' + s.hostname + ')' : '')));
    s.ports.forEach((p, k) => {
      const py = TOP + 42 + k * 18, side = i % 2 ? x : x + W;
      portPos[s.name + ' ' + p] = {x: side, y: py};
      const pg = el('svg:g', {class: 'port'});
      pg.append(el('svg:circle', {cx: side, cy: py, r: 4}),
                el('svg:text', {x: i % 2 ? x + 8 : x + W - 8, y: py + 4, 'text-anchor': i % 2 ? 'start' : 'end'}, p));
      g.appendChild(pg);
    });
    svg.appendChild(g);
    pos[s.name] = {x, y: TOP, h: height};
  });
  const width = 20 + t.switches.length * (W + GAP);
  svg.setAttribute('viewBox', '0 0 ' + width + ' ' + (height + TOP + 60));
  for (const c of t.cables) {
    const a = portPos[c.a + ' ' + c.a_port], b = portPos[c.b + ' ' + c.b_port];
    if (!a || !b) continue;
    if (c.a === c.b) { /* a loop on one switch: drawn out and back */
      const x = a.x + (a.x > pos[c.a].x ? 60 : -60);
      svg.appendChild(el('svg:path', {class: 'cable', d: `M${a.x} ${a.y} H${x} V${b.y} H${b.x}`, fill: 'none'}));
    } else {
      svg.appendChild(el('svg:line', {class: 'cable', x1: a.x, y1: a.y, x2: b.x, y2: b.y}));
    }
  }
  /* The simulator bridges two ports of a switch: a box joining them. */
  for (const n of t.netsim) {
    const a = portPos[n.switch + ' ' + n.a_port], b = portPos[n.switch + ' ' + n.b_port];
    if (!a || !b) continue;
    const inward = a.x > pos[n.switch].x ? -1 : 1, x = a.x + inward * 30;
    const g = el('svg:g', {class: 'netsim', 'data-netsim': n.switch + ' ' + n.a_port + ' ' + n.b_port});
    g.append(el('svg:path', {d: `M${a.x} ${a.y} H${x} V${b.y} H${b.x}`, fill: 'none', stroke: '#c99700', 'stroke-width': 2}),
             el('svg:rect', {x: x - 24, y: (a.y + b.y) / 2 - 8, width: 48, height: 16, rx: 4}),
             el('svg:text', {x, y: (a.y + b.y) / 2 + 4, 'text-anchor': 'middle'}, 'netsim'));
    svg.appendChild(g);
  }
  t.tunnels.forEach((tu, k) => {
    const a = pos[tu.switch], b = pos[tu.peer];
    if (!a) return;
    const y = a.y + a.h + 20 + 14 * k, x1 = a.x + W / 2, x2 = b ? b.x + W / 2 : x1 + 40;
    const cls = 'state-' + tu.state.split(' ')[0];
    svg.appendChild(el('svg:path', {class: 'tunnel ' + cls, d: `M${x1} ${a.y + a.h} V${y} H${x2}` + (b ? ` V${b.y + b.h}` : '')}));
    svg.appendChild(el('svg:text', {class: 'tunnel-label ' + cls, x: x1 + 6, y: y - 3, fill: 'currentColor'},
                       tu.switch + ' ' + tu.name + ': ' + tu.state));
  });
  const body = document.querySelector('#tunnels tbody');
  body.textContent = '';
  for (const tu of t.tunnels) {
    const tr = el('tr', {'data-tunnel': tu.switch + '/' + tu.name});
    const state = el('td', {class: 'state state-' + tu.state.split(' ')[0]},
                     tu.state + (tu.reason ? ' (' + tu.reason + ')' : ''));
    state.setAttribute('data-state', tu.state);
    tr.append(el('td', {}, tu.switch), el('td', {}, tu.name), el('td', {}, tu.port || '--'),
              el('td', {}, tu.peer || '--'), state);
    body.appendChild(tr);
  }
}

/* ---- plots ---- */

/* Which series are drawn: per tunnel its bytes each way, per netsim
 * direction its queue, as mdsim replay --plots draws them. */
function groupOf(name) {
  let m = /^(.+\.fcip\d+)\.(tx|rx)_bytes$/.exec(name);
  if (m) return {group: m[1], label: m[2] + ' B/s'};
  m = /^(.+\.netsim\..+)\.queue_bytes$/.exec(name);
  if (m) return {group: m[1], label: 'queue B'};
  return null;
}

const COLORS = ['#1d6fd8', '#d8641d', '#2a9d3a'];

function plotFor(group) {
  if (plots[group]) return plots[group];
  const box = el('div', {class: 'plot'});
  const canvas = el('canvas', {width: 340, height: 120, 'data-plot': group, 'data-samples': '0', 'data-total': '0'});
  const now = el('div', {class: 'now'});
  box.append(el('h4', {}, group), canvas, now);
  $('plots').appendChild(box);
  return (plots[group] = {canvas, now, lines: {}, samples: 0});
}

function drawPlot(p) {
  const c = p.canvas, g = c.getContext('2d'), labels = Object.keys(p.lines);
  g.clearRect(0, 0, c.width, c.height);
  let max = 1;
  for (const l of labels) for (const v of p.lines[l]) if (v !== null && v > max) max = v;
  g.strokeStyle = '#ccc';
  g.strokeRect(0.5, 0.5, c.width - 1, c.height - 1);
  const text = [];
  labels.forEach((l, k) => {
    const vals = p.lines[l];
    g.strokeStyle = COLORS[k % COLORS.length];
    g.beginPath();
    vals.forEach((v, i) => {
      const x = c.width - (vals.length - i) * (c.width / PLOT_POINTS), y = c.height - 4 - ((v || 0) / max) * (c.height - 8);
      if (i) g.lineTo(x, y); else g.moveTo(x, y);
    });
    g.stroke();
    text.push(l + ': ' + (vals.length ? vals[vals.length - 1] : '-'));
  });
  p.now.textContent = text.join('  ') + '  (max ' + max + ')';
}

function addSeries(s) {
  const rows = s.lab_time_s.length;
  if (!rows) return;
  const touched = new Set();
  for (const col of s.series) {
    const g = groupOf(col.name);
    if (!g) continue;
    const p = plotFor(g.group);
    const line = p.lines[g.label] || (p.lines[g.label] = []);
    for (const v of col.values) line.push(v);
    if (line.length > PLOT_POINTS) line.splice(0, line.length - PLOT_POINTS);
    touched.add(p);
  }
  for (const p of touched) {
    p.samples += rows;
    let total = 0;
    for (const l of Object.values(p.lines)) for (const v of l) total += v || 0;
    p.canvas.setAttribute('data-samples', String(p.samples));
    p.canvas.setAttribute('data-total', String(total));
    drawPlot(p);
  }
}

/* ---- the live socket ---- */

function connectLive() {
  if (live) return;
  live = new WebSocket('ws://' + location.host + '/ws/live');
  live.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.topology) drawTopology(msg.topology);
    if (msg.series) addSeries(msg.series);
  };
  live.onclose = () => {
    live = null;
    setTimeout(async () => {
      const r = await api('/api/session');
      if (r.ok) connectLive(); else showLogin('Logged out');
    }, 2000);
  };
}

(async () => {
  const r = await api('/api/session');
  if (r.ok) showLab(r.body); else showLogin('');
})();
