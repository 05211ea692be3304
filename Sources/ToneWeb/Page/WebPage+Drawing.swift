extension WebPage {
    /// The canvases (`/draw.js`): needle, meter, spectrum of the tones found, 30 s history.
    static let drawing = #"""
    "use strict";
    const C = { bg: "#0e1115", grid: "#2a323c", dim: "#8a96a3", fg: "#e8edf2", ok: "#4cd67a", warn: "#ffb340",
                bad: "#ff5a5a", accent: "#5ab0ff", level: "#ffd166", withheld: "#c58cff", gone: "#8a96a3" };
    const MARK = { xrun: C.bad, period: C.warn, withheld: C.withheld, gone: C.gone };

    function ctx(id) {
      const c = document.getElementById(id), g = c.getContext("2d");
      g.fillStyle = C.bg; g.fillRect(0, 0, c.width, c.height);
      g.font = "12px ui-monospace, monospace";
      return [g, c.width, c.height];
    }

    function needle(state, noteOf) {
      const [g, w, h] = ctx("needle");
      const cx = w / 2, cy = h - 10, r = h - 24;
      for (let c = -50; c <= 50; c += 10) {
        const a = (c / 50) * (Math.PI / 3);
        g.strokeStyle = c === 0 ? C.ok : C.grid; g.lineWidth = c === 0 ? 3 : 1;
        g.beginPath(); g.moveTo(cx + Math.sin(a) * (r - 12), cy - Math.cos(a) * (r - 12));
        g.lineTo(cx + Math.sin(a) * r, cy - Math.cos(a) * r); g.stroke();
      }
      const n = state.last && noteOf(state.last);
      if (!n || n.cents == null) return;
      const cents = Math.max(-50, Math.min(50, n.cents)), a = (cents / 50) * (Math.PI / 3);
      g.strokeStyle = Math.abs(cents) < 3 ? C.ok : Math.abs(cents) < 15 ? C.warn : C.bad; g.lineWidth = 4;
      g.beginPath(); g.moveTo(cx, cy); g.lineTo(cx + Math.sin(a) * r, cy - Math.cos(a) * r); g.stroke();
    }

    /// Tone level and RMS on a −60…0 dBFS bar.
    function meter(state) {
      const [g, w, h] = ctx("meter");
      const x = (db) => Math.max(0, Math.min(1, (db + 60) / 60)) * w;
      const r = state.last;
      if (r && r.rms_dbfs != null) { g.fillStyle = C.grid; g.fillRect(0, 4, x(r.rms_dbfs), h - 8); }
      if (r && r.level_dbfs != null) {
        g.fillStyle = r.level_dbfs > -1 ? C.bad : r.level_dbfs > -6 ? C.warn : C.ok;
        g.fillRect(0, 8, x(r.level_dbfs), h - 16);
      }
      g.fillStyle = C.dim;
      for (let db = -60; db <= 0; db += 10) g.fillRect(x(db) - (db === 0 ? 1 : 0), h - 4, 1, 4);
    }

    /// The tones the node found (`--tones N` lists up to N) on a log-frequency, dBFS axis; the strongest marked.
    function spectrum(state) {
      const [g, w, h] = ctx("spectrum");
      const fx = (f) => (Math.log10(f / 20) / 3) * w, dy = (db) => (-db / 120) * (h - 16);
      g.fillStyle = C.dim;
      for (const f of [20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000]) {
        g.fillRect(fx(f), 0, 1, h); g.fillText(f >= 1000 ? f / 1000 + "k" : String(f), fx(f) + 2, h - 3);
      }
      for (let db = -20; db > -120; db -= 20) { g.fillRect(0, dy(db), w, 1); g.fillText(db + " dB", 2, dy(db) - 2); }
      const r = state.last;
      const tones = r ? (r.tones && r.tones.length ? r.tones : r.freq_hz != null ? [{ freq_hz: r.freq_hz, level_dbfs: r.level_dbfs }] : []) : [];
      tones.forEach((t, i) => {
        g.fillStyle = i === 0 ? C.accent : C.dim;
        g.fillRect(fx(t.freq_hz) - 2, dy(t.level_dbfs), 4, h - 16 - dy(t.level_dbfs));
        if (i === 0) { g.fillStyle = C.fg; g.fillText("▼ " + t.freq_hz.toFixed(1) + " Hz", fx(t.freq_hz) + 6, dy(t.level_dbfs) + 12); }
      });
      document.getElementById("spectrum-note").textContent = (r && r.rms_dbfs != null ? "RMS " + r.rms_dbfs.toFixed(1) + " dBFS · " : "")
        + "the tones the node found (--tones N for more than one); the node does not send its full FFT";
    }

    /// Frequency (log scale, fitted to what was heard) above, level below, markers where things happened.
    function history(state) {
      const [g, w, h] = ctx("history");
      const t1 = state.last ? state.last.time_s : 30, t0 = t1 - 30, tx = (t) => ((t - t0) / 30) * w;
      const fh = h * 0.62, lh = h - fh - 14;
      const f = state.history.filter((r) => r.freq_hz != null).map((r) => r.freq_hz);
      let lo = f.length ? Math.min(...f) : 100, hi = f.length ? Math.max(...f) : 1000;
      if (hi / lo < 1.01) { const mid = Math.sqrt(lo * hi); lo = mid / 1.005; hi = mid * 1.005; }
      const fy = (v) => fh - 6 - (Math.log(v / lo) / Math.log(hi / lo)) * (fh - 16);
      const ly = (db) => fh + 10 + (-Math.max(-90, Math.min(0, db)) / 90) * lh;
      g.fillStyle = C.grid;
      for (let s = Math.ceil(t0 / 5) * 5; s <= t1; s += 5) g.fillRect(tx(s), 0, 1, h);
      g.fillRect(0, fh + 4, w, 1);
      for (const m of state.marks) { g.fillStyle = MARK[m.kind] || C.dim; g.fillRect(tx(m.t) - 1, 0, 3, h); }
      plot(g, state.history, tx, (r) => (r.freq_hz == null ? null : fy(r.freq_hz)), C.accent);
      plot(g, state.history, tx, (r) => (r.level_dbfs == null ? null : ly(r.level_dbfs)), C.level);
      g.fillStyle = C.dim;
      g.fillText(hi.toFixed(hi < 100 ? 2 : 1) + " Hz", 4, 12); g.fillText(lo.toFixed(lo < 100 ? 2 : 1) + " Hz", 4, fh - 4);
      g.fillText("0 dBFS", w - 52, fh + 20); g.fillText("−90 dBFS", w - 64, h - 16);
      g.fillText("−30 s", 4, h - 3); g.fillText("now", w - 30, h - 3);
    }

    function plot(g, rows, tx, y, color) {
      g.strokeStyle = color; g.lineWidth = 1.5; g.beginPath();
      let pen = false;
      for (const r of rows) {
        const v = y(r);
        if (v == null) { pen = false; continue; }
        if (pen) g.lineTo(tx(r.time_s), v); else g.moveTo(tx(r.time_s), v);
        pen = true;
      }
      g.stroke();
    }

    window.toneDraw = (state, noteOf) => { needle(state, noteOf); meter(state); spectrum(state); history(state); };
    """#
}
