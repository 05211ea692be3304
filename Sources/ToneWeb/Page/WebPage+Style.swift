extension WebPage {
    /// Dark, high-contrast, legible from across the room; panels wrap on a phone.
    static let style = """
    :root { --bg:#111418; --panel:#1b2027; --fg:#e8edf2; --dim:#8a96a3; --ok:#4cd67a; --warn:#ffb340; --bad:#ff5a5a; --accent:#5ab0ff; }
    * { box-sizing: border-box; }
    body { margin:0; background:var(--bg); color:var(--fg); font:15px/1.4 system-ui, sans-serif; }
    header { padding:8px 14px; background:#0b0d10; display:flex; gap:14px; align-items:baseline; flex-wrap:wrap; }
    #title { font-weight:600; } #node { color:var(--dim); } #connection { margin-left:auto; }
    main { display:flex; flex-wrap:wrap; gap:12px; padding:12px; }
    .panel { background:var(--panel); border-radius:8px; padding:10px 14px; flex:1 1 420px; min-width:300px; }
    .panel.wide { flex-basis:100%; }
    h2 { font-size:13px; font-weight:600; color:var(--dim); margin:0 0 6px; text-transform:uppercase; letter-spacing:.06em; }
    canvas { width:100%; height:auto; display:block; }
    #note { font-size:64px; font-weight:700; text-align:center; line-height:1.1; }
    #cents-text { text-align:center; color:var(--dim); }
    .row { display:flex; gap:10px; align-items:baseline; justify-content:center; margin-top:6px; }
    #freq { font:600 40px/1.1 ui-monospace, monospace; } .unit { color:var(--dim); }
    #sigma { color:var(--dim); font-family:ui-monospace, monospace; }
    .small { font-size:13px; color:var(--dim); }
    .good { color:var(--ok); } .warn { color:var(--warn); } .bad { color:var(--bad); }
    .legend span { margin-right:12px; } .xrun { color:var(--bad); } .period { color:var(--warn); }
    .withheld { color:#c58cff; } .gone { color:var(--dim); }
    form { margin:4px 0; display:flex; gap:8px; align-items:center; flex-wrap:wrap; }
    input { background:#0e1115; color:var(--fg); border:1px solid #38414c; border-radius:4px; padding:3px 6px; width:7em; }
    input[type=text] { width:14em; } input[type=checkbox] { width:auto; }
    button { background:#2a3542; color:var(--fg); border:1px solid #44515f; border-radius:4px; padding:3px 10px; cursor:pointer; }
    #controls.readonly form { opacity:.4; pointer-events:none; }
    #messages { margin:0; padding-left:1.2em; font-family:ui-monospace, monospace; white-space:pre-wrap; }
    [hidden] { display:none !important; }
    table { border-collapse:collapse; } td { padding:1px 10px 1px 0; } td:first-child { color:var(--dim); }
    """
}
