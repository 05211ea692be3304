/// The page's files, embedded in the binary (no CDN, no build step, no
/// network needed): one HTML shell, a style sheet and two scripts.
public enum WebPage {
    /// One file the server serves; every other path is 404.
    public struct Asset: Sendable {
        public let path: String
        public let contentType: String
        public let text: String
    }

    public static let assets: [Asset] = [
        Asset(path: "/", contentType: "text/html; charset=utf-8", text: ""),
        Asset(path: "/style.css", contentType: "text/css; charset=utf-8", text: style),
        Asset(path: "/app.js", contentType: "text/javascript; charset=utf-8", text: script),
        Asset(path: "/draw.js", contentType: "text/javascript; charset=utf-8", text: drawing),
    ]

    /// Only the server's own files, no inline script, no framing by another site.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page for `command` (`run`, ...): the script draws that command's view.
    static func html(command: String) -> String {
        let safe = command.filter { $0.isLetter }
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>tonenode \(safe)</title>
        <link rel="stylesheet" href="/style.css">
        <script src="/draw.js" defer></script>
        <script src="/app.js" defer></script>
        </head>
        <body data-command="\(safe)">
        <header><span id="title">tonenode \(safe)</span> <span id="node"></span>
          <span id="connection" class="bad">connecting…</span></header>
        <main>
        <section id="tuner" class="panel run">
          <div id="note">–</div>
          <canvas id="needle" width="480" height="120"></canvas>
          <div id="cents-text"></div>
          <div class="row"><span id="freq" data-time-s="">–</span><span class="unit">Hz</span>
            <span id="sigma" title="standard deviation of the last second's readings"></span></div>
          <div class="row"><canvas id="meter" width="480" height="28"></canvas></div>
          <div class="row small"><span id="level"></span> <span id="rms"></span> <span id="snr"></span></div>
        </section>
        <section class="panel run"><h2>Spectrum</h2><canvas id="spectrum" width="640" height="200"></canvas>
          <p id="spectrum-note" class="small"></p></section>
        <section class="panel wide run"><h2>Last 30 s: frequency and level</h2>
          <canvas id="history" width="1000" height="260"></canvas>
          <p class="small legend"><span class="xrun">▌xrun</span> <span class="period">▌period/rate change</span>
            <span class="withheld">▌reading withheld</span> <span class="gone">▌server gone</span></p></section>
        <section id="controls" class="panel run"><h2>Controls</h2>
          <form id="f-frequency"><label>frequency <input id="c-frequency" type="number" step="any" min="1"> Hz</label><button>set</button></form>
          <form id="f-level"><label>level <input id="c-level" type="number" step="any" max="0"> dBFS</label><button>set</button></form>
          <form id="f-mute"><label><input id="c-mute" type="checkbox"> mute</label></form>
          <form id="f-glide"><label>glide <input id="c-glide" type="number" step="any" min="0"> s</label><button>set</button></form>
          <form id="f-beep"><label>beep <input id="c-beep-hz" type="number" step="any" value="1000"> Hz
            <input id="c-beep-s" type="number" step="any" value="0.2"> s</label><button>play</button></form>
          <form id="f-sweep"><label>sweep <input id="c-sweep-start" type="number" step="any" value="100"> →
            <input id="c-sweep-end" type="number" step="any" value="10000"> Hz
            <input id="c-sweep-s" type="number" step="any" value="5"> s</label><button>play</button></form>
          <form id="f-raw"><label>command <input id="c-raw" type="text" placeholder="freq 440"></label><button>send</button></form>
          <p id="control-answer" class="small"></p></section>
        <section class="panel wide" hidden><h2>Messages heard</h2><ul id="messages"></ul></section>
        <section class="panel"><h2>Node</h2><table id="status"></table></section>
        </main></body></html>
        """
    }
}
