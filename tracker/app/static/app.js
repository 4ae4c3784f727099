// Shared helpers for the tracker pages: API calls with the referee token, the live socket,
// and drawing the board in millimetres on a canvas.
const T = {
  token() { return localStorage.getItem("tracker-token") || ""; },
  setToken(v) { localStorage.setItem("tracker-token", v); },
  async api(path, opts = {}) {
    opts.headers = Object.assign({}, opts.headers || {});
    if (T.token()) opts.headers["Authorization"] = "Bearer " + T.token();
    if (opts.json !== undefined) { opts.body = JSON.stringify(opts.json); opts.headers["Content-Type"] = "application/json"; }
    const r = await fetch(path, opts);
    const text = await r.text();
    let body; try { body = JSON.parse(text); } catch { body = text; }
    if (!r.ok) throw new Error((body && body.detail) ? JSON.stringify(body.detail) : r.status + " " + text);
    return body;
  },
  socket(onMessage, onState) {
    let ws;
    const open = () => {
      ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      ws.onmessage = (m) => onMessage(JSON.parse(m.data));
      ws.onopen = () => onState && onState(true);
      ws.onclose = () => { onState && onState(false); setTimeout(open, 1000); };
    };
    open();
  },
  teams(summary) { return Object.keys((summary && summary.totals) || {}); },
  esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({"&":"&amp;","<":"&lt;",">":"&gt;","\"":"&quot;"}[c])); },
  // Draw a crokinole or korona board (mm) scaled to the canvas; returns mm->px.
  board(canvas, game, geom) {
    const ctx = canvas.getContext("2d"); const W = canvas.width, H = canvas.height;
    const R = game === "korona" ? 470 : 400; const s = Math.min(W, H) / (2 * R);
    const P = (x, y) => [W / 2 + x * s, H / 2 - y * s];
    ctx.fillStyle = "#2a2117"; ctx.fillRect(0, 0, W, H);
    ctx.strokeStyle = "#1a1a1a"; ctx.lineWidth = Math.max(1, 2 * s);
    if (game === "korona") {
      const h = (geom && geom.half) || 425; ctx.fillStyle = "#d9c49a"; ctx.fillRect(...P(-h, h), 2 * h * s, 2 * h * s);
      for (const [cx, cy] of [[1, 1], [-1, 1], [-1, -1], [1, -1]]) { ctx.fillStyle = "#111"; ctx.beginPath(); ctx.arc(...P(cx * (h - 30), cy * (h - 30)), 32 * s, 0, 7); ctx.fill(); }
      ctx.beginPath(); ctx.arc(...P(0, 0), 80 * s, 0, 7); ctx.stroke();
    } else {
      const g = geom || {}; const rings = [g.surface_radius || 330.2, g.shooting_line_radius || 304.8, g.ten_line_radius || 203.2, g.fifteen_line_radius || 101.6];
      ctx.fillStyle = "#c89b63"; ctx.beginPath(); ctx.arc(...P(0, 0), rings[0] * s, 0, 7); ctx.fill();
      for (const r of rings.slice(1)) { ctx.beginPath(); ctx.arc(...P(0, 0), r * s, 0, 7); ctx.stroke(); }
      ctx.fillStyle = "#111"; ctx.beginPath(); ctx.arc(...P(0, 0), 17.5 * s, 0, 7); ctx.fill();
      for (let k = 0; k < 8; k++) { const a = (22.5 + 45 * k) * Math.PI / 180; ctx.beginPath(); ctx.arc(...P(101.6 * Math.cos(a), 101.6 * Math.sin(a)), 4 * s, 0, 7); ctx.fill(); }
    }
    return { P, s, ctx };
  },
  seatColor: { south: "#f2c14e", north: "#5fa8d3", west: "#e5625e", east: "#7bc47f", A: "#f2c14e", B: "#5fa8d3" },
};
