extension WebPage {
    /// The page's state, socket and controls (`/app.js`); drawing is in `/draw.js`.
    static let script = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const HISTORY_S = 30, SIGMA_S = 1;
    const state = { a4: 440, channel: null, last: null, history: [], marks: [], counts: {},
                    dropped: 0, controls: false, status: {}, dirty: true };
    window.toneWeb = state;  // for a curious user's console

    function token() {
      const m = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
      return m ? m[1] : null;
    }

    function connect() {
      const t = token();
      const ws = new WebSocket("ws://" + location.host + "/ws" + (t ? "?token=" + t : ""));
      ws.onopen = () => setConnection("live", "good");
      ws.onclose = (e) => {
        setConnection(e.code === 1006 && !state.everOpen ? "refused: wrong or missing token, or not this node's address"
                      : "disconnected" + (e.reason ? ": " + e.reason : "") + " (retrying)", "bad");
        setTimeout(connect, 2000);
      };
      // One message a frame at most: the lines that came meanwhile, one JSON object a line.
      ws.onmessage = (e) => {
        state.everOpen = true;
        for (const line of e.data.split("\n")) { let m; try { m = JSON.parse(line); } catch { continue; } handle(m); }
      };
      state.ws = ws;
    }

    function setConnection(text, cls) { const c = $("connection"); c.textContent = text; c.className = cls; }

    function nowS() { return state.last ? state.last.time_s : 0; }

    function mark(kind) { state.marks.push({ t: nowS(), kind }); state.dirty = true; }

    function handle(m) {
      if (m.event === undefined && m.profile !== undefined) return message(m);
      if (m.event === undefined && m.time_s !== undefined) return report(m);
      switch (m.event) {
        case "web_hello":
          state.controls = m.controls;
          $("controls").classList.toggle("readonly", !m.controls);
          if (!m.controls) $("control-answer").textContent = "read-only: this page's controls are off";
          break;
        case "node_settings": settings(m); break;
        case "opened":
          $("node").textContent = m.client + " · " + m.sample_rate_hz + " Hz · " + m.period_frames + " frames";
          Object.assign(state.status, { client: m.client, "sample rate": m.sample_rate_hz + " Hz",
                                        period: m.period_frames + " frames", inputs: m.inputs.join(", "),
                                        outputs: m.outputs.join(", ") });
          if (m.connections) state.status.connections = m.connections.join(", ") || "none";
          break;
        case "trouble":
          if (m.xruns > (state.counts.xruns || 0)) mark("xrun");
          Object.assign(state.counts, { xruns: m.xruns, overflows: m.overflows });
          state.status.xruns = m.xruns; state.status["ring overflows"] = m.overflows;
          break;
        case "status":
          if (m.withheld > (state.counts.withheld || 0)) mark("withheld");
          state.counts.withheld = m.withheld;
          state.status["readings withheld"] = m.withheld;
          state.status["reports dropped (stdout)"] = m.dropped_reports;
          if (m.connections) state.status.connections = m.connections.join(", ") || "none";
          break;
        case "period_changed": mark("period"); state.status.period = m.period_frames + " frames"; break;
        case "sample_rate_changed": mark("period"); state.status["sample rate"] = m.sample_rate_hz + " Hz"; break;
        case "server_gone": mark("gone"); state.status.server = "gone" + (m.retrying ? " (retrying)" : ""); break;
        case "control":
          $("control-answer").textContent = m.ok ? "✓ " + m.command : "✗ " + m.reason;
          $("control-answer").className = "small " + (m.ok ? "good" : "bad");
          break;
        case "web_dropped": state.dropped = m.dropped; break;
        case "backlog": backlog(m.readings); break;
      }
      state.dirty = true;
    }

    function settings(m) {
      state.a4 = m.a4_hz || 440;
      const set = (id, v) => { const el = $(id); if (el && document.activeElement !== el && v !== undefined) el.value = v; };
      set("c-frequency", m.frequency_hz); set("c-level", m.level_dbfs); set("c-glide", m.glide_s);
      if (m.muted !== undefined) $("c-mute").checked = m.muted;
    }

    function report(r) {
      const channel = r.channel === undefined ? 1 : r.channel;
      if (state.channel === null) state.channel = channel;
      if (channel !== state.channel) return;
      state.last = r;
      state.history.push(r);
      const oldest = r.time_s - HISTORY_S;
      while (state.history.length && state.history[0].time_s < oldest) state.history.shift();
      while (state.marks.length && state.marks[0].t < oldest) state.marks.shift();
      state.dirty = true;
    }

    /// A message heard as tones (`--receive`): newest first, the last 50.
    function message(m) {
      const list = $("messages");
      list.parentElement.hidden = false;
      const item = document.createElement("li");
      const what = m.incomplete ? "(incomplete)" : m.text !== undefined ? m.text : "[" + atob(m.base64).length + " bytes]";
      item.textContent = m.time_s.toFixed(2) + " s  " + m.profile + (m.channel ? " ch " + m.channel : "") + "  " + what
        + (m.snr_db != null ? "  (SNR " + m.snr_db.toFixed(1) + " dB)" : "");
      list.prepend(item);
      while (list.children.length > 50) list.lastChild.remove();
    }

    /// The readings from before this tab opened, put before those that came since.
    function backlog(lines) {
      lines.filter((m) => m.profile !== undefined).forEach(message);
      const readings = lines.filter((m) => m.profile === undefined);
      const first = state.history.length ? state.history[0].time_s : Infinity;
      const mine = readings.filter((r) => (r.channel === undefined ? 1 : r.channel) === (state.channel ?? (r.channel ?? 1)));
      if (state.channel === null && mine.length) state.channel = mine[0].channel === undefined ? 1 : mine[0].channel;
      const older = mine.filter((r) => r.time_s < first);
      state.history = older.concat(state.history);
      if (!state.last && older.length) state.last = older[older.length - 1];
      const oldest = (state.last ? state.last.time_s : 0) - HISTORY_S;
      while (state.history.length && state.history[0].time_s < oldest) state.history.shift();
    }

    /// Standard deviation of the last second's frequencies (null with fewer than 3).
    function sigma() {
      const since = nowS() - SIGMA_S;
      const f = state.history.filter((r) => r.time_s > since && r.freq_hz != null).map((r) => r.freq_hz);
      if (f.length < 3) return null;
      const mean = f.reduce((a, b) => a + b, 0) / f.length;
      return Math.sqrt(f.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (f.length - 1));
    }

    /// Decimals worth showing: down to a tenth of σ, 1 to 4.
    function decimals(s) { return s == null || s <= 0 ? 3 : Math.max(1, Math.min(4, Math.ceil(-Math.log10(s)) + 1)); }

    const NOTES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"];
    function noteOf(r) {
      if (r.note !== undefined) return { name: r.note, cents: r.cents };
      if (r.freq_hz == null || r.freq_hz <= 0) return null;
      const midi = 69 + 12 * Math.log2(r.freq_hz / state.a4), n = Math.round(midi);
      return { name: NOTES[((n % 12) + 12) % 12] + (Math.floor(n / 12) - 1), cents: 100 * (midi - n) };
    }

    function text() {
      state.status["web frames dropped"] = state.dropped;
      const rows = Object.entries(state.status).map(([k, v]) => "<tr><td>" + esc(k) + "</td><td>" + esc(String(v)) + "</td></tr>");
      $("status").innerHTML = rows.join("");
      const r = state.last;
      if (!r) return;
      const s = sigma(), n = noteOf(r);
      $("note").textContent = n ? n.name : "–";
      $("cents-text").textContent = n && n.cents != null ? (n.cents >= 0 ? "+" : "") + n.cents.toFixed(1) + " cents" : "no tone";
      const f = $("freq");
      f.textContent = r.freq_hz == null ? "–" : r.freq_hz.toFixed(decimals(s));
      f.dataset.timeS = r.time_s;
      $("sigma").textContent = s == null ? "" : "σ " + s.toPrecision(2) + " Hz";
      $("level").textContent = r.level_dbfs == null ? "" : "tone " + r.level_dbfs.toFixed(1) + " dBFS";
      $("rms").textContent = r.rms_dbfs == null ? "silence" : "RMS " + r.rms_dbfs.toFixed(1) + " dBFS";
      $("snr").textContent = r.snr_db == null ? "" : "SNR " + r.snr_db.toFixed(1) + " dB";
    }

    function esc(s) { return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

    function send(line) {
      if (!state.ws || state.ws.readyState !== 1) { $("control-answer").textContent = "✗ not connected"; return; }
      state.ws.send("control " + line);
    }

    function wire(form, line) {
      $(form).addEventListener("submit", (e) => { e.preventDefault(); const l = line(); if (l) send(l); });
    }
    const v = (id) => $(id).value.trim();
    wire("f-frequency", () => "freq " + v("c-frequency"));
    wire("f-level", () => "level " + v("c-level"));
    wire("f-glide", () => "glide " + v("c-glide"));
    wire("f-beep", () => "beep " + v("c-beep-hz") + " " + v("c-beep-s"));
    wire("f-sweep", () => "sweep " + v("c-sweep-start") + " " + v("c-sweep-end") + " " + v("c-sweep-s"));
    wire("f-raw", () => v("c-raw"));
    $("c-mute").addEventListener("change", (e) => send("mute " + (e.target.checked ? "on" : "off")));

    /// At the display's rate, at most 30 frames a second, and only when something changed.
    let lastFrame = 0;
    function frame(t) {
      requestAnimationFrame(frame);
      if (!state.dirty || t - lastFrame < 1000 / 30 - 1) return;
      lastFrame = t; state.dirty = false;
      text();
      window.toneDraw(state, noteOf, sigma);
    }
    // `receive` hears messages, not tones: only its messages and the node's state.
    if (document.body.dataset.command !== "run") {
      document.querySelectorAll(".run").forEach((el) => { el.hidden = true; });
      $("messages").parentElement.hidden = false;
    }
    connect();
    requestAnimationFrame(frame);
    """#
}
